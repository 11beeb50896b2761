package outcomelog

import (
	"reflect"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/lesson/router"
)

// rec is a record of lesson l's outcome ("success" or "failure") at t,
// in domain d, leaving strength after, shown with shown in the context
// ctx ("" for an outcome logged without one).
func rec(l, outcome, d string, t time.Time, before, after float64, ctx string, shown ...string) Record {
	var r Record
	r.Lesson, r.Outcome, r.Time, r.Context, r.Domain, r.Before, r.After = l, outcome, t, ctx, d, before, after
	for _, p := range shown {
		r.Shown = append(r.Shown, router.Shown{Path: p})
	}
	return r
}

// TestTrends: outcomes by domain and month, filtered by domain (any
// case) and by day, both bounds included.
func TestTrends(t *testing.T) {
	day := func(d string) time.Time {
		tm, err := time.Parse("2006-01-02 15:04", d)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	recs := []Record{
		rec("a", "success", "ci", day("2026-10-31 23:00"), 0.5, 0.6, ""),
		rec("a", "failure", "ci", day("2026-11-01 08:00"), 0.6, 0.4, ""),
		rec("b", "success", "ci", day("2026-11-02 08:00"), 0.5, 0.8, ""),
		rec("c", "success", "", day("2026-11-02 09:00"), 0.5, 0.7, ""),
	}
	for _, tc := range []struct {
		name         string
		domain       string
		since, until time.Time
		want         []Trend
	}{
		{"all", "", time.Time{}, time.Time{}, []Trend{
			{Domain: "(none)", Month: "2026-11", Outcomes: 1, Successes: 1, SuccessRate: 1, MeanStrength: 0.7},
			{Domain: "ci", Month: "2026-10", Outcomes: 1, Successes: 1, SuccessRate: 1, MeanStrength: 0.6},
			{Domain: "ci", Month: "2026-11", Outcomes: 2, Successes: 1, SuccessRate: 0.5, MeanStrength: 0.6}}},
		{"one domain, any case", " CI ", time.Time{}, time.Time{}, []Trend{
			{Domain: "ci", Month: "2026-10", Outcomes: 1, Successes: 1, SuccessRate: 1, MeanStrength: 0.6},
			{Domain: "ci", Month: "2026-11", Outcomes: 2, Successes: 1, SuccessRate: 0.5, MeanStrength: 0.6}}},
		{"days, both included", "ci", day("2026-11-01 00:00"), day("2026-11-01 00:00"), []Trend{
			{Domain: "ci", Month: "2026-11", Outcomes: 1, Successes: 0, SuccessRate: 0, MeanStrength: 0.4}}},
		{"none", "docs", time.Time{}, time.Time{}, []Trend{}},
	} {
		if got := Trends(recs, tc.domain, tc.since, tc.until); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// TestMeasure: precision and recall count only the outcomes logged with
// a context; the correlation needs both strength and success to vary.
func TestMeasure(t *testing.T) {
	at := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	f := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		name string
		recs []Record
		want Measures
	}{
		{"none", nil, Measures{}},
		{"no context: no precision nor recall", []Record{rec("a", "success", "", at, 0.9, 1, ""), rec("a", "failure", "", at, 0.1, 0, "")},
			Measures{Outcomes: 2, Successes: 1, StrengthSuccess: f(1)}},
		{"shown and applied", []Record{
			rec("a", "success", "", at, 0.5, 0.6, "deploy", "a", "b"), // a hit among two shown
			rec("c", "failure", "", at, 0.5, 0.4, "deploy", "a"),      // applied c, not shown
		}, Measures{Outcomes: 2, Successes: 1, Precision: f(0.3333), Recall: f(0.5)}},
	} {
		if got := Measure(tc.recs); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
