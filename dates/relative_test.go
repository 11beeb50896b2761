package dates_test

import (
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/dates"
)

// TestPhraseDay: the day each definite phrase names from a Friday and
// from a Sunday. The answers are github.com/olebedev/when's (which Dream
// used before the dates package), but for "this Sunday" said on a Friday,
// now the coming Sunday ("this <weekday>" is that day of the base's week,
// Monday to Sunday, and the coming one said on a Sunday; when counted
// weeks from Sunday and gave the Sunday before), and the phrases when did
// not date whole ("coming Sunday", "this coming Monday", "the day after
// tomorrow", "10 days from now", the Chinese ones).
func TestDayNamed(t *testing.T) {
	friday := time.Date(2026, 2, 27, 0, 0, 0, 0, time.UTC)
	sunday := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		said         string
		friday, sund string // the day it names from each; "" for none
	}{
		{"today", "2026-02-27", "2026-03-01"},
		{"tomorrow", "2026-02-28", "2026-03-02"},
		{"yesterday", "2026-02-26", "2026-02-28"},
		{"the day after tomorrow", "2026-03-01", "2026-03-03"},
		{"next Thursday", "2026-03-05", "2026-03-05"},
		{"next friday", "2026-03-06", "2026-03-06"},
		{"last monday", "2026-02-23", "2026-02-23"},
		{"past Friday", "2026-02-20", "2026-02-27"},
		{"this Wednesday", "2026-02-25", "2026-03-04"},
		{"this Sunday", "2026-03-01", "2026-03-01"}, // when: 2026-02-22 from Friday
		{"coming sunday", "2026-03-01", "2026-03-08"},
		{"this coming Monday", "2026-03-02", "2026-03-02"},
		{"in two weeks", "2026-03-13", "2026-03-15"},
		{"in 3 days", "2026-03-02", "2026-03-04"},
		{"in a few months", "2026-05-27", "2026-06-01"},
		{"in a few days", "2026-03-02", "2026-03-04"},
		{"within 2 years", "2028-02-27", "2028-03-01"},
		{"within a week", "2026-03-06", "2026-03-08"},
		{"in a month", "2026-03-27", "2026-04-01"},
		{"in an year", "2027-02-27", "2027-03-01"},
		{"two days ago", "2026-02-25", "2026-02-27"},
		{"3 weeks ago", "2026-02-06", "2026-02-08"},
		{"a month ago", "2026-01-27", "2026-02-01"},
		{"2 years ago", "2024-02-27", "2024-03-01"},
		{"10 days from now", "2026-03-09", "2026-03-11"},
		{"明天", "2026-02-28", "2026-03-02"},
		{"下周三", "2026-03-04", "2026-03-04"},
		{"三天前", "2026-02-24", "2026-02-26"},
		{"两周后", "2026-03-13", "2026-03-15"},
		{"next week", "", ""}, // a week, not a day
		{"tonight at 5", "", ""},
		{"no date here", "", ""},
		{"", "", ""},
	} {
		for _, c := range []struct {
			base time.Time
			want string
		}{{friday, tc.friday}, {sunday, tc.sund}} {
			got := ""
			if day, ok := dates.DayNamed(tc.said, c.base); ok {
				got = day.Format(time.DateOnly)
			}
			if got != c.want {
				t.Errorf("%q from %s: %q, want %q", tc.said, c.base.Format("Mon 2006-01-02"), got, c.want)
			}
		}
	}
}

// TestAmbiguous: a "next" or "last" weekday within the week it was said
// in is read two ways, and names both days; one past that week, or said
// on a weekend, names one.
func TestAmbiguous(t *testing.T) {
	thursday := time.Date(2026, 1, 8, 0, 0, 0, 0, time.UTC)
	saturday := time.Date(2026, 1, 10, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		said      string
		base      time.Time
		near, far string // "" when it names one day
	}{
		{"next Friday", thursday, "2026-01-09", "2026-01-16"},
		{"next friday", saturday, "", ""},
		{"last Monday", thursday, "2026-01-05", "2025-12-29"},
		{"last Friday", thursday, "", ""},
		{"next Wednesday", thursday, "", ""},
		{"this Friday", thursday, "", ""},
		{"next week", thursday, "", ""},
	} {
		near, far, ok := dates.Ambiguous(tc.said, tc.base)
		got := [2]string{}
		if ok {
			got = [2]string{near.Format(time.DateOnly), far.Format(time.DateOnly)}
		}
		if got != [2]string{tc.near, tc.far} {
			t.Errorf("%q on %s: %v, want %s or %s", tc.said, tc.base.Format("Mon 2006-01-02"), got, tc.near, tc.far)
		}
	}
}

// TestRelative: the phrases that name one day once the day they were
// said is known, and those that do not.
func TestRelative(t *testing.T) {
	for phrase, want := range map[string]bool{
		"tomorrow": true, "next Thursday": true, "in two weeks": true, "3 days ago": true, "明天": true, "下周三": true,
		"on Monday": false, "tonight": false, "next week": false, "in 3 hours": false, "Monday": false,
	} {
		if got := dates.Relative(phrase); got != want {
			t.Errorf("Relative(%q) = %v, want %v", phrase, got, want)
		}
		if want && !dates.MayHoldRelative([]byte("we said "+phrase+" then")) {
			t.Errorf("MayHoldRelative misses %q", phrase)
		}
	}
}
