//go:build !windows

package vault

import (
	"errors"
	"io/fs"
	"os"

	"github.com/google/renameio/v2"
)

// atomicWrite puts content at abs through a synced temp file in tmpDir
// renamed over abs, so that a reader (or a watcher) sees the old file or
// the new one, never a part. check runs once the temp file is synced, right
// before the rename, and its error stops the write. With create, the note
// must not exist: it is made with link(2), which fails rather than replace
// a file that appeared since check (errAppeared); a file system without
// hard links gets a plain rename after check.
func atomicWrite(abs string, content []byte, tmpDir string, check func() error, create bool) error {
	t, err := renameio.NewPendingFile(abs, renameio.WithTempDir(tmpDir),
		renameio.WithPermissions(0o644), renameio.WithExistingPermissions())
	if err != nil {
		return err
	}
	defer t.Cleanup()
	if _, err := t.Write(content); err != nil {
		return err
	}
	if err := t.Sync(); err != nil {
		return err
	}
	if err := check(); err != nil {
		return err
	}
	if create {
		err := os.Link(t.Name(), abs)
		switch {
		case err == nil:
			return nil // Cleanup removes the temp name
		case errors.Is(err, fs.ErrExist):
			return errAppeared
		}
	}
	return t.CloseAtomicallyReplace()
}
