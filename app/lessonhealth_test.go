package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/memory"
)

// healthVault makes a vault with a memory (so MEMORY.md exists) and two
// lessons, with lessons.alert_failures set to alert (3 is the default),
// and opens it as a resident process does when resident.
func healthVault(t *testing.T, alert string, resident bool) *App {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	if _, err := Init(ctx, dir); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, ".vaultmem", "config.yaml")
	b, err := os.ReadFile(cfg)
	if err != nil || !strings.Contains(string(b), "alert_failures: 3\n") {
		t.Fatalf("init's config: %v\n%s", err, b)
	}
	if err := os.WriteFile(cfg, []byte(strings.Replace(string(b), "alert_failures: 3\n", "alert_failures: "+alert+"\n", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	a := openHealthVault(t, dir, resident)
	if _, err := a.Remember(ctx, memory.Memory{Type: "feedback", Name: "Use pnpm", Description: "The user wants pnpm, not npm",
		Body: "Always use pnpm for package installs."}, memory.Options{}); err != nil {
		t.Fatal(err)
	}
	for _, l := range []LessonAddRequest{
		{Title: "Run migrations first", Trigger: []string{"db/migrations/**", "integration tests"}, ActionBias: "run make migrate before the integration tests"},
		{Title: "Small commits", Trigger: []string{"git commit"}, ActionBias: "commit one change at a time"},
	} {
		if _, err := a.Lessons().Add(ctx, l); err != nil {
			t.Fatal(err)
		}
	}
	return a
}

func openHealthVault(t *testing.T, dir string, resident bool) *App {
	t.Helper()
	a, err := Open(context.Background(), dir, Options{Resident: resident})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

const (
	migrations = "lessons/Run migrations first.md"
	commits    = "lessons/Small commits.md"
)

// TestLiveStatsAfterReplayedSession: a session replayed through the
// resident App, as the hooks and an agent's tools drive it: three edits
// of a migration that the lesson is about, each failing (the hooks match
// before the call and log the outcome after it), two matches of the same
// words, a match and an outcome of another lesson. The live stats then
// give the hot cache's hits and misses, the latency's shape, each
// lesson's showings and success after a showing, and the lesson failing
// three times in a row; MEMORY.md lists it under Needs review.
func TestLiveStatsAfterReplayedSession(t *testing.T) {
	a := healthVault(t, "3", true)
	ctx := context.Background()
	at := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	var evs []HookEvent
	for _, id := range []string{"t1", "t2", "t3"} {
		migration := []string{"db/migrations/0042.sql"}
		evs = append(evs, HookEvent{Kind: HookBeforeTool, Tool: "Edit", ToolUseID: id, Paths: migration, Edits: true},
			HookEvent{Kind: HookAfterTool, Tool: "Edit", ToolUseID: id, Paths: migration, Edits: true, Failed: true})
	}
	ans := hookRun(t, a, "s1", at, evs...)
	for i := 0; i < len(ans); i += 2 {
		if len(ans[i].Given) != 1 || ans[i].Given[0] != migrations {
			t.Fatalf("before edit %d, given %v", i/2+1, ans[i].Given)
		}
	}
	match := func(text string) {
		t.Helper()
		res, err := a.Lessons().Match(ctx, MatchRequest{Situation: Situation{Text: text}})
		if err != nil || len(res.Lessons) != 1 {
			t.Fatalf("match %q: %v, %+v", text, err, res.Lessons)
		}
	}
	match("run the integration tests")
	match("run the integration tests") // the hot cache answers
	match("git commit the fix")
	if _, err := a.Lessons().RecordOutcome(ctx, LessonOutcomeRequest{Lesson: "Small commits", Success: true, Context: "git commit the fix"}); err != nil {
		t.Fatal(err)
	}

	h, err := a.Lessons().Health(ctx, LessonHealthRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if !h.Live || h.Since == nil || h.HotCache == nil || h.Latency == nil {
		t.Fatalf("a resident App's health is not live: %+v", h)
	}
	// Lookups of the hot cache: each match, and each outcome given a
	// situation (to log what was shown). An outcome rewrites its lesson,
	// which empties the cache: only the repeated words and the outcome
	// of the words just matched find their answer there.
	if h.HotCache.Hits != 2 || h.HotCache.Misses != 8 || h.HotCache.HitRate == nil || *h.HotCache.HitRate != 0.2 {
		t.Errorf("hot cache %+v (rate %v), want 2 hits and 8 misses", *h.HotCache, deref(h.HotCache.HitRate))
	}
	l := h.Latency
	if l.Matches != 6 || l.Window != 6 || l.P50 == nil || l.P95 == nil || l.P99 == nil || !(*l.P50 <= *l.P95 && *l.P95 <= *l.P99) {
		t.Errorf("latency %+v: want 6 matches (3 before the edits, 3 asked), p50 ≤ p95 ≤ p99", l)
	}
	got := map[string]LessonLive{}
	for _, ll := range h.Lessons {
		got[ll.Path] = ll
	}
	m, c := got[migrations], got[commits]
	if m.Shown != 5 || m.Outcomes != 3 || m.Followed != 3 || m.Successes != 0 || m.SuccessRate == nil || *m.SuccessRate != 0 {
		t.Errorf("%s: %+v (rate %v); want shown 5, 3 outcomes after a showing, none a success", migrations, m, deref(m.SuccessRate))
	}
	if c.Shown != 1 || c.Outcomes != 1 || c.Followed != 1 || c.Successes != 1 || c.SuccessRate == nil || *c.SuccessRate != 1 {
		t.Errorf("%s: %+v (rate %v); want shown 1, its one outcome after it a success", commits, c, deref(c.SuccessRate))
	}
	if h.AlertFailures != 3 || len(h.Failing) != 1 || h.Failing[0].Path != migrations || h.Failing[0].Failures != 3 ||
		h.Failing[0].Name != "Run migrations first" || h.Failing[0].Outcomes != 3 || h.Failing[0].Successes != 0 {
		t.Errorf("failing %+v (alert at %d); want %s, 3 in a row", h.Failing, h.AlertFailures, migrations)
	}
	list := readList(t, a)
	if !strings.Contains(list, "## Needs review\n") || !strings.Contains(list, "- [Run migrations first](lessons/Run%20migrations%20first.md) keeps failing: 3 in a row since") {
		t.Errorf("MEMORY.md does not list the failing lesson:\n%s", list)
	}
}

// TestFailingLessonListedForReview: in a process that is not resident (a
// CLI command each time), a lesson failing lessons.alert_failures times
// in a row is listed under MEMORY.md's Needs review with its record, from
// the outcome log: after a restart too; a success takes it out; 0 turns
// the alert off.
func TestFailingLessonListedForReview(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		alert string
		// listedAfter is how many failures list it (0: never).
		listedAfter int
	}{{"3", 3}, {"2", 2}, {"0", 0}} {
		a := healthVault(t, tc.alert, false)
		for i := 1; i <= 4; i++ {
			if _, err := a.Lessons().RecordOutcome(ctx, LessonOutcomeRequest{Lesson: "Run migrations first", Success: false}); err != nil {
				t.Fatal(err)
			}
			list := readList(t, a)
			want := tc.listedAfter > 0 && i >= tc.listedAfter
			if got := strings.Contains(list, "keeps failing"); got != want {
				t.Fatalf("alert %s, after %d failures: listed %v, want %v\n%s", tc.alert, i, got, want, list)
			}
			if want && !strings.Contains(list, "[Run migrations first](lessons/Run%20migrations%20first.md) keeps failing: "+strconv.Itoa(i)+" in a row since ") ||
				want && !strings.Contains(list, "0 of "+strconv.Itoa(i)+" outcomes succeeded") {
				t.Fatalf("alert %s, after %d failures, the line lacks its record:\n%s", tc.alert, i, list)
			}
		}
		h, err := a.Lessons().Health(ctx, LessonHealthRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if h.Live || h.HotCache != nil || h.Latency != nil || len(h.Lessons) != 0 || (len(h.Failing) == 1) != (tc.listedAfter > 0) {
			t.Errorf("alert %s: a CLI process's health %+v; want not live, the failing lesson from the log", tc.alert, h)
		}
		if tc.listedAfter == 0 {
			continue
		}
		// A restart: a new process lists MEMORY.md again (a memory
		// remembered), and the outcome log still lists the lesson.
		dir := a.Vault.Dir
		a.Close()
		b := openHealthVault(t, dir, false)
		if _, err := b.Remember(ctx, memory.Memory{Type: "project", Name: "CI runs nightly", Description: "The CI runs every night",
			Body: "The nightly CI runs the integration tests."}, memory.Options{}); err != nil {
			t.Fatal(err)
		}
		if list := readList(t, b); !strings.Contains(list, "CI runs nightly") || !strings.Contains(list, "keeps failing: 4 in a row") {
			t.Errorf("alert %s, after a restart and a new memory:\n%s", tc.alert, list)
		}
		if _, err := b.Lessons().RecordOutcome(ctx, LessonOutcomeRequest{Lesson: "Run migrations first", Success: true}); err != nil {
			t.Fatal(err)
		}
		if list := readList(t, b); strings.Contains(list, "keeps failing") {
			t.Errorf("alert %s, after a success the lesson is still listed:\n%s", tc.alert, list)
		}
	}
}

// TestLessonHealthOverTheSocket: the resident server answers the
// lessons.health op with its own live counters, which the matches asked
// over its socket fed.
func TestLessonHealthOverTheSocket(t *testing.T) {
	a := healthVault(t, "3", true)
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	served := make(chan error, 1)
	go func() {
		served <- a.Serve(ctx, ServeOptions{FirstSync: func(int, int) {}, Started: func() { close(started) }, Logf: t.Logf})
	}()
	<-started
	wait := AskOptions{FirstByte: time.Hour, Wait: time.Hour} // no deadline but the test's
	dir := a.Vault.Dir
	for range 2 {
		res, answered, err := Ask(ctx, dir, OpMatch, MatchRequest{Situation: Situation{Text: "run the integration tests"}}, wait)
		if !answered || err != nil || len(res.Lessons) != 1 {
			t.Fatalf("match over the socket: answered %v, %v, %+v", answered, err, res)
		}
	}
	h, answered, err := Ask(ctx, dir, OpLessonHealth, LessonHealthRequest{}, wait)
	if !answered || err != nil {
		t.Fatalf("health over the socket: answered %v, %v", answered, err)
	}
	if !h.Live || h.Latency == nil || h.Latency.Matches != 2 || h.HotCache == nil || h.HotCache.Hits+h.HotCache.Misses < 2 ||
		len(h.Lessons) != 1 || h.Lessons[0].Path != migrations || h.Lessons[0].Shown != 2 || h.Lessons[0].SuccessRate != nil {
		t.Errorf("health over the socket: %+v", h)
	}
	cancel()
	if err := <-served; err != nil && !errors.Is(err, context.Canceled) {
		t.Errorf("Serve after its context ended: %v", err)
	}
}

func readList(t *testing.T, a *App) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(a.Vault.Dir, MemoryListFile))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func deref(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}
