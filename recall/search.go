package recall

import (
	"context"
	"slices"
	"sort"
	"strings"

	"github.com/vaultmem/vaultmem/index"
)

// candidate is a chunk some engine found, with its rank and vote per
// engine.
type candidate struct {
	hit   index.Result
	rrf   float64
	ranks map[string]int     // engine -> rank of its vote, from 0
	votes map[string]float64 // engine -> its vote in rrf
	final float64
	seq   int // order of discovery, for stable ties
	// text and lower are the words of the chunk's text and its title,
	// heading and text lower-cased, computed on first use.
	text  []string
	lower string
}

// words returns the words of c's text (see words).
func (c *candidate) words() []string {
	if c.text == nil {
		c.text = words(c.hit.Text)
	}
	return c.text
}

// lowered returns c's title, heading and text, lower-cased.
func (c *candidate) lowered() string {
	if c.lower == "" {
		c.lower = strings.ToLower(c.hit.Title + " " + c.hit.Heading + " " + c.hit.Text)
	}
	return c.lower
}

// search is one recall's candidates as the stages gather them.
type search struct {
	e      *Engine
	query  string
	route  Route
	budget int
	terms  []string // the query's search words
	cands  map[int64]*candidate
	// keyword and vector are the query's keyword and vector rankings,
	// fetched once (see keywordDepth and depth) and shared by the stages.
	keyword []index.Result
	kwDone  bool
	vector  []index.Result
	vecDone bool
	// days are the spans of days the question names and rest the question
	// without them (see datesIn); datedDone says their notes were searched
	// (once: the stages would find the same).
	days      []span
	rest      string
	datedDone bool
	// What the stages asked the index already, as the full stage looks
	// around the extend stage's best hits again: the notes linked to a
	// note, the notes dated on a day, the chunks around a chunk.
	linked map[string][]string
	dated  map[string][]string
	around map[int64][]index.Result
}

// cached returns m[k], asking get on first use; a failure is not kept.
func cached[K comparable, V any](m map[K]V, k K, get func() (V, error)) (V, error) {
	if v, ok := m[k]; ok {
		return v, nil
	}
	v, err := get()
	if err == nil {
		m[k] = v
	}
	return v, err
}

// maxGraphHits is the most chunks of linked notes the graph engine adds
// at a time.
const maxGraphHits = 10

// graphPool is how deep the keyword ranking goes on a route with graph
// dimensions: the graph engine looks in it for the chunks of linked notes.
const graphPool = 200

// keywordDepth is how deep the one keyword query of a recall ranks: as
// deep as the deepest stage takes, or graphPool when the graph engine
// reads it too.
func (s *search) keywordDepth() int {
	if len(s.route.Graph) > 0 {
		return max(graphPool, s.depth())
	}
	return s.depth()
}

// keywordHits returns the query's keyword ranking, querying on first use.
func (s *search) keywordHits(ctx context.Context) []index.Result {
	if !s.kwDone {
		hits, err := s.e.ix.Search(ctx, index.Query{Text: s.query, Mode: index.Keyword, Limit: s.keywordDepth(), NoSnippets: true})
		if err != nil {
			return nil // a deadline or a damaged cache: this stage finds nothing
		}
		s.keyword, s.kwDone = hits, true
	}
	return s.keyword
}

func newSearch(e *Engine, q string, r Route, budget int) *search {
	days, rest := datesIn(q, e.now())
	return &search{e: e, query: q, route: r, budget: budget, terms: index.Terms(q), cands: map[int64]*candidate{},
		days: days, rest: rest, linked: map[string][]string{}, dated: map[string][]string{}, around: map[int64][]index.Result{}}
}

// rrfK is the reciprocal rank fusion constant.
const rrfK = 60

// add records an engine's ranked hits; weight scales their votes. A
// chunk keeps one vote per engine, the largest it was given.
func (s *search) add(engine string, hits []index.Result, weight float64) {
	for rank, h := range hits {
		c := s.candidate(h)
		v := weight / float64(rrfK+rank+1)
		if old, seen := c.votes[engine]; seen && old >= v {
			continue
		}
		c.rrf += v - c.votes[engine]
		c.votes[engine], c.ranks[engine] = v, rank
	}
}

// candidate returns the candidate of hit h, new when no engine found it
// yet.
func (s *search) candidate(h index.Result) *candidate {
	c, ok := s.cands[h.Chunk]
	if !ok {
		c = &candidate{hit: h, ranks: map[string]int{}, votes: map[string]float64{}, seq: len(s.cands)}
		s.cands[h.Chunk] = c
	}
	return c
}

// top returns the n best candidates by fused score so far.
func (s *search) top(n int) []*candidate {
	all := make([]*candidate, 0, len(s.cands))
	for _, c := range s.cands {
		all = append(all, c)
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].rrf != all[j].rrf {
			return all[i].rrf > all[j].rrf
		}
		return all[i].seq < all[j].seq
	})
	return all[:min(n, len(all))]
}

// stage is one step of the progressive search.
type stage struct {
	name string
	run  func(ctx context.Context, s *search)
}

var stages = []stage{
	{"fast", func(ctx context.Context, s *search) {
		s.exact(ctx, max(5, s.budget/50))
	}},
	{"extend", func(ctx context.Context, s *search) {
		n := max(10, s.budget/25)
		s.exact(ctx, n)
		if s.route.Strategy != ExactOnly {
			s.semantic(ctx, n)
		}
		s.temporal(ctx, 3)
		s.graph(ctx, 3)
		s.expand(ctx, 3, n)
		s.context(ctx, 5)
	}},
	{"full", func(ctx context.Context, s *search) {
		n := s.depth()
		s.exact(ctx, n)
		if s.route.Strategy != ExactOnly {
			s.semantic(ctx, n)
		}
		s.temporal(ctx, 5)
		s.graph(ctx, 5)
		s.context(ctx, 10)
		s.fill(ctx)
		s.rerank()
	}},
}

// exact is the keyword engine: BM25 over names, aliases, descriptions,
// tags, headings and text (FTS5's, or the resident index's lexicon).
func (s *search) exact(ctx context.Context, n int) {
	hits := s.keywordHits(ctx)
	s.add("exact", hits[:min(n, len(hits))], 1)
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

// depth is how many hits the deepest stage takes from one engine.
func (s *search) depth() int { return max(30, s.budget/12) }

// graph expands along the route's graph dimensions: the notes linked
// from and to the best hits' notes are searched for the query too. On
// entity and relationship routes, a note a best hit links to with a
// label holding a word of the question ([[Alice Smith|the boss]] for
// "what does the boss want?") adds its first chunks: the label names it
// where its own text may not. (Aliases and tags are fields of the exact
// engine, weighted above the text.)
func (s *search) graph(ctx context.Context, from int) {
	if len(s.route.Graph) == 0 {
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
	hits, err := s.e.ix.Search(ctx, index.Query{Text: s.query, Mode: index.Keyword, Limit: s.depth(), AnyWord: true, NoSnippets: true})
	if err == nil {
		s.add("exact", hits, fillWeight)
	}
}

// fillWeight is the weight of fill's votes: a quarter of the exact
// engine's, so that they rank after what the engines found.
const fillWeight = 0.25

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
			first, last := sp.days()
			paths, err := s.e.ix.Dated(ctx, first, last, maxDated)
			if err != nil {
				return
			}
			named = append(named, paths...)
		}
		if len(named) > 0 {
			hits, err := s.e.ix.Search(ctx, index.Query{Text: s.rest, Mode: index.Keyword, Limit: max(10, s.budget/25), Paths: named, NoSnippets: true})
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
	hits, err := s.e.ix.Search(ctx, index.Query{Text: s.query, Mode: index.Keyword, Limit: 10, Paths: sameDay, NoSnippets: true})
	if err == nil {
		s.add("temporal", hits, 0.5)
	}
}

// context adds the chunks next to the best hits in their notes (the
// turns around a line of a conversation, the paragraphs around a
// sentence), each voting with half its hit's score; the chunk right
// after a hit that asks a question votes with all of it, as the reply
// holds the answer the question's words found.
func (s *search) context(ctx context.Context, from int) {
	for _, c := range s.top(from) {
		around, err := cached(s.around, c.hit.Chunk, func() ([]index.Result, error) { return s.e.ix.Around(ctx, c.hit.Chunk, 1) })
		if err != nil {
			return
		}
		asks := strings.Contains(c.hit.Text, "?")
		for _, h := range around {
			n := s.candidate(h)
			if _, done := n.ranks["context"]; done {
				continue
			}
			n.ranks["context"] = 0
			share := 0.5
			if asks && h.Line > c.hit.Line {
				share = 1
			}
			n.rrf += c.rrf * share
		}
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
	hits, err := s.e.ix.Search(ctx, index.Query{Text: s.query + " " + strings.Join(extra, " "), Mode: index.Keyword, Limit: n, NoSnippets: true})
	if err == nil {
		s.add("expand", hits, 0.5)
	}
}
