package vault

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"
)

// Resolve returns the vault path of the note the untrusted path p names,
// found the way Obsidian finds it: p itself (cleaned as [CleanPath] does,
// but for the rules that only new names follow) when
// that file exists, else the one note whose path differs from p's only in
// case, folder by folder. Obsidian, and the disks of macOS and Windows, take
// such names for the same note; on a case-sensitive disk, writing p as
// given would make a second note beside the first. When no note matches, it
// returns p cleaned, its existing folders spelled as they are on disk, so
// that a new note goes into the folder that is there.
//
// Errors: a *PathError (ErrInvalidPath) as for [CleanPath], or when several
// names on disk match a part of p only in case and none exactly.
func (w *Writer) Resolve(p string) (string, error) {
	rel, err := cleanExisting(p)
	if err != nil {
		return "", err
	}
	return w.resolve(rel)
}

// resolve is Resolve for a clean path.
func (w *Writer) resolve(rel string) (string, error) {
	parts := strings.Split(rel, "/")
	out := make([]string, 0, len(parts))
	for i, part := range parts {
		next := path.Join(append(out, part)...)
		// Looked at by absolute path: this only reads names, and a user's
		// absolute link to a folder of the vault is followed (locate confines
		// what is then written).
		_, err := os.Lstat(w.v.Abs(next))
		if err == nil {
			out = append(out, part)
			continue
		}
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			return "", fmt.Errorf("check %s: %w", rel, unwrapPathError(err))
		}
		matches := w.foldMatches(path.Join(out...), part)
		switch len(matches) {
		case 0:
			return strings.Join(append(out, parts[i:]...), "/"), nil
		case 1:
			out = append(out, matches[0])
		default:
			return "", &PathError{Path: rel, Reason: fmt.Sprintf("is ambiguous: %s are all the same name but for case; give the exact one",
				strings.Join(matches, ", "))}
		}
	}
	return strings.Join(out, "/"), nil
}

// foldMatches lists the entries of the vault folder dir ("" for the root)
// whose names equal name but for case. A folder that cannot be read has
// none.
func (w *Writer) foldMatches(dir, name string) []string {
	if dir == "" {
		dir = "."
	}
	f, err := os.Open(w.v.Abs(dir))
	if err != nil {
		return nil
	}
	defer f.Close()
	names, _ := f.Readdirnames(-1)
	var out []string
	for _, n := range names {
		if strings.EqualFold(n, name) && !strings.HasPrefix(n, ".") {
			out = append(out, n)
		}
	}
	return out
}
