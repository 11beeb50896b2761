package app

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/vaultmem/vaultmem/frame"
	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/recall"
	"github.com/vaultmem/vaultmem/vault"
)

// The note use cases both front ends share (Show, Links, Walk,
// Read, Write) name a note by one rule, named's:
//
//   - A vault path comes first: the file there, its name matched
//     case-insensitively folder by folder as Obsidian matches it (see
//     vault.Writer.Resolve), read from disk, indexed or not.
//   - Else a note name as a [[wikilink]] writes it (brackets and a |label
//     allowed; case-insensitive; a path-qualified name matches a path's
//     end), looked up in the index. A name several notes have is refused
//     (class Invalid), listing them: a read or an edit must not guess which
//     note is meant, where a link in Obsidian would silently pick one. A
//     name no note has is vault.ErrNotFound; with NoSync (the caller synced
//     itself, or a watcher keeps the index, after a pause) the index is
//     synced once more first, so that a note written a moment before is
//     found.

// NoteText is a note's text as it is on disk.
type NoteText struct {
	// Path is the note's vault path, spelled as on disk.
	Path    string `json:"path"`
	Content string `json:"content"`
	// Hash is the content's hash, what an edit passes as its expected hash.
	Hash string `json:"hash"`
}

// ReadNoteRequest names the note ReadNote reads.
type ReadNoteRequest struct {
	// Note is a vault path or a note's name (see named's rule above).
	Note string `json:"note"`
	// PathOnly takes Note as a vault path alone, never a name (a
	// resource's URI).
	PathOnly bool `json:"path_only,omitempty"`
	// NoSync looks a name up in the index as it is (a front end that
	// synced itself); the index is synced once more when the name is not
	// found.
	NoSync bool `json:"no_sync,omitempty"`
}

// NoteRead is a note as Notes.Read gives it: its text and what its
// markdown holds.
type NoteRead struct {
	NoteText
	// Type is the frontmatter's type, "" when none.
	Type string `json:"type"`
	// Frontmatter holds dates as they are written ("2024-01-02").
	Frontmatter map[string]any `json:"frontmatter"`
	Body        string         `json:"body"`
	// Warnings name problems in the note (frontmatter that does not
	// parse, with its line); nil when there are none.
	Warnings []string `json:"warnings,omitempty"`
}

// Notes are the use cases on notes of one App: show, read, write, list,
// search and walk the links of notes, each once, with one policy for
// names (a wikilink's rules; a name several notes share is refused) and
// freshness. Get them with App.Notes.
type Notes struct{ a *App }

// Notes returns a's note use cases.
func (a *App) Notes() Notes { return Notes{a} }

// Read reads the note req names, by the name rule above (a path
// first, from disk, so that no sync is needed for it). A long-running App
// (Options.Resident) serves a note it read or wrote lately from memory
// while the file is unchanged. Errors: vault.ErrNotFound (wrapped) when no
// note has that path or name; an Invalid error for an ambiguous name or a
// path the vault refuses (vault.ErrInvalidPath, vault.ErrOutside);
// vault.ErrTooLarge; the index's when a name is looked up.
func (ns Notes) Read(ctx context.Context, req ReadNoteRequest) (NoteRead, error) {
	n, err := ns.readFile(req.Note)
	if errors.Is(err, vault.ErrNotFound) && !req.PathOnly {
		var p string
		if err = ns.readable(ctx, req.NoSync); err == nil {
			if p, err = ns.named(ctx, req.Note, req.NoSync); err == nil {
				n, err = ns.readFile(p)
			}
		}
	}
	if err != nil {
		return NoteRead{}, err
	}
	parsed := markdown.Parse(n.Path, []byte(n.Content))
	out := NoteRead{NoteText: n, Type: parsed.Type(), Frontmatter: parsed.Frontmatter.JSON(), Body: string(parsed.Body())}
	for _, w := range parsed.Warnings {
		out.Warnings = append(out.Warnings, w.Error())
	}
	return out, nil
}

// Framed is n's content in the frame every text vaultmem hands an
// agent wears (package frame), under preamble, with the note's kind as
// its source (MEMORY.md as the memories' list): what an agent reads of a
// note as context rather than to edit it.
func (ns Notes) Framed(preamble string, n NoteRead) string {
	a := ns.a
	source := frame.SourceList
	if n.Path != a.memoryStore().ListFile() {
		kind, _ := n.Frontmatter["type"].(string)
		source = recall.SourceOf(kind)
	}
	return frame.Frame(preamble, frame.Item{Source: source, Path: n.Path, Text: n.Content})
}

// FrameJSON is doc (JSON) in the frame every text vaultmem hands an agent
// wears, under preamble: the notes' text it holds marked as data, and
// the JSON still decoding to doc.
func FrameJSON(preamble string, doc []byte) string { return frame.JSON(preamble, doc) }

// EditResult is what an edit of a note did: its path, its new hash,
// and whether it was created, updated or left unchanged.
type EditResult = vault.EditResult

// WriteNoteRequest is an edit of one note (see vault.Edit): frontmatter
// keys to set (the note's others keep their bytes), a body to replace
// (nil keeps it), and the hash the caller read the note with ("" asks for
// no check of a note that exists, and for a new note when none does).
type WriteNoteRequest struct {
	Path         string         `json:"path"`
	Frontmatter  map[string]any `json:"frontmatter,omitempty"`
	Body         *string        `json:"body,omitempty"`
	ExpectedHash string         `json:"expected_hash,omitempty"`
}

// NoteWritten is what Notes.Write did.
type NoteWritten struct {
	EditResult
	// ListError says why MEMORY.md could not list a memory written as a
	// note (the note itself is written).
	ListError string `json:"memory_index_error,omitempty"`
}

// Write makes the edit req asks of one note, through the vault's one
// Writer. Relisting, the same rule as Remember's: when the note is a
// memory after the edit, or was one before it (its type changed), the
// index learns of it at once and MEMORY.md is relisted; a failure there
// leaves the note written and is told in ListError. Errors: the Writer's
// (*vault.ConflictError for a note changed since it was read or that
// exists when a new one was asked for; vault.ErrInvalidPath,
// vault.ErrOutside, vault.ErrTooLarge, markdown.ErrBadFrontmatter).
func (ns Notes) Write(ctx context.Context, req WriteNoteRequest) (NoteWritten, error) {
	a := ns.a
	wasMemory := false
	if before, err := ns.readFile(req.Path); err == nil {
		wasMemory = memory.IsType(markdown.Parse(before.Path, []byte(before.Content)).Type())
	}
	res, err := a.writer.Apply(ctx, req.Path, vault.Edit{Frontmatter: req.Frontmatter, Body: req.Body, ExpectedHash: req.ExpectedHash})
	if err != nil {
		return NoteWritten{}, err
	}
	ns.cache(res.Path)
	out := NoteWritten{EditResult: res}
	after, err := ns.readFile(res.Path)
	isMemory := err == nil && memory.IsType(markdown.Parse(after.Path, []byte(after.Content)).Type())
	if !isMemory && !wasMemory {
		return out, nil
	}
	// The index learns of the note first: a watcher would only after a
	// pause, and MEMORY.md is made from the index.
	if _, err := a.Sync(ctx, SyncOptions{Always: true}); err != nil {
		out.ListError = err.Error()
	} else if _, err := a.memoryStore().Relist(ctx); err != nil {
		out.ListError = err.Error()
	}
	return out, nil
}

// LinkHop is one link a walk followed, Depth links away from where it
// began.
type LinkHop = index.Hop

// MaxLinkDepth is how far Notes.Walk may go.
const MaxLinkDepth = index.MaxDepth

// WalkRequest is a walk of the link graph from one note.
type WalkRequest struct {
	// Note is a vault path or a note's name (the name rule above).
	Note string `json:"note"`
	// Direction is "out" (the links the note writes), "in" (its
	// backlinks) or "both"; "" is both.
	Direction string `json:"direction,omitempty"`
	// Depth is how many links away to go, 1 to MaxLinkDepth; 0 is 1.
	Depth int `json:"depth,omitempty"`
	// Page chooses a page of the links found.
	Page Page `json:"page"`
	// NoSync walks the index as it is (a front end that synced itself).
	NoSync bool `json:"no_sync,omitempty"`
}

// LinkWalk is a page of the links a walk followed.
type LinkWalk struct {
	Links []LinkHop `json:"links"`
	PageInfo
}

// Walk follows the links from or to the note req names, up to
// req.Depth links away, and returns a page of them. Paging is Links's
// and the task lists': a Page checked by Page.Check (a limit of 0 is
// MaxLimit), answered with a PageInfo whose NextCursor reads the next
// page. Syncs first unless req.NoSync. Errors: an Invalid error for a
// direction or depth out of range or a page out of bounds
// (index.ErrBadPage); vault.ErrNotFound for a note that is not there;
// the index's.
func (ns Notes) Walk(ctx context.Context, req WalkRequest) (LinkWalk, error) {
	a := ns.a
	dir := req.Direction
	if dir == "" {
		dir = string(index.Both)
	}
	if dir != string(index.Out) && dir != string(index.In) && dir != string(index.Both) {
		return LinkWalk{}, invalid(fmt.Errorf("invalid direction %q: want out, in or both", req.Direction))
	}
	depth := req.Depth
	if depth == 0 {
		depth = 1
	}
	if depth < 1 || depth > index.MaxDepth {
		return LinkWalk{}, invalid(fmt.Errorf("invalid depth %d: from 1 to %d", req.Depth, index.MaxDepth))
	}
	page, err := req.Page.Check()
	if err != nil {
		return LinkWalk{}, err
	}
	if err := ns.readable(ctx, req.NoSync); err != nil {
		return LinkWalk{}, err
	}
	p, err := ns.indexed(ctx, req.Note, true)
	if err != nil {
		return LinkWalk{}, err
	}
	all, err := a.ix.Graph().Walk(ctx, p, index.Direction(dir), depth)
	if err != nil {
		return LinkWalk{}, err
	}
	links, info, err := index.Paginate(all, page)
	if err != nil {
		return LinkWalk{}, err
	}
	return LinkWalk{Links: NonNil(links), PageInfo: info}, nil
}

// ParseCursor reads a page's cursor (a PageInfo's NextCursor): the offset
// it stands for, 0 for "". Errors: index.ErrBadPage (Invalid).
func ParseCursor(cursor string) (int, error) { return index.ParseCursor(cursor) }

// HasIndex reports whether the App was opened with its index (not
// Options.NoIndex): what a front end that serves reads requires.
func (a *App) HasIndex() bool { return a.ix != nil }

// CheckLessons opens the lessons' store (once; see Lessons) and returns
// why it cannot be used: a server checks it at its start, so that a
// vault whose lessons folder is unusable fails there, not in a tool call.
func (a *App) CheckLessons() error {
	_, err := a.openLessons()
	return err
}

// readable makes the index current for a read, the policy of the read use
// cases: synced first, or, with noSync, as it is but refused when no
// sync ever filled it.
func (ns Notes) readable(ctx context.Context, noSync bool) error {
	a := ns.a
	if noSync {
		return a.RequireBuilt(ctx)
	}
	return a.fresh(ctx, false)
}

// noteRef is the note name a [[wikilink]]-like name stands for: brackets
// and a |label dropped.
func noteRef(name string) string {
	ref := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(name), "[["), "]]"))
	ref, _, _ = strings.Cut(ref, "|")
	return strings.TrimSpace(ref)
}

// named is the vault path of the one note name names as a
// [[wikilink]] would (see the rule above): synced once more when no note
// has it and the caller did not sync (noSync). Errors: vault.ErrNotFound
// (wrapped) for a name no note has; an Invalid error listing the notes
// of an ambiguous name; the index's.
func (ns Notes) named(ctx context.Context, name string, noSync bool) (string, error) {
	a := ns.a
	ref := noteRef(name)
	paths, err := a.ix.Graph().Named(ctx, ref)
	if err == nil && len(paths) == 0 && noSync {
		if _, err = a.Sync(ctx, SyncOptions{Always: true}); err == nil {
			paths, err = a.ix.Graph().Named(ctx, ref)
		}
	}
	switch {
	case err != nil:
		return "", fmt.Errorf("look up the note named %q: %w", name, err)
	case len(paths) == 0:
		return "", fmt.Errorf("no note has the path or name %q: %w", name, vault.ErrNotFound)
	case len(paths) > 1:
		return "", invalid(fmt.Errorf("ambiguous: %q names %d notes: %s; give the path of the one meant", name, len(paths), strings.Join(paths, ", ")))
	}
	return paths[0], nil
}

// indexed is the vault path of the indexed note name names, by the
// name rule: a vault path (matched case-insensitively) the index holds,
// else a note name.
func (ns Notes) indexed(ctx context.Context, name string, noSync bool) (string, error) {
	a := ns.a
	if p, err := a.writer.Resolve(name); err == nil {
		found, err := a.ix.Searcher().List(ctx, index.Query{Paths: []string{p}})
		if err != nil {
			return "", err
		}
		if len(found) > 0 {
			return p, nil
		}
	}
	return ns.named(ctx, name, noSync)
}

// readFile reads the note at vault path p (matched case-insensitively
// as Obsidian matches names), through the cache of a long-running App
// when the file has not changed since it last read or wrote it.
func (ns Notes) readFile(p string) (NoteText, error) {
	a := ns.a
	rel, err := a.writer.Resolve(p)
	if err != nil {
		return NoteText{}, err
	}
	if a.l1 != nil {
		if info, err := a.Vault.Root().Lstat(rel); err == nil {
			if n, ok := a.l1.get(rel, info); ok {
				return n, nil
			}
		}
	}
	content, hash, err := a.writer.Read(rel)
	if err != nil {
		return NoteText{}, err
	}
	n := NoteText{Path: rel, Content: string(content), Hash: hash}
	if a.l1 != nil {
		a.l1.put(n, a.Vault.Root())
	}
	return n, nil
}

// cache puts the note at p, just written, in a long-running App's
// cache, so that the reads that follow a write are served from memory.
func (ns Notes) cache(p string) {
	a := ns.a
	if a.l1 == nil {
		return
	}
	if content, hash, err := a.writer.Read(p); err == nil {
		a.l1.put(NoteText{Path: p, Content: string(content), Hash: hash}, a.Vault.Root())
	}
}

// OrphansRequest asks for the notes no link joins to another.
type OrphansRequest struct {
	// NoSync answers from the index as it is (a front end that synced
	// itself).
	NoSync bool `json:"no_sync,omitempty"`
}

// Orphans returns the vault paths of the notes with no resolved link to
// or from another note or file (a note's links to itself do not count),
// sorted; the front end pages them (Paginate). Syncs first unless
// req.NoSync. Errors: the index's.
func (ns Notes) Orphans(ctx context.Context, req OrphansRequest) ([]string, error) {
	a := ns.a
	if err := ns.readable(ctx, req.NoSync); err != nil {
		return nil, err
	}
	return a.ix.Graph().Orphans(ctx)
}

// IndexReadOnly says why the index cannot be written ("" when it can):
// a front end refuses a command that only writes it (index) with it.
func (a *App) IndexReadOnly() string { return a.ix.ReadOnly() }

// Dir is the vault's folder, absolute.
func (a *App) Dir() string { return a.Vault.Dir }
