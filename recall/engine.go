package recall

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/vaultmem/vaultmem/index"
)

// Options configure an Engine. The zero value works: rules classifier,
// DefaultRoutes and the default stage deadlines.
type Options struct {
	// LLM, when set, classifies intents first (see LLMOptions).
	LLM *LLMOptions
	// Routes replaces routes of DefaultRoutes, by intent.
	Routes map[Intent]Route
	// Deadlines of the fast, extend and full stages; zero values mean
	// 100, 300 and 800 ms.
	Deadlines [3]time.Duration
	// NoDeadlines runs every stage to its end, however long it takes, so
	// that the same index and question always give the same answer (tests
	// and evaluations use it; a loaded machine would otherwise cut stages
	// short at different points).
	NoDeadlines bool
	// Now is the time recency is measured from; nil means time.Now.
	Now func() time.Time
	// BudgetFill is how the budget is shared among the items: FillGreedy
	// or FillShared; "" means DefaultBudgetFill. New panics on any other
	// value: check a configured one with ParseBudgetFill.
	BudgetFill string
}

// DefaultDeadlines are the fast, extend and full stages' deadlines when
// Options leave them zero.
var DefaultDeadlines = [3]time.Duration{100 * time.Millisecond, 300 * time.Millisecond, 800 * time.Millisecond}

// Index is what recall asks of the index; index.Recall is one. It is
// made of the small interfaces each part of recall uses.
type Index interface {
	searcher
	neighbourhood
	cache
}

// searcher ranks chunks for a query (every engine).
type searcher interface {
	Search(ctx context.Context, q index.Query) ([]index.Result, error)
	// Frequencies counts the chunks holding each word, up to atMost.
	Frequencies(ctx context.Context, words []string, atMost int) ([]int, error)
}

// neighbourhood finds what lies around a hit: linked and labelled notes
// (the graph engine), the notes of a day (the temporal engine), a note's
// first chunks and a chunk's neighbours (the context engine).
type neighbourhood interface {
	Linked(ctx context.Context, path string) ([]string, error)
	Labelled(ctx context.Context, paths []string, text string) ([]string, error)
	Dated(ctx context.Context, from, to string, limit int) ([]string, error)
	Openings(ctx context.Context, paths []string, n int) ([]index.Result, error)
	Around(ctx context.Context, chunk int64, n int) ([]index.Result, error)
	// Ends are the earliest and latest dated chunks of a note (a task's
	// log): the temporal engine's answer to "how long did it take?".
	Ends(ctx context.Context, path string) ([]index.Result, error)
	// EntityNotes are the notes whose person fields name each person.
	EntityNotes(ctx context.Context, names []string) (map[string][]string, error)
}

// cache keeps the classifier's answers.
type cache interface {
	Get(ctx context.Context, key string) (string, bool)
	Put(ctx context.Context, key, value string, ttl time.Duration) error
}

var _ Index = index.Recall{}

// Engine recalls from one index. It is safe for concurrent use.
type Engine struct {
	ix          Index
	llm         *LLMOptions
	routes      map[Intent]Route
	deadlines   [3]time.Duration
	noDeadlines bool
	now         func() time.Time
	fill        string
}

// New returns an engine over ix.
func New(ix Index, opts Options) *Engine {
	fill, err := ParseBudgetFill(opts.BudgetFill)
	if err != nil {
		panic(err) // a programming error: configured values are checked at load
	}
	e := &Engine{ix: ix, llm: opts.LLM, routes: DefaultRoutes(), deadlines: opts.Deadlines, noDeadlines: opts.NoDeadlines, now: opts.Now, fill: fill}
	for in, r := range opts.Routes {
		e.routes[in] = r
	}
	for i, d := range DefaultDeadlines {
		if e.deadlines[i] <= 0 {
			e.deadlines[i] = d
		}
	}
	if e.now == nil {
		e.now = time.Now
	}
	return e
}

// Request is one recall.
type Request struct {
	Query string
	// Budget is the most tokens of context; 0 means the route's budget.
	Budget int
	// Intent, when set, skips classification.
	Intent Intent
	// Focus, when set, is the context of the agent's focused task (see
	// package task), put first as a layer of its own when it takes at
	// most half the budget; the rest of the budget goes to what the
	// engines find. FocusPath is that task's path.
	Focus, FocusPath string
	// Presets are more context the caller found itself (the lessons for a
	// how-to question, say), put after the focus, in order, while all of
	// it takes at most half the budget.
	Presets []Preset
	// Hidden are vault paths of notes recall never gives, whichever
	// engine finds them: in a vault several people share, the teammates'
	// own user memories (see memory.Store.Personal); for a prompt hook,
	// the session's own note (its episode so far, not memory).
	Hidden map[string]bool
	// Given are what the agent has from earlier in its session (see
	// ItemKey; a note's path stands for all of it): never given again,
	// the stages search on for what it does not have. Recent are the
	// notes it just wrote, ranked a little higher. See working.go.
	Given, Recent map[string]bool
}

// Preset is context a caller found itself, put in the budget before what
// the engines find as a layer of its own.
type Preset struct {
	// Layer names it in Item.Layer; Title is the heading it is shown
	// under in the context; Path the note it is from ("" for several).
	Layer, Title, Path string
	Text               string
	// Source and Why are its Item's.
	Source, Why string
}

// Result is what Recall found; its JSON is the `vaultmem recall --json`
// output.
type Result struct {
	Query      string  `json:"query"`
	Intent     Intent  `json:"intent"`
	Confidence float64 `json:"confidence"`
	Classifier string  `json:"classifier"`
	// Reasoning and Keywords are the LLM classifier's, when it gave them;
	// the keywords join the query the engines search for.
	Reasoning string   `json:"reasoning,omitempty"`
	Keywords  []string `json:"keywords,omitempty"`
	Strategy  string   `json:"strategy"`
	// Verifier says what checked the full stage's candidates: "llm" (the
	// configured chat endpoint judged them), "reranker" (no LLM is
	// configured) or "reranker (fallback: ...)" (the LLM failed or missed
	// the stage's deadline); "" when the recall stopped before the full
	// stage.
	Verifier string `json:"verifier,omitempty"`
	// Rejected are the candidates the LLM verifier judged irrelevant and
	// dropped, with its reason in Why.
	Rejected []Item  `json:"rejected,omitempty"`
	Stages   []Stage `json:"stages"`
	Items    []Item  `json:"items"`
	// Context is the exact text to give the agent.
	Context    string `json:"context"`
	UsedTokens int    `json:"used_tokens"`
	Budget     int    `json:"budget"`
	// Truncated says the last item was cut short; Dropped counts the
	// ranked items that did not fit at all.
	Truncated bool `json:"truncated"`
	Dropped   int  `json:"dropped"`
	// Repeats counts the chunks the engines found that the agent was
	// given already in its session (Request.Given), left out.
	Repeats int `json:"repeats,omitempty"`
	// NoEvidence says the engines found nothing for the query: no note
	// holds a word of it or is near it in meaning (index.Searcher.Search leaves
	// out vector hits without a real similarity) or is dated on a day it
	// names. The context then holds only the focused task's and the
	// presets' layers, if any: no context rather than unrelated notes.
	NoEvidence bool `json:"no_evidence"`
}

// Stage is what one stage did.
type Stage struct {
	Name    string  `json:"name"`
	MS      float64 `json:"ms"`
	Results int     `json:"results"`
	// TimedOut says the stage's deadline cut it short.
	TimedOut bool `json:"timed_out,omitempty"`
}

// Item is one piece of the context.
type Item struct {
	Path    string `json:"path"`
	Heading string `json:"heading"`
	Block   string `json:"block"`
	// Kind is the note's type (frontmatter type: a memory's type, task,
	// lesson, session; "" for none), which says what the text is.
	Kind string `json:"kind,omitempty"`
	// Source names the engines that found it: exact, semantic, temporal
	// (notes of the days asked about), graph (linked notes), expand (the
	// query with words the best hits share), context (next to a hit in the
	// same note).
	Source string  `json:"source"`
	Layer  string  `json:"layer"`
	Score  float64 `json:"score"`
	Tokens int     `json:"tokens"`
	Text   string  `json:"text"`
	Why    string  `json:"why"`
}

// ErrEmptyQuery is returned for a query without a word to search for
// ("", "???").
var ErrEmptyQuery = errors.New("recall: the query has no words to search for")

// MaxBudget is the largest token budget a recall takes; a larger one is
// refused with ErrBadBudget. 100,000 tokens is more context than any
// agent is given at once.
const MaxBudget = 100_000

// ErrBadBudget is returned for a budget that is negative or over
// MaxBudget.
var ErrBadBudget = errors.New("recall: invalid budget")

// CheckRequest refuses a question recall cannot answer, in the words
// every front end gives: a query over index.MaxQueryBytes
// (index.ErrBadQuery), one without a word to search for (ErrEmptyQuery),
// a budget out of range (ErrBadBudget). Recall checks with it, and so
// does a front end before it opens the vault.
func CheckRequest(query string, budget int) error {
	switch {
	case len(query) > index.MaxQueryBytes:
		return fmt.Errorf("%w: the query is %d bytes, over the %d-byte limit", index.ErrBadQuery, len(query), index.MaxQueryBytes)
	case len(index.Terms(query)) == 0:
		return ErrEmptyQuery
	case budget < 0 || budget > MaxBudget:
		return fmt.Errorf("%w: %d tokens; give 1 to %d (0: the intent's own budget)", ErrBadBudget, budget, MaxBudget)
	}
	return nil
}

// StageCaps are the most ranked items each stage gives (fast, extend,
// full); 0 means all of them. A recall that stops at a stage gives at most
// its cap, and the "enough" rule (see enough) is judged on those.
var StageCaps = [3]int{5, 10, 0}

// Recall classifies the question, searches along its route in stages,
// fuses, dedups and ranks what the engines found, and fills the budget
// with the best of it. A stage gives at most its cap of items (StageCaps),
// and the next one runs only when the ones before did not find enough:
// 3 items holding every search word of the query, filling half the budget
// together. The full stage verifies its candidates (see verify). An
// engine failure or a stage deadline never fails the
// recall: it returns what the stages found. When the engines find nothing (no
// note holds a word of the question, none is similar to it in meaning),
// the context holds no note and NoEvidence says so.
//
// Errors: ErrEmptyQuery; ErrBadBudget; a query over index.MaxQueryBytes;
// an unknown Intent; ctx's error.
func (e *Engine) Recall(ctx context.Context, r Request) (*Result, error) {
	q := strings.TrimSpace(r.Query)
	if err := CheckRequest(q, r.Budget); err != nil {
		return nil, err
	}
	cls, err := e.classify(ctx, q, r.Intent)
	if err != nil {
		return nil, err
	}
	route := e.routes[cls.Intent]
	budget := r.Budget
	if budget <= 0 {
		budget = route.Budget
	}
	res := &Result{Query: q, Intent: cls.Intent, Confidence: cls.Confidence, Classifier: cls.Classifier,
		Reasoning: cls.Reasoning, Keywords: cls.Keywords, Strategy: route.Strategy, Budget: budget, Stages: []Stage{}, Items: []Item{}}
	s := newSearch(e, q, route, budget, cls.Keywords)
	s.hidden, s.givenKeys, s.recent = r.Hidden, r.Given, r.Recent
	if route.Strategy != ExactOnly {
		// The vectors are ranked while the fast stage ranks by keyword;
		// the recall's end stops what is left of it.
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		s.prefetch(ctx)
	}
	s.people, s.named = e.people(ctx, q)
	for i, stage := range stages {
		start := time.Now()
		sctx, cancel := context.WithTimeout(ctx, e.deadlines[i])
		if e.noDeadlines {
			sctx, cancel = context.WithCancel(ctx)
		}
		stage.run(sctx, s)
		timedOut := sctx.Err() != nil && ctx.Err() == nil
		cancel()
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ranked := s.rank()
		if c := StageCaps[i]; c > 0 && len(ranked) > c {
			ranked = ranked[:c]
		}
		res.Stages = append(res.Stages, Stage{Name: stage.name, MS: float64(time.Since(start).Microseconds()) / 1000,
			Results: len(ranked), TimedOut: timedOut})
		if i == len(stages)-1 || enough(ranked, s.terms, budget) {
			res.NoEvidence = len(ranked) == 0 && len(s.rejected) == 0 && len(s.repeats) == 0
			res.Repeats = len(s.repeats)
			res.Verifier = s.verifier
			for _, c := range s.rejected {
				res.Rejected = append(res.Rejected, Item{Path: c.hit.Path, Heading: c.hit.Heading, Block: c.hit.Block, Kind: c.hit.Kind,
					Source: sources(c), Layer: Layer(c.hit.Kind), Text: c.hit.Text, Why: c.verdict})
			}
			e.fillBudgetAfter(res, ranked, r)
			return res, nil
		}
	}
	return res, nil
}

// enough is the stated "enough results" rule: three items that hold
// every search word of the query (in their text, heading or note title),
// together filling half the budget. Anything less, and the next stage
// looks further.
func enough(ranked []*candidate, terms []string, budget int) bool {
	if len(terms) == 0 {
		return false
	}
	complete, tokens := 0, 0
	for _, c := range ranked {
		if holdsAll(c, terms) {
			complete++
			tokens += c.hit.Tokens
		}
	}
	return complete >= 3 && 2*tokens >= budget
}

// holdsAll reports whether c's text, heading or title holds every term.
func holdsAll(c *candidate, terms []string) bool {
	text := c.lowered()
	for _, t := range terms {
		if !strings.Contains(text, t) {
			return false
		}
	}
	return true
}

// classify names the intent: the caller's, a cached answer, the LLM's
// when it is sure enough, else the rules' and the examples' (see
// classifyLocal).
func (e *Engine) classify(ctx context.Context, q string, given Intent) (Classification, error) {
	if given != "" {
		if _, err := ParseIntent(string(given)); err != nil {
			return Classification{}, err
		}
		return Classification{Intent: given, Confidence: 1, Classifier: "given"}, nil
	}
	local := classifyLocal(q)
	if e.llm == nil {
		return local, nil
	}
	key := "intent:" + e.llm.Model + ":" + strings.ToLower(q)
	if v, ok := e.ix.Get(ctx, key); ok {
		// "intent confidence", then a tab and the keywords (separated by
		// keywordSep: a keyword may hold spaces), then a tab and the
		// reasoning, when the LLM gave them.
		var c Classification
		head, rest, _ := strings.Cut(v, "\t")
		if _, err := fmt.Sscanf(head, "%s %g", &c.Intent, &c.Confidence); err == nil {
			kw, reasoning, _ := strings.Cut(rest, "\t")
			if kw != "" {
				c.Keywords = strings.Split(kw, keywordSep)
			}
			c.Reasoning = reasoning
			c.Classifier = "cache"
			return c, nil
		}
	}
	c, err := classifyLLM(ctx, e.llm, q)
	if err != nil || c.Confidence < llmThreshold {
		c = local
	}
	e.ix.Put(ctx, key, fmt.Sprintf("%s %g\t%s\t%s", c.Intent, c.Confidence, strings.Join(c.Keywords, keywordSep), c.Reasoning), 24*time.Hour) // a cache: failing to keep it costs a call
	return c, nil
}
