package outcomelog

import (
	"testing"
	"time"
)

// TestFailingStreaks: the lessons whose latest outcomes in the log are n
// failures or more, with their record.
func TestFailingStreaks(t *testing.T) {
	at := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	log := func(outcomes ...string) []Record {
		var recs []Record
		for i, o := range outcomes {
			var r Record
			r.Time, r.Lesson, r.Outcome, r.After = at.Add(time.Duration(i)*time.Minute), o[:1], map[byte]string{'+': "success", '-': "failure"}[o[1]], float64(i)/10
			recs = append(recs, r)
		}
		return recs
	}
	for _, tc := range []struct {
		name string
		recs []Record
		n    int
		want []Streak
	}{
		{"none logged", nil, 3, []Streak{}},
		{"two failures are not three", log("a-", "a-"), 3, []Streak{}},
		{"three in a row", log("a+", "a-", "a-", "a-"), 3,
			[]Streak{{Path: "a", Failures: 3, Since: at.Add(time.Minute), Last: at.Add(3 * time.Minute), Outcomes: 4, Successes: 1, Strength: 0.3}}},
		{"a success ends it", log("a-", "a-", "a-", "a+"), 3, []Streak{}},
		{"other lessons' outcomes between do not", log("a-", "b+", "a-", "b+", "a-"), 3,
			[]Streak{{Path: "a", Failures: 3, Since: at, Last: at.Add(4 * time.Minute), Outcomes: 3, Strength: 0.4}}},
		{"the longest first", log("b-", "a-", "b-", "a-", "b-"), 2, []Streak{
			{Path: "b", Failures: 3, Since: at, Last: at.Add(4 * time.Minute), Outcomes: 3, Strength: 0.4},
			{Path: "a", Failures: 2, Since: at.Add(time.Minute), Last: at.Add(3 * time.Minute), Outcomes: 2, Strength: 0.3}}},
		{"n 0 is off", log("a-", "a-", "a-"), 0, []Streak{}},
	} {
		got := FailingStreaks(tc.recs, tc.n)
		if len(got) != len(tc.want) {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: [%d] %+v, want %+v", tc.name, i, got[i], tc.want[i])
			}
		}
	}
}
