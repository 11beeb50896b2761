package dates

import (
	"strings"
	"testing"
	"time"
)

func TestDatesIn(t *testing.T) {
	now := time.Date(2026, 11, 18, 15, 4, 0, 0, time.UTC) // a Wednesday
	for _, tc := range []struct {
		q, from, to, rest string
	}{
		{"what did I do yesterday?", "2026-11-17", "2026-11-17", "what did I do ?"},
		{"notes from today", "2026-11-18", "2026-11-18", "notes from"},
		{"the day before yesterday", "2026-11-16", "2026-11-16", ""},
		{"What happened on 2024-05-07 with billing", "2024-05-07", "2024-05-07", "What happened on with billing"},
		{"releases in 2024-05", "2024-05-01", "2024-05-31", "releases in"},
		{"What did Gina find on 1 February, 2023?", "2023-02-01", "2023-02-01", "What did Gina find on ?"},
		{"painting shown on October 13, 2023", "2023-10-13", "2023-10-13", "painting shown on"},
		{"trips in July 2023", "2023-07-01", "2023-07-31", "trips in"},
		{"what broke in March", "2026-03-01", "2026-03-31", "what broke"},
		{"what broke in December", "2025-12-01", "2025-12-31", "what broke"}, // the latest December
		{"decisions made in 2025", "2025-01-01", "2025-12-31", "decisions made"},
		{"3 days ago", "2026-11-15", "2026-11-15", ""},
		{"two weeks ago", "2026-11-02", "2026-11-08", ""},
		{"a month ago", "2026-10-01", "2026-10-31", ""},
		{"last week's standup", "2026-11-09", "2026-11-15", "'s standup"},
		{"this week", "2026-11-16", "2026-11-18", ""},
		{"past week", "2026-11-11", "2026-11-18", ""},
		{"last month", "2026-10-01", "2026-10-31", ""},
		{"this month", "2026-11-01", "2026-11-18", ""},
		{"last year", "2025-01-01", "2025-12-31", ""},
		{"on Monday", "2026-11-16", "2026-11-16", ""},
		{"last Wednesday", "2026-11-11", "2026-11-11", ""},
		{"昨天做了什么", "2026-11-17", "2026-11-17", "做了什么"},
		{"上周的会议", "2026-11-09", "2026-11-15", "的会议"},
		{"2024年5月7日的发布", "2024-05-07", "2024-05-07", "的发布"},
		{"2023年以后的版本, 3 weeks ago", "2026-10-26", "2026-11-01", "的版本,"}, // not 2,023 years on
	} {
		spans, rest := In(tc.q, now)
		if len(spans) != 1 {
			t.Errorf("In(%q): %d spans, want 1", tc.q, len(spans))
			continue
		}
		if from, to := spans[0].Days(); from != tc.from || to != tc.to || rest != tc.rest {
			t.Errorf("In(%q) = %s..%s, rest %q; want %s..%s, rest %q", tc.q, from, to, rest, tc.from, tc.to, tc.rest)
		}
	}
	for _, q := range []string{"what may break", "deploy 12-2024", "2024-13-01", "2023-02-30 notes", "the 2024 roadmap", "What did you do?"} {
		if spans, _ := In(q, now); len(spans) != 0 {
			t.Errorf("In(%q) = %v, want no date", q, spans)
		}
	}
}

// FuzzIn checks that any text parses without panicking into spans that
// end no earlier than they start and a rest that no date expression
// matches again; and that Find's phrases lie in the text, in order, each
// a day's with its Day.
func FuzzIn(f *testing.F) {
	for _, s := range []string{"what did I do yesterday?", "2024-02-30", "in 2023", "7 May 2024", "3 weeks ago", "上周的会议",
		"last Monday", "99999 days ago", "0000-00-00", "May 2023 and June 2024", "2024年13月40日"} {
		f.Add(s)
	}
	now := time.Date(2026, 11, 18, 15, 4, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, q string) {
		spans, rest := In(q, now)
		for _, sp := range spans {
			if sp.To.Before(sp.From) {
				t.Errorf("In(%q): span %v..%v ends before it starts", q, sp.From, sp.To)
			}
		}
		if again, _ := In(rest, now); len(again) > 0 {
			t.Errorf("In(%q) left a date in its rest %q", q, rest)
		}
		if !mayName(q) {
			scanAll(q, now, func(f Found) { t.Errorf("mayName(%q) is false, but %q names days", q, q[f.Start:f.End]) })
		}
		prev := 0
		for _, f := range Find(q, now) {
			if f.Start < prev || f.End <= f.Start || f.End > len(q) {
				t.Fatalf("Find(%q): phrase at %d..%d after %d", q, f.Start, f.End, prev)
			}
			if f.From.Equal(f.To) && !f.Day.Equal(f.From) {
				t.Errorf("Find(%q): %q names %v but its Day is %v", q, q[f.Start:f.End], f.From, f.Day)
			}
			prev = f.Start
		}
	})
}

// BenchmarkIn: a question naming no day (most of them), one naming a
// day, one naming a day relative to a date.
func BenchmarkIn(b *testing.B) {
	now := time.Date(2026, 11, 18, 15, 4, 0, 0, time.UTC)
	for _, q := range []string{"What kind of art does Caroline make?", "what did I do yesterday?",
		"What did Melanie do the weekend before 3 March 2024 with her kids?"} {
		b.Run(strings.Join(strings.Fields(q)[:3], "-"), func(b *testing.B) {
			for b.Loop() {
				In(q, now)
			}
		})
	}
}
