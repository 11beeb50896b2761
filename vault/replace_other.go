//go:build !windows && !linux

package vault

import (
	"errors"
	"io/fs"
	"os"

	"github.com/google/renameio/v2"
)

// atomicWrite puts c.content at c.abs through a synced temp file in
// c.tmpDir renamed over it, so that a reader (or a watcher) sees the old
// file or the new one, never a part. c.check runs right before the rename.
// A note to create is made with link(2), which fails rather than replace
// a file that appeared since the check (errAppeared); a file system
// without hard links gets a plain rename after the check.
func atomicWrite(c commit) error {
	t, err := renameio.NewPendingFile(c.abs, renameio.WithTempDir(c.tmpDir),
		renameio.WithPermissions(0o644), renameio.WithExistingPermissions())
	if err != nil {
		return err
	}
	defer t.Cleanup()
	if _, err := t.Write(c.content); err != nil {
		return err
	}
	if err := t.Sync(); err != nil {
		return err
	}
	if err := c.check(); err != nil {
		return err
	}
	if c.create {
		err := os.Link(t.Name(), c.abs)
		switch {
		case err == nil:
			return nil // Cleanup removes the temp name
		case errors.Is(err, fs.ErrExist):
			return errAppeared
		}
	}
	return t.CloseAtomicallyReplace()
}
