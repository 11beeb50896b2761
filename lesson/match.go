package lesson

import (
	"context"
	"fmt"
	"math"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/hashicorp/golang-lru/v2/expirable"
	"github.com/vaultmem/vaultmem/lesson/vectors"
	"github.com/vaultmem/vaultmem/text"
	"github.com/vaultmem/vaultmem/vault"
)

// Situation is what an agent is about to do: what matching lessons are
// found for.
type Situation struct {
	// Text says what it is about to do, in its words.
	Text string
	// Tool is the tool it is about to call ("" when none).
	Tool string
	// Paths are the files involved, slash-separated.
	Paths []string
}

func (s Situation) empty() bool {
	return strings.TrimSpace(s.Text) == "" && strings.TrimSpace(s.Tool) == "" && len(s.Paths) == 0
}

// key is s normalised, the hot cache's key with k.
func (s Situation) key(k int) string {
	paths := slices.Clone(s.Paths)
	slices.Sort(paths)
	return fmt.Sprintf("%d\x00%s\x00%s\x00%s", k, strings.Join(strings.Fields(strings.ToLower(s.Text)), " "),
		strings.ToLower(strings.TrimSpace(s.Tool)), strings.Join(paths, "\x00"))
}

// DefaultK is how many lessons Match returns when asked for none.
const DefaultK = 5

// MaxK is the most lessons Match returns.
const MaxK = 100

// MinRelevance is the least relevance a lesson needs to be returned.
const MinRelevance = 0.15

// Match is one lesson found for a situation.
type Match struct {
	Path       string   `json:"path"`
	Name       string   `json:"name"`
	Trigger    []string `json:"trigger"`
	ActionBias string   `json:"action_bias"`
	Domain     string   `json:"domain,omitempty"`
	Tags       []string `json:"tags,omitempty"`
	Strength   float64  `json:"strength"`
	// Confidence (0..1) is how sure the lesson's record makes it that
	// following it helps (see Confidence).
	Confidence float64 `json:"confidence"`
	// Relevance (0..1) is how well the situation meets the lesson's
	// trigger and text; Score is Relevance × Strength, the rank.
	Relevance float64 `json:"relevance"`
	Score     float64 `json:"score"`
	// On names what of the situation matched: "words" (trigger words in
	// the text), "tool", "path" (a trigger glob), "keywords" (the lesson's
	// words in the text), "meaning" (the situation means much what the
	// lesson and the notes around it say, by the vault's embedder); Why
	// says it in a sentence.
	On  []string `json:"on"`
	Why string   `json:"why"`
	// SuggestedAdjustment says in one sentence what to do differently,
	// from the action bias and what matched (see Suggest).
	SuggestedAdjustment string `json:"suggested_adjustment"`
	// About says the situation is what the lesson is about: it meets a
	// trigger's path glob, or holds every word of one of its trigger
	// phrases. A lesson found on its tool, some trigger words or its
	// own keywords alone may be worth showing, but how such a call went
	// says nothing of the lesson: only a call it is about is its outcome.
	About bool `json:"about"`
}

// OnlyTool reports whether m matched on its tool alone: a lesson for
// every call of that tool, whatever it does.
func (m Match) OnlyTool() bool { return len(m.On) == 1 && m.On[0] == "tool" }

// Result is what Match found.
type Result struct {
	Lessons []Match `json:"lessons"`
	// Ms is how long the match took; Cached says the hot cache answered.
	Ms     float64 `json:"ms"`
	Cached bool    `json:"cached"`
}

// MatcherOptions configure a Matcher; zero values mean the defaults.
type MatcherOptions struct {
	// CacheSize is the hot cache's size (1,000 situations); TTL how long
	// an answer stays in it (1 hour). A negative CacheSize turns it off.
	CacheSize int
	TTL       time.Duration
	// Rerank, when set, reorders the candidates the static formula found
	// (up to 3k of them) before the top k are taken: the learned router.
	Rerank func(s Situation, candidates []Match) []Match
	// Meaning, when set, gives the fast path its vector side: the
	// vault's embedder and what the vault says around each lesson.
	Meaning Meaning
	// VectorFile, when set, keeps the lessons' vectors between processes
	// (see the constant VectorFile).
	VectorFile string
}

// Matcher is the fast path: it holds every matchable lesson in memory
// (loaded from the index again whenever a lesson changes), answers a
// situation with the top lessons by relevance × strength, and keeps recent
// answers in a hot cache. It is safe for concurrent use.
type Matcher struct {
	ix     Index
	opts   MatcherOptions
	mu     sync.Mutex
	set    *lessonSet
	cache  *expirable.LRU[string, []Match]
	hits   int
	misses int
	// last are the lessons last loaded, by path, kept when the set is
	// invalidated: what a reload compares rules with (see RuleEdit), and
	// edits the rule changes it found, not yet taken (see TakeEdits).
	last  []Lesson
	edits []RuleEdit
	// vecs are the lessons' vectors by path (see embedSet), kept across
	// reloads, and proj the projector of their signatures; vecMu guards
	// them.
	vecMu sync.Mutex
	vecs  map[string]vectors.Vec
	proj  *vectors.Projector
}

// NewMatcher returns the fast path over the lessons ix holds.
func NewMatcher(ix Index, o MatcherOptions) *Matcher {
	if o.CacheSize == 0 {
		o.CacheSize = 1000
	}
	if o.TTL == 0 {
		o.TTL = time.Hour
	}
	m := &Matcher{ix: ix, opts: o}
	if o.CacheSize > 0 {
		m.cache = expirable.NewLRU[string, []Match](o.CacheSize, nil, o.TTL)
	}
	return m
}

// SetRerank sets (nil: removes) the reranking of the candidates (see
// MatcherOptions.Rerank), and empties the hot cache.
func (m *Matcher) SetRerank(f func(s Situation, candidates []Match) []Match) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.opts.Rerank = f
	if m.cache != nil {
		m.cache.Purge()
	}
}

// Invalidate forgets the lessons and the hot cache: the next Match loads
// them again.
func (m *Matcher) Invalidate() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.set = nil
	if m.cache != nil {
		m.cache.Purge()
	}
}

// CacheStats counts the hot cache's hits and misses since the Matcher was
// made.
func (m *Matcher) CacheStats() (hits, misses int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.hits, m.misses
}

// Match returns the top k lessons (DefaultK when k ≤ 0, at most MaxK) for
// s by relevance × strength, best first, each with why it matched.
// Archived lessons, proposed ones (status: proposed, until accepted) and
// lessons whose trigger or strength has a problem are left out.
func (m *Matcher) Match(ctx context.Context, s Situation, k int) (Result, error) {
	start := time.Now()
	if k <= 0 {
		k = DefaultK
	}
	k = min(k, MaxK)
	set, err := m.lessons(ctx)
	if err != nil {
		return Result{}, err
	}
	key := s.key(k)
	if m.cache != nil {
		if got, ok := m.cache.Get(key + "\x00" + set.version); ok {
			m.count(true)
			return Result{Lessons: slices.Clone(got), Ms: ms(start), Cached: true}, nil
		}
	}
	m.count(false)
	m.mu.Lock()
	rerank := m.opts.Rerank
	m.mu.Unlock()
	found, err := set.match(ctx, s, k, rerank)
	if err != nil {
		return Result{}, err
	}
	if m.cache != nil {
		m.cache.Add(key+"\x00"+set.version, found)
	}
	return Result{Lessons: slices.Clone(found), Ms: ms(start)}, nil
}

func ms(start time.Time) float64 { return math.Round(float64(time.Since(start).Microseconds())) / 1000 }

func (m *Matcher) count(hit bool) {
	m.mu.Lock()
	if hit {
		m.hits++
	} else {
		m.misses++
	}
	m.mu.Unlock()
}

// lessons returns the lessons as the index has them now, loading them
// again when they changed.
func (m *Matcher) lessons(ctx context.Context) (*lessonSet, error) {
	v, err := m.ix.LessonsVersion(ctx)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	set := m.set
	m.mu.Unlock()
	if set != nil && set.version == v {
		return set, nil
	}
	next, err := m.changed(ctx, set, v)
	if err != nil {
		return nil, err
	}
	if next == nil {
		ls, err := m.ix.Lessons(ctx)
		if err != nil {
			return nil, err
		}
		next = newLessonSet(v, ls)
	}
	if err := m.embedSet(ctx, next); err != nil {
		return nil, fmt.Errorf("lesson vectors: %w", err)
	}
	set = next
	m.mu.Lock()
	m.edits = append(m.edits, ruleEdits(m.last, set.all)...)
	m.last = set.all
	m.set = set
	if m.cache != nil {
		m.cache.Purge()
	}
	m.mu.Unlock()
	return set, nil
}

// ChangeIndex is an Index that can say what its last change of the
// lessons changed, so that a Matcher holding the lessons from before it
// reads only the lessons at those paths again (see index.Kinds.LessonsChange):
// what a process that writes an outcome, then matches again, does.
type ChangeIndex interface {
	Index
	// LessonsChange returns the lessons version before the last change
	// (prev), the one after it (cur), and the paths it changed, which
	// include every lesson it changed; ok false when it cannot say.
	LessonsChange(ctx context.Context) (prev, cur string, paths []string, ok bool, err error)
	// LessonsAt returns the lessons at paths, by path, as Lessons would.
	LessonsAt(ctx context.Context, paths []string) ([]Lesson, error)
}

// changed returns set brought to version v by the index's record of the
// last change, or nil when the index keeps none that leads from set's
// version to v.
func (m *Matcher) changed(ctx context.Context, set *lessonSet, v string) (*lessonSet, error) {
	ci, ok := m.ix.(ChangeIndex)
	if set == nil || !ok {
		return nil, nil
	}
	prev, cur, paths, ok, err := ci.LessonsChange(ctx)
	if err != nil || !ok || prev != set.version || cur != v {
		return nil, err
	}
	fresh, err := ci.LessonsAt(ctx, paths)
	if err != nil {
		return nil, err
	}
	return newLessonSet(v, replaceLessons(set.all, paths, fresh)), nil
}

// replaceLessons is ls, by path, with the lessons at paths replaced by
// fresh (the lessons at those paths now; a path with none now has none).
func replaceLessons(ls []Lesson, paths []string, fresh []Lesson) []Lesson {
	gone := make(map[string]bool, len(paths))
	for _, p := range paths {
		gone[p] = true
	}
	out := make([]Lesson, 0, len(ls)+len(fresh))
	for _, l := range ls {
		if !gone[l.Path] {
			out = append(out, l)
		}
	}
	out = append(out, fresh...)
	slices.SortStableFunc(out, func(a, b Lesson) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// lessonSet is every matchable lesson, indexed for the fast path.
type lessonSet struct {
	version string
	// all are the lessons it was built from, matchable or not, by path:
	// what a change of a few of them rebuilds it from.
	all     []Lesson
	lessons []entry
	// vec are the lessons' vectors, nil without a vector side.
	vec *vectors.Set
	// byWord maps an analyzed trigger word to the lessons whose trigger
	// has it; byTool a lower-cased tool name to its lessons; globbed are
	// the lessons with a path glob.
	byWord  map[string][]int32
	byTool  map[string][]int32
	globbed []int32
	// termIDs number the analyzed terms of the lessons' name, trigger,
	// action bias and text; postings[id] lists the lessons holding term
	// id, with how often: BM25's.
	termIDs  map[string]int32
	postings [][]posting
	avgLen   float64
}

type posting struct {
	doc int32
	tf  int32
}

// entry is one matchable lesson.
type entry struct {
	Lesson
	// phrases are the word triggers, each as its analyzed words, and
	// phraseText each as written.
	phrases    [][]string
	phraseText []string
	tools      []string
	globs      []string
	length     int
}

// triggerKind sorts a trigger item: a tool ("tool:NAME"), a path glob
// ("path:GLOB"; a pattern with *, [ or {, spaces and all, as Obsidian's
// folder names have them: "My Folder/*.md"; a path with a slash and no
// space: "db/migrations/"), or words ("why does it fail?", "run db/seed
// first").
func triggerKind(t string) (kind, value string) {
	switch lt := strings.ToLower(t); {
	case strings.HasPrefix(lt, "tool:"):
		return "tool", strings.TrimSpace(t[len("tool:"):])
	case strings.HasPrefix(lt, "path:"):
		return "glob", strings.TrimSpace(t[len("path:"):])
	case strings.ContainsAny(t, "*[{"):
		return "glob", strings.TrimSpace(t)
	case !strings.ContainsAny(t, " \t") && strings.ContainsAny(t, "/?"):
		return "glob", t
	}
	return "words", t
}

// ConflictCopies returns, of ls, the lessons that are a sync service's
// conflict copy of another lesson of ls not archived (see
// vault.ConflictCopy), by path: the original's path and the service.
// Matching leaves them out (the original is the lesson, matched once);
// review lists them.
func ConflictCopies(ls []Lesson) map[string]ConflictCopy {
	live := map[string]bool{}
	for _, l := range ls {
		if !l.Archived {
			live[l.Path] = true
		}
	}
	out := map[string]ConflictCopy{}
	for _, l := range ls {
		if l.Archived {
			continue
		}
		if orig, service, ok := vault.ConflictCopy(l.Path, func(p string) bool { return live[p] }); ok && live[orig] && orig != l.Path {
			out[l.Path] = ConflictCopy{Original: orig, Service: service}
		}
	}
	return out
}

// ConflictCopy is a lesson that a sync service copied beside its
// original: the original's vault path and the service's name.
type ConflictCopy struct {
	Original, Service string
}

// ConflictCopyReason is why review lists the lesson at vault path p, a
// conflict copy c, with what to do.
func ConflictCopyReason(p string, c ConflictCopy) string {
	return vault.ConflictCopyAdvice(p, c.Original, c.Service) + "; until then it is out of matching"
}

func newLessonSet(version string, ls []Lesson) *lessonSet {
	set := &lessonSet{version: version, all: ls, byWord: map[string][]int32{}, byTool: map[string][]int32{}, termIDs: map[string]int32{}}
	total := 0
	// tf counts a lesson's terms by id, and seen lists the ids it counted
	// in the order first met: a slice, not a map, as this loop runs once
	// for every word of every lesson.
	var tf []int32
	var seen []int32
	copies := ConflictCopies(ls)
	for _, l := range ls {
		if _, copied := copies[l.Path]; copied || l.Archived || l.Proposed || hasMatchProblem(l) || len(l.Trigger) == 0 {
			continue
		}
		e := entry{Lesson: l}
		doc := int32(len(set.lessons))
		for _, t := range l.Trigger {
			switch kind, v := triggerKind(t); kind {
			case "tool":
				if v != "" {
					e.tools = append(e.tools, strings.ToLower(v))
					set.byTool[strings.ToLower(v)] = append(set.byTool[strings.ToLower(v)], doc)
				}
			case "glob":
				if doublestar.ValidatePattern(v) {
					e.globs = append(e.globs, v)
				}
			default:
				words := text.ContentTerms(v)
				if len(words) > 0 {
					e.phrases = append(e.phrases, words)
					e.phraseText = append(e.phraseText, v)
				}
				for _, w := range words {
					if ws := set.byWord[w]; len(ws) == 0 || ws[len(ws)-1] != doc {
						set.byWord[w] = append(ws, doc)
					}
				}
			}
		}
		if len(e.globs) > 0 {
			set.globbed = append(set.globbed, doc)
		}
		e.length = len(l.Terms)
		total += len(l.Terms)
		seen = seen[:0]
		for _, t := range l.Terms {
			id, ok := set.termIDs[t]
			if !ok {
				id = int32(len(set.postings))
				set.termIDs[t] = id
				set.postings = append(set.postings, nil)
				tf = append(tf, 0)
			}
			if tf[id] == 0 {
				seen = append(seen, id)
			}
			tf[id]++
		}
		for _, id := range seen {
			set.postings[id] = append(set.postings[id], posting{doc, tf[id]})
			tf[id] = 0
		}
		set.lessons = append(set.lessons, e)
	}
	if len(set.lessons) > 0 {
		set.avgLen = float64(total) / float64(len(set.lessons))
	}
	return set
}

// badGlobs are the path-glob items of trigger that are no valid glob
// (matching leaves them out).
func badGlobs(trigger []string) []string {
	var bad []string
	for _, t := range trigger {
		if kind, v := triggerKind(t); kind == "glob" && !doublestar.ValidatePattern(v) {
			bad = append(bad, t)
		}
	}
	return bad
}

// hasMatchProblem reports whether l's problems keep it out of matching.
func hasMatchProblem(l Lesson) bool {
	_, ok := brokenBy(l.Problems)
	return ok
}

// brokenBy is the first of a lesson's problems that keeps it out of
// matching and decay until a human fixes it: one in its trigger or its
// strength.
func brokenBy(problems []Problem) (Problem, bool) {
	for _, p := range problems {
		if p.Key == KeyTrigger || p.Key == KeyStrength {
			return p, true
		}
	}
	return Problem{}, false
}

// bm25Half is the BM25 score at which the keyword part of relevance is
// one half: it saturates, so that no lesson's text outweighs its trigger.
const bm25Half = 4.0

// scratch is one match's per-lesson scores, kept in a pool between
// matches so that ranking allocates nothing per lesson.
type scratch struct {
	exact, kw, sem []float64
	touched        []int32
	// vec is the vector side's (see vectors.Set.Nearest).
	vec vectors.Scratch
}

var scratchPool sync.Pool

func getScratch(n int) *scratch {
	sc, _ := scratchPool.Get().(*scratch)
	if sc == nil || len(sc.exact) < n {
		sc = &scratch{exact: make([]float64, n), kw: make([]float64, n), sem: make([]float64, n)}
	}
	return sc
}

// release zeroes what sc touched and puts it back in the pool.
func (sc *scratch) release() {
	for _, d := range sc.touched {
		sc.exact[d], sc.kw[d], sc.sem[d] = 0, 0, 0
	}
	sc.touched = sc.touched[:0]
	scratchPool.Put(sc)
}

func (sc *scratch) touch(d int32) {
	if sc.exact[d] == 0 && sc.kw[d] == 0 && sc.sem[d] == 0 {
		sc.touched = append(sc.touched, d)
	}
}

// ranked is a lesson's place in a match.
type ranked struct {
	doc        int32
	rel, score float64
}

// before orders ranked lessons: score, then relevance, then path.
func (set *lessonSet) before(a, b ranked) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	if a.rel != b.rel {
		return a.rel > b.rel
	}
	return set.lessons[a.doc].Path < set.lessons[b.doc].Path
}

// match ranks the lessons for s and returns the top k: trigger words,
// tools and globs matched exactly, BM25 over each lesson's words, and the
// similarity of meaning of the few nearest lessons, accumulated in flat
// arrays; the reasons are written for the top k only. The only error is
// the embedder's.
func (set *lessonSet) match(ctx context.Context, s Situation, k int, rerank func(Situation, []Match) []Match) ([]Match, error) {
	if len(set.lessons) == 0 || s.empty() {
		return []Match{}, nil
	}
	sc := getScratch(len(set.lessons))
	defer sc.release()
	terms := text.ContentTerms(s.Text)
	have := make(map[string]bool, len(terms))
	for _, t := range terms {
		have[t] = true
	}
	for _, t := range terms {
		for _, d := range set.byWord[t] {
			if sc.exact[d] > 0 {
				continue // done by an earlier word
			}
			if f, _ := set.lessons[d].phraseMatch(have); f > 0 {
				sc.touch(d)
				sc.exact[d] = f
			}
		}
	}
	tool := strings.ToLower(strings.TrimSpace(s.Tool))
	if tool != "" {
		for _, d := range set.byTool[tool] {
			sc.touch(d)
			sc.exact[d] = 1
		}
	}
	if len(s.Paths) > 0 {
		for _, d := range set.globbed {
			if _, _, ok := set.lessons[d].globMatch(s.Paths); ok {
				sc.touch(d)
				sc.exact[d] = 1
			}
		}
	}
	n := float64(len(set.lessons))
	analyzed := text.Analyze(s.Text)
	for _, t := range analyzed {
		id, ok := set.termIDs[t]
		if !ok {
			continue
		}
		ps := set.postings[id]
		idf := math.Log(1 + (n-float64(len(ps))+0.5)/(float64(len(ps))+0.5))
		for _, p := range ps {
			tf := float64(p.tf)
			norm := 1.2 * (0.25 + 0.75*float64(set.lessons[p.doc].length)/set.avgLen)
			sc.touch(p.doc)
			sc.kw[p.doc] += idf * tf * 2.2 / (tf + norm)
		}
	}
	if err := set.meaning(ctx, s.Text, sc); err != nil {
		return nil, fmt.Errorf("embed the situation: %w", err)
	}
	keep := k
	if rerank != nil {
		keep = 3 * k
	}
	var top []ranked // best first, at most keep
	for _, d := range sc.touched {
		kw := sc.kw[d] / (sc.kw[d] + bm25Half)
		rel := round(0.6*sc.exact[d] + 0.4*max(kw, sc.sem[d]))
		if rel < MinRelevance {
			continue
		}
		r := ranked{d, rel, round(rel * set.lessons[d].Strength)}
		if len(top) == keep && !set.before(r, top[len(top)-1]) {
			continue
		}
		i, _ := slices.BinarySearchFunc(top, r, func(a, b ranked) int {
			if set.before(a, b) {
				return -1
			}
			return 1
		})
		top = slices.Insert(top, i, r)
		if len(top) > keep {
			top = top[:keep]
		}
	}
	out := make([]Match, len(top))
	for i, r := range top {
		e := &set.lessons[r.doc]
		out[i] = Match{Path: e.Path, Name: e.Name, Trigger: e.Trigger, ActionBias: e.ActionBias, Domain: e.Domain, Tags: e.Tags,
			Strength: e.Strength, Confidence: e.Confidence, Relevance: r.rel, Score: r.score}
		var first Reason
		out[i].On, out[i].Why, out[i].About, first = e.why(s, tool, have, sc.kw[r.doc], sc.sem[r.doc])
		out[i].SuggestedAdjustment = Suggest(e.Name, e.ActionBias, first)
	}
	if rerank != nil && len(out) > 1 {
		out = rerank(s, out)
	}
	return out[:min(len(out), k)], nil
}

// phraseMatch returns the largest share of one of e's trigger phrases
// whose words are in have, and that phrase as written.
func (e *entry) phraseMatch(have map[string]bool) (float64, string) {
	best, which := 0.0, ""
	for i, ph := range e.phrases {
		n := 0
		for _, w := range ph {
			if have[w] {
				n++
			}
		}
		if f := float64(n) / float64(len(ph)); f > best {
			best, which = f, e.phraseText[i]
		}
	}
	return best, which
}

// globMatch returns the first of paths one of e's globs matches, and the
// glob.
func (e *entry) globMatch(paths []string) (string, string, bool) {
	for _, g := range e.globs {
		if p, ok := globMatch(g, paths); ok {
			return p, g, true
		}
	}
	return "", "", false
}

// why says what of situation s matched e: the kinds (see Match.On), a
// sentence, whether s is what e is about (see Match.About), and the
// reason a suggestion names: the most telling one (a whole trigger
// phrase, a path, the meaning, part of a phrase, the tool, keywords).
func (e *entry) why(s Situation, tool string, have map[string]bool, kw, sem float64) (on []string, why string, about bool, first Reason) {
	var says []string
	var whole, path, partial, byTool, byMeaning, byWords Reason
	if f, which := e.phraseMatch(have); f == 1 {
		about = true
		on, says = append(on, "words"), append(says, fmt.Sprintf("trigger words %q in the text", which))
		whole = Reason{Kind: "words", What: which}
	} else if f > 0 {
		on, says = append(on, "words"), append(says, fmt.Sprintf("%.0f%% of trigger words %q in the text", f*100, which))
		partial = Reason{Kind: "words", What: which, Partial: true}
	}
	if tool != "" && slices.Contains(e.tools, tool) {
		on, says = append(on, "tool"), append(says, "tool "+s.Tool)
		byTool = Reason{Kind: "tool", What: s.Tool}
	}
	if p, g, ok := e.globMatch(s.Paths); ok {
		about = true
		on, says = append(on, "path"), append(says, fmt.Sprintf("path %s matches %s", p, g))
		path = Reason{Kind: "path", What: p, Pattern: g}
	}
	if kw > 0 {
		on, says = append(on, "keywords"), append(says, fmt.Sprintf("keywords (bm25 %.1f)", kw))
		byWords = Reason{Kind: "keywords"}
	}
	if sem > 0 {
		on, says = append(on, "meaning"), append(says, fmt.Sprintf("meaning (similarity %.2f)", sem))
		byMeaning = Reason{Kind: "meaning"}
	}
	for _, r := range []Reason{whole, path, byMeaning, partial, byTool, byWords} {
		if r.Kind != "" {
			first = r
			break
		}
	}
	return on, strings.Join(says, "; "), about, first
}

// globMatch returns the first of paths that glob g matches: against the
// whole path, or for a glob without a slash, against the file name.
func globMatch(g string, paths []string) (string, bool) {
	for _, p := range paths {
		p = strings.TrimPrefix(path.Clean(strings.ReplaceAll(p, "\\", "/")), "./")
		if ok, _ := doublestar.Match(g, p); ok {
			return p, true
		}
		if !strings.Contains(g, "/") {
			if ok, _ := doublestar.Match(g, path.Base(p)); ok {
				return p, true
			}
		}
	}
	return "", false
}

// StrongAbove is the least strength, and relevance, of the lessons
// recall shows for a how-to question.
const StrongAbove = 0.5

// ForRecall returns the strong lessons (strength and relevance at least
// StrongAbove) matching query, written for an agent's context: one line
// each, with the path; "" when none matches.
func (m *Matcher) ForRecall(ctx context.Context, query string) (string, error) {
	res, err := m.Match(ctx, Situation{Text: query}, DefaultK)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, l := range res.Lessons {
		if l.Strength >= StrongAbove && l.Relevance >= StrongAbove {
			fmt.Fprintf(&b, "- %s: %s (strength %s; %s)\n", l.Name, l.ActionBias, num(l.Strength), l.Path)
		}
	}
	return b.String(), nil
}
