package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// lessonApp is an open App on a new vault (no embedder: the lesson use
// cases need none) with one lesson added through AddLesson.
func lessonApp(t *testing.T) *App {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	if _, err := Init(ctx, dir); err != nil {
		t.Fatal(err)
	}
	a, err := Open(ctx, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	if _, err := a.Lessons().Add(ctx, LessonAddRequest{Title: "Run migrations first", Trigger: []string{"db/migrations/**", "integration tests"},
		ActionBias: "run make migrate before the integration tests", Domain: "testing"}); err != nil {
		t.Fatal(err)
	}
	return a
}

// names are the names of the lessons m holds, in order.
func names(m LessonMatches) []string {
	var out []string
	for _, l := range m.Lessons {
		out = append(out, l.Name)
	}
	return out
}

// TestMatchLessonsSyncsFirst: a lesson written on disk a moment ago (by a
// person, by another process) is matched, because matching brings the
// index up to date first, whatever the front end (the MCP server once
// answered from the index as it was); NoSync, for a caller that synced
// itself, answers from the index as it is.
func TestMatchLessonsSyncsFirst(t *testing.T) {
	ctx := context.Background()
	a := lessonApp(t)
	note := "---\ntype: lesson\ntrigger: [\"tool:Deploy\"]\naction_bias: announce the deploy in the channel first\nstrength: 0.6\n---\n\nPeople want to know.\n"
	if err := os.WriteFile(filepath.Join(a.Vault.Dir, "lessons", "Announce deploys.md"), []byte(note), 0o644); err != nil {
		t.Fatal(err)
	}
	req := MatchRequest{Situation: Situation{Tool: "Deploy"}}
	stale, err := a.Lessons().Match(ctx, MatchRequest{Situation: req.Situation, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(stale.Lessons) != 0 {
		t.Fatalf("NoSync matched %v before any sync saw the note: the test shows nothing", names(stale))
	}
	got, err := a.Lessons().Match(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(names(got), ",") != "Announce deploys" {
		t.Errorf("matched %v; want the lesson written on disk", names(got))
	}
}

// TestMatchLessonsChecksTheRequest: the one check of a match request,
// before the index is touched, classed Invalid for every front end.
func TestMatchLessonsChecksTheRequest(t *testing.T) {
	ctx := context.Background()
	a := lessonApp(t)
	for _, c := range []struct {
		name string
		req  MatchRequest
		want string // "" for none
	}{
		{"nothing said", MatchRequest{}, "say what you are about to do"},
		{"blank text and tool", MatchRequest{Situation: Situation{Text: " \t", Tool: " "}}, "say what you are about to do"},
		{"k below 0", MatchRequest{Situation: Situation{Text: "integration tests"}, K: -1}, "k -1: give 1 to 100"},
		{"k above the most", MatchRequest{Situation: Situation{Text: "integration tests"}, K: MaxLessons + 1}, "k 101: give 1 to 100"},
		{"k 0 is the default", MatchRequest{Situation: Situation{Text: "integration tests"}}, ""},
		{"k the most", MatchRequest{Situation: Situation{Text: "integration tests"}, K: MaxLessons}, ""},
		{"a path alone", MatchRequest{Situation: Situation{Paths: []string{"db/migrations/0042.sql"}}}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := a.Lessons().Match(ctx, c.req)
			if c.want == "" {
				if err != nil || strings.Join(names(res), ",") != "Run migrations first" {
					t.Errorf("%v, %v; want the lesson", names(res), err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) || ClassOf(err) != Invalid || !errors.Is(err, ErrLessonInvalid) {
				t.Errorf("error %v (class %v); want an Invalid ErrLessonInvalid saying %q", err, ClassOf(err), c.want)
			}
		})
	}
}

// TestLessonUseCases runs a lesson's life through the use cases: outcomes
// move its strength and reach its history, the stats and trends count
// them, review flags it once weak, decay archives it, and an archived
// lesson's outcome is a Conflict.
func TestLessonUseCases(t *testing.T) {
	ctx := context.Background()
	a := lessonApp(t)
	ok, err := a.Lessons().RecordOutcome(ctx, LessonOutcomeRequest{Lesson: "Run migrations first", Success: true, Context: "run the integration tests", Agent: "tester"})
	if err != nil {
		t.Fatal(err)
	}
	if ok.Before != 0.5 || ok.After != 0.55 || ok.Outcome != "success" {
		t.Errorf("success: %+v; want 0.5 → 0.55", ok)
	}
	for range 3 {
		if _, err := a.Lessons().RecordOutcome(ctx, LessonOutcomeRequest{Lesson: "lessons/Run migrations first.md", Success: false}); err != nil {
			t.Fatal(err)
		}
	}
	h, err := a.Lessons().History(ctx, LessonHistoryRequest{Lesson: "run migrations first"})
	if err != nil {
		t.Fatal(err)
	}
	if h.Strength != 0.25 || len(h.Lines) != 5 { // created, a success, three failures
		t.Errorf("history: strength %v, lines %q", h.Strength, h.Lines)
	}
	st, err := a.Lessons().Stats(ctx, LessonStatsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Lessons != 1 || st.Flagged != 1 || st.Outcomes != 4 || st.Successes != 1 {
		t.Errorf("stats: %+v", st)
	}
	trends, err := a.Lessons().Trends(ctx, LessonTrendsRequest{Domain: "testing"})
	if err != nil {
		t.Fatal(err)
	}
	if len(trends) != 1 || trends[0].Outcomes != 4 {
		t.Errorf("trends: %+v", trends)
	}
	rs, err := a.Lessons().Review(ctx, LessonReviewRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1 || rs[0].Path != "lessons/Run migrations first.md" {
		t.Errorf("review: %+v; want the weak lesson", rs)
	}
	cs, err := a.Lessons().Contradictions(ctx, LessonContradictionsRequest{})
	if err != nil || len(cs) != 0 {
		t.Errorf("contradictions: %+v, %v; want none", cs, err)
	}

	// A year unused: a dry run says so and writes nothing, the real run
	// archives the lesson, and an outcome of it is then a Conflict.
	later := time.Now().AddDate(1, 0, 0).Format(time.DateOnly)
	dry, err := a.Lessons().Decay(ctx, LessonDecayRequest{Today: later, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(dry.Decayed) != 1 || !dry.Decayed[0].Archived || !dry.DryRun {
		t.Fatalf("dry run: %+v", dry)
	}
	if h2, err := a.Lessons().History(ctx, LessonHistoryRequest{Lesson: "Run migrations first"}); err != nil || len(h2.Lines) != len(h.Lines) {
		t.Errorf("the dry run wrote: %q, %v", h2.Lines, err)
	}
	if _, err := a.Lessons().Decay(ctx, LessonDecayRequest{Today: later}); err != nil {
		t.Fatal(err)
	}
	_, err = a.Lessons().RecordOutcome(ctx, LessonOutcomeRequest{Lesson: "Run migrations first", Success: true})
	if !errors.Is(err, ErrLessonArchived) || ClassOf(err) != Conflict {
		t.Errorf("outcome of an archived lesson: %v (class %v); want a Conflict", err, ClassOf(err))
	}
}

// TestLessonErrorsClassed: each use case's mistakes in the request are
// Invalid, a note that is no lesson is said as such, and the front ends
// need no table of their own.
func TestLessonErrorsClassed(t *testing.T) {
	ctx := context.Background()
	a := lessonApp(t)
	if err := os.WriteFile(filepath.Join(a.Vault.Dir, "plain.md"), []byte("# Plain\n\nNo lesson.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		call  func() error
		class Class
		is    error
		says  string
	}{
		{"add without a trigger", func() error {
			_, err := a.Lessons().Add(ctx, LessonAddRequest{Title: "No trigger"})
			return err
		}, Invalid, ErrLessonInvalid, "needs a trigger"},
		{"add without a title", func() error {
			_, err := a.Lessons().Add(ctx, LessonAddRequest{Trigger: []string{"x"}})
			return err
		}, Invalid, ErrLessonInvalid, "title"},
		{"outcome naming no lesson", func() error {
			_, err := a.Lessons().RecordOutcome(ctx, LessonOutcomeRequest{Success: true})
			return err
		}, Invalid, ErrLessonInvalid, "name a lesson"},
		{"outcome of a note that is no lesson", func() error {
			_, err := a.Lessons().RecordOutcome(ctx, LessonOutcomeRequest{Lesson: "plain", Success: true})
			return err
		}, Failure, ErrNotLesson, "plain.md"},
		{"decay on a day that is no date", func() error {
			_, err := a.Lessons().Decay(ctx, LessonDecayRequest{Today: "tomorrow"})
			return err
		}, Invalid, ErrLessonInvalid, `today "tomorrow"`},
		{"router trained on more than the log", func() error {
			_, err := a.Lessons().EvalRouter(ctx, LessonRouterRequest{TrainFraction: 1.5})
			return err
		}, Invalid, ErrLessonInvalid, "train fraction 1.5: give 0 to 1"},
		{"router trained on less than nothing", func() error {
			_, err := a.Lessons().EvalRouter(ctx, LessonRouterRequest{TrainFraction: -0.1})
			return err
		}, Invalid, ErrLessonInvalid, "give 0 to 1"},
		{"router trained on NaN", func() error {
			_, err := a.Lessons().EvalRouter(ctx, LessonRouterRequest{TrainFraction: math.NaN()})
			return err
		}, Invalid, ErrLessonInvalid, "give 0 to 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.call()
			if err == nil || ClassOf(err) != c.class || !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.says) {
				t.Errorf("%v (class %v); want class %v, %v, saying %q", err, ClassOf(err), c.class, c.is, c.says)
			}
		})
	}
}

// TestLessonReportsJSON: the results the CLI prints as they are keep
// their JSON shape: decay's keys in the order 'lesson decay --json'
// always printed them, the router's simulated worlds [] when not asked
// for (never null).
func TestLessonReportsJSON(t *testing.T) {
	ctx := context.Background()
	a := lessonApp(t)
	dec, err := a.Lessons().Decay(ctx, LessonDecayRequest{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(dec)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"decayed":[],"dry_run":true,"skipped":[]}` {
		t.Errorf("decay today, of a lesson made today: %s", b)
	}
	rep, err := a.Lessons().EvalRouter(ctx, LessonRouterRequest{TrainFraction: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(rep); !strings.Contains(string(b), `"simulated":[]`) || rep.Log.Test != 0 {
		t.Errorf("router on an empty log: %s", b)
	}
}

// TestLessonUseCasesConcurrently: agents match while another adds lessons
// and reports outcomes, on one App (run under -race): every lesson added
// is matched once the adds are done.
func TestLessonUseCasesConcurrently(t *testing.T) {
	ctx := context.Background()
	a := lessonApp(t)
	const adds = 6
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range adds {
			if _, err := a.Lessons().Add(ctx, LessonAddRequest{Title: fmt.Sprintf("Quokka rule %d", i), Trigger: []string{"quokka release"},
				ActionBias: fmt.Sprintf("check item %d of the release list", i)}); err != nil {
				errs <- err
				return
			}
			if _, err := a.Lessons().RecordOutcome(ctx, LessonOutcomeRequest{Lesson: "Run migrations first", Success: i%2 == 0}); err != nil {
				errs <- err
				return
			}
		}
	}()
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 10 {
				if _, err := a.Lessons().Match(ctx, MatchRequest{Situation: Situation{Text: "cut the quokka release"}}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	got, err := a.Lessons().Match(ctx, MatchRequest{Situation: Situation{Text: "cut the quokka release"}, K: MaxLessons})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Lessons) != adds {
		t.Errorf("matched %v; want the %d lessons added", names(got), adds)
	}
}
