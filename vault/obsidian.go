package vault

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"path/filepath"
	"reflect"

	"github.com/vaultmem/vaultmem/markdown"
)

// Obsidian is the running Obsidian app, reached by some means (its own
// command-line interface, see package obsidiancli), making a change to a
// note itself: so that a person with the note open sees it as Obsidian's
// own edit, and a move updates the links to the note. Paths are clean
// vault-relative slash paths of notes.
//
// The Writer calls it under its lock, after every check a direct write
// makes, and then reads the note: the file on disk, not the error
// returned, says what happened. A method may refuse a change it cannot
// make exactly (an error, nothing done): the Writer then writes the file
// itself. Implementations must be safe for concurrent use.
type Obsidian interface {
	// Create makes the new note p holding content.
	Create(ctx context.Context, p string, content []byte) error
	// Append adds text, as it is, at the end of the note p.
	Append(ctx context.Context, p string, text []byte) error
	// SetProperty sets the frontmatter key name of the note p to value,
	// as decoded from JSON (a string, float64 or bool; others may be
	// refused).
	SetProperty(ctx context.Context, p, name string, value any) error
	// Move renames the note from to the path to, updating the links to
	// it as Obsidian's settings say.
	Move(ctx context.Context, from, to string) error
}

// obsidianOp is the change of the note rel, found as l found it, to
// content that [Obsidian] can make: a new note or an append; nil for any
// other.
func obsidianOp(rel string, l locked, content []byte) func(context.Context, Obsidian) error {
	switch {
	case !l.found:
		return func(ctx context.Context, o Obsidian) error { return o.Create(ctx, rel, content) }
	case len(content) > len(l.cur) && bytes.HasPrefix(content, l.cur):
		text := content[len(l.cur):]
		return func(ctx context.Context, o Obsidian) error { return o.Append(ctx, rel, text) }
	}
	return nil
}

// viaObsidian lets Obsidian make the change op of the note rel, locked as
// l, that should leave it holding want, and returns the note's hash. It
// reports done when the note now is want, byte for byte or as Obsidian
// reads it (see sameNote: Obsidian writes YAML its own way); not done,
// and no error, when the note is as l found it (Obsidian failed, refused
// or is not used): the caller writes it itself. A note that is neither is
// a *ConflictError, never overwritten: someone else changed it meanwhile,
// or Obsidian made another change than asked.
func (w *Writer) viaObsidian(ctx context.Context, rel string, l locked, want []byte, op func(context.Context, Obsidian) error) (hash string, done bool, err error) {
	if w.opts.Obsidian == nil || op == nil || l.at != rel || ownFile(rel) {
		return "", false, nil
	}
	// Its error is not looked at: a change made but reported failed, or
	// the reverse, shows in the file.
	_ = op(ctx, w.opts.Obsidian)
	now, found, err := w.readNote(rel)
	switch {
	case err != nil:
		return "", false, fmt.Errorf("write %s: %w", rel, err)
	case found && sameNote(rel, now, want):
		return markdown.Hash(now), true, nil
	case found == l.found && (!found || bytes.Equal(now, l.cur)):
		return "", false, nil
	}
	return "", false, &ConflictError{Path: rel, Expected: hashIf(l.cur, l.found), Actual: hashIf(now, found)}
}

// sameNote reports whether the notes a and b at rel are one as Obsidian
// reads them: the same bytes, or the same body under frontmatter that
// parses to the same values, however its YAML is written.
func sameNote(rel string, a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	na, nb := markdown.Parse(rel, a), markdown.Parse(rel, b)
	if na.Frontmatter == nil || nb.Frontmatter == nil || !bytes.Equal(a[na.BodyStart:], b[nb.BodyStart:]) {
		return false
	}
	return reflect.DeepEqual(na.Frontmatter.JSON(), nb.Frontmatter.JSON())
}

// Move renames the note at the vault-relative path from to the path to,
// if it still has the hash expected ([AnyHash] to move whatever is
// there). With [WriterOptions.Obsidian] set, Obsidian moves it and
// updates the links to it; otherwise, or when Obsidian leaves the note
// where it was, the Writer renames the file itself, and links to the
// note are not updated. Missing folders of to are created.
//
// Errors: a *PathError (ErrInvalidPath) for an unsafe path, or a to that
// is not a valid new note name (see [CleanPath]); ErrNotFound (wrapped)
// when from does not exist; a *ConflictError (ErrConflict) when from
// changed since it was read, and one that also matches ErrExists when to
// exists (or differs only in case from a note or folder that does); a
// *LockError as for [Writer.Write]; I/O errors, wrapped.
func (w *Writer) Move(ctx context.Context, from, to, expected string) (err error) {
	src, err := cleanExisting(from)
	if err != nil {
		return err
	}
	dst, err := CleanPath(to)
	if err != nil {
		return err
	}
	if expected == "" {
		return fmt.Errorf("move %s: no expected hash given; pass the hash the note was read with, or vault.AnyHash", src)
	}
	l, err := w.begin(ctx, "move", src)
	if err != nil {
		return err
	}
	defer release(l.unlock, &err)
	if !l.found {
		return fmt.Errorf("move %s: %w", src, ErrNotFound)
	}
	if err := compare(src, l.cur, true, expected); err != nil {
		return err
	}
	dat, err := w.locate(dst)
	if err != nil {
		return err
	}
	if cur, found, err := w.readNote(dat); err != nil {
		return fmt.Errorf("move %s: %w", src, err)
	} else if found {
		return withSentinel{&ConflictError{Path: dst, Actual: markdown.Hash(cur)}, ErrExists}
	}
	if other, err := w.resolve(dat); err != nil {
		return err
	} else if other != dat {
		return withSentinel{&ConflictError{Path: dst, Other: caseClash(dat, other)}, ErrExists}
	}
	if o := w.opts.Obsidian; o != nil && l.at == src && dat == dst {
		_ = o.Move(ctx, src, dst) // the files say what happened, as in viaObsidian
		_, srcFound, err := w.readNote(src)
		if err != nil {
			return fmt.Errorf("move %s: %w", src, err)
		}
		_, dstFound, err := w.readNote(dst)
		if err != nil {
			return fmt.Errorf("move %s: %w", src, err)
		}
		switch {
		case !srcFound && dstFound:
			return nil
		case !srcFound: // gone from both: not Obsidian's move
			return &ConflictError{Path: src, Expected: markdown.Hash(l.cur)}
		case dstFound:
			return withSentinel{&ConflictError{Path: dst}, ErrExists}
		}
		// Obsidian left the note where it was: move it here. A change made
		// to it meanwhile is caught below.
	}
	if cur, found, err := w.readNote(l.at); err != nil {
		return fmt.Errorf("move %s: %w", src, err)
	} else if !found || !bytes.Equal(cur, l.cur) {
		return &ConflictError{Path: src, Expected: markdown.Hash(l.cur), Actual: hashIf(cur, found)}
	}
	if err := w.v.root.MkdirAll(filepath.FromSlash(path.Dir(dat)), 0o755); err != nil {
		return fmt.Errorf("move %s: %w", src, w.pathError(dst, err))
	}
	if err := w.v.root.Rename(filepath.FromSlash(l.at), filepath.FromSlash(dat)); err != nil {
		return fmt.Errorf("move %s to %s: %w", src, dst, unwrapPathError(err))
	}
	return nil
}

// hashIf is the hash of content when found, "" when not.
func hashIf(content []byte, found bool) string {
	if !found {
		return ""
	}
	return markdown.Hash(content)
}
