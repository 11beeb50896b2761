package vault

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"unicode/utf8"

	"github.com/vaultmem/vaultmem/markdown"
)

// replace atomically puts content at the note rel, which is at the vault
// path at (see locate): a temp file beside it (see writeTemp), synced,
// then moved over the note. Right before the move
// the note is read again, and where the platform allows the move is an
// exchange whose displaced note is checked too (see atomicWrite): when the
// note no longer is what the caller read (found, with hash old), a
// *ConflictError is returned and the note on disk is left as its last
// writer saved it, unless force. A new note is created without replacing
// one that appeared meanwhile.
func (w *Writer) replace(rel, at string, content []byte, found bool, old string, force bool) error {
	if err := w.v.root.MkdirAll(filepath.FromSlash(path.Dir(at)), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", rel, w.pathError(rel, err))
	}
	var stale error // what the last look at the note found
	c := commit{root: w.v.root, rel: at, content: content, create: !found && !force}
	c.check = func() error {
		if w.beforeCommit != nil {
			w.beforeCommit()
		}
		if force {
			return nil
		}
		cur, now, err := w.readNote(at)
		switch {
		case err != nil:
			stale = fmt.Errorf("write %s: %w", rel, err)
		case found && !now:
			stale = &ConflictError{Path: rel, Expected: old}
		case !found && now:
			stale = withSentinel{&ConflictError{Path: rel, Actual: markdown.Hash(cur)}, ErrExists}
		case found && markdown.Hash(cur) != old:
			stale = &ConflictError{Path: rel, Expected: old, Actual: markdown.Hash(cur)}
		}
		if stale == nil && w.afterCheck != nil {
			w.afterCheck()
		}
		return stale
	}
	if found && !force {
		c.same = func(displaced []byte) bool { return markdown.Hash(displaced) == old }
	}
	err := atomicWrite(c)
	switch {
	case stale != nil:
		return stale
	case errors.Is(err, errAppeared):
		return withSentinel{&ConflictError{Path: rel}, ErrExists}
	case errors.Is(err, errChanged):
		cur, _, _ := w.readNote(at)
		return &ConflictError{Path: rel, Expected: old, Actual: markdown.Hash(cur)}
	case err != nil:
		return fmt.Errorf("write %s: %w", rel, w.pathError(rel, err))
	}
	return nil
}

// commit is one atomic write of a file of the vault, for atomicWrite:
// every path goes through root.
type commit struct {
	root    *os.Root
	rel     string // the file's vault path
	content []byte
	// create says the file must not exist.
	create bool
	// check runs once the temp file is synced, right before the move; its
	// error stops the write.
	check func() error
	// same, if set, reports whether a file the move displaced is the one
	// the writer read; where the move is an exchange, a displaced file that
	// is not (a human saved in the instant between check and move) is put
	// back, and atomicWrite returns errChanged.
	same func(displaced []byte) bool
}

// Reports of atomicWrite.
var (
	// errAppeared: a note it was to create exists.
	errAppeared = errors.New("the note appeared while it was written")
	// errChanged: the note changed between the check and the move, and was
	// put back as its last writer saved it.
	errChanged = errors.New("the note changed while it was written")
)

// tempMark names the temp files of atomic writes: the temp file of
// notes/Idea.md is notes/.Idea.md.vaultmem-tmp-RANDOM, beside it. The
// leading dot hides it from the index, the file listing, the watcher and
// Obsidian, and its name does not end in .md: one a killed writer left
// behind is never taken for a note.
const tempMark = ".vaultmem-tmp-"

// writeTemp writes c.content to a new synced temp file beside c.rel and
// returns its vault path. The temp file is made there, not in a folder of
// vaultmem's, because only a folder that holds the note decides who may
// change it: whoever could put their own file in place of the temp file
// there could replace the note anyway, while a shared .vaultmem that
// another user made would let them change notes they cannot write. It is
// created afresh (O_EXCL: never a file or link someone put at its name)
// with the mode of the file it replaces, or, for a new file, 0666 less
// the umask, as any program's new file.
func writeTemp(c commit) (string, error) {
	keep := fs.FileMode(0)
	fi, err := c.root.Lstat(filepath.FromSlash(c.rel))
	replacing := err == nil && fi.Mode().IsRegular()
	if replacing {
		keep = fi.Mode().Perm()
	}
	var f *os.File
	var tmp string
	for range 100 {
		tmp = path.Join(path.Dir(c.rel), tempName(path.Base(c.rel), rand.Uint64()))
		perm := fs.FileMode(0o666)
		if replacing {
			perm = 0o600 // until it has the note's own mode
		}
		f, err = c.root.OpenFile(filepath.FromSlash(tmp), os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", err
		}
	}
	if f == nil {
		return "", errors.New("no free temp file name")
	}
	_, err = f.Write(c.content)
	if err == nil && replacing {
		err = f.Chmod(keep)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		c.root.Remove(filepath.FromSlash(tmp))
		return "", err
	}
	return tmp, nil
}

// tempName is the name of a temp file for the file base, made unique by
// r: a dot, base (cut, at a character's boundary, to keep the name within
// the file-name limit), tempMark and r.
func tempName(base string, r uint64) string {
	tail := tempMark + strconv.FormatUint(r, 36)
	if room := maxNameBytes - 1 - len(tail); len(base) > room {
		cut := room
		for cut > 0 && !utf8.RuneStart(base[cut]) {
			cut--
		}
		base = base[:cut]
	}
	return "." + base + tail
}

// moveInPlace is the portable end of atomicWrite, once the temp file tmp
// is written and checked: a file to create is linked into place, which
// fails rather than replace a file that appeared since the check
// (errAppeared; a file system without hard links gets a rename); a file
// to replace is renamed over.
func moveInPlace(c commit, tmp string) error {
	if c.create {
		err := c.root.Link(filepath.FromSlash(tmp), filepath.FromSlash(c.rel))
		switch {
		case err == nil:
			return nil
		case errors.Is(err, fs.ErrExist):
			return errAppeared
		}
	}
	return c.root.Rename(filepath.FromSlash(tmp), filepath.FromSlash(c.rel))
}
