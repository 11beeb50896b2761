package recall

import (
	"context"
	"slices"

	"github.com/vaultmem/vaultmem/index"
)

// graphEngine follows the best hits' links at the extend and full stages,
// on routes with graph dimensions.
func graphEngine(ctx context.Context, s *search, l level) {
	if l != fast {
		s.graph(ctx, perLevel(l, 3, 5))
	}
}

// graph expands along the route's link dimensions: the notes linked
// from and to the best hits' notes are searched for the query too. On
// entity and relationship routes, a note a best hit links to with a
// label holding a word of the question ([[Alice Smith|the boss]] for
// "what does the boss want?") adds its first chunks: the label names it
// where its own text may not. (Aliases and tags are fields of the exact
// engine, weighted above the text.)
func (s *search) graph(ctx context.Context, from int) {
	if !s.followsLinks() {
		return
	}
	seen := map[string]bool{}
	var tops, paths []string
	for _, c := range s.top(from) {
		if seen[c.hit.Path] {
			continue
		}
		seen[c.hit.Path] = true
		tops = append(tops, c.hit.Path)
		linked, err := cached(s.linked, c.hit.Path, func() ([]string, error) { return s.e.ix.Linked(ctx, c.hit.Path) })
		if err != nil {
			return
		}
		paths = append(paths, linked...)
	}
	if slices.Contains(s.route.Graph, "entity") || slices.Contains(s.route.Graph, "relationship") {
		named, err := s.e.ix.Labelled(ctx, tops, s.query)
		if err == nil && len(named) > 0 {
			if hits, err := s.e.ix.Openings(ctx, named, 2); err == nil {
				s.add("graph", hits, 0.5)
			}
		}
	}
	if len(paths) == 0 {
		return
	}
	linked := map[string]bool{}
	for _, p := range paths {
		linked[p] = true
	}
	// The keyword ranking's chunks in linked notes, and only what the
	// other engines missed: those they found already have their votes.
	var fresh []index.Result
	for _, h := range s.keywordHits(ctx) {
		if _, ok := s.cands[h.Chunk]; !ok && linked[h.Path] && len(fresh) < maxGraphHits {
			fresh = append(fresh, h)
		}
	}
	s.add("graph", fresh, 0.5)
}
