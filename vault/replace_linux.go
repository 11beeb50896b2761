package vault

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// atomicWrite puts c.content at c.abs through a synced temp file in
// c.tmpDir, so that a reader (or a watcher) sees the old note or the new
// one, never a part. c.check runs right before the move.
//
// Linux lets the move be as safe as a file system allows against programs
// that write without vaultmem's lock (an editor saving in place):
//   - a new note is made with link(2), which fails rather than replace a
//     note that appeared since the check (errAppeared);
//   - a note is replaced by exchanging it with the temp file
//     (renameat2 RENAME_EXCHANGE), then reading what was displaced: a
//     note saved in the instant between the check and the exchange is not
//     what the writer read (c.same), so it is exchanged back and errChanged
//     returned. Had the editor saved into the new file meanwhile, its save
//     is the latest and stays.
//
// File systems without these calls get a plain rename after the check.
func atomicWrite(c commit) error {
	tmp, err := writeTemp(c)
	if err != nil {
		return err
	}
	defer os.Remove(tmp) // gone, or the displaced old note, or ours unused
	if err := c.check(); err != nil {
		return err
	}
	if c.create {
		err := os.Link(tmp, c.abs)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, fs.ErrExist):
			return errAppeared
		}
	}
	if c.same != nil {
		err := unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, c.abs, unix.RENAME_EXCHANGE)
		if err == nil {
			return checkDisplaced(c, tmp)
		}
		if !errors.Is(err, unix.EINVAL) && !errors.Is(err, unix.ENOSYS) && !errors.Is(err, unix.ENOTSUP) && !errors.Is(err, unix.ENOENT) {
			return err
		}
	}
	return os.Rename(tmp, c.abs)
}

// checkDisplaced reads the note an exchange displaced to tmp; when it is
// not the one the writer read, it is exchanged back.
func checkDisplaced(c commit, tmp string) error {
	displaced, err := os.ReadFile(tmp)
	if err == nil && c.same(displaced) {
		return nil
	}
	if err := unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, c.abs, unix.RENAME_EXCHANGE); err != nil {
		return fmt.Errorf("put back the note saved meanwhile (it is at %s): %w", tmp, err)
	}
	// An editor that saved into our file while it was in place saved last.
	if mine, err := os.ReadFile(tmp); err == nil && !bytes.Equal(mine, c.content) {
		if err := os.Rename(tmp, c.abs); err != nil {
			return fmt.Errorf("put back the note saved meanwhile (it is at %s): %w", tmp, err)
		}
	}
	return errChanged
}

// writeTemp writes c.content to a new synced temp file in c.tmpDir with
// the note's permissions (0644 for a new one), and returns its path.
func writeTemp(c commit) (string, error) {
	perm := fs.FileMode(0o644)
	if fi, err := os.Lstat(c.abs); err == nil && fi.Mode().IsRegular() {
		perm = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(c.tmpDir, "."+filepath.Base(c.abs)+"-*")
	if err != nil {
		return "", err
	}
	_, err = f.Write(c.content)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}
