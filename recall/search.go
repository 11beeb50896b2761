package recall

import (
	"context"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/vaultmem/vaultmem/dates"
	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/text"
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
	// verdict is the LLM verifier's judgement ("verified relevant: ..."),
	// shown in the item's Why; rejected drops the candidate.
	verdict  string
	rejected bool
	// recent says the agent just wrote the chunk's note (Request.Recent).
	recent bool
}

// words returns the words of c's text (see text.Words).
func (c *candidate) words() []string {
	if c.text == nil {
		c.text = text.Words(c.hit.Text)
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
	// vecPending delivers the vector ranking prefetch started.
	vecPending chan vectorAnswer
	// days are the spans of days the question names and rest the question
	// without them (see dates.In); datedDone says their notes were searched
	// (once: the stages would find the same).
	days      []dates.Span
	rest      string
	datedDone bool
	// What the stages asked the index already, as the full stage looks
	// around the extend stage's best hits again: the notes linked to a
	// note, the notes dated on a day, the chunks around a chunk.
	linked map[string][]string
	dated  map[string][]string
	around map[int64][]index.Result
	// people are the notes of the people the question names (see
	// Engine.people): ranking prefers them, and the chunks these people
	// say (see speaker); named holds their names as the question gives
	// them, lower-cased.
	people, named map[string]bool
	// duration says the question asks how long something took or lasted
	// (see asksDuration): ranking prefers chunks that state a length of
	// time, and the temporal engine adds the ends of the best hits'
	// dated records (endsDone: once).
	duration, endsDone bool
	// hidden are the notes never given (Request.Hidden).
	hidden map[string]bool
	// givenKeys are what the agent has already (Request.Given), repeats
	// the keys of the chunks left out for it (Result.Repeats), and recent
	// the notes it just wrote (Request.Recent).
	givenKeys, repeats, recent map[string]bool
	// verifier and rejected are what the full stage's check did (see
	// verify): Result.Verifier, and the candidates the LLM dropped.
	verifier string
	rejected []*candidate
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
	if s.followsLinks() {
		return max(graphPool, s.depth())
	}
	return s.depth()
}

// followsLinks reports whether the route has a graph dimension along
// links (concept, entity, relationship); temporal is along dates.
func (s *search) followsLinks() bool {
	return slices.ContainsFunc(s.route.Graph, func(g string) bool { return g != "temporal" })
}

// keywordHits returns the query's keyword ranking, querying on first use.
func (s *search) keywordHits(ctx context.Context) []index.Result {
	if !s.kwDone {
		hits, err := s.e.ix.Search(ctx, index.Query{Text: s.query, Mode: index.Keyword, Limit: s.keywordDepth(), NoSnippets: true, Loaded: s.loaded})
		if err != nil {
			return nil // a deadline or a damaged cache: this stage finds nothing
		}
		s.keyword, s.kwDone = hits, true
	}
	return s.keyword
}

// newSearch starts the search for q along r. The classifier's keywords
// join the query the engines search for, while the "enough" rule still
// asks for the query's own words (terms); they are left out when the
// query would grow over index.MaxQueryBytes.
func newSearch(e *Engine, q string, r Route, budget int, keywords []string) *search {
	sq := withoutFrames(q)
	terms := index.Terms(sq)
	if kw := strings.Join(keywords, " "); kw != "" && len(sq)+1+len(kw) <= index.MaxQueryBytes {
		sq += " " + kw
	}
	days, rest := dates.In(sq, e.now())
	return &search{e: e, query: sq, route: r, budget: budget, terms: terms, cands: map[int64]*candidate{},
		days: days, rest: rest, duration: asksDuration(q), linked: map[string][]string{}, dated: map[string][]string{}, around: map[int64][]index.Result{}}
}

// frames are the words that frame a question without saying what it is
// about: "what kind of art" asks about art, and searching for "kind" too
// would rank "your kind words" first.
var frames = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\b(?:kinds?|types?|sorts?)\s+of\b`) })

// withoutFrames returns q without its frames (see frames), or q when
// nothing else would be left to search for.
func withoutFrames(q string) string {
	out := frames().ReplaceAllString(q, " ")
	if len(index.Terms(out)) == 0 {
		return q
	}
	return out
}

// rrfK is the reciprocal rank fusion constant.
const rrfK = 60

// add records an engine's ranked hits; weight scales their votes. A
// chunk keeps one vote per engine, the largest it was given. A chunk of
// Dream's log is never one: searches leave that note out, and the engines
// that open notes by their links or dates must not bring it back; nor is
// a chunk of a hidden note (Request.Hidden), nor one the agent was given
// already in its session (Request.Given).
func (s *search) add(engine string, hits []index.Result, weight float64) {
	for rank, h := range hits {
		if h.Kind == index.DreamLogType || s.hidden[h.Path] {
			continue
		}
		if s.given(h.Path, h.Heading, h.Block) {
			if s.repeats == nil {
				s.repeats = map[string]bool{}
			}
			s.repeats[ItemKey(h.Path, h.Heading, h.Block)] = true
			continue
		}
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

// loaded gives the hit of a chunk some engine found already, for a later
// search to take instead of reading it again (index.Query.Loaded). Only
// for searches on the recall's own goroutine: the vector prefetch runs
// beside it, while s.cands changes.
func (s *search) loaded(chunk int64) (index.Result, bool) {
	c, ok := s.cands[chunk]
	if !ok {
		return index.Result{}, false
	}
	return c.hit, true
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

// stage is one step of the progressive search: every engine of the
// registry, in turn, at the stage's level.
type stage struct {
	name  string
	level level
}

var stages = []stage{{"fast", fast}, {"extend", extend}, {"full", full}}

// run runs the stage: the engines, then, at the full stage, the verifier
// (the LLM's, else the reranker).
func (st stage) run(ctx context.Context, s *search) {
	for _, e := range registry {
		e.find(ctx, s, st.level)
	}
	if st.level == full {
		s.verify(ctx)
	}
}

// depth is how many hits the deepest stage takes from one engine.
func (s *search) depth() int { return max(30, s.budget/12) }
