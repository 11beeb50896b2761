package dates

import (
	"fmt"
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

// TestWordsAreNoDates: Chinese words that hold a date phrase's characters
// name no date; the shorter phrase around them still does.
func TestWordsAreNoDates(t *testing.T) {
	now := time.Date(2026, 11, 18, 15, 4, 0, 0, time.UTC) // a Wednesday
	for text, want := range map[string]string{
		"下周一起吃饭":            "2026-11-23..2026-11-29", // next week, together: next week
		"这周一直下雨":            "2026-11-16..2026-11-18", // this week, all along: this week
		"这周天气很好":            "2026-11-16..2026-11-18",
		"然后天气变了":            "",
		"最后天亮了":             "",
		"之前天气很好":            "",
		"他很聪明天才":            "",
		"下周一开会":             "2026-11-23..2026-11-23", // next Monday
		"明天发布":              "2026-11-19..2026-11-19",
		"last 2024-05 week": "2024-05-01..2024-05-31", // a match is no white space for a later one
	} {
		spans, _ := In(text, now)
		var got []string
		for _, sp := range spans {
			from, to := sp.Days()
			got = append(got, from+".."+to)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("In(%q) = %v, want %q", text, got, want)
		}
	}
}

// TestDistances: counts of days, weeks, months and years from today, a
// month on keeping to the month it lands in, and counts too large to mean
// a date.
func TestDistances(t *testing.T) {
	for _, tc := range []struct {
		now, text, day string // day: the Day of the one phrase found, "" for none
	}{
		{"2026-03-31", "a month ago", "2026-02-28"},
		{"2026-01-31", "in a month", "2026-02-28"},
		{"2024-02-29", "in a year", "2025-02-28"},
		{"2026-03-31", "一个月前", "2026-02-28"},
		{"2026-11-18", "10 days from today", "2026-11-28"},
		{"2026-11-18", "in twelve days", "2026-11-30"},
		{"2026-11-18", "2 weeks from now", "2026-12-02"},
		{"2026-11-18", "in 99999999 days", ""},
		{"2026-11-18", "5000 years ago", ""},
	} {
		now, _ := time.Parse(time.DateOnly, tc.now)
		found := Find(tc.text, now)
		got := ""
		if len(found) == 1 && found[0].Start == 0 && found[0].End == len(tc.text) {
			got = found[0].Day.Format(time.DateOnly)
		} else if len(found) > 0 {
			got = fmt.Sprintf("%v", found)
		}
		if got != tc.day {
			t.Errorf("Find(%q) from %s: %s, want %q", tc.text, tc.now, got, tc.day)
		}
	}
}

// TestSaidOnASunday: on a Sunday "this Friday" and "the coming weekend"
// are ahead, not the week ending today.
func TestSaidOnASunday(t *testing.T) {
	sunday := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	for text, want := range map[string]string{
		"this Friday":         "2026-11-27..2026-11-27",
		"this Sunday":         "2026-11-22..2026-11-22",
		"this coming weekend": "2026-11-28..2026-11-29",
		"this weekend":        "2026-11-21..2026-11-22",
		"next Monday":         "2026-11-23..2026-11-23",
		"last Friday":         "2026-11-20..2026-11-20",
	} {
		spans, _ := In(text, sunday)
		if len(spans) != 1 {
			t.Errorf("In(%q): %v", text, spans)
			continue
		}
		if from, to := spans[0].Days(); from+".."+to != want {
			t.Errorf("In(%q) on a Sunday = %s..%s, want %s", text, from, to, want)
		}
	}
}
