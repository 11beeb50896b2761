package vault

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// atomicWrite puts c.content at c.rel through a synced temp file, so that a
// reader (or a watcher) sees the old file or the new one, never a part.
// c.check runs right before the move.
//
// Linux lets the move be as safe as a file system allows against programs
// that write without vaultmem's lock (an editor saving in place): a file is
// replaced by exchanging it with the temp file (renameat2
// RENAME_EXCHANGE, on folders opened through the vault's root), then
// reading what was displaced: a file saved in the instant between the
// check and the exchange is not what the writer read (c.same), so it is
// exchanged back and errChanged returned. Had the editor saved into the new
// file meanwhile, its save is the latest and stays. A file system without
// the exchange gets the portable move (moveInPlace).
func atomicWrite(c commit) error {
	tmp, err := writeTemp(c)
	if err != nil {
		return err
	}
	defer c.root.Remove(filepath.FromSlash(tmp)) // gone, the displaced old file, or ours unused
	if err := c.check(); err != nil {
		return err
	}
	if c.create || c.same == nil {
		return moveInPlace(c, tmp)
	}
	swapped, err := exchange(c.root, tmp, c.rel)
	if err != nil {
		return err
	}
	if !swapped {
		return moveInPlace(c, tmp)
	}
	displaced, err := c.root.ReadFile(filepath.FromSlash(tmp))
	if err == nil && c.same(displaced) {
		return nil
	}
	if _, err := exchange(c.root, tmp, c.rel); err != nil {
		return fmt.Errorf("put back the file saved meanwhile (it is at %s): %w", tmp, err)
	}
	// An editor that saved into our file while it was in place saved last.
	if mine, err := c.root.ReadFile(filepath.FromSlash(tmp)); err == nil && !bytes.Equal(mine, c.content) {
		if err := c.root.Rename(filepath.FromSlash(tmp), filepath.FromSlash(c.rel)); err != nil {
			return fmt.Errorf("put back the file saved meanwhile (it is at %s): %w", tmp, err)
		}
	}
	return errChanged
}

// exchange swaps the vault files a and b atomically; swapped is false,
// with no error, when the file system cannot.
func exchange(root *os.Root, a, b string) (swapped bool, err error) {
	da, err := root.Open(filepath.FromSlash(path.Dir(a)))
	if err != nil {
		return false, err
	}
	defer da.Close()
	db, err := root.Open(filepath.FromSlash(path.Dir(b)))
	if err != nil {
		return false, err
	}
	defer db.Close()
	err = unix.Renameat2(int(da.Fd()), path.Base(a), int(db.Fd()), path.Base(b), unix.RENAME_EXCHANGE)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, unix.EINVAL), errors.Is(err, unix.ENOSYS), errors.Is(err, unix.ENOTSUP):
		return false, nil
	}
	return false, err
}
