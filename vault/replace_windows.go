//go:build windows

package vault

import "os"

// atomicWrite puts content at abs through a synced temp file in tmpDir
// renamed over abs (renameio does not support Windows; os.Rename there
// replaces the target with MoveFileEx, atomic on NTFS). check runs once the
// temp file is synced, right before the rename, and its error stops the
// write. With create, a note that appeared since check is reported as
// errAppeared where the file system has hard links.
func atomicWrite(abs string, content []byte, tmpDir string, check func() error, create bool) error {
	f, err := os.CreateTemp(tmpDir, ".write-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	_, err = f.Write(content)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := check(); err != nil {
		return err
	}
	if create {
		if err := os.Link(tmp, abs); err == nil {
			return nil
		} else if os.IsExist(err) {
			return errAppeared
		}
	}
	return os.Rename(tmp, abs)
}
