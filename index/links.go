package index

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/vaultmem/vaultmem/graph"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/text"
	"github.com/vaultmem/vaultmem/vault"
)

// The index's link queries: every link of the vault as it was resolved at
// the last sync (by graph's Obsidian rules), for the CLI and the MCP
// server alike.

// Edge is one link. Source and Target are vault-relative slash paths; an
// unresolved link has Target set to the link's target as written and
// Resolved false.
type Edge struct {
	Source   string `json:"source"`
	Target   string `json:"target"`
	Resolved bool   `json:"resolved"`
	// Heading is the heading fragment ("H1#H2" when nested), Block the block
	// id without '^', Label the display text ("" when none).
	Heading     string `json:"heading"`
	Block       string `json:"block"`
	Label       string `json:"label"`
	Embed       bool   `json:"embed"`
	Frontmatter bool   `json:"frontmatter"`
	Markdown    bool   `json:"markdown"`
	Line        int    `json:"line"`
}

// EdgeFilter chooses links for [Graph.Edges]; the zero value chooses all.
type EdgeFilter struct {
	// From keeps the links written in this note.
	From string
	// To keeps the links that resolve to this note or file.
	To string
	// Unresolved keeps the links that match no file.
	Unresolved bool
}

// Edges returns the links f chooses, by source path, each note's in the
// order it wrote them.
func (g *Graph) Edges(ctx context.Context, f EdgeFilter) ([]Edge, error) {
	return g.edges(ctx, f, -1, 0)
}

// EdgePage returns the page p of the links f chooses (see Edges), and
// where it lies among them all; the database counts and skips, so a page
// of a large vault costs what the page holds. Errors: ErrBadPage; the
// cache's.
func (g *Graph) EdgePage(ctx context.Context, f EdgeFilter, p Page) ([]Edge, PageInfo, error) {
	p, err := p.Check()
	if err != nil {
		return nil, PageInfo{}, err
	}
	where, args := f.where()
	var total int
	if err := g.ix.db.QueryRowContext(ctx, "SELECT count(*) FROM edges e JOIN notes n ON n.id = e.source_id"+where, args...).Scan(&total); err != nil {
		return nil, PageInfo{}, fmt.Errorf("read links %s: %w", g.ix.path, err)
	}
	edges, err := g.edges(ctx, f, p.Limit, p.Offset)
	if err != nil {
		return nil, PageInfo{}, err
	}
	return edges, pageInfo(total, p.Offset, len(edges)), nil
}

// where is f as a WHERE clause over edges e joined to their notes n.
func (f EdgeFilter) where() (string, []any) {
	var where []string
	var args []any
	if f.From != "" {
		where, args = append(where, "n.path = ?"), append(args, f.From)
	}
	if f.To != "" {
		where, args = append(where, "e.target = ? AND e.resolved"), append(args, f.To)
	}
	if f.Unresolved {
		where = append(where, "NOT e.resolved")
	}
	if len(where) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(where, " AND "), args
}

// edges reads limit links (all when negative) from offset on.
func (g *Graph) edges(ctx context.Context, f EdgeFilter, limit, offset int) ([]Edge, error) {
	where, args := f.where()
	rows, err := g.ix.db.QueryContext(ctx, `SELECT n.path, e.target, e.resolved, e.heading, e.block, e.label, e.embed, e.frontmatter, e.markdown, e.line
		FROM edges e JOIN notes n ON n.id = e.source_id`+where+` ORDER BY n.path, e.seq LIMIT ? OFFSET ?`, append(args, limit, offset)...)
	if err != nil {
		return nil, fmt.Errorf("read links %s: %w", g.ix.path, err)
	}
	defer rows.Close()
	out := []Edge{}
	for rows.Next() {
		var e Edge
		if err := rows.Scan(&e.Source, &e.Target, &e.Resolved, &e.Heading, &e.Block, &e.Label, &e.Embed, &e.Frontmatter, &e.Markdown, &e.Line); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// Orphans returns the notes with no resolved link to or from another note
// or file (a note's links to itself do not count), by path.
func (g *Graph) Orphans(ctx context.Context) ([]string, error) {
	return g.paths(ctx, `SELECT n.path FROM notes n
		WHERE NOT EXISTS (SELECT 1 FROM edges e WHERE e.source_id = n.id AND e.resolved AND e.target != n.path)
		AND NOT EXISTS (SELECT 1 FROM edges e JOIN notes s ON s.id = e.source_id WHERE e.target = n.path AND e.resolved AND s.id != n.id)
		ORDER BY n.path`)
}

// Lookup finds the note a user names: a vault path (".md" optional,
// case-insensitive) or a note name as a [[wikilink]] would name it,
// resolved by the same rules as links. It returns an error matching
// vault.ErrNotFound when no note has that name.
func (g *Graph) Lookup(ctx context.Context, nameOrPath string) (string, error) {
	candidates, err := g.paths(ctx, "SELECT path FROM notes WHERE lower(name) = ? ORDER BY path", graph.LinkKey(nameOrPath))
	if err != nil {
		return "", err
	}
	if p, ok := graph.New(candidates, nil).Lookup(nameOrPath); ok {
		return p, nil
	}
	return "", fmt.Errorf("%s: %w: no note has that vault path or name", nameOrPath, vault.ErrNotFound)
}

// LinkText is what a wikilink to the note at p says: its name when a link
// of that name resolves to p, else its path without ".md".
func (g *Graph) LinkText(ctx context.Context, p string) string {
	name := markdown.NameOf(p)
	if got, err := g.Lookup(ctx, name); err == nil && got == p {
		return name
	}
	return strings.TrimSuffix(p, markdown.Ext)
}

// Direction says which links [Graph.Walk] follows.
type Direction string

// Directions of a walk.
const (
	Out  Direction = "out"  // the links a note writes
	In   Direction = "in"   // the links to a note (backlinks)
	Both Direction = "both" // both
)

// Hop is one link a walk followed, Depth links away from where it began.
type Hop struct {
	Source string `json:"source"`
	Target string `json:"target"`
	Depth  int    `json:"depth"`
}

// MaxDepth is how far a walk may go.
const MaxDepth = 5

// Walk follows resolved links from the note at p, breadth first, up to
// depth links away (1 to MaxDepth), in direction d, and returns each link
// once, at the depth it was first met: from each note the ones it links to
// in link order, then those linking to it by path. Links from a note to
// itself are left out. Errors: ErrBadQuery for a depth or direction out
// of bounds; the cache's.
func (g *Graph) Walk(ctx context.Context, p string, d Direction, depth int) ([]Hop, error) {
	if depth < 1 || depth > MaxDepth {
		return nil, fmt.Errorf("%w: depth %d: from 1 to %d", ErrBadQuery, depth, MaxDepth)
	}
	if d != Out && d != In && d != Both {
		return nil, fmt.Errorf("%w: direction %q: want out, in or both", ErrBadQuery, d)
	}
	out := []Hop{}
	seen := map[string]bool{p: true}
	met := map[[2]string]bool{}
	frontier := []string{p}
	for level := 1; level <= depth && len(frontier) > 0; level++ {
		var next []string
		hop := func(source, target, reached string) {
			if source == target || met[[2]string{source, target}] {
				return
			}
			met[[2]string{source, target}] = true
			out = append(out, Hop{source, target, level})
			if !seen[reached] {
				seen[reached] = true
				next = append(next, reached)
			}
		}
		for _, from := range frontier {
			if d != In {
				targets, err := g.Outgoing(ctx, from)
				if err != nil {
					return nil, err
				}
				for _, t := range targets {
					hop(from, t, t)
				}
			}
			if d != Out {
				sources, err := g.Backlinks(ctx, from)
				if err != nil {
					return nil, err
				}
				for _, s := range sources {
					hop(s, from, s)
				}
			}
		}
		frontier = next
	}
	return out, nil
}

// Outgoing returns the notes and files the note at path links to
// (resolved links), each once, in link order.
func (g *Graph) Outgoing(ctx context.Context, path string) ([]string, error) {
	return g.paths(ctx, `SELECT e.target FROM edges e JOIN notes n ON n.id = e.source_id
		WHERE n.path = ? AND e.resolved GROUP BY e.target ORDER BY min(e.seq)`, path)
}

// Backlinks returns the notes that link to path, each once, by path.
func (g *Graph) Backlinks(ctx context.Context, path string) ([]string, error) {
	return g.paths(ctx, `SELECT DISTINCT n.path FROM edges e JOIN notes n ON n.id = e.source_id
		WHERE e.target = ? AND e.resolved AND n.path != ? ORDER BY n.path`, path, path)
}

// Linked returns the notes that the note at path links to (resolved
// links) and the notes that link to it, each once, without path itself.
func (g *Graph) Linked(ctx context.Context, path string) ([]string, error) {
	out, err := g.paths(ctx, `SELECT e.target FROM edges e JOIN notes n ON n.id = e.source_id
			WHERE n.path = ? AND e.resolved AND e.target LIKE '%.md'
		UNION SELECT n.path FROM edges e JOIN notes n ON n.id = e.source_id WHERE e.target = ? AND e.resolved`, path, path)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(out, func(p string) bool { return p == path }), nil
}

// paths returns the paths query (constant SQL, see prepared) selects.
func (g *Graph) paths(ctx context.Context, query string, args ...any) ([]string, error) {
	stmt, err := g.ix.stmts.prepared(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("read links %s: %w", g.ix.path, err)
	}
	rows, err := stmt.QueryContext(ctx, args...)
	if err != nil {
		return nil, fmt.Errorf("read links %s: %w", g.ix.path, err)
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// Labelled returns the notes that the notes at paths link to with a
// label holding one of words ([[Alice Smith|the boss]] calls Alice
// Smith "the boss"), each once: a label is a name the vault gives a note
// besides its title and aliases. Words match as keyword search matches
// them.
func (g *Graph) Labelled(ctx context.Context, paths []string, words string) ([]string, error) {
	q := newKeywordQuery(words)
	if len(q.terms) == 0 || len(paths) == 0 {
		return []string{}, nil
	}
	want := map[string]bool{}
	for _, t := range q.terms {
		want[t] = true
	}
	args := make([]any, len(paths))
	for i, p := range paths {
		args[i] = p
	}
	rows, err := g.ix.db.QueryContext(ctx, `SELECT e.target, e.label FROM edges e JOIN notes n ON n.id = e.source_id
		WHERE n.path IN (?`+strings.Repeat(", ?", len(paths)-1)+`) AND e.label != '' AND e.resolved AND e.target LIKE '%.md'
		ORDER BY n.path, e.seq`, args...)
	if err != nil {
		return nil, fmt.Errorf("labelled notes: %w", err)
	}
	defer rows.Close()
	seen := map[string]bool{}
	out := []string{}
	for rows.Next() {
		var target, label string
		if err := rows.Scan(&target, &label); err != nil {
			return nil, err
		}
		if seen[target] {
			continue
		}
		for _, t := range text.Analyze(label) {
			if want[t] {
				seen[target] = true
				out = append(out, target)
				break
			}
		}
	}
	return out, rows.Err()
}
