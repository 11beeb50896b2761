package vault

import (
	"io/fs"
	"path"
	"strings"
	"time"
)

// Leftover is a temp file of an atomic write that a killed writer left
// beside its note (see tempMark): never a note, and safe to remove once
// no write can still be using it.
type Leftover struct {
	Path    string    `json:"path"`
	ModTime time.Time `json:"mod_time"`
}

// Leftovers returns the temp files of atomic writes in the vault, by path
// (dot-folders, which hold no note, are not looked in).
func (v *Vault) Leftovers() ([]Leftover, error) {
	var out []Leftover
	err := fs.WalkDir(v.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable folder holds none we could remove
		}
		name := d.Name()
		if d.IsDir() && p != "." && strings.HasPrefix(name, ".") {
			return fs.SkipDir
		}
		if !d.Type().IsRegular() || !strings.HasPrefix(name, ".") || !strings.Contains(name, tempMark) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		out = append(out, Leftover{Path: p, ModTime: info.ModTime()})
		return nil
	})
	return out, err
}

// RemoveLeftover removes the temp file at vault path p, which Leftovers
// returned; it refuses any other file.
func (v *Vault) RemoveLeftover(p string) error {
	if !strings.HasPrefix(path.Base(p), ".") || !strings.Contains(path.Base(p), tempMark) {
		return &PathError{Path: p, Reason: "is not a temp file of vaultmem's"}
	}
	return v.root.Remove(p)
}
