//go:build windows

package vault

import "os"

// atomicWrite puts c.content at c.abs through a synced temp file in
// c.tmpDir renamed over it (renameio does not support Windows; os.Rename
// there replaces the target with MoveFileEx, atomic on NTFS). c.check runs
// once the temp file is synced, right before the rename, and its error
// stops the write. A note to create that appeared since the check is
// reported as errAppeared where the file system has hard links.
func atomicWrite(c commit) error {
	abs, content := c.abs, c.content
	f, err := os.CreateTemp(c.tmpDir, ".write-*")
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
	if err := c.check(); err != nil {
		return err
	}
	if c.create {
		if err := os.Link(tmp, abs); err == nil {
			return nil
		} else if os.IsExist(err) {
			return errAppeared
		}
	}
	return os.Rename(tmp, abs)
}
