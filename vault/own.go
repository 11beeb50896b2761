package vault

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// A vault is shared (git, a synced folder, a group on one machine): any
// file in it may have been put there by someone else, a symbolic link
// included. The os.Root confines every path to the vault, but follows a
// link that stays inside it; the files vaultmem keeps for itself
// (.gitattributes, .vaultmem and everything under it, the views) are
// moreover never written through a link at all, wherever it leads: each
// folder on the path and the file itself is looked at (lstat, through the
// root) before it is created, opened or removed.

// ErrLink is matched by a *LinkError: a symbolic link where vaultmem
// writes one of its own files.
var ErrLink = errors.New("vault: a symbolic link where vaultmem writes")

// LinkError reports that a file vaultmem writes, or a folder on its path
// inside the vault, is a symbolic link: vaultmem does not write through
// it. Path is the link's absolute path.
type LinkError struct {
	Path string
}

func (e *LinkError) Error() string {
	return e.Path + ": is a symbolic link; vaultmem does not write through links in a vault"
}

// Is makes errors.Is(err, ErrLink) true.
func (e *LinkError) Is(target error) bool { return target == ErrLink }

// ownPath checks that rel is a clean, slash-separated path inside the
// vault (no "..", not absolute) and returns it.
func ownPath(rel string) (string, error) {
	clean := path.Clean(strings.TrimPrefix(rel, "./"))
	if rel == "" || path.IsAbs(rel) || filepath.IsAbs(rel) || clean == ".." || strings.HasPrefix(clean, "../") || strings.ContainsAny(rel, "\x00\\") {
		return "", &PathError{Path: rel, Reason: "is not a path inside the vault", Outside: true}
	}
	return clean, nil
}

// CheckLinks checks that no part of the vault path rel (slash-separated)
// that exists, the folders on it and rel itself, is a symbolic link, and
// that each folder on it is a folder: it returns a *LinkError (ErrLink)
// naming the first link, a *PathError for a path that leaves the vault.
// What does not exist yet is fine: it is created by whoever writes it,
// after this check.
func (v *Vault) CheckLinks(rel string) error {
	rel, err := ownPath(rel)
	if err != nil || rel == "." {
		return err
	}
	parts := strings.Split(rel, "/")
	for i := range parts {
		p := strings.Join(parts[:i+1], "/")
		fi, err := v.root.Lstat(filepath.FromSlash(p))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil
		case err != nil:
			return fmt.Errorf("check %s: %w", v.Abs(p), unwrapPathError(err))
		case fi.Mode()&fs.ModeSymlink != 0:
			return &LinkError{Path: v.Abs(p)}
		case i < len(parts)-1 && !fi.IsDir():
			return fmt.Errorf("check %s: %s is not a folder", v.Abs(rel), v.Abs(p))
		}
	}
	return nil
}

// MkdirAll creates the folder at the vault path rel with its parents, as
// os.MkdirAll does but through the vault's root and never through a
// symbolic link (see [Vault.CheckLinks]): each folder is made, or found,
// then looked at. created says it made rel itself. Errors name the path:
// a *LinkError, a *PathError for a path leading out of the vault, an
// existing file where a folder should be.
func (v *Vault) MkdirAll(rel string) (created bool, err error) {
	rel, err = ownPath(rel)
	if err != nil || rel == "." {
		return false, err
	}
	parts := strings.Split(rel, "/")
	for i := range parts {
		p := strings.Join(parts[:i+1], "/")
		made := false
		if err := v.root.Mkdir(filepath.FromSlash(p), 0o755); err == nil {
			made = true
		} else if !errors.Is(err, fs.ErrExist) {
			return false, fmt.Errorf("create %s: %w", v.Abs(p), unwrapPathError(err))
		}
		fi, err := v.root.Lstat(filepath.FromSlash(p))
		switch {
		case err != nil:
			return false, fmt.Errorf("create %s: %w", v.Abs(p), unwrapPathError(err))
		case fi.Mode()&fs.ModeSymlink != 0:
			return false, &LinkError{Path: v.Abs(p)}
		case !fi.IsDir():
			return false, fmt.Errorf("create %s: %s exists and is not a folder", v.Abs(rel), v.Abs(p))
		}
		created = made
	}
	return created, nil
}

// WriteNew writes data to a new file at the vault path rel, its folders
// made as by [Vault.MkdirAll]; an existing file is left as it is (created
// false). No folder on the path, nor rel, may be a symbolic link (a
// *LinkError); the file is created exclusively, so it is never one either.
func (v *Vault) WriteNew(rel string, data []byte) (created bool, err error) {
	rel, err = ownPath(rel)
	if err != nil {
		return false, err
	}
	if dir := path.Dir(rel); dir != "." {
		if _, err := v.MkdirAll(dir); err != nil {
			return false, err
		}
	}
	if err := v.CheckLinks(rel); err != nil {
		return false, err
	}
	f, err := v.root.OpenFile(filepath.FromSlash(rel), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("create %s: %w", v.Abs(rel), unwrapPathError(err))
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		v.root.Remove(filepath.FromSlash(rel))
		return false, fmt.Errorf("write %s: %w", v.Abs(rel), err)
	}
	return true, nil
}

// ReadOwn reads the file at the vault path rel, one vaultmem writes too
// (.gitattributes, say), without following a symbolic link on its path
// (a *LinkError), nor anything but a regular file. A missing file is an
// error matching fs.ErrNotExist.
func (v *Vault) ReadOwn(rel string) ([]byte, error) {
	rel, err := ownPath(rel)
	if err != nil {
		return nil, err
	}
	if err := v.CheckLinks(rel); err != nil {
		return nil, err
	}
	if fi, err := v.root.Lstat(filepath.FromSlash(rel)); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("read %s: not a regular file", v.Abs(rel)) // a FIFO would never answer
	}
	b, err := v.root.ReadFile(filepath.FromSlash(rel))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", v.Abs(rel), err)
	}
	return b, nil
}

// Append appends data to the existing regular file at the vault path rel,
// never through a symbolic link on its path (a *LinkError) and never to a
// file that has other names (a hard link: appending would change the
// file under its other name, maybe outside the vault). The file opened is
// checked to be the one looked at, so that a link swapped in meanwhile is
// not written through.
func (v *Vault) Append(rel string, data []byte) error {
	rel, err := ownPath(rel)
	if err != nil {
		return err
	}
	if err := v.CheckLinks(rel); err != nil {
		return err
	}
	name := filepath.FromSlash(rel)
	before, err := v.root.Lstat(name)
	if err != nil {
		return fmt.Errorf("append to %s: %w", v.Abs(rel), unwrapPathError(err))
	}
	if !before.Mode().IsRegular() {
		return fmt.Errorf("append to %s: not a regular file", v.Abs(rel))
	}
	if otherNames(before) {
		return fmt.Errorf("append to %s: the file has other names (hard links); vaultmem does not write through links in a vault", v.Abs(rel))
	}
	f, err := v.root.OpenFile(name, os.O_WRONLY|os.O_APPEND|nonBlock, 0)
	if err != nil {
		return fmt.Errorf("append to %s: %w", v.Abs(rel), unwrapPathError(err))
	}
	defer f.Close()
	if now, err := f.Stat(); err != nil || !os.SameFile(before, now) {
		return &LinkError{Path: v.Abs(rel)}
	}
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("append to %s: %w", v.Abs(rel), err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("append to %s: %w", v.Abs(rel), err)
	}
	return nil
}

// CheckNotLink returns a *LinkError for the first of the absolute paths
// that is a symbolic link; a path that does not exist is fine. It is for
// files that must be opened by path (SQLite's), inside a folder already
// checked with [Vault.CheckLinks].
func CheckNotLink(paths ...string) error {
	for _, p := range paths {
		fi, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return fmt.Errorf("check %s: %w", p, unwrapPathError(err))
		case fi.Mode()&fs.ModeSymlink != 0:
			return &LinkError{Path: p}
		}
	}
	return nil
}
