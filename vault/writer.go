package vault

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gofrs/flock"
)

// AnyHash, given as the expected hash to [Writer.Write] or [Writer.Remove],
// skips the comparison with the note on disk. The write is still atomic and
// locked.
const AnyHash = "*"

const (
	// tmpDir holds temporary files, inside the vault so that the final
	// rename stays on one file system, but outside the note's folder so that
	// a file watcher there sees a single rename and no temp file.
	tmpDir = ".vaultmem/tmp"
	// lockName is the lock file. Locking the note itself would not work: the
	// rename replaces the locked file with a new, unlocked one.
	lockName = ".vaultmem/lock"
	// staleAge is when a temp file must have been left by a killed process.
	staleAge = time.Hour
	// lockRetry is how often a waiting writer retries the lock.
	lockRetry = 2 * time.Millisecond
)

// Writer is the one way vaultmem writes notes. Every write is
//   - confined: the path goes through [CleanPath], and the real folder it
//     lands in, symbolic links resolved, must be inside the vault and not in
//     a dot-folder; a note that is itself a symbolic link is never written;
//   - atomic: the content goes to a temp file in .vaultmem/tmp that is then
//     renamed over the note, so a reader (Obsidian, another process) sees
//     the old note or the new one, never part of one;
//   - serialised: across goroutines and across processes through the lock
//     file .vaultmem/lock, so that read-compare-write cycles never
//     interleave;
//   - compare-before-write: the caller names the hash of the note it read
//     (see [Hash]), and a note changed since, by a human in Obsidian for
//     example, is not overwritten but reported as a *ConflictError.
//
// A Writer is safe for concurrent use by multiple goroutines; any number of
// Writers, in any number of processes, may share a vault. The lock only
// orders vaultmem's own writes: other programs (Obsidian, an editor, git)
// write without it, which is what compare-before-write is for. On file
// systems where flock(2) is not supported (some network mounts) writes
// from different processes are not serialised.
type Writer struct {
	root string // the vault directory, absolute, symbolic links resolved
	tmp  string
	// sem serialises the goroutines of this Writer: the flock is held per
	// Writer, not per goroutine.
	sem  chan struct{}
	lock *flock.Flock
}

// NewWriter returns a Writer for the vault in directory dir, which must
// exist and be a directory. It creates nothing: .vaultmem/tmp and the lock
// file are made by the first write. It removes, as a best effort, temp files
// older than an hour from .vaultmem/tmp, left there by a process that was
// killed while writing.
func NewWriter(dir string) (*Writer, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("open vault %s: %w", dir, err)
	}
	root, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("open vault %s: %w", dir, err)
	}
	fi, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("open vault %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("open vault %s: not a directory", dir)
	}
	w := &Writer{
		root: root,
		tmp:  filepath.Join(root, filepath.FromSlash(tmpDir)),
		sem:  make(chan struct{}, 1),
		lock: flock.New(filepath.Join(root, filepath.FromSlash(lockName)), flock.SetPermissions(0o644)),
	}
	removeStale(w.tmp, time.Now().Add(-staleAge))
	return w, nil
}

// removeStale removes the regular files in dir last modified before t.
// Failures are ignored: a temp file that stays costs only disk space.
func removeStale(dir string, t time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.ModTime().Before(t) {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// Read returns the content of the note at the vault-relative path p and its
// [Hash], to pass to [Writer.Write] or [Writer.Remove] later. It takes no
// lock: writes are atomic renames, so Read sees a whole note.
//
// It returns an error matching ErrNotFound when the note does not exist, a
// *PathError (ErrInvalidPath) when p is unsafe (see [CleanPath]), leads
// outside the vault through a symbolic link, or names a symbolic link or a
// folder, and the I/O error otherwise.
func (w *Writer) Read(p string) (content []byte, hash string, err error) {
	rel, err := CleanPath(p)
	if err != nil {
		return nil, "", err
	}
	abs, err := w.locate(rel)
	if err != nil {
		return nil, "", err
	}
	b, found, err := readNote(abs)
	if err != nil {
		return nil, "", fmt.Errorf("read %s: %w", rel, err)
	}
	if !found {
		return nil, "", fmt.Errorf("read %s: %w", rel, ErrNotFound)
	}
	return b, Hash(b), nil
}

// Write replaces the note at the vault-relative path p with content, if the
// note on disk still has the hash expected, and returns the hash of content.
// Missing folders are created. A new note gets permissions 0644 (less the
// umask); a replaced note keeps its own. When the note already holds content,
// nothing is written.
//
// expected is the hash from [Writer.Read] (or [Note].Hash), "" to create a
// note that must not exist yet, or [AnyHash] to write whatever is there.
//
// Errors: a *ConflictError (ErrConflict) when the note changed since it was
// read, Actual "" when it was deleted; on create, when the note exists, a
// *ConflictError with Expected "" that also matches ErrExists. A *PathError
// (ErrInvalidPath) as for [Writer.Read]. ctx's error when ctx ends while
// waiting for the lock. I/O errors otherwise, wrapped with the action.
func (w *Writer) Write(ctx context.Context, p string, content []byte, expected string) (hash string, err error) {
	rel, err := CleanPath(p)
	if err != nil {
		return "", err
	}
	unlock, err := w.acquire(ctx)
	if err != nil {
		return "", fmt.Errorf("write %s: %w", rel, err)
	}
	defer release(unlock, &err)

	abs, err := w.locate(rel)
	if err != nil {
		return "", err
	}
	cur, found, err := readNote(abs)
	if err != nil {
		return "", fmt.Errorf("write %s: %w", rel, err)
	}
	if err := compare(rel, cur, found, expected); err != nil {
		return "", err
	}
	if found && bytes.Equal(cur, content) {
		return Hash(content), nil
	}
	if err := w.replace(abs, content); err != nil {
		return "", fmt.Errorf("write %s: %w", rel, err)
	}
	return Hash(content), nil
}

// release runs unlock and reports its error in *err unless there is one.
func release(unlock func() error, err *error) {
	if uerr := unlock(); uerr != nil && *err == nil {
		*err = uerr
	}
}

// compare checks the note on disk (cur, found) against the expected hash.
func compare(rel string, cur []byte, found bool, expected string) error {
	switch {
	case expected == AnyHash:
		return nil
	case expected == "":
		if found {
			return withSentinel{&ConflictError{Path: rel, Actual: Hash(cur)}, ErrExists}
		}
		return nil
	case !found:
		return &ConflictError{Path: rel, Expected: expected}
	}
	if h := Hash(cur); h != expected {
		return &ConflictError{Path: rel, Expected: expected, Actual: h}
	}
	return nil
}

// Update rewrites the note at the vault-relative path p with what fn makes
// of its current content, and returns the note's new hash. It holds the
// lock from the read to the write, so concurrent Updates, from this process
// or others, never lose one another's changes. fn runs under the lock: it
// must be quick and must not call the Writer. It may modify and return the
// slice it is given. When fn returns content equal to the current one,
// nothing is written.
//
// Errors: ErrNotFound (wrapped) when the note does not exist, and then fn is
// not called; fn's error, wrapped; and the errors of [Writer.Write] but the
// conflicts.
func (w *Writer) Update(ctx context.Context, p string, fn func(current []byte) ([]byte, error)) (hash string, err error) {
	rel, err := CleanPath(p)
	if err != nil {
		return "", err
	}
	unlock, err := w.acquire(ctx)
	if err != nil {
		return "", fmt.Errorf("update %s: %w", rel, err)
	}
	defer release(unlock, &err)

	abs, err := w.locate(rel)
	if err != nil {
		return "", err
	}
	cur, found, err := readNote(abs)
	if err != nil {
		return "", fmt.Errorf("update %s: %w", rel, err)
	}
	if !found {
		return "", fmt.Errorf("update %s: %w", rel, ErrNotFound)
	}
	old := Hash(cur)
	next, err := fn(cur)
	if err != nil {
		return "", fmt.Errorf("update %s: %w", rel, err)
	}
	if h := Hash(next); h == old {
		return h, nil
	}
	if err := w.replace(abs, next); err != nil {
		return "", fmt.Errorf("update %s: %w", rel, err)
	}
	return Hash(next), nil
}

// Remove deletes the note at the vault-relative path p if it still has the
// hash expected ([AnyHash] to delete whatever is there).
//
// Errors: a *ConflictError (ErrConflict) when the note changed since it was
// read, Actual "" when it is already gone; ErrNotFound (wrapped) when
// expected is AnyHash and the note does not exist; an error when expected is
// ""; otherwise the errors of [Writer.Write].
func (w *Writer) Remove(ctx context.Context, p string, expected string) (err error) {
	rel, err := CleanPath(p)
	if err != nil {
		return err
	}
	if expected == "" {
		return fmt.Errorf("remove %s: no expected hash given; pass the hash the note was read with, or vault.AnyHash", rel)
	}
	unlock, err := w.acquire(ctx)
	if err != nil {
		return fmt.Errorf("remove %s: %w", rel, err)
	}
	defer release(unlock, &err)

	abs, err := w.locate(rel)
	if err != nil {
		return err
	}
	cur, found, err := readNote(abs)
	if err != nil {
		return fmt.Errorf("remove %s: %w", rel, err)
	}
	if !found && expected == AnyHash {
		return fmt.Errorf("remove %s: %w", rel, ErrNotFound)
	}
	if err := compare(rel, cur, found, expected); err != nil {
		return err
	}
	if err := os.Remove(abs); err != nil {
		return fmt.Errorf("remove %s: %w", rel, err)
	}
	return nil
}

// acquire takes the Writer's turn among goroutines, then the vault lock
// among processes, both as long as ctx allows. It returns the function that
// releases them.
func (w *Writer) acquire(ctx context.Context) (unlock func() error, err error) {
	select {
	case w.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("wait for the vault lock: %w", ctx.Err())
	}
	defer func() {
		if err != nil {
			<-w.sem
		}
	}()
	// The lock file lives in .vaultmem, which a fresh vault or a wiped cache
	// may lack; creating tmp creates both.
	if err := os.MkdirAll(w.tmp, 0o755); err != nil {
		return nil, fmt.Errorf("create temp folder: %w", err)
	}
	if err := w.inside(w.tmp, tmpDir); err != nil {
		return nil, err
	}
	ok, err := w.lock.TryLockContext(ctx, lockRetry)
	if err != nil {
		return nil, fmt.Errorf("lock vault: %w", err)
	}
	if !ok {
		return nil, errors.New("lock vault: not acquired")
	}
	return func() error {
		defer func() { <-w.sem }()
		if err := w.lock.Unlock(); err != nil {
			return fmt.Errorf("unlock vault: %w", err)
		}
		return nil
	}, nil
}

// locate returns where the clean vault path rel is on disk, after checking
// that the deepest folder of it that exists is, symbolic links resolved,
// inside the vault and not in a dot-folder, and that rel itself is not a
// symbolic link or a folder.
func (w *Writer) locate(rel string) (string, error) {
	abs := filepath.Join(w.root, filepath.FromSlash(rel))
	dir := filepath.Dir(abs)
	for dir != w.root {
		_, err := os.Lstat(dir)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("check %s: %w", rel, err)
		}
		dir = filepath.Dir(dir)
	}
	if err := w.inside(dir, rel); err != nil {
		return "", err
	}
	fi, err := os.Lstat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return abs, nil
	case err != nil:
		return "", fmt.Errorf("check %s: %w", rel, err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return "", &PathError{Path: rel, Reason: "is a symbolic link; vaultmem does not write through links"}
	case fi.IsDir():
		return "", &PathError{Path: rel, Reason: "is a folder, not a note"}
	case !fi.Mode().IsRegular():
		return "", &PathError{Path: rel, Reason: "is not a regular file"}
	}
	return abs, nil
}

// inside checks that the existing directory dir is, symbolic links
// resolved, the vault or a folder inside it outside any dot-folder (bar
// .vaultmem/tmp when that is the directory). rel names the path in errors.
func (w *Writer) inside(dir, rel string) error {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return &PathError{Path: rel, Reason: fmt.Sprintf("leads through a folder that cannot be resolved: %v", err)}
	}
	r, err := filepath.Rel(w.root, real)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r) {
		return &PathError{Path: rel, Reason: "leads outside the vault through a symbolic link"}
	}
	r = filepath.ToSlash(r)
	if r == "." || r == tmpDir {
		return nil
	}
	for _, c := range strings.Split(r, "/") {
		if strings.HasPrefix(c, ".") {
			return &PathError{Path: rel, Reason: "leads into the dot-folder " + c + " through a symbolic link"}
		}
	}
	return nil
}

// readNote reads the file at abs; found is false when it does not exist.
func readNote(abs string) (content []byte, found bool, err error) {
	b, err := os.ReadFile(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return b, true, nil
}

// replace atomically puts content at abs: a temp file in .vaultmem/tmp,
// synced, then renamed over abs.
func (w *Writer) replace(abs string, content []byte) error {
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return err
	}
	return atomicWrite(abs, content, w.tmp)
}

// withSentinel is an error that also matches a sentinel error, its message
// unchanged: a *ConflictError that is also ErrExists, a *ParseError that is
// also ErrBadFrontmatter.
type withSentinel struct {
	error
	also error
}

func (e withSentinel) Unwrap() []error { return []error{e.error, e.also} }
