package app

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/memory"
)

// The lessons' live health: what the resident process (vaultmem mcp,
// watch) counts of its own matches and outcomes (lesson.Health, fed by
// Lessons.Match and by every outcome the lesson store applies, the hooks'
// included), and the lessons that keep failing, read from the outcome log
// so that MEMORY.md lists them whichever process logged the failures.

type (
	// LessonHotCache is the fast path's hot cache's hits and misses.
	LessonHotCache = lesson.HotCache
	// LessonLatency is the match latency's percentiles over a window of
	// the latest matches.
	LessonLatency = lesson.Latency
	// LessonLive is one lesson's live counters: shown, and the outcomes
	// that followed a showing.
	LessonLive = lesson.LessonLive
	// LessonStreak is a lesson whose latest outcomes in the log are
	// failures in a row, with its record.
	LessonStreak = lesson.Streak
)

// LessonHealthRequest asks for the lessons' health. NoSync: see the lesson
// use cases' policy (lessons.go).
type LessonHealthRequest struct {
	NoSync bool `json:"no_sync,omitempty"`
}

// LessonHealth is the lessons' health. Live says the answer comes from a
// resident process (one opened with Options.Resident: the MCP server,
// watch), which counts since Since; only then are HotCache, Latency and
// Lessons given (else null, null and []). Failing, from the outcome log,
// is given either way: the lessons whose latest AlertFailures outcomes or
// more are failures (none when AlertFailures is 0, the alert off).
type LessonHealth struct {
	Live          bool            `json:"live"`
	Since         *time.Time      `json:"since"`
	HotCache      *LessonHotCache `json:"hot_cache"`
	Latency       *LessonLatency  `json:"latency"`
	Lessons       []LessonLive    `json:"lessons"`
	AlertFailures int             `json:"alert_failures"`
	Failing       []LessonStreak  `json:"failing"`
}

// Health returns the lessons' health (see LessonHealth), the
// index brought up to date first as for every lesson use case. Errors:
// the outcome log's (a line that is no record, naming the file and line)
// and the index's.
func (l Lessons) Health(ctx context.Context, req LessonHealthRequest) (LessonHealth, error) {
	a := l.a
	st, err := l.store(ctx, req.NoSync)
	if err != nil {
		return LessonHealth{}, err
	}
	n := a.Config.Lessons.AlertFailures
	failing, err := st.Failing(ctx, n)
	if err != nil {
		return LessonHealth{}, err
	}
	out := LessonHealth{AlertFailures: n, Failing: failing, Lessons: []LessonLive{}}
	if !a.opts.Resident {
		return out, nil
	}
	counts := a.health.Counts()
	cache := lesson.CacheOf(st.Matcher().CacheStats())
	out.Live, out.Since, out.HotCache, out.Latency, out.Lessons = true, &counts.Since, &cache, &counts.Latency, counts.Lessons
	return out, nil
}

// lessonApplied is told of each outcome the lesson store applied: the live
// health counts it, and when it leaves its lesson failing at least
// lessons.alert_failures times in a row, or ends such a streak with a
// success, MEMORY.md is listed again (its "Needs review" names the
// lessons that keep failing), so that a CLI or hook process's outcome
// shows there without a watcher. Reading the one note the outcome wrote
// decides it, not the whole log. A listing that fails is told (Notify):
// the outcome stands.
func (a *App) lessonApplied(ctx context.Context, ap lesson.Applied) {
	a.health.Applied(ap)
	n := a.Config.Lessons.AlertFailures
	if n < 1 || a.ix == nil {
		return
	}
	st, err := a.openLessons()
	if err != nil {
		return
	}
	now, before, err := st.FailuresInARow(ap.Path)
	if err != nil || (now < n && before < n) {
		return
	}
	store := a.memoryStore()
	if _, err := store.Relist(ctx); err != nil {
		a.notify("%s not updated with the failing lesson %s: %v", store.ListFile(), ap.Path, err)
	}
}

// failingLessons is what MEMORY.md lists under "Needs review" of the
// lessons: each one failing lessons.alert_failures times in a row or more
// in the outcome log, with its record. An outcome log that cannot be read
// is told (Notify) and lists none, rather than keeping MEMORY.md from
// being written.
func (a *App) failingLessons(ctx context.Context) []memory.Review {
	n := a.Config.Lessons.AlertFailures
	if n < 1 || a.ix == nil {
		return nil
	}
	st, err := a.openLessons()
	if err != nil {
		return nil
	}
	failing, err := st.Failing(ctx, n)
	if err != nil {
		a.notify("the lessons that keep failing are not listed in %s: %v", MemoryListFile, err)
		return nil
	}
	out := make([]memory.Review, len(failing))
	for i, f := range failing {
		out[i] = memory.Review{A: memory.Entry{Path: f.Path, Title: f.Name}, Reason: streakRecord(f), Lesson: true}
	}
	return out
}

// streakRecord is a failing lesson's record as MEMORY.md says it.
func streakRecord(f lesson.Streak) string {
	return fmt.Sprintf("%d in a row since %s, %d of %d outcomes succeeded, strength %s",
		f.Failures, f.Since.UTC().Format(time.DateOnly), f.Successes, f.Outcomes, strconv.FormatFloat(f.Strength, 'f', -1, 64))
}
