package vault

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gofrs/flock"
)

// AnyHash, given as the expected hash to [Writer.Write] or [Writer.Remove],
// skips the comparison with the note on disk. The write is still atomic and
// locked.
const AnyHash = "*"

const (
	// staleAge is when a temp file must have been left by a killed process.
	staleAge = time.Hour
	// lockRetry is how often a waiting writer retries the lock.
	lockRetry = 2 * time.Millisecond
	// lockPatience is how long a writer waits for the lock before it tells
	// [WriterOptions.LockWait].
	lockPatience = time.Second
)

// Temp files go to [TmpDir], inside the vault so that the final rename
// stays on one file system, but outside the note's folder so that a file
// watcher there sees a single rename and no temp file. The lock is
// [LockFile]: locking the note itself would not work, as the rename
// replaces the locked file with a new, unlocked one.

// WriterOptions configure a [Writer]. The zero value works.
type WriterOptions struct {
	// MaxNoteSize is the largest note, in bytes, the Writer writes; a
	// larger one is refused with an error matching ErrTooLarge, since the
	// index would not read it. 0 means [DefaultMaxNoteSize].
	MaxNoteSize int64
	// LockWait, if set, is called once per write that has waited a second
	// for the vault lock, with what is known of the holder (its pid, or
	// ""), so that a command can say what it waits for. It is called from
	// the writing goroutine.
	LockWait func(holder string)
}

// Writer is the one way vaultmem writes notes. Every write is
//   - confined: the path is checked as [CleanPath] checks it (a note that
//     already exists may keep a name that only new notes may not have, such
//     as one with '?' or '#'), and the real folder it lands in, symbolic
//     links resolved, must be inside the vault and not in a dot-folder; a
//     note that is itself a symbolic link is never written;
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
	opts WriterOptions
	// beforeCommit and afterCheck, when set (by tests), run after a write's
	// temp file is ready: before the note is checked again, and between
	// that check and the move that replaces the note.
	beforeCommit, afterCheck func()
}

// NewWriter returns a Writer for the vault in directory dir, which must
// exist and be a directory. It creates nothing: .vaultmem/tmp and the lock
// file are made by the first write (with .vaultmem/.gitignore, see
// [EnsureDir]). It removes, as a best effort, temp files older than an hour
// from .vaultmem/tmp, left there by a process that was killed while
// writing.
func NewWriter(dir string, opts WriterOptions) (*Writer, error) {
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
		tmp:  filepath.Join(root, filepath.FromSlash(TmpDir)),
		sem:  make(chan struct{}, 1),
		lock: flock.New(filepath.Join(root, filepath.FromSlash(LockFile)), flock.SetPermissions(0o644)),
		opts: opts,
	}
	if w.opts.MaxNoteSize <= 0 {
		w.opts.MaxNoteSize = DefaultMaxNoteSize
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
// A note that is a symbolic link to another note of the vault is read
// through it.
//
// It returns an error matching ErrNotFound when the note does not exist, a
// *PathError (ErrInvalidPath) when p is unsafe (see [CleanPath]), names a
// folder, or leads outside the vault through a symbolic link (then also
// ErrOutside), and the I/O error otherwise.
func (w *Writer) Read(p string) (content []byte, hash string, err error) {
	rel, err := cleanExisting(p)
	if err != nil {
		return nil, "", err
	}
	abs, err := w.locate(rel)
	var pe *PathError
	if errors.As(err, &pe) && pe.link {
		abs, err = w.follow(rel, filepath.Join(w.root, filepath.FromSlash(rel)))
	}
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
// The note is compared with expected under the lock, and again right
// before the rename that replaces it, so that an edit saved meanwhile by a
// program that does not take the lock (Obsidian, an editor, git) is
// reported, never overwritten.
//
// Errors: a *ConflictError (ErrConflict) when the note changed since it was
// read, Actual "" when it was deleted; on create, when the note exists (or
// a note or folder whose name differs from p's only in case: Obsidian and
// case-insensitive disks take them for the same), a *ConflictError with
// Expected "" that also matches ErrExists. A *PathError (ErrInvalidPath)
// as for [Writer.Read]. An error matching ErrTooLarge when content is over
// [WriterOptions.MaxNoteSize]. ctx's error when ctx ends while waiting for
// the lock. I/O errors otherwise, wrapped with the action.
func (w *Writer) Write(ctx context.Context, p string, content []byte, expected string) (hash string, err error) {
	rel, err := cleanExisting(p)
	if err != nil {
		return "", err
	}
	if err := w.checkSize(rel, content); err != nil {
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
	if !found {
		if _, err := CleanPath(rel); err != nil { // a new note's name follows Obsidian's rules
			return "", err
		}
		if other, err := w.resolve(rel); err != nil {
			return "", err
		} else if other != rel {
			return "", withSentinel{&ConflictError{Path: rel, Other: caseClash(rel, other)}, ErrExists}
		}
	}
	if found && bytes.Equal(cur, content) {
		return Hash(content), nil
	}
	if err := w.replace(rel, abs, content, found, Hash(cur), expected == AnyHash); err != nil {
		return "", err
	}
	return Hash(content), nil
}

// caseClash returns the part of other, a path that equals rel but for
// case, up to the first name that differs: the note or folder rel clashes
// with.
func caseClash(rel, other string) string {
	a, b := strings.Split(rel, "/"), strings.Split(other, "/")
	for i := range b {
		if i < len(a) && a[i] != b[i] {
			return strings.Join(b[:i+1], "/")
		}
	}
	return other
}

// checkSize refuses content over the size limit.
func (w *Writer) checkSize(rel string, content []byte) error {
	if int64(len(content)) > w.opts.MaxNoteSize {
		return fmt.Errorf("write %s: %w: %s is over the %s limit (max_note_size); the index would not read it",
			rel, ErrTooLarge, byteSize(int64(len(content))), byteSize(w.opts.MaxNoteSize))
	}
	return nil
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
// or others, never lose one another's changes; and it reads the note again
// right before the rename, so that an edit saved meanwhile by a program
// that does not take the lock (Obsidian, an editor) is reported as a
// *ConflictError, never overwritten. fn runs under the lock: it must be
// quick and must not call the Writer. It may modify and return the slice it
// is given. When fn returns content equal to the current one, nothing is
// written.
//
// Errors: ErrNotFound (wrapped) when the note does not exist, and then fn is
// not called; fn's error, wrapped; a *ConflictError when the note changed
// while fn ran; and the other errors of [Writer.Write].
func (w *Writer) Update(ctx context.Context, p string, fn func(current []byte) ([]byte, error)) (hash string, err error) {
	rel, err := cleanExisting(p)
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
	if err := w.checkSize(rel, next); err != nil {
		return "", err
	}
	if err := w.replace(rel, abs, next, true, old, false); err != nil {
		return "", err
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
	rel, err := cleanExisting(p)
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
	// may lack; creating tmp creates both, and the .gitignore first.
	if err := EnsureDir(w.root, TmpDir); err != nil {
		return nil, err
	}
	if err := w.inside(w.tmp, TmpDir); err != nil {
		return nil, err
	}
	ok, err := w.lock.TryLock()
	if err == nil && !ok {
		ok, err = w.waitLock(ctx)
	}
	if err != nil {
		return nil, fmt.Errorf("lock vault (%s): %w", w.lock.Path(), err)
	}
	if !ok {
		return nil, fmt.Errorf("lock vault (%s): not acquired", w.lock.Path())
	}
	// Say who holds it, for a writer that has to wait (best effort).
	_ = os.WriteFile(w.lock.Path(), []byte(strconv.Itoa(os.Getpid())+"\n"), 0o644)
	return func() error {
		defer func() { <-w.sem }()
		if err := w.lock.Unlock(); err != nil {
			return fmt.Errorf("unlock vault: %w", err)
		}
		return nil
	}, nil
}

// waitLock waits for the vault lock another process holds, telling
// LockWait after lockPatience.
func (w *Writer) waitLock(ctx context.Context) (bool, error) {
	if w.opts.LockWait != nil {
		pctx, cancel := context.WithTimeout(ctx, lockPatience)
		ok, err := w.lock.TryLockContext(pctx, lockRetry)
		cancel()
		if ok || ctx.Err() != nil || err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return ok, err
		}
		holder, _ := os.ReadFile(w.lock.Path())
		w.opts.LockWait(strings.TrimSpace(string(holder)))
	}
	return w.lock.TryLockContext(ctx, lockRetry)
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
		return "", &PathError{Path: rel, Reason: "is a symbolic link; vaultmem does not write through links", link: true}
	case fi.IsDir():
		return "", &PathError{Path: rel, Reason: "is a folder, not a note"}
	case !fi.Mode().IsRegular():
		return "", &PathError{Path: rel, Reason: "is not a regular file"}
	}
	return abs, nil
}

// follow returns where the symbolic link at abs (the note rel) leads, if
// that is a note inside the vault: a read may follow a link that a write
// never replaces.
func (w *Writer) follow(rel, abs string) (string, error) {
	real, err := filepath.EvalSymlinks(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("read %s: the symbolic link leads nowhere: %w", rel, ErrNotFound)
	}
	if err != nil {
		return "", &PathError{Path: rel, Reason: fmt.Sprintf("is a symbolic link that cannot be resolved: %v", err), Outside: true}
	}
	if err := w.inside(filepath.Dir(real), rel); err != nil {
		return "", err
	}
	fi, err := os.Stat(real)
	switch {
	case err != nil:
		return "", fmt.Errorf("read %s: %w", rel, err)
	case !fi.Mode().IsRegular():
		return "", &PathError{Path: rel, Reason: "is a symbolic link to something other than a note"}
	}
	return real, nil
}

// inside checks that the existing directory dir is, symbolic links
// resolved, the vault or a folder inside it outside any dot-folder (bar
// .vaultmem/tmp when that is the directory). rel names the path in errors.
func (w *Writer) inside(dir, rel string) error {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return &PathError{Path: rel, Reason: fmt.Sprintf("leads through a folder that cannot be resolved: %v", err), Outside: true}
	}
	r, err := filepath.Rel(w.root, real)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r) {
		return &PathError{Path: rel, Reason: "leads outside the vault through a symbolic link", Outside: true}
	}
	r = filepath.ToSlash(r)
	if r == "." || r == TmpDir {
		return nil
	}
	for _, c := range strings.Split(r, "/") {
		if strings.HasPrefix(c, ".") {
			return &PathError{Path: rel, Reason: "leads into the dot-folder " + c + " through a symbolic link", Outside: true}
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

// replace atomically puts content at abs (the note rel): a temp file in
// .vaultmem/tmp, synced, then moved over abs. Right before the move the
// note is read again, and where the platform allows the move is an
// exchange whose displaced note is checked too (see atomicWrite): when the
// note no longer is what the caller read (found, with hash old), a
// *ConflictError is returned and the note on disk is left as its last
// writer saved it, unless force. A new note is created without replacing
// one that appeared meanwhile, where the platform allows.
func (w *Writer) replace(rel, abs string, content []byte, found bool, old string, force bool) error {
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	var stale error // what the last look at the note found
	c := commit{abs: abs, tmpDir: w.tmp, content: content, create: !found && !force}
	c.check = func() error {
		if w.beforeCommit != nil {
			w.beforeCommit()
		}
		if force {
			return nil
		}
		cur, now, err := readNote(abs)
		switch {
		case err != nil:
			stale = fmt.Errorf("write %s: %w", rel, err)
		case found && !now:
			stale = &ConflictError{Path: rel, Expected: old}
		case !found && now:
			stale = withSentinel{&ConflictError{Path: rel, Actual: Hash(cur)}, ErrExists}
		case found && Hash(cur) != old:
			stale = &ConflictError{Path: rel, Expected: old, Actual: Hash(cur)}
		}
		if stale == nil && w.afterCheck != nil {
			w.afterCheck()
		}
		return stale
	}
	if found && !force {
		c.same = func(displaced []byte) bool { return Hash(displaced) == old }
	}
	err := atomicWrite(c)
	switch {
	case stale != nil:
		return stale
	case errors.Is(err, errAppeared):
		return withSentinel{&ConflictError{Path: rel}, ErrExists}
	case errors.Is(err, errChanged):
		cur, _, _ := readNote(abs)
		return &ConflictError{Path: rel, Expected: old, Actual: Hash(cur)}
	case err != nil:
		return fmt.Errorf("write %s: %w", rel, err)
	}
	return nil
}

// commit is one atomic write of a note, for atomicWrite.
type commit struct {
	abs, tmpDir string
	content     []byte
	// create says the note must not exist.
	create bool
	// check runs once the temp file is synced, right before the move; its
	// error stops the write.
	check func() error
	// same, if set, reports whether a note the move displaced is the one
	// the writer read; where the move is an exchange, a displaced note that
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

// withSentinel is an error that also matches a sentinel error, its message
// unchanged: a *ConflictError that is also ErrExists, a *ParseError that is
// also ErrBadFrontmatter.
type withSentinel struct {
	error
	also error
}

func (e withSentinel) Unwrap() []error { return []error{e.error, e.also} }
