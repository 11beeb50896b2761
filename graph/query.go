package graph

import (
	"cmp"
	"slices"
	"strings"

	"github.com/vaultmem/vaultmem/vault"
)

func lower(s string) string { return strings.ToLower(s) }

// Resolve returns the file a link in note source points to, by Obsidian's
// rules (see the package doc); ok is false when no file matches.
func (g *Graph) Resolve(source string, l vault.Link) (target string, ok bool) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.resolve(source, l)
}

// Lookup finds a note from what a user typed: a vault path (".md"
// optional, case-insensitive) or a note name as a wikilink would name it.
func (g *Graph) Lookup(nameOrPath string) (string, bool) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	p, ok := g.resolve("", vault.Link{Target: nameOrPath})
	return p, ok && g.notes[p]
}

// IsNote reports whether p is a note of the graph.
func (g *Graph) IsNote(p string) bool {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.notes[p]
}

// Edges returns every edge, sorted by source and line, each note's links in
// file order.
func (g *Graph) Edges() []Edge {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.edges()
}

func (g *Graph) edges() []Edge {
	sources := make([]string, 0, len(g.out))
	for s := range g.out {
		sources = append(sources, s)
	}
	slices.Sort(sources)
	var all []Edge
	for _, s := range sources {
		all = append(all, g.out[s]...)
	}
	return all
}

// Outgoing returns the links of note p in file order.
func (g *Graph) Outgoing(p string) []Edge {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return slices.Clone(g.out[p])
}

// Backlinks returns the links from other notes (and from p itself) that
// resolve to p, sorted by source and line.
func (g *Graph) Backlinks(p string) []Edge {
	g.mu.RLock()
	defer g.mu.RUnlock()
	sources := make([]string, 0, len(g.in[p]))
	for source := range g.in[p] {
		sources = append(sources, source)
	}
	slices.Sort(sources)
	var es []Edge
	for _, source := range sources {
		for _, e := range g.out[source] {
			if e.Resolved && e.Target == p {
				es = append(es, e)
			}
		}
	}
	return es
}

// Unresolved returns the links that match no file, sorted by source and
// line.
func (g *Graph) Unresolved() []Edge {
	g.mu.RLock()
	defer g.mu.RUnlock()
	var es []Edge
	for _, e := range g.edges() {
		if !e.Resolved {
			es = append(es, e)
		}
	}
	return es
}

// Orphans returns the notes with no resolved link to or from another
// note or attachment (a note's links to itself do not count), sorted.
func (g *Graph) Orphans() []string {
	g.mu.RLock()
	defer g.mu.RUnlock()
	var out []string
	for p := range g.notes {
		if !g.linked(p) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

func (g *Graph) linked(p string) bool {
	for source := range g.in[p] {
		if source != p {
			return true
		}
	}
	for _, e := range g.out[p] {
		if e.Resolved && e.Target != p {
			return true
		}
	}
	return false
}

// Neighbour is a note reached from another through links.
type Neighbour struct {
	Path string `json:"path"`
	// Depth is the number of links between the start note and this one.
	Depth int `json:"depth"`
}

// Neighbours returns the notes within depth links of p, following links in
// both directions (outgoing and backlinks), nearest first, then by path.
// p itself is not included; attachments are not notes and are left out.
func (g *Graph) Neighbours(p string, depth int) []Neighbour {
	g.mu.RLock()
	defer g.mu.RUnlock()
	seen := map[string]int{p: 0}
	frontier := []string{p}
	var out []Neighbour
	for d := 1; d <= depth && len(frontier) > 0; d++ {
		var next []string
		visit := func(q string) {
			if _, ok := seen[q]; ok || !g.notes[q] {
				return
			}
			seen[q] = d
			next = append(next, q)
			out = append(out, Neighbour{Path: q, Depth: d})
		}
		for _, cur := range frontier {
			for _, e := range g.out[cur] {
				if e.Resolved {
					visit(e.Target)
				}
			}
			for source := range g.in[cur] {
				visit(source)
			}
		}
		frontier = next
	}
	slices.SortFunc(out, func(a, b Neighbour) int {
		return cmp.Or(cmp.Compare(a.Depth, b.Depth), cmp.Compare(a.Path, b.Path))
	})
	return out
}

// Notes returns the paths of all notes, sorted.
func (g *Graph) Notes() []string {
	g.mu.RLock()
	defer g.mu.RUnlock()
	out := make([]string, 0, len(g.notes))
	for p := range g.notes {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}
