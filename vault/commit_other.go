//go:build !linux

package vault

import "path/filepath"

// atomicWrite puts c.content at c.rel through a synced temp file moved into
// place (see moveInPlace), so that a reader (or a watcher) sees the old file
// or the new one, never a part. c.check runs right before the move.
func atomicWrite(c commit) error {
	tmp, err := writeTemp(c)
	if err != nil {
		return err
	}
	defer c.root.Remove(filepath.FromSlash(tmp)) // gone once moved, or unused
	if err := c.check(); err != nil {
		return err
	}
	return moveInPlace(c, tmp)
}
