package index

import (
	"context"

	"github.com/vaultmem/vaultmem/graph"
)

// Named returns every note nameOrPath could stand for, by path: the notes
// [Graph.Lookup] chooses among, each of which a lookup would find were it
// the only note of its name (the name case-insensitive, ".md" optional, a
// path-qualified name matched as a path suffix). Lookup picks one by
// Obsidian's rules; a caller that must not guess between several, or that
// names them in an error, asks Named.
func (g *Graph) Named(ctx context.Context, nameOrPath string) ([]string, error) {
	candidates, err := g.paths(ctx, "SELECT path FROM notes WHERE lower(name) = ? ORDER BY path", graph.LinkKey(nameOrPath))
	if err != nil {
		return nil, err
	}
	out := []string{}
	for _, c := range candidates {
		if _, ok := graph.New([]string{c}, nil).Lookup(nameOrPath); ok {
			out = append(out, c)
		}
	}
	return out, nil
}
