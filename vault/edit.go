package vault

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/vaultmem/vaultmem/markdown"
)

// Edit is a change to one note: frontmatter keys to set and, optionally, a
// new body. It is what an agent asks for when it writes a note (the MCP
// write_note tool, the CLI's write command).
type Edit struct {
	// Frontmatter holds the keys to set, with values as decoded from JSON
	// (see [FromJSON]); the note's other keys keep their bytes.
	Frontmatter map[string]any
	// Body, when not nil, replaces the body; nil keeps it.
	Body *string
	// ExpectedHash is the hash the caller read the note with: the edit is
	// refused when the note changed since. "" asks for no check when the
	// note exists (it is still compared with what Apply reads, right
	// before the write) and for a new note when it does not.
	ExpectedHash string
}

// EditResult is what [Writer.Apply] did.
type EditResult struct {
	// Path is the note written, as it is on disk (see [Writer.Resolve]).
	Path string `json:"path"`
	Hash string `json:"hash"`
	// Status is "created", "updated" or "unchanged".
	Status string `json:"status"`
}

// Apply makes the edit e to the note at p, found as [Writer.Resolve] finds
// it (a name that differs only in case edits the note that is there).
// A new note gets the frontmatter keys in sorted order, then the body; a
// note without keys to set is written without frontmatter.
//
// Errors: a *PathError (ErrInvalidPath, perhaps ErrOutside) for an unsafe
// path; a *ConflictError (ErrConflict) when the note changed since
// ExpectedHash was read, or was deleted; ErrBadFrontmatter when keys are to
// be set in frontmatter that does not parse; ErrTooLarge; the Writer's
// other errors.
func (w *Writer) Apply(ctx context.Context, p string, e Edit) (EditResult, error) {
	rel, err := w.Resolve(p)
	if err != nil {
		return EditResult{}, err
	}
	current, hash, err := w.Read(rel)
	exists := err == nil
	if err != nil && !errors.Is(err, ErrNotFound) {
		return EditResult{}, err
	}
	var next []byte
	switch {
	case !exists:
		if e.ExpectedHash != "" {
			return EditResult{}, &ConflictError{Path: rel, Expected: e.ExpectedHash}
		}
		next = newNote(e)
	default:
		if e.ExpectedHash != "" && e.ExpectedHash != hash {
			return EditResult{}, &ConflictError{Path: rel, Expected: e.ExpectedHash, Actual: hash}
		}
		next = current
		for _, k := range sortedKeys(e.Frontmatter) {
			if next, err = markdown.SetFrontmatter(rel, next, k, markdown.FromJSON(e.Frontmatter[k])); err != nil {
				return EditResult{}, fmt.Errorf("edit %s: %w", rel, err)
			}
		}
		if e.Body != nil {
			next = markdown.SetBody(next, *e.Body)
		}
	}
	expected := hash // compare-before-write against what was read above
	if !exists {
		expected = ""
	}
	newHash, err := w.write(ctx, rel, next, expected, CleanPath, setProperty(rel, exists, e))
	if err != nil {
		return EditResult{}, err
	}
	status := "updated"
	switch {
	case !exists:
		status = "created"
	case newHash == hash:
		status = "unchanged"
	}
	return EditResult{Path: rel, Hash: newHash, Status: status}, nil
}

// setProperty is the edit e of the note rel as [Obsidian] makes it: one
// key set in a note that exists, the body kept; nil for any other edit.
func setProperty(rel string, exists bool, e Edit) func(context.Context, Obsidian) error {
	if !exists || e.Body != nil || len(e.Frontmatter) != 1 {
		return nil
	}
	for k, v := range e.Frontmatter {
		return func(ctx context.Context, o Obsidian) error { return o.SetProperty(ctx, rel, k, v) }
	}
	return nil
}

// newNote is the content of a note made by e.
func newNote(e Edit) []byte {
	body := ""
	if e.Body != nil {
		body = *e.Body
	}
	if len(e.Frontmatter) == 0 { // no frontmatter at all, not an empty one
		return []byte(strings.TrimRight(body, "\n") + "\n")
	}
	fields := make([]markdown.Field, 0, len(e.Frontmatter))
	for _, k := range sortedKeys(e.Frontmatter) {
		fields = append(fields, markdown.Field{Key: k, Value: markdown.FromJSON(e.Frontmatter[k])})
	}
	return markdown.Format(fields, body)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
