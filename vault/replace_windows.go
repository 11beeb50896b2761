//go:build windows

package vault

import "os"

// atomicWrite puts content at abs through a synced temp file in tmpDir
// renamed over abs (renameio does not support Windows; os.Rename there
// replaces the target with MoveFileEx, atomic on NTFS).
func atomicWrite(abs string, content []byte, tmpDir string) error {
	f, err := os.CreateTemp(tmpDir, ".write-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(content)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, abs)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}
