package vault

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/vaultmem/vaultmem/markdown"
)

// AnyHash, given as the expected hash to [Writer.Write] or [Writer.Remove],
// skips the comparison with the note on disk. The write is still atomic and
// locked.
const AnyHash = "*"

const (
	// lockRetry is how often a waiting writer retries the lock.
	lockRetry = 2 * time.Millisecond
	// lockPatience is how long a writer waits for the lock before it tells
	// [WriterOptions.LockWait].
	lockPatience = time.Second
)

// The lock is [LockFile]: locking the note itself would not work, as the
// rename replaces the locked file with a new, unlocked one.

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
	// LockTimeout is the longest a write waits for the vault lock that
	// another process holds; 0 means [DefaultLockTimeout]. A context's
	// deadline, when earlier, ends the wait too. Either way the write
	// fails with a *LockError (ErrLockTimeout) naming the holder.
	LockTimeout time.Duration
	// Obsidian, when set, makes the changes of notes it can make (a new
	// note, an append by [Writer.Write] or [Writer.Update], one property
	// set by [Writer.Apply], a [Writer.Move]) in the running app, under
	// the same lock and checks; any other change, and any it leaves
	// undone, the Writer makes itself. nil writes files directly.
	Obsidian Obsidian
}

// Writer is the one way vaultmem writes notes. Every write is
//   - confined: the path is checked as [CleanPath] checks it (a note that
//     already exists may keep a name that only new notes may not have, such
//     as one with '?' or '#'), and the real folder it lands in, symbolic
//     links resolved, must be inside the vault and not in a dot-folder; a
//     note that is itself a symbolic link is never written;
//   - atomic: the content goes to a new temp file beside the note, hidden
//     (".NAME.md.vaultmem-tmp-RANDOM"), that is then renamed over it, so a
//     reader (Obsidian, another process) sees the old note or the new one,
//     never part of one. No folder of vaultmem's holds it: in a vault
//     shared with other local users, one who made .vaultmem could
//     otherwise put their own file in its place;
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
	v *Vault
	// sem serialises the goroutines of this Writer: the flock is held per
	// Writer, not per goroutine.
	sem  chan struct{}
	lock *FileLock
	opts WriterOptions
	// beforeCommit and afterCheck, when set (by tests), run after a write's
	// temp file is ready: before the note is checked again, and between
	// that check and the move that replaces the note.
	beforeCommit, afterCheck func()
}

// NewWriter returns the Writer of the opened vault v. It creates nothing:
// .vaultmem/tmp and the lock file are made by the first write (with
// .vaultmem/.gitignore, see [Vault.EnsureDir]).
func NewWriter(v *Vault, opts WriterOptions) *Writer {
	w := &Writer{
		v:    v,
		sem:  make(chan struct{}, 1),
		lock: v.FileLock(LockFile),
		opts: opts,
	}
	if w.opts.MaxNoteSize <= 0 {
		w.opts.MaxNoteSize = DefaultMaxNoteSize
	}
	return w
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
	return w.read(rel, true)
}

// read reads the clean vault path rel, following it when it is a symbolic
// link to a note of the vault and follow is set.
func (w *Writer) read(rel string, follow bool) ([]byte, string, error) {
	at, err := w.locate(rel)
	var pe *PathError
	if follow && errors.As(err, &pe) && pe.link {
		at, err = w.follow(rel)
	}
	if err != nil {
		return nil, "", err
	}
	b, found, err := w.readNote(at)
	if err != nil {
		return nil, "", fmt.Errorf("read %s: %w", rel, err)
	}
	if !found {
		return nil, "", fmt.Errorf("read %s: %w", rel, ErrNotFound)
	}
	return b, markdown.Hash(b), nil
}

// Write replaces the note at the vault-relative path p with content, if the
// note on disk still has the hash expected, and returns the hash of content.
// Missing folders are created. A new note gets permissions 0666 less the
// umask; a replaced note keeps its own. When the note already holds content,
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
// [WriterOptions.MaxNoteSize]. A *LockError (ErrLockTimeout) naming the
// holder when another process holds the vault lock past the lock timeout
// (or ctx's deadline); ctx's error when ctx is canceled while waiting.
// I/O errors otherwise, wrapped with the action.
func (w *Writer) Write(ctx context.Context, p string, content []byte, expected string) (hash string, err error) {
	rel, err := cleanExisting(p)
	if err != nil {
		return "", err
	}
	return w.write(ctx, rel, content, expected, CleanPath, nil)
}

// ReadView is [Writer.Read] for a view file vaultmem writes beside the
// notes, an Obsidian base or canvas (see [CleanViewPath]). It does not
// follow a symbolic link.
func (w *Writer) ReadView(p string) (content []byte, hash string, err error) {
	rel, err := cleanPath(p, false, true)
	if err != nil {
		return nil, "", err
	}
	return w.read(rel, false)
}

// WriteView is [Writer.Write] for a view file vaultmem writes beside the
// notes, an Obsidian base or canvas (see [CleanViewPath]): confined,
// atomic, locked and compared with expected, as a note is.
func (w *Writer) WriteView(ctx context.Context, p string, content []byte, expected string) (hash string, err error) {
	rel, err := cleanPath(p, false, true)
	if err != nil {
		return "", err
	}
	return w.write(ctx, rel, content, expected, CleanViewPath, nil)
}

// write is Write for the clean vault path rel; newName, set for a note or
// a view file, checks the name of one that does not exist yet (it follows
// Obsidian's rules), which must not clash in case with another's either.
// op, when set, is the change as [Obsidian] would make it; nil lets write
// find one (a new note, an append) for a note.
func (w *Writer) write(ctx context.Context, rel string, content []byte, expected string, newName func(string) (string, error), op func(context.Context, Obsidian) error) (hash string, err error) {
	if err := w.checkSize(rel, content); err != nil {
		return "", err
	}
	l, err := w.begin(ctx, "write", rel)
	if err != nil {
		return "", err
	}
	defer release(l.unlock, &err)
	at, cur, found := l.at, l.cur, l.found
	if err := compare(rel, cur, found, expected); err != nil {
		return "", err
	}
	if !found && newName != nil {
		if _, err := newName(rel); err != nil { // a new note's name follows Obsidian's rules
			return "", err
		}
		if other, err := w.resolve(at); err != nil {
			return "", err
		} else if other != at {
			return "", withSentinel{&ConflictError{Path: rel, Other: caseClash(at, other)}, ErrExists}
		}
	}
	if found && bytes.Equal(cur, content) {
		return markdown.Hash(content), nil
	}
	if w.opts.Obsidian != nil && newName != nil {
		if op == nil {
			op = obsidianOp(rel, l, content)
		}
		if hash, done, err := w.viaObsidian(ctx, rel, l, content, op); err != nil || done {
			return hash, err
		}
	}
	if err := w.replace(rel, at, content, found, markdown.Hash(cur), expected == AnyHash); err != nil {
		return "", err
	}
	return markdown.Hash(content), nil
}

// ReadState returns the content and [Hash] of vaultmem's own state file
// name: a slash path under .vaultmem/state ("focus/agent.yaml",
// "dream.yaml"), which is committed with the vault and survives a cache
// wipe. It returns an error matching ErrNotFound when there is none, and a
// *PathError (ErrInvalidPath) for a name that is not a path under the state
// folder.
func (w *Writer) ReadState(name string) ([]byte, string, error) {
	rel, err := statePath(name)
	if err != nil {
		return nil, "", err
	}
	return w.read(rel, false)
}

// WriteState writes vaultmem's own state file name (see [Writer.ReadState])
// as [Writer.Write] writes a note: atomic, locked, compared with expected
// ("" for a new file, [AnyHash] for whatever is there). Errors are those of
// Write.
func (w *Writer) WriteState(ctx context.Context, name string, content []byte, expected string) (string, error) {
	rel, err := statePath(name)
	if err != nil {
		return "", err
	}
	if err := w.v.EnsureDir(StateDir); err != nil {
		return "", err
	}
	return w.write(ctx, rel, content, expected, nil, nil)
}

// UpdateState rewrites vaultmem's own state file name (see
// [Writer.ReadState]) with what fn makes of its current content (nil when
// there is none yet: fn makes the first), as [Writer.Update] rewrites a
// note: under the lock from the read to the write, so that concurrent
// updates from this process or others never lose one another's changes.
// fn runs under the lock: it must be quick and must not call the Writer.
// When fn returns the content it was given, nothing is written. It
// returns the file's new hash.
//
// Errors: fn's error, wrapped; a *PathError (ErrInvalidPath) for a name
// that is not a path under the state folder; those of [Writer.Write].
func (w *Writer) UpdateState(ctx context.Context, name string, fn func(current []byte) ([]byte, error)) (hash string, err error) {
	rel, err := statePath(name)
	if err != nil {
		return "", err
	}
	if err := w.v.EnsureDir(path.Dir(rel)); err != nil {
		return "", err
	}
	l, err := w.begin(ctx, "update", rel)
	if err != nil {
		return "", err
	}
	defer release(l.unlock, &err)
	var cur []byte
	if l.found {
		cur = l.cur
	}
	old := markdown.Hash(cur)
	next, err := fn(cur)
	if err != nil {
		return "", fmt.Errorf("update %s: %w", rel, err)
	}
	if l.found && bytes.Equal(next, cur) {
		return old, nil
	}
	if err := w.checkSize(rel, next); err != nil {
		return "", err
	}
	if err := w.replace(rel, l.at, next, l.found, old, false); err != nil {
		return "", err
	}
	return markdown.Hash(next), nil
}

// AppendState appends line (a newline is added when it has none) to
// vaultmem's own state file name (see [Writer.ReadState]), creating it and
// its folder when missing: an append-only log. It holds the lock, so lines
// from concurrent writers never interleave, and syncs the file before it
// returns. A file that does not end in a newline (a write cut short) gets
// one first, so that a torn line never swallows the next.
func (w *Writer) AppendState(ctx context.Context, name string, line []byte) (err error) {
	rel, err := statePath(name)
	if err != nil {
		return err
	}
	if err := w.v.EnsureDir(path.Dir(rel)); err != nil {
		return err
	}
	unlock, err := w.acquire(ctx)
	if err != nil {
		return fmt.Errorf("append to %s: %w", rel, err)
	}
	defer release(unlock, &err)
	if err := w.v.CheckLinks(rel); err != nil {
		return err
	}
	f, err := w.v.root.OpenFile(rel, os.O_RDWR|os.O_CREATE|os.O_APPEND|nonBlock, 0o644)
	if err != nil {
		return fmt.Errorf("append to %s: %w", rel, unwrapPathError(err))
	}
	defer f.Close()
	// The file opened must be the one at rel, not one a link swapped in
	// since the check led to.
	if opened, err := f.Stat(); err != nil || !opened.Mode().IsRegular() {
		return fmt.Errorf("append to %s: not a regular file", rel)
	} else if at, err := w.v.root.Lstat(rel); err != nil || !os.SameFile(opened, at) {
		return &LinkError{Path: w.v.Abs(rel)}
	}
	var buf []byte
	if info, err := f.Stat(); err == nil && info.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, info.Size()-1); err == nil && last[0] != '\n' {
			buf = append(buf, '\n')
		}
	}
	buf = append(buf, line...)
	if len(line) == 0 || line[len(line)-1] != '\n' {
		buf = append(buf, '\n')
	}
	if _, err := f.Write(buf); err != nil {
		return fmt.Errorf("append to %s: %w", rel, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("append to %s: %w", rel, err)
	}
	return f.Close()
}

// statePath returns the vault path of the state file name.
func statePath(name string) (string, error) {
	bad := func(why string) (string, error) { return "", &PathError{Path: name, Reason: why} }
	switch {
	case name == "" || !utf8.ValidString(name) || strings.ContainsAny(name, "\x00\\"):
		return bad("is not a state file name")
	case strings.HasPrefix(name, "/"):
		return bad("is absolute; give a path under .vaultmem/state")
	}
	for _, c := range strings.Split(name, "/") {
		if c == "" || c == "." || c == ".." || strings.HasPrefix(c, ".") || strings.IndexFunc(c, isControl) >= 0 {
			return bad("is not a path under .vaultmem/state")
		}
	}
	return StateDir + "/" + name, nil
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

// locked is a note as a write found it, under the lock.
type locked struct {
	unlock func() error
	at     string // where the note is (see locate)
	cur    []byte
	found  bool
}

// begin takes the lock for action (write, update, remove) on the note
// rel, then locates and reads it. The caller releases the lock; on error
// begin has released it.
func (w *Writer) begin(ctx context.Context, action, rel string) (l locked, err error) {
	if l.unlock, err = w.acquire(ctx); err != nil {
		return l, fmt.Errorf("%s %s: %w", action, rel, err)
	}
	defer func() {
		if err != nil {
			l.unlock()
		}
	}()
	if l.at, err = w.locate(rel); err != nil {
		return l, err
	}
	if l.cur, l.found, err = w.readNote(l.at); err != nil {
		return l, fmt.Errorf("%s %s: %w", action, rel, err)
	}
	return l, nil
}

// ownFile reports whether the vault path rel is one of vaultmem's own
// files rather than a note: its state, or a view (a base or canvas).
// Such a file is never written through a symbolic link anywhere on its
// path (see [Vault.CheckLinks]), where a note may sit in a folder that
// is a link to another folder of the vault.
func ownFile(rel string) bool {
	ext := strings.ToLower(path.Ext(rel))
	return strings.HasPrefix(rel, DotDir+"/") || ext == BaseExt || ext == CanvasExt
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
			return withSentinel{&ConflictError{Path: rel, Actual: markdown.Hash(cur)}, ErrExists}
		}
		return nil
	case !found:
		return &ConflictError{Path: rel, Expected: expected}
	}
	if h := markdown.Hash(cur); h != expected {
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
	l, err := w.begin(ctx, "update", rel)
	if err != nil {
		return "", err
	}
	defer release(l.unlock, &err)
	at, cur, found := l.at, l.cur, l.found
	if !found {
		return "", fmt.Errorf("update %s: %w", rel, ErrNotFound)
	}
	old := markdown.Hash(cur)
	next, err := fn(cur)
	if err != nil {
		return "", fmt.Errorf("update %s: %w", rel, err)
	}
	if h := markdown.Hash(next); h == old {
		return h, nil
	}
	if err := w.checkSize(rel, next); err != nil {
		return "", err
	}
	if hash, done, err := w.viaObsidian(ctx, rel, l, next, obsidianOp(rel, l, next)); err != nil || done {
		return hash, err
	}
	if err := w.replace(rel, at, next, true, old, false); err != nil {
		return "", err
	}
	return markdown.Hash(next), nil
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
	l, err := w.begin(ctx, "remove", rel)
	if err != nil {
		return err
	}
	defer release(l.unlock, &err)
	at, cur, found := l.at, l.cur, l.found
	if !found && expected == AnyHash {
		return fmt.Errorf("remove %s: %w", rel, ErrNotFound)
	}
	if err := compare(rel, cur, found, expected); err != nil {
		return err
	}
	if err := w.v.root.Remove(filepath.FromSlash(at)); err != nil {
		return fmt.Errorf("remove %s: %w", rel, err)
	}
	return nil
}

// withSentinel is an error that also matches a sentinel error, its message
// unchanged: a *ConflictError that is also ErrExists, a *ParseError that is
// also ErrBadFrontmatter.
type withSentinel struct {
	error
	also error
}

func (e withSentinel) Unwrap() []error { return []error{e.error, e.also} }

// ListState returns the names (as [Writer.ReadState] takes them) of the
// regular files under vaultmem's state folder dir, in byte order; none
// when dir does not exist. A symbolic link inside is neither listed nor
// followed.
func (w *Writer) ListState(dir string) ([]string, error) {
	rel, err := statePath(dir)
	if err != nil {
		return nil, err
	}
	if err := w.v.CheckLinks(rel); err != nil {
		return nil, err
	}
	var out []string
	err = fs.WalkDir(w.v.root.FS(), rel, func(p string, d fs.DirEntry, err error) error {
		switch {
		case errors.Is(err, fs.ErrNotExist) && p == rel:
			return fs.SkipAll
		case err != nil:
			return err
		case d.Type().IsRegular():
			out = append(out, strings.TrimPrefix(p, StateDir+"/"))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", rel, err)
	}
	slices.Sort(out)
	return out, nil
}
