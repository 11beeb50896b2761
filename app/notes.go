package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/vault"
)

// The read use cases the front ends share: each brings the index up to
// date first (nothing while a watcher keeps it current), refuses an index
// no sync has filled, and answers from it. A running server answers them
// for CLI processes (see Handle), with the same code.

// fresh brings the index up to date for a read (vectors when it searches
// by them) and refuses an empty one.
func (a *App) fresh(ctx context.Context, vectors bool) error {
	st, err := a.Sync(ctx, SyncOptions{Vectors: vectors})
	if err != nil {
		return err
	}
	if a.opts.OnSync != nil {
		a.opts.OnSync(st)
	}
	return a.RequireBuilt(ctx)
}

// NoteRequest names a note: a vault path ("memory/pnpm.md", .md optional)
// or a note name as a [[wikilink]] would name it, case-insensitive.
type NoteRequest struct {
	Note string `json:"note"`
}

// NoteView is a note as show gives it: its own content (headings, blocks,
// frontmatter, as read now) and what the index knows of it (type, title,
// tags, links, backlinks).
type NoteView struct {
	Path        string             `json:"path"`
	Name        string             `json:"name"`
	Type        string             `json:"type"`
	Title       string             `json:"title"`
	Aliases     []string           `json:"aliases"`
	Tags        []string           `json:"tags"`
	Frontmatter map[string]any     `json:"frontmatter"`
	Headings    []markdown.Heading `json:"headings"`
	Blocks      []markdown.Block   `json:"blocks"`
	Links       []index.Edge       `json:"links"`
	Backlinks   []index.Edge       `json:"backlinks"`
	Hash        string             `json:"hash"`
	Warnings    []string           `json:"warnings"`
}

// Show returns the note req names, by the note use cases' name rule (see
// notes_uc.go: a path, else a name; an ambiguous name is refused), the
// index brought up to date first. Errors: vault.ErrNotFound (wrapped)
// when no note has that path or name; an Invalid error for an ambiguous
// name; the index's.
func (ns Notes) Show(ctx context.Context, req NoteRequest) (NoteView, error) {
	a := ns.a
	if err := a.fresh(ctx, false); err != nil {
		return NoteView{}, err
	}
	p, err := ns.indexed(ctx, req.Note, false)
	if err != nil {
		return NoteView{}, err
	}
	n, err := vault.ReadNote(a.Vault.FS(), p, a.Config.MaxNoteSize)
	if err != nil {
		return NoteView{}, err
	}
	found, err := a.ix.Searcher().List(ctx, index.Query{Paths: []string{p}})
	if err != nil {
		return NoteView{}, err
	}
	if len(found) == 0 {
		return NoteView{}, fmt.Errorf("%s: %w", p, vault.ErrNotFound)
	}
	info := found[0]
	view := NoteView{Path: p, Name: info.Name, Type: info.Type, Title: info.Title, Aliases: info.Aliases, Tags: info.Tags,
		Frontmatter: n.Frontmatter.JSON(), Headings: NonNil(n.Headings), Blocks: NonNil(n.Blocks), Hash: n.Hash, Warnings: []string{}}
	if view.Links, err = a.ix.Graph().Edges(ctx, index.EdgeFilter{From: p}); err != nil {
		return NoteView{}, err
	}
	if view.Backlinks, err = a.ix.Graph().Edges(ctx, index.EdgeFilter{To: p}); err != nil {
		return NoteView{}, err
	}
	for _, w := range n.Warnings {
		view.Warnings = append(view.Warnings, w.Error())
	}
	return view, nil
}

// LinksRequest chooses links: every link, those to one note (Note, a path
// or name), or the unresolved; a page of them.
type LinksRequest struct {
	Note       string     `json:"note,omitempty"`
	Unresolved bool       `json:"unresolved,omitempty"`
	Page       index.Page `json:"page"`
}

// Links is a page of links.
type Links struct {
	// Note is the note the links point to, when one was named.
	Note  string         `json:"note,omitempty"`
	Edges []index.Edge   `json:"edges"`
	Page  index.PageInfo `json:"page"`
}

// Links returns the links req chooses, the note named by the note use
// cases' name rule (an ambiguous name is refused), the index brought up
// to date first. Errors: index.ErrBadPage for a page out of bounds;
// vault.ErrNotFound for a note that is not there; an Invalid error for an
// ambiguous name.
func (ns Notes) Links(ctx context.Context, req LinksRequest) (Links, error) {
	a := ns.a
	if err := a.fresh(ctx, false); err != nil {
		return Links{}, err
	}
	var out Links
	f := index.EdgeFilter{Unresolved: req.Unresolved}
	if req.Note != "" {
		p, err := ns.indexed(ctx, req.Note, false)
		if err != nil {
			return Links{}, err
		}
		out.Note, f.To = p, p
	}
	edges, info, err := a.ix.Graph().EdgePage(ctx, f, req.Page)
	if err != nil {
		return Links{}, err
	}
	out.Edges, out.Page = NonNil(edges), info
	return out, nil
}

// ListRequest chooses notes: of one frontmatter type ("none": without
// one), with one tag (or a tag nested under it), in one folder; a page of
// them.
type ListRequest struct {
	Type   string     `json:"type,omitempty"`
	Tag    string     `json:"tag,omitempty"`
	Folder string     `json:"folder,omitempty"`
	Page   index.Page `json:"page"`
	// NoSync lists from the index as it is (a front end that synced
	// itself).
	NoSync bool `json:"no_sync,omitempty"`
}

// ListItem is a note as list gives it.
type ListItem struct {
	Path        string   `json:"path"`
	Name        string   `json:"name"`
	Type        string   `json:"type"`
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Tags        []string `json:"tags"`
}

// List is a page of notes.
type List struct {
	Notes []ListItem     `json:"notes"`
	Page  index.PageInfo `json:"page"`
}

// List returns the notes req chooses. Errors: index.ErrBadPage.
func (ns Notes) List(ctx context.Context, req ListRequest) (List, error) {
	a := ns.a
	var err error
	if req.NoSync {
		err = a.RequireBuilt(ctx)
	} else {
		err = a.fresh(ctx, false)
	}
	if err != nil {
		return List{}, err
	}
	q := index.Query{Type: strings.ToLower(strings.TrimSpace(req.Type)), Tag: req.Tag, Folder: req.Folder}
	notes, info, err := a.ix.Searcher().ListPage(ctx, q, req.Page)
	if err != nil {
		return List{}, err
	}
	out := List{Notes: make([]ListItem, len(notes)), Page: info}
	for i, n := range notes {
		out.Notes[i] = ListItem{Path: n.Path, Name: n.Name, Type: n.Type, Title: n.Title, Description: n.Description, Tags: n.Tags}
	}
	return out, nil
}

// SearchRequest is a search of the notes' chunks (see index.Query).
type SearchRequest struct {
	Query  string     `json:"query"`
	Mode   index.Mode `json:"mode"`
	Type   string     `json:"type,omitempty"`
	Tag    string     `json:"tag,omitempty"`
	Folder string     `json:"folder,omitempty"`
	// All includes the notes left out otherwise: archived memories and
	// Dream's log.
	All bool `json:"all,omitempty"`
	// Limit and Offset choose a page of the results.
	Limit  int `json:"limit"`
	Offset int `json:"offset,omitempty"`
	// NoSync searches the index as it is.
	NoSync bool `json:"no_sync,omitempty"`
}

// Search is a page of search results.
type Search struct {
	Results []index.Result `json:"results"`
	// NextOffset is the next page's offset, 0 when there is none.
	NextOffset int `json:"next_offset,omitempty"`
	// EmbedError says why the results are keyword only, when vectors
	// could not be made.
	EmbedError string `json:"embed_error,omitempty"`
}

// Check refuses a search that cannot be run: a query with no word to
// search for (ErrNoQuery), or over index.MaxQueryBytes, a page out of
// bounds (an Invalid error). Search checks with it, and a front end may
// before it opens the vault, adding its own hint to the same words.
func (req SearchRequest) Check() error {
	switch q := strings.TrimSpace(req.Query); {
	case len(q) > index.MaxQueryBytes:
		return fmt.Errorf("%w: the query is %d bytes, over the %d-byte limit", index.ErrBadQuery, len(q), index.MaxQueryBytes)
	case len(index.Terms(q)) == 0:
		return ErrNoQuery
	case req.Limit < 1 || req.Limit > index.MaxLimit || req.Offset < 0 || req.Offset > index.MaxLimit:
		return invalid(fmt.Errorf("limit from 1 to %d, and offset from 0 to %d", index.MaxLimit, index.MaxLimit))
	}
	return nil
}

// Search finds the chunks that best match req.Query, the index brought
// up to date as the search runs (see WhileSyncing). Errors: ErrNoQuery;
// an Invalid error for a page out of bounds; the index's.
func (ns Notes) Search(ctx context.Context, req SearchRequest) (Search, error) {
	a := ns.a
	if err := req.Check(); err != nil {
		return Search{}, err
	}
	q := index.Query{Text: req.Query, Mode: req.Mode, Limit: req.Offset + req.Limit + 1,
		Type: req.Type, Tag: req.Tag, Folder: req.Folder, All: req.All}
	search := func(ctx context.Context, _ bool) ([]index.Result, error) { return a.ix.Searcher().Search(ctx, q) }
	var out Search
	var results []index.Result
	var err error
	if req.NoSync {
		if err := a.RequireBuilt(ctx); err != nil {
			return Search{}, err
		}
		results, err = search(ctx, false)
	} else {
		var st index.Stats
		results, st, err = WhileSyncing(ctx, a, search)
		if a.opts.OnSync != nil {
			a.opts.OnSync(st)
		}
		if req.Mode != index.Keyword {
			out.EmbedError = st.EmbedError
		}
	}
	if err != nil {
		return Search{}, err
	}
	if len(results) > req.Offset+req.Limit {
		out.NextOffset = req.Offset + req.Limit
	}
	out.Results = NonNil(results[min(req.Offset, len(results)):min(req.Offset+req.Limit, len(results))])
	return out, nil
}

// NonNil makes JSON print [] rather than null.
func NonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
