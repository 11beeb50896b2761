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

// semantic is the vector engine; without vectors it adds nothing. It
// waits for the vector ranking prefetch started, as long as ctx lets it: a
// stage cut short by its deadline finds nothing, and a later stage waits
// again.
func (s *search) semantic(ctx context.Context, n int) {
	if !s.vecDone {
		if s.vecPending == nil {
			s.prefetch(ctx)
		}
		select {
		case v := <-s.vecPending:
			s.vecDone = true
			if v.err == nil { // else no vectors or a damaged cache: nothing found
				s.vector = v.hits
			}
		case <-ctx.Done():
			return
		}
	}
	s.add("semantic", s.vector[:min(n, len(s.vector))], 0.5)
}

// vectorAnswer is the vector ranking of a query, or why there is none.
type vectorAnswer struct {
	hits []index.Result
	err  error
}

// prefetch starts ranking the query's chunks by vector on another
// goroutine, so that the embedding and the vector scan run while the fast
// stage ranks by keyword; semantic takes the answer. ctx must outlive the
// stages (the recall's own, not a stage's).
func (s *search) prefetch(ctx context.Context) {
	s.vecPending = make(chan vectorAnswer, 1)
	go func() {
		hits, err := s.e.ix.Search(ctx, index.Query{Text: s.query, Mode: index.Vector, Limit: s.depth(), NoSnippets: true})
		s.vecPending <- vectorAnswer{hits, err}
	}()
}
