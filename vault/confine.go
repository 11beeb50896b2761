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

// The Writer's reads and writes go through the vault's os.Root, which
// refuses any path that leads out of the folder. The checks here add
// vaultmem's own policy on top, looking at the folder as it is: no write
// lands in a dot-folder (.obsidian, .git) through a symbolic link, and a
// note that is itself a link is read through it but never replaced.

// locate checks that the deepest folder of the clean vault path rel that
// exists is, symbolic links resolved, inside the vault and not in a
// dot-folder, and that rel itself is not a symbolic link (a *PathError
// with link set) or a folder. It returns where rel is, its folders'
// symbolic links resolved: the path every read and write of rel goes to
// through the root (which follows no absolute link, though users make
// them: ln -s /vault/real /vault/inner).
//
// One of vaultmem's own files (see ownFile) has no symbolic link anywhere
// on its path: a *LinkError, before anything else is looked at.
func (w *Writer) locate(rel string) (string, error) {
	if ownFile(rel) {
		if err := w.v.CheckLinks(rel); err != nil {
			return "", err
		}
	}
	dir, rest := path.Dir(rel), path.Base(rel)
	for dir != "." {
		_, err := os.Lstat(w.v.Abs(dir))
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("check %s: %w", rel, unwrapPathError(err))
		}
		dir, rest = path.Dir(dir), path.Join(path.Base(dir), rest)
	}
	real, err := w.inside(w.v.Abs(dir), rel)
	if err != nil {
		return "", err
	}
	at := path.Join(real, rest)
	fi, err := w.v.root.Lstat(filepath.FromSlash(at))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return at, nil
	case err != nil:
		return "", w.pathError(rel, err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return "", &PathError{Path: rel, Reason: "is a symbolic link; vaultmem does not write through links in a vault", link: true}
	case fi.IsDir():
		return "", &PathError{Path: rel, Reason: "is a folder, not a note"}
	case !fi.Mode().IsRegular():
		return "", &PathError{Path: rel, Reason: "is not a regular file"}
	}
	return at, nil
}

// pathError words an error the root gave for rel: a path it refused as
// leading out of the vault is a *PathError (ErrOutside), anything else is
// wrapped as it is.
func (w *Writer) pathError(rel string, err error) error {
	if strings.Contains(err.Error(), "path escapes from parent") { // os.Root's, unexported
		return &PathError{Path: rel, Reason: "leads outside the vault through a symbolic link", Outside: true}
	}
	return fmt.Errorf("check %s: %w", rel, err)
}

// follow returns the vault path that the symbolic link rel leads to, if
// that is a note inside the vault: a read may follow a link that a write
// never replaces.
func (w *Writer) follow(rel string) (string, error) {
	real, err := filepath.EvalSymlinks(w.v.Abs(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("read %s: the symbolic link leads nowhere: %w", rel, ErrNotFound)
	}
	if err != nil {
		return "", &PathError{Path: rel, Reason: fmt.Sprintf("is a symbolic link that cannot be resolved: %v", err), Outside: true}
	}
	dir, err := w.inside(filepath.Dir(real), rel)
	if err != nil {
		return "", err
	}
	target := path.Join(dir, filepath.Base(real))
	fi, err := w.v.root.Stat(filepath.FromSlash(target))
	switch {
	case err != nil:
		return "", fmt.Errorf("read %s: %w", rel, err)
	case !fi.Mode().IsRegular():
		return "", &PathError{Path: rel, Reason: "is a symbolic link to something other than a note"}
	}
	return target, nil
}

// inside checks that the existing directory dir (absolute) is, symbolic
// links resolved, the vault or a folder inside it outside any dot-folder
// (bar .vaultmem/tmp and .vaultmem/state, vaultmem's own), and returns its
// vault path. rel names the path in errors.
func (w *Writer) inside(dir, rel string) (string, error) {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", &PathError{Path: rel, Reason: fmt.Sprintf("leads through a folder that cannot be resolved: %v", err), Outside: true}
	}
	r, err := filepath.Rel(w.v.Dir, real)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r) {
		return "", &PathError{Path: rel, Reason: "leads outside the vault through a symbolic link", Outside: true}
	}
	r = filepath.ToSlash(r)
	own := strings.HasPrefix(rel, StateDir+"/") || strings.HasPrefix(rel, TmpDir+"/") || rel == TmpDir
	if r == "." || r == TmpDir || r == StateDir || strings.HasPrefix(r, StateDir+"/") || r == DotDir && own {
		return r, nil
	}
	for _, c := range strings.Split(r, "/") {
		if strings.HasPrefix(c, ".") {
			return "", &PathError{Path: rel, Reason: "leads into the dot-folder " + c + " through a symbolic link", Outside: true}
		}
	}
	return r, nil
}

// readNote reads the file at the vault path rel through the root; found
// is false when it does not exist.
func (w *Writer) readNote(rel string) (content []byte, found bool, err error) {
	b, err := w.v.root.ReadFile(filepath.FromSlash(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, w.pathError(rel, err)
	}
	return b, true, nil
}

// Exists reports whether the note at the vault-relative path p exists (a
// symbolic link to a note of the vault counts, as [Writer.Read] reads
// through it). It returns a *PathError when p is unsafe, names a folder or
// leads outside the vault, and the I/O error otherwise.
func (w *Writer) Exists(p string) (bool, error) {
	rel, err := cleanExisting(p)
	if err != nil {
		return false, err
	}
	at, err := w.locate(rel)
	var pe *PathError
	if errors.As(err, &pe) && pe.link {
		at, err = w.follow(rel)
	}
	if err != nil {
		return false, err
	}
	_, err = w.v.root.Stat(filepath.FromSlash(at))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, w.pathError(rel, err)
	}
	return true, nil
}
