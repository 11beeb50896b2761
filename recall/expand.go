package recall

import (
	"context"
	"sort"
	"strings"

	"github.com/vaultmem/vaultmem/index"
)

// expandEngine runs feedback from the best hits at the extend stage.
func expandEngine(ctx context.Context, s *search, l level) {
	if l == extend {
		s.expand(ctx, 3, max(10, s.budget/25))
	}
}

// maxExpansion is the most words feedback adds to a query.
const maxExpansion = 10

// expand is pseudo-relevance feedback: the words the best hits share
// beyond the query's make a second keyword query, which finds what the
// question meant but did not say ("relationship status" -> "single",
// "partner").
func (s *search) expand(ctx context.Context, from, n int) {
	have := map[string]bool{}
	for _, t := range s.terms {
		have[t] = true
	}
	count := map[string]int{}
	for _, c := range s.top(from) {
		seen := map[string]bool{}
		for _, w := range index.Terms(c.hit.Text) {
			if !have[w] && !seen[w] && len(w) > 2 {
				seen[w] = true
				count[w]++
			}
		}
	}
	var extra []string
	for w, k := range count {
		if k >= 2 {
			extra = append(extra, w)
		}
	}
	if len(extra) == 0 {
		return
	}
	// The most shared first, at most maxExpansion of them.
	sort.Slice(extra, func(i, j int) bool {
		if count[extra[i]] != count[extra[j]] {
			return count[extra[i]] > count[extra[j]]
		}
		return extra[i] < extra[j]
	})
	extra = extra[:min(len(extra), maxExpansion)]
	hits, err := s.e.ix.Search(ctx, index.Query{Text: s.query + " " + strings.Join(extra, " "), Mode: index.Keyword, Limit: n, NoSnippets: true, Loaded: s.loaded})
	if err == nil {
		s.add("expand", hits, 0.5)
	}
}
