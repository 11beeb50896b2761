package app

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/vaultmem/vaultmem/config"
	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/lesson/router"
)

// The lesson use cases the front ends share (the CLI's 'vaultmem lesson'
// commands, the MCP server's lesson tools). Their one freshness policy:
// each brings the index up to date first (a.fresh: nothing while a
// watcher keeps it current) and refuses an index no sync has filled,
// because every answer, and every name a write resolves, comes from the
// index. A request whose NoSync is set says its caller synced just
// before (the MCP server, which tells a failed sync as a warning and
// answers from the index as it was): the index is then only required to
// be built. Names of lessons and notes are resolved as a [[wikilink]] is
// (see lesson.Store.Resolve). Errors are classed by ClassOf:
// ErrLessonInvalid (Invalid), ErrLessonArchived (Conflict).

// The lesson kind's types, as the use cases take and give them.
type (
	// Situation is what an agent is about to do: text, a tool, paths.
	Situation = lesson.Situation
	// LessonMatches is what Lessons.Match found (each lesson with why it
	// matched), with its time and whether the hot cache answered.
	LessonMatches = lesson.Result
	// LessonAdded is a lesson Lessons.Add wrote.
	LessonAdded = lesson.Added
	// LessonApplied is an outcome's effect on its lesson.
	LessonApplied = lesson.Applied
	// LessonDecay is one lesson Lessons.Decay weakened.
	LessonDecay = lesson.Decay
	// LessonSkip is a lesson Lessons.Decay left alone, with its file and
	// line and why.
	LessonSkip = lesson.Skip
	// LessonReview is a lesson that needs a look, with the reasons.
	LessonReview = lesson.Review
	// LessonContradiction is two lessons whose triggers overlap and whose
	// action biases point opposite ways.
	LessonContradiction = lesson.Contradiction
	// LessonHistory is a lesson's audit trail.
	LessonHistory = lesson.History
	// LessonListed is a lesson as Lessons.List gives it.
	LessonListed = lesson.Listed
	// LessonTrend is the outcomes of one domain in one month.
	LessonTrend = lesson.Trend
	// LessonStats is the quality of the lessons and of what match shows.
	LessonStats = lesson.Stats
	// RouterReport is the precision of the static order and of the
	// learned router on one replayed log.
	RouterReport = router.Report
	// RouterWorldReport is a RouterReport on a simulated world's log.
	RouterWorldReport = router.WorldReport
)

// The bounds and names of the lesson kind the front ends show.
const (
	// DefaultLessons is how many lessons Lessons.Match returns for K 0.
	DefaultLessons = lesson.DefaultK
	// MaxLessons is the most lessons Lessons.Match returns.
	MaxLessons = lesson.MaxK
	// LessonLogFile is the outcome log's file under .vaultmem/state.
	LessonLogFile = lesson.LogFile
)

// The lesson kind's errors, for a front end that words them (errors.Is).
var (
	// ErrLessonInvalid: a lesson request is not acceptable (an empty
	// title, no trigger, an empty situation, a bound out of range).
	ErrLessonInvalid = lesson.ErrInvalid
	// ErrNotLesson: the note named is not a lesson.
	ErrNotLesson = lesson.ErrNotLesson
	// ErrLessonArchived: the lesson named is archived.
	ErrLessonArchived = lesson.ErrArchived
)

// Lessons are the lesson use cases of one App: every change and read of
// the lessons the CLI's lesson commands, the MCP server's lesson tools
// and the hooks make, each once. Get them with App.Lessons.
type Lessons struct{ a *App }

// Lessons returns a's lesson use cases.
func (a *App) Lessons() Lessons { return Lessons{a} }

// store returns the lesson store over an index brought up to date
// (see the policy above), or only checked to be built when noSync.
func (l Lessons) store(ctx context.Context, noSync bool) (*lesson.Store, error) {
	a := l.a
	var err error
	if noSync {
		err = a.RequireBuilt(ctx)
	} else {
		err = a.fresh(ctx, false)
	}
	if err != nil {
		return nil, err
	}
	st, err := a.openLessons()
	if err != nil {
		return nil, err
	}
	// A rule edited since the fast path loaded the lessons (in a server
	// or a watcher, which hold them) gets its next version now.
	if _, err := st.RecordEdits(ctx); err != nil {
		return nil, err
	}
	return st, nil
}

// lessonMeaning is the lesson fast path's vector side over the index:
// the vault's LSA model (a configured embedder is left out: each of its
// calls costs milliseconds to a network round trip, the fast path's whole
// budget), and around each lesson the notes it links to and is linked
// from, else the notes its rule's words find.
type lessonMeaning struct {
	a *App
}

// lessonMeaning is how a's lessons are matched by meaning; nil (by their
// words alone) for an App opened for one hook event (Options.oneEvent).
func (a *App) lessonMeaning() lesson.Meaning {
	if a.opts.oneEvent {
		return nil
	}
	return lessonMeaning{a}
}

// meaningNotes is the most notes around a lesson whose opening chunk its
// vector is made with.
const meaningNotes = 5

// Embedder returns the vault's LSA model, nil when another embedder is
// configured or no sync has fitted one.
func (m lessonMeaning) Embedder(ctx context.Context) (lesson.Embedder, error) {
	if p := m.a.Config.Embedder.Provider; p != "" && p != config.ProviderLSA {
		return nil, nil
	}
	e, err := m.a.ix.Searcher().QueryEmbedder(ctx)
	if err != nil || e == nil {
		return nil, err
	}
	return e, nil
}

// Around returns, for each lesson, the opening chunks of up to
// meaningNotes notes that are no lessons: those it links to and is linked
// from, else those a keyword search for its rule's words finds.
func (m lessonMeaning) Around(ctx context.Context, ls []lesson.Lesson) (map[string][]string, error) {
	out := make(map[string][]string, len(ls))
	for _, l := range ls {
		paths, err := m.a.ix.Graph().Linked(ctx, l.Path)
		if err != nil {
			return nil, err
		}
		if len(paths) == 0 {
			hits, err := m.a.ix.Searcher().Search(ctx, index.Query{Text: strings.Join(append(lesson.WordTriggers(l.Trigger), l.ActionBias), " "),
				Mode: index.Keyword, Limit: 2 * meaningNotes, AnyWord: true, NoSnippets: true})
			if err != nil {
				return nil, err
			}
			for _, h := range hits {
				if h.Kind != lesson.Type && !slices.Contains(paths, h.Path) {
					paths = append(paths, h.Path)
				}
			}
		}
		paths = paths[:min(len(paths), 2*meaningNotes)]
		opens, err := m.a.ix.Searcher().Openings(ctx, paths, 1)
		if err != nil {
			return nil, err
		}
		for _, r := range opens {
			if r.Kind != lesson.Type && len(out[l.Path]) < meaningNotes {
				out[l.Path] = append(out[l.Path], r.Text)
			}
		}
	}
	return out, nil
}

// LessonAddRequest is a new lesson: its title (also its note's name), when
// it applies (Trigger: words, tool:NAME, path globs), what to do
// (ActionBias), and the notes it was learned from (Episodes) and the
// lessons it refines (DerivedFrom), by path or name. NoSync: see the
// lesson use cases' policy.
type LessonAddRequest struct {
	Title       string   `json:"title"`
	Trigger     []string `json:"trigger"`
	ActionBias  string   `json:"action_bias,omitempty"`
	Domain      string   `json:"domain,omitempty"`
	Tags        []string `json:"tags,omitempty"`
	Episodes    []string `json:"episodes,omitempty"`
	DerivedFrom []string `json:"derived_from,omitempty"`
	Body        string   `json:"body,omitempty"`
	NoSync      bool     `json:"no_sync,omitempty"`
}

// Add writes a new lesson note at the initial strength, the index
// brought up to date first (its episodes and parents are resolved by name
// in it). Errors: ErrLessonInvalid (wrapped) for an empty title or
// trigger or a bad glob; vault.ErrNotFound (wrapped) for an episode that
// is no note; the index's and the writer's.
func (l Lessons) Add(ctx context.Context, req LessonAddRequest) (LessonAdded, error) {
	st, err := l.store(ctx, req.NoSync)
	if err != nil {
		return LessonAdded{}, err
	}
	return st.Add(ctx, lesson.New{Title: req.Title, Trigger: req.Trigger, ActionBias: req.ActionBias, Domain: req.Domain,
		Tags: req.Tags, Episodes: req.Episodes, DerivedFrom: req.DerivedFrom, Body: req.Body})
}

// LessonOutcomeRequest says how applying a lesson (a path or name) went:
// Success or not, where (Episode, a note), in what situation (Context,
// Tool, Paths: what match was asked with) and by whom (Agent, an agent id
// the front end chose). NoSync: see the lesson use cases' policy.
type LessonOutcomeRequest struct {
	Lesson  string   `json:"lesson"`
	Success bool     `json:"success"`
	Episode string   `json:"episode,omitempty"`
	Context string   `json:"context,omitempty"`
	Tool    string   `json:"tool,omitempty"`
	Paths   []string `json:"paths,omitempty"`
	Agent   string   `json:"agent,omitempty"`
	NoSync  bool     `json:"no_sync,omitempty"`
}

// RecordOutcome applies the strength rule to the lesson req names,
// appends its History line and logs the record (see
// lesson.Store.Outcome), the index brought up to date first. Errors:
// ErrLessonInvalid (wrapped) for no lesson named, ErrNotLesson for a note
// that is no lesson, ErrLessonArchived, a strength that is no number
// (naming the file and line); the index's and the writer's.
func (l Lessons) RecordOutcome(ctx context.Context, req LessonOutcomeRequest) (LessonApplied, error) {
	st, err := l.store(ctx, req.NoSync)
	if err != nil {
		return LessonApplied{}, err
	}
	return st.Outcome(ctx, lesson.Outcome{Lesson: req.Lesson, Success: req.Success, Episode: req.Episode,
		Context: req.Context, Tool: req.Tool, Paths: req.Paths, Agent: req.Agent})
}

// LessonDecayRequest asks for the decay of the lessons unused for too
// long as of Today (YYYY-MM-DD; "" is today's date here), writing nothing
// when DryRun.
type LessonDecayRequest struct {
	Today  string `json:"today,omitempty"`
	DryRun bool   `json:"dry_run,omitempty"`
}

// LessonDecayReport is what Lessons.Decay did, or would do with DryRun.
// Its fields are in the order of their JSON names, as 'lesson decay
// --json' always printed them.
type LessonDecayReport struct {
	Decayed []LessonDecay `json:"decayed"`
	DryRun  bool          `json:"dry_run"`
	Skipped []LessonSkip  `json:"skipped"`
}

// Decay weakens the lessons unused for too long and archives those
// that fall below the line (see lesson.Store.Decay), the index brought up
// to date first; a lesson whose trigger or strength is broken is skipped,
// with its file and line. Errors: ErrLessonInvalid (wrapped) for a Today
// that is no date; the index's and the writer's.
func (l Lessons) Decay(ctx context.Context, req LessonDecayRequest) (LessonDecayReport, error) {
	st, err := l.store(ctx, false)
	if err != nil {
		return LessonDecayReport{}, err
	}
	today := req.Today
	if today == "" {
		today = time.Now().Format(lesson.DateLayout)
	}
	ds, skipped, err := st.Decay(ctx, today, req.DryRun)
	if err != nil {
		return LessonDecayReport{}, err
	}
	return LessonDecayReport{Decayed: ds, DryRun: req.DryRun, Skipped: skipped}, nil
}

// LessonReviewRequest asks for the lessons that need a look, or for every
// lesson when All.
type LessonReviewRequest struct {
	All bool `json:"all,omitempty"`
}

// Review returns the lessons that need a look (flagged, weak,
// proposed, with frontmatter problems), or all of them with req.All, the
// index brought up to date first. Errors: the index's.
func (l Lessons) Review(ctx context.Context, req LessonReviewRequest) ([]LessonReview, error) {
	st, err := l.store(ctx, false)
	if err != nil {
		return nil, err
	}
	return st.Review(ctx, req.All)
}

// LessonContradictionsRequest asks for the lessons that contradict each
// other; it has no parameters yet.
type LessonContradictionsRequest struct{}

// Contradictions returns the pairs of lessons whose triggers
// overlap and whose action biases point opposite ways, the index brought
// up to date first. Errors: ctx's when it ends during the search; the
// index's.
func (l Lessons) Contradictions(ctx context.Context, _ LessonContradictionsRequest) ([]LessonContradiction, error) {
	st, err := l.store(ctx, false)
	if err != nil {
		return nil, err
	}
	return st.Contradictions(ctx)
}

// LessonHistoryRequest names a lesson: a path or a name.
type LessonHistoryRequest struct {
	Lesson string `json:"lesson"`
}

// History returns the lesson's History lines and its logged
// outcomes, the index brought up to date first. Errors: those of
// Lessons.RecordOutcome's naming (ErrLessonInvalid, ErrNotLesson,
// vault.ErrNotFound, wrapped); the index's.
func (l Lessons) History(ctx context.Context, req LessonHistoryRequest) (LessonHistory, error) {
	st, err := l.store(ctx, false)
	if err != nil {
		return LessonHistory{}, err
	}
	return st.History(ctx, req.Lesson)
}

// LessonTrendsRequest asks for the outcomes by domain and month, of one
// Domain only when set, logged from Since to Until (YYYY-MM-DD, both
// included; "" for no bound).
type LessonTrendsRequest struct {
	Domain string `json:"domain,omitempty"`
	Since  string `json:"since,omitempty"`
	Until  string `json:"until,omitempty"`
	NoSync bool   `json:"no_sync,omitempty"`
}

// Trends returns the outcomes, success rate and mean strength
// by domain and month, the index brought up to date first. Errors:
// ErrLessonInvalid (wrapped) for a Since or Until that is no date, or a
// Since after Until; the outcome log's and the index's.
func (l Lessons) Trends(ctx context.Context, req LessonTrendsRequest) ([]LessonTrend, error) {
	st, err := l.store(ctx, req.NoSync)
	if err != nil {
		return nil, err
	}
	return st.Trends(ctx, lesson.TrendsFilter{Domain: req.Domain, Since: req.Since, Until: req.Until})
}

// LessonListRequest chooses lessons: of a Domain, at least MinStrength
// (0..1) strong, learned from or applied in an Episode (a note's path or
// name); zero values choose all. NoSync: see the lesson use cases'
// policy.
type LessonListRequest struct {
	Domain      string  `json:"domain,omitempty"`
	MinStrength float64 `json:"min_strength,omitempty"`
	Episode     string  `json:"episode,omitempty"`
	NoSync      bool    `json:"no_sync,omitempty"`
}

// List returns the lessons req chooses, strongest first, with
// their confidence and version (see lesson.Store.List), the index brought
// up to date first. Errors: ErrLessonInvalid (wrapped) for a MinStrength
// outside 0..1; vault.ErrNotFound (wrapped) for an Episode that is no
// note; the index's and the outcome log's.
func (l Lessons) List(ctx context.Context, req LessonListRequest) ([]LessonListed, error) {
	st, err := l.store(ctx, req.NoSync)
	if err != nil {
		return nil, err
	}
	return st.List(ctx, lesson.ListFilter{Domain: req.Domain, MinStrength: req.MinStrength, Episode: req.Episode})
}

// LessonStatsRequest asks for the lessons' statistics; it has no
// parameters yet.
type LessonStatsRequest struct{}

// Stats returns the lessons' counts, the precision and recall
// of what match showed, and the correlation of strength with success, the
// index brought up to date first. Errors: the outcome log's and the
// index's.
func (l Lessons) Stats(ctx context.Context, _ LessonStatsRequest) (LessonStats, error) {
	st, err := l.store(ctx, false)
	if err != nil {
		return LessonStats{}, err
	}
	return st.Stats(ctx)
}

// LessonRouterRequest asks for the learned router's evaluation: the first
// TrainFraction (0 to 1) of the outcome log trains it, the rest tests it;
// Simulate also replays the simulated worlds' logs.
type LessonRouterRequest struct {
	TrainFraction float64 `json:"train_fraction"`
	Simulate      bool    `json:"simulate,omitempty"`
}

// LessonRouterReport is the learned router against the static order: on
// this vault's outcome log, and on the simulated worlds' ([] unless asked
// for).
type LessonRouterReport struct {
	Log       RouterReport        `json:"log"`
	Simulated []RouterWorldReport `json:"simulated"`
}

// simulatedRecords and simulatedSeeds size the simulated worlds'
// replays: 3 seeds of each world, 3,000 records each, enough for the
// precisions to settle within a second.
const (
	simulatedRecords = 3000
	simulatedSeeds   = 3
)

// EvalRouter replays this vault's outcome log in time order and
// reports precision at 1 and 3 of the static order and of the learned
// router (see lesson.Store.EvalRouter), and with req.Simulate the same on
// simulated logs. The request is checked before the index is touched; the
// index is then brought up to date, as for every lesson use case. Errors:
// ErrLessonInvalid (wrapped) for a TrainFraction outside 0..1; the outcome
// log's.
func (l Lessons) EvalRouter(ctx context.Context, req LessonRouterRequest) (LessonRouterReport, error) {
	if !(req.TrainFraction >= 0 && req.TrainFraction <= 1) { // NaN too
		return LessonRouterReport{}, fmt.Errorf("%w: train fraction %v: give 0 to 1", lesson.ErrInvalid, req.TrainFraction)
	}
	st, err := l.store(ctx, false)
	if err != nil {
		return LessonRouterReport{}, err
	}
	rep, err := st.EvalRouter(req.TrainFraction)
	if err != nil {
		return LessonRouterReport{}, err
	}
	out := LessonRouterReport{Log: rep, Simulated: []RouterWorldReport{}}
	if req.Simulate {
		out.Simulated = router.ReplayWorlds(simulatedRecords, simulatedSeeds, req.TrainFraction)
	}
	return out, nil
}
