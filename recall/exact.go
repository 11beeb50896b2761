package recall

import (
	"context"

	"github.com/vaultmem/vaultmem/index"
)

// exactEngine is the keyword engine at every stage: the first n of the
// query's keyword ranking, n growing with the stage and the budget.
func exactEngine(ctx context.Context, s *search, l level) {
	n := max(5, s.budget/50)
	switch l {
	case extend:
		n = max(10, s.budget/25)
	case full:
		n = s.depth()
	}
	s.exact(ctx, n)
}

// exact is the keyword engine: BM25 over names, aliases, descriptions,
// tags, headings and text (FTS5's, or the resident index's lexicon).
func (s *search) exact(ctx context.Context, n int) {
	hits := s.keywordHits(ctx)
	s.add("exact", hits[:min(n, len(hits))], 1)
}

// fillEngine runs fill at the full stage.
func fillEngine(ctx context.Context, s *search, l level) {
	if l == full {
		s.fill(ctx)
	}
}

// fill is the last resort of a recall whose candidates cannot fill the
// budget (every rare word of the question is in a few chunks only): the
// chunks holding any of its words, common ones included, ranked by BM25
// after everything the engines found.
func (s *search) fill(ctx context.Context) {
	tokens := 0
	for _, c := range s.cands {
		tokens += c.hit.Tokens
	}
	if tokens >= s.budget {
		return
	}
	hits, err := s.e.ix.Search(ctx, index.Query{Text: s.query, Mode: index.Keyword, Limit: s.depth(), AnyWord: true, NoSnippets: true, Loaded: s.loaded})
	if err == nil {
		s.add("exact", hits, fillWeight)
	}
}

// fillWeight is the weight of fill's votes: a quarter of the exact
// engine's, so that they rank after what the engines found.
const fillWeight = 0.25
