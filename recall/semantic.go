package recall

import (
	"context"

	"github.com/vaultmem/vaultmem/index"
)

// semanticEngine is the vector engine of the extend and full stages, on
// routes that use it.
func semanticEngine(ctx context.Context, s *search, l level) {
	if l == fast || s.route.Strategy == ExactOnly {
		return
	}
	s.semantic(ctx, perLevel(l, max(10, s.budget/25), s.depth()))
}

// semantic is the vector engine; without vectors it adds nothing.
func (s *search) semantic(ctx context.Context, n int) {
	if !s.vecDone {
		s.vecDone = true
		hits, err := s.e.ix.Search(ctx, index.Query{Text: s.query, Mode: index.Vector, Limit: s.depth(), NoSnippets: true})
		if err == nil { // else no vectors, a deadline or a damaged cache: nothing found
			s.vector = hits
		}
	}
	s.add("semantic", s.vector[:min(n, len(s.vector))], 0.5)
}
