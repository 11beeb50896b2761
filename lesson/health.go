package lesson

import (
	"context"
	"time"

	"github.com/vaultmem/vaultmem/lesson/livehealth"
	"github.com/vaultmem/vaultmem/lesson/outcomelog"
	"github.com/vaultmem/vaultmem/markdown"
)

// Streak is a lesson whose latest outcomes in the log are failures in a
// row (see outcomelog.Streak).
type Streak = outcomelog.Streak

// DefaultAlertFailures is how many failures in a row of a lesson make it
// one to review (lessons.alert_failures).
const DefaultAlertFailures = 3

// Health counts what one process's lessons did (see livehealth.Health),
// from the fast path's results and the outcomes applied. Its zero value
// is not usable; make one with NewHealth. It is safe for concurrent use.
type Health struct{ h *livehealth.Health }

// NewHealth returns an empty Health counting from since (the process's
// start, as the report shows it).
func NewHealth(since time.Time) *Health { return &Health{livehealth.New(since)} }

// Matched counts a match that was shown to its asker: its latency (res.Ms)
// and each lesson it returned. A nil Health counts nothing.
func (h *Health) Matched(res Result) {
	if h == nil {
		return
	}
	shown := make([]livehealth.Lesson, len(res.Lessons))
	for i, m := range res.Lessons {
		shown[i] = livehealth.Lesson{Path: m.Path, Name: m.Name}
	}
	h.h.Matched(res.Ms, shown)
}

// Applied counts an outcome applied to a lesson (see
// livehealth.Health.Applied). A nil Health counts nothing.
func (h *Health) Applied(a Applied) {
	if h == nil {
		return
	}
	h.h.Applied(livehealth.Lesson{Path: a.Path, Name: a.Name}, a.Outcome == "success")
}

// Counts returns a snapshot of h.
func (h *Health) Counts() HealthCounts { return h.h.Counts() }

// LatencyWindow, HotCache, Latency, LessonLive and HealthCounts are
// package livehealth's (the live counters and their report).
const LatencyWindow = livehealth.LatencyWindow

type (
	// HotCache is the fast path's hot cache's hits and misses.
	HotCache = livehealth.HotCache
	// Latency is the match latency's percentiles.
	Latency = livehealth.Latency
	// LessonLive is one lesson's live counters.
	LessonLive = livehealth.LessonLive
	// HealthCounts is a snapshot of a Health.
	HealthCounts = livehealth.HealthCounts
)

// CacheOf is the hot cache's counts as HotCache reports them.
func CacheOf(hits, misses int) HotCache { return livehealth.CacheOf(hits, misses) }

// Failing returns the lessons whose latest n or more logged outcomes are
// failures (see outcomelog.FailingStreaks), named as the index names
// them; a lesson no longer there, or archived (out of matching), is left
// out. The log's files unchanged since the last call are not read again
// (see outcomelog.StreaksFile). Errors: the outcome log's (a line that is
// no record names the file and line) and the index's.
func (s *Store) Failing(ctx context.Context, n int) ([]Streak, error) {
	streaks, err := s.log().Failing(n)
	if err != nil {
		return nil, err
	}
	if len(streaks) == 0 {
		return streaks, nil
	}
	lessons, err := s.heads(ctx)
	if err != nil {
		return nil, err
	}
	live := make(map[string]string, len(lessons))
	for _, l := range lessons {
		if !l.Archived {
			live[l.Path] = l.Name
		}
	}
	out := streaks[:0]
	for _, st := range streaks {
		if name, ok := live[st.Path]; ok {
			st.Name = name
			out = append(out, st)
		}
	}
	return out, nil
}

// FailuresInARow reads lesson note p's History (what an outcome just
// wrote, without reading the whole log) and returns how many of its latest
// outcomes are failures in a row (now), and how many were before its
// latest outcome (before): an outcome that made now reach the alert's n,
// or a success (now 0) after before ≥ n, changes what
// outcomelog.FailingStreaks lists. Errors: the note's read.
func (s *Store) FailuresInARow(p string) (now, before int, err error) {
	b, _, err := s.w.Read(p)
	if err != nil {
		return 0, 0, err
	}
	var outcomes []EntryKind
	for _, e := range ReadLedger(markdown.Parse(p, b)).Entries {
		if e.Kind == EntrySuccess || e.Kind == EntryFailure {
			outcomes = append(outcomes, e.Kind)
		}
	}
	run := func(ks []EntryKind) int {
		n := 0
		for i := len(ks) - 1; i >= 0 && ks[i] == EntryFailure; i-- {
			n++
		}
		return n
	}
	if len(outcomes) == 0 {
		return 0, 0, nil
	}
	return run(outcomes), run(outcomes[:len(outcomes)-1]), nil
}

// observe tells Options.OnOutcome of an outcome applied.
func (s *Store) observe(ctx context.Context, a Applied) {
	if s.onOutcome != nil {
		s.onOutcome(ctx, a)
	}
}
