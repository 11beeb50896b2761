package recall

import (
	"context"
	"slices"

	"github.com/vaultmem/vaultmem/index"
)

// temporalEngine searches the notes of the days a question names, and on
// temporal routes those of the best hits' days, at the extend and full
// stages.
func temporalEngine(ctx context.Context, s *search, l level) {
	if l != fast {
		s.temporal(ctx, perLevel(l, 3, 5))
	}
}

// maxDated is the most notes of the days a question names that the
// temporal engine searches, and maxOpened the most, latest first, whose
// first chunks it adds.
const (
	maxDated  = 200
	maxOpened = 20
)

// temporal is the engine of the temporal dimension. A question that names
// days ("yesterday", "last week", "2024-05-07", "in March") is about the
// notes dated then (daily notes, notes with a date in their frontmatter),
// whatever its intent: their chunks holding the question's other words
// vote fully, their first chunks (all a question like "what did I do
// yesterday?" can ask for) with half a vote. On a temporal route, the notes dated on the same day as
// the best hits are searched for the question too, as the graph engine
// searches linked notes.
func (s *search) temporal(ctx context.Context, from int) {
	if len(s.days) > 0 && !s.datedDone {
		s.datedDone = true
		var named []string
		for _, sp := range s.days {
			first, last := sp.Days()
			paths, err := s.e.ix.Dated(ctx, first, last, maxDated)
			if err != nil {
				return
			}
			named = append(named, paths...)
		}
		if len(named) > 0 {
			hits, err := s.e.ix.Search(ctx, index.Query{Text: s.rest, Mode: index.Keyword, Limit: max(10, s.budget/25), Paths: named, NoSnippets: true, Loaded: s.loaded})
			if err != nil {
				return
			}
			s.add("temporal", hits, 1)
			opened, err := s.e.ix.Openings(ctx, named[:min(len(named), maxOpened)], 5)
			if err != nil {
				return
			}
			// One vote per chunk and engine: the openings the search found
			// keep its.
			found := map[int64]bool{}
			for _, h := range hits {
				found[h.Chunk] = true
			}
			opened = slices.DeleteFunc(opened, func(h index.Result) bool { return found[h.Chunk] })
			s.add("temporal", opened, 0.5)
		}
	}
	if s.duration && !s.endsDone {
		s.ends(ctx, from)
	}
	if !slices.Contains(s.route.Graph, "temporal") {
		return
	}
	seen := map[string]bool{}
	var sameDay []string
	for _, c := range s.top(from) {
		if len(c.hit.Date) < 10 || seen[c.hit.Date[:10]] {
			continue
		}
		d := c.hit.Date[:10]
		seen[d] = true
		paths, err := cached(s.dated, d, func() ([]string, error) { return s.e.ix.Dated(ctx, d, d, maxDated) })
		if err != nil {
			return
		}
		for _, p := range paths {
			if p != c.hit.Path {
				sameDay = append(sameDay, p)
			}
		}
	}
	if len(sameDay) == 0 {
		return
	}
	hits, err := s.e.ix.Search(ctx, index.Query{Text: s.query, Mode: index.Keyword, Limit: 10, Paths: sameDay, NoSnippets: true, Loaded: s.loaded})
	if err == nil {
		s.add("temporal", hits, 0.5)
	}
}

// ends answers a question asking how long something took with the two
// ends of the dated record of the best hits' notes (the first and last
// events of a task's log): what took place between them is the answer,
// and neither end alone says it. Each end votes as a hit on a day the
// question names.
func (s *search) ends(ctx context.Context, from int) {
	s.endsDone = true
	seen := map[string]bool{}
	for _, c := range s.top(from) {
		if seen[c.hit.Path] {
			continue
		}
		seen[c.hit.Path] = true
		ends, err := s.e.ix.Ends(ctx, c.hit.Path)
		if err != nil {
			return
		}
		if len(ends) == 2 {
			s.add("temporal", ends, 1)
		}
	}
}
