package lesson_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/lesson"
)

// day is a date of the tests, at midnight UTC.
func day(s string) time.Time {
	t, err := time.Parse(lesson.DateLayout, s)
	if err != nil {
		panic(err)
	}
	return t
}

// TestHandEditWithoutDates: a lesson with no History and no day (written
// by hand) keeps its strength through an outcome: the set-by-hand line
// goes a minute before the outcome's, which counts on top of it.
func TestHandEditWithoutDates(t *testing.T) {
	f := machine(t, "---\ntype: lesson\ntrigger: deploy\nstrength: 0.8\n---\n\nBody.\n")
	f.outcome("2026-11-23 10:00", true)
	if got := f.read(notePath); !strings.Contains(got, "strength: 0.85\n") ||
		!strings.HasSuffix(got, "## History\n\n- 2026-11-23 09:59 set by hand: 0.5 → 0.8\n- 2026-11-23 10:00 success: 0.8 → 0.85\n") {
		t.Errorf("note:\n%s", got)
	}
}

// TestArchivedEitherType: a lesson archived with a date (as vaultmem
// writes it now) and one with true (as it wrote it before) are both
// archived: out of matching, refused an outcome, left alone by decay.
func TestArchivedEitherType(t *testing.T) {
	for _, v := range []string{"2026-10-06", "true"} {
		note := "---\ntype: lesson\ntrigger: deploy\nstrength: 0.15\ncreated: 2026-01-01\narchived: " + v + "\n---\n"
		f := machine(t, note)
		if got := f.match(lesson.Situation{Text: "deploy"}); len(got.Lessons) != 0 {
			t.Errorf("archived: %s: matched %+v", v, got.Lessons)
		}
		if _, err := f.s.Outcome(f.ctx, lesson.Outcome{Lesson: notePath, Success: true}); !errors.Is(err, lesson.ErrArchived) {
			t.Errorf("archived: %s: outcome error %v, want ErrArchived", v, err)
		}
		if ds, _, err := f.s.Decay(f.ctx, "2026-11-23", false); err != nil || len(ds) != 0 || f.read(notePath) != note {
			t.Errorf("archived: %s: decayed %+v, %v:\n%s", v, ds, err, f.read(notePath))
		}
	}
}

// TestDecayForAnotherDay: decay for a day other than the clock's (lesson
// decay --today) computes for that day; the line's time is the clock's,
// and the next write takes no hand edit from it.
func TestDecayForAnotherDay(t *testing.T) {
	f := machine(t, baseNote)
	f.at("2026-11-30 08:00")
	if _, _, err := f.s.Decay(f.ctx, "2026-11-23", false); err != nil {
		t.Fatal(err)
	}
	f.outcome("2026-11-30 09:00", true)
	// 0.5 × 0.99^52 on 11-30 = 0.2965, + 0.05.
	if got := f.read(notePath); strings.Contains(got, "set by hand") || !strings.Contains(got, "strength: 0.3465\n") ||
		!strings.Contains(got, "decayed: 0.5 → 0.3181 (45 days unused past 30)") {
		t.Errorf("note:\n%s", got)
	}
}
