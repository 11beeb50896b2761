package lesson

import (
	"testing"
	"time"
)

// TestHealthCounts: the live counters of a replayed sequence of matches
// and outcomes: how often each lesson was shown, which outcomes followed
// a showing, and the success rate over those.
func TestHealthCounts(t *testing.T) {
	h := NewHealth(time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC))
	a := Match{Path: "lessons/a.md", Name: "A"}
	b := Match{Path: "lessons/b.md", Name: "B"}
	h.Matched(Result{Lessons: []Match{a, b}, Ms: 0.5})
	h.Matched(Result{Lessons: []Match{a}, Ms: 0.2})
	h.Applied(Applied{Path: a.Path, Outcome: "success"}) // after a showing
	h.Applied(Applied{Path: a.Path, Outcome: "failure"}) // no showing since the last outcome
	h.Matched(Result{Lessons: []Match{a}, Ms: 0.1})
	h.Applied(Applied{Path: a.Path, Outcome: "failure"}) // after a showing
	h.Applied(Applied{Path: "lessons/c.md", Name: "C", Outcome: "success"})
	got := h.Counts()
	want := map[string]LessonLive{
		a.Path:         {Path: a.Path, Name: "A", Shown: 3, Outcomes: 3, Followed: 2, Successes: 1},
		b.Path:         {Path: b.Path, Name: "B", Shown: 1},
		"lessons/c.md": {Path: "lessons/c.md", Name: "C", Outcomes: 1},
	}
	rates := map[string]*float64{a.Path: ptr(0.5)}
	if len(got.Lessons) != len(want) || got.Lessons[0].Path != a.Path {
		t.Fatalf("lessons %+v; want 3, the most shown first", got.Lessons)
	}
	for _, l := range got.Lessons {
		w := want[l.Path]
		w.SuccessRate = l.SuccessRate
		if l != w || !sameRate(l.SuccessRate, rates[l.Path]) {
			t.Errorf("%s: %+v (rate %v), want %+v (rate %v)", l.Path, l, deref(l.SuccessRate), w, deref(rates[l.Path]))
		}
	}
	if got.Latency.Matches != 3 || got.Latency.Window != 3 || *got.Latency.P50 != 0.2 || *got.Latency.P95 != 0.5 || *got.Latency.P99 != 0.5 {
		t.Errorf("latency %+v", got.Latency)
	}
}

func ptr(f float64) *float64 { return &f }

func sameRate(a, b *float64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func deref(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}
