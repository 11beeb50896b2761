package lesson_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/gitrepo"
	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/markdown"
)

// notePath is the lesson every machine of these tests holds.
const notePath = "lessons/Run migrations first.md"

// baseNote is a lesson created on 2026-09-09 and never applied: on
// 2026-11-23 it has been unused for 75 days, 45 past the 30.
const baseNote = "---\ntype: lesson\nname: Run migrations first\ntrigger: integration tests\nstrength: 0.5\napplication_count: 0\n" +
	"version: 1\ncreated: 2026-09-09\n---\n\nThe test database starts empty.\n\n## History\n\n- 2026-09-09 10:00 created at 0.5\n"

// machine is one clone's vault holding note, with a lesson Store.
func machine(t *testing.T, note string) *fixture {
	t.Helper()
	f := newFixture(t)
	f.write(notePath, note)
	f.sync()
	return f
}

// at sets f's clock so that its next write is at stamp (YYYY-MM-DD HH:MM).
func (f *fixture) at(stamp string) {
	f.t.Helper()
	tm, err := time.Parse(lesson.HistoryTimeLayout, stamp)
	if err != nil {
		f.t.Fatal(err)
	}
	f.now = tm.Add(-time.Minute)
}

func (f *fixture) outcome(stamp string, success bool) {
	f.t.Helper()
	f.at(stamp)
	if _, err := f.s.Outcome(f.ctx, lesson.Outcome{Lesson: notePath, Success: success}); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) decay(stamp string) {
	f.t.Helper()
	f.at(stamp)
	if _, _, err := f.s.Decay(f.ctx, stamp[:len(lesson.DateLayout)], false); err != nil {
		f.t.Fatal(err)
	}
}

// gitMerge is git's line merge (git merge-file), as the merge driver uses.
func gitMerge(base, ours, theirs []byte) ([]byte, bool, error) {
	return gitrepo.MergeFile(context.Background(), base, ours, theirs)
}

// merge is the note merge driver on a lesson: it must merge clean.
func merge(t *testing.T, base, ours, theirs string) string {
	t.Helper()
	got, clean, err := markdown.MergeNote(notePath, []byte(base), []byte(ours), []byte(theirs), gitMerge, lesson.MergeRules)
	if err != nil || !clean {
		t.Fatalf("merge: clean %v, err %v:\n%s", clean, err, got)
	}
	return string(got)
}

// state is what must agree between a merge and a single machine: the
// strength, the application count and the archived day.
func state(note string) string {
	n := markdown.Parse(notePath, []byte(note))
	l := lesson.Read(n)
	archived, _ := n.Frontmatter.String(lesson.KeyArchived)
	return fmt.Sprintf("strength %v, applications %d, archived %q", l.Strength, l.Applications, archived)
}

// TestMergeDecayTwoMachines is issue 38's first case: a lesson decayed on
// two machines the same day merges to the strength one machine gives
// (0.5 × 0.99^45 = 0.3181), not to both decays added (0.1362); decayed on
// two days, to the later day's.
func TestMergeDecayTwoMachines(t *testing.T) {
	for _, tt := range []struct {
		name       string
		ours, them string // the stamps each machine decays at
		want       string
	}{
		{"the same day", "2026-11-23 04:00", "2026-11-23 09:30", `strength 0.3181, applications 0, archived ""`},
		{"two days", "2026-11-23 04:00", "2026-11-24 04:00", `strength 0.3149, applications 0, archived ""`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a, b, one := machine(t, baseNote), machine(t, baseNote), machine(t, baseNote)
			a.decay(tt.ours)
			b.decay(tt.them)
			one.decay(tt.ours)
			one.decay(tt.them)
			for _, got := range []string{merge(t, baseNote, a.read(notePath), b.read(notePath)), merge(t, baseNote, b.read(notePath), a.read(notePath))} {
				if state(got) != tt.want || state(one.read(notePath)) != tt.want {
					t.Errorf("merged %s, one machine %s, want %s:\n%s", state(got), state(one.read(notePath)), tt.want, got)
				}
				if strings.Count(got, "decayed: 0.5 → ") != 2 {
					t.Errorf("both machines' decay lines should be kept:\n%s", got)
				}
			}
		})
	}
}

// TestMergeThreeMachines: a success on one machine, a failure on another
// and a decay on a third, merged in either order, give what one machine
// doing all three gives; an archived day one machine's decay wrote is
// dropped when another machine's outcome kept the lesson in use.
func TestMergeThreeMachines(t *testing.T) {
	weak := strings.Replace(baseNote, "- 2026-09-09 10:00 created at 0.5\n", "- 2026-09-09 10:00 created at 0.5\n- 2026-09-09 10:05 set by hand: 0.5 → 0.25\n", 1)
	weak = strings.Replace(weak, "strength: 0.5", "strength: 0.25", 1)
	for _, tt := range []struct {
		name, base string
		want       string
	}{
		// 0.5 × 0.99^42 = 0.3278 on 11-20, + 0.05, − 0.1.
		{"decay and two outcomes", baseNote, `strength 0.2778, applications 2, archived ""`},
		// The decay alone archives it (0.25 × 0.99^45 < 0.2); the
		// outcomes on 11-20 kept it in use.
		{"an archive undone by outcomes", weak, `strength 0.1139, applications 2, archived ""`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a, b, c, one := machine(t, tt.base), machine(t, tt.base), machine(t, tt.base), machine(t, tt.base)
			a.outcome("2026-11-20 10:00", true)
			b.outcome("2026-11-20 11:00", false)
			c.decay("2026-11-23 04:00")
			one.outcome("2026-11-20 10:00", true)
			one.outcome("2026-11-20 11:00", false)
			one.decay("2026-11-23 04:00")
			if got := state(one.read(notePath)); got != tt.want {
				t.Fatalf("one machine: %s, want %s:\n%s", got, tt.want, one.read(notePath))
			}
			if tt.base == weak && !strings.Contains(c.read(notePath), "archived: 2026-") {
				t.Fatalf("the decay alone should archive it:\n%s", c.read(notePath))
			}
			A, B, C := a.read(notePath), b.read(notePath), c.read(notePath)
			for name, got := range map[string]string{
				"(a+b)+c": merge(t, tt.base, merge(t, tt.base, A, B), C),
				"(c+a)+b": merge(t, tt.base, merge(t, tt.base, C, A), B),
				"b+(c+a)": merge(t, tt.base, B, merge(t, tt.base, C, A)),
			} {
				if state(got) != tt.want {
					t.Errorf("%s: %s, want %s:\n%s", name, state(got), tt.want, got)
				}
			}
		})
	}
}

// TestMergeHandEdit: a person's edit of strength on one machine (in
// Obsidian: no History line) and an outcome on the other merge to what
// one machine gives: the edit recorded as set by hand, the outcome on top.
func TestMergeHandEdit(t *testing.T) {
	edited := strings.Replace(baseNote, "strength: 0.5", "strength: 0.8", 1)
	b, one := machine(t, baseNote), machine(t, edited)
	b.outcome("2026-11-20 10:00", true)
	one.outcome("2026-11-20 10:00", true)
	// 0.8 × 0.99^42 = 0.5245 on 11-20, + 0.05.
	const want = `strength 0.5745, applications 1, archived ""`
	for _, got := range []string{merge(t, baseNote, edited, b.read(notePath)), merge(t, baseNote, b.read(notePath), edited)} {
		if state(got) != want || state(one.read(notePath)) != want {
			t.Errorf("merged %s, one machine %s, want %s:\n%s", state(got), state(one.read(notePath)), want, got)
		}
		if !strings.Contains(got, "- 2026-09-09 10:00 set by hand: 0.5 → 0.8\n") {
			t.Errorf("the edit is not recorded:\n%s", got)
		}
	}
	// Both sides edited by hand, differently: the strength is a person's
	// decision, not a sum.
	other := strings.Replace(baseNote, "strength: 0.5", "strength: 0.3", 1)
	got, _, err := markdown.MergeNote(notePath, []byte(baseNote), []byte(edited), []byte(other), gitMerge, lesson.MergeRules)
	if err != nil || state(string(got)) == `strength 0.6, applications 0, archived ""` {
		t.Errorf("two hand edits: %v\n%s", err, got)
	}
}

// TestMergeOutcomesAddUp: outcomes on two machines both count, also in
// a merge with a conflict elsewhere.
func TestMergeOutcomesAddUp(t *testing.T) {
	a, b, one := machine(t, baseNote), machine(t, baseNote), machine(t, baseNote)
	a.outcome("2026-09-20 10:00", true)
	b.outcome("2026-09-21 10:00", false)
	one.outcome("2026-09-20 10:00", true)
	one.outcome("2026-09-21 10:00", false)
	const want = `strength 0.45, applications 2, archived ""`
	if got := merge(t, baseNote, a.read(notePath), b.read(notePath)); state(got) != want || state(one.read(notePath)) != want {
		t.Errorf("merged %s, one machine %s, want %s:\n%s", state(got), state(one.read(notePath)), want, got)
	}
	// The body changed both ways as well: a conflict for a person, and
	// the strength already right (no later writer takes it for a hand edit).
	A := strings.Replace(a.read(notePath), "starts empty.", "starts empty now.", 1)
	B := strings.Replace(b.read(notePath), "starts empty.", "starts empty later.", 1)
	got, clean, err := markdown.MergeNote(notePath, []byte(baseNote), []byte(A), []byte(B), gitMerge, lesson.MergeRules)
	if err != nil || clean || !strings.Contains(string(got), "<<<<<<< ours") || !strings.Contains(string(got), "strength: 0.45\n") {
		t.Errorf("a conflicted merge: clean %v, err %v:\n%s", clean, err, got)
	}
}

// TestOlderHistory: a note the History of older versions wrote computes
// to its strength and gets no new line; one whose History does not give
// its strength (hand-written, edited) keeps it, recorded as set by hand
// at its last day, never silently changed.
func TestOlderHistory(t *testing.T) {
	older := "---\ntype: lesson\ntrigger: integration tests\nstrength: 0.523\napplication_count: 1\ncreated: 2026-09-01\n" +
		"last_applied: 2026-09-02\ndecayed: 2026-10-07\n---\n\n## History\n\n- 2026-09-01 10:00 created at 0.5\n" +
		"- 2026-09-02 10:00 success: 0.5 → 0.55\n- 2026-10-07 04:00 decayed: 0.55 → 0.523 (5 days unused past 30)\n"
	f := machine(t, older)
	f.outcome("2026-10-08 10:00", false)
	// 0.55 × 0.99^6 = 0.5178, − 0.1.
	if got := f.read(notePath); !strings.HasSuffix(got, "(5 days unused past 30)\n- 2026-10-08 10:00 failure: 0.5178 → 0.4178\n") ||
		!strings.Contains(got, "strength: 0.4178\n") {
		t.Errorf("older note:\n%s", got)
	}
	unreplayable := strings.Replace(older, "strength: 0.523", "strength: 0.7", 1)
	f = machine(t, unreplayable)
	f.outcome("2026-10-07 10:00", false)
	if got := f.read(notePath); !strings.HasSuffix(got, "- 2026-10-07 04:00 set by hand: 0.523 → 0.7\n- 2026-10-07 10:00 failure: 0.7 → 0.6\n") ||
		!strings.Contains(got, "strength: 0.6\n") {
		t.Errorf("a note whose History does not give its strength:\n%s", got)
	}
}

// BenchmarkMergeLessonHistory is one call of the note merge driver
// (markdown.MergeNote with the lesson rules and git merge-file) on a
// lesson whose History has 1,000 entries, each side adding a few: two
// outcomes on one machine, an outcome and a decay on the other.
func BenchmarkMergeLessonHistory(b *testing.B) {
	var h strings.Builder
	at := time.Date(2024, 1, 1, 9, 0, 0, 0, time.UTC)
	h.WriteString("- " + at.Format(lesson.HistoryTimeLayout) + " created at 0.5\n")
	for i := 1; i < 1000; i++ {
		at = at.Add(time.Duration(1+i%53) * 11 * time.Hour)
		switch i % 5 {
		case 0:
			fmt.Fprintf(&h, "- %s failure: 0.5 → 0.4 (episode [[Task %d]])\n", at.Format(lesson.HistoryTimeLayout), i)
		case 4:
			fmt.Fprintf(&h, "- %s decayed: 0.5 → 0.49 (2 days unused past 30)\n", at.Format(lesson.HistoryTimeLayout))
		default:
			fmt.Fprintf(&h, "- %s success: 0.5 → 0.55 (episode [[Task %d]])\n", at.Format(lesson.HistoryTimeLayout), i)
		}
	}
	last := at.Format(lesson.DateLayout)
	base := "---\ntype: lesson\nname: Run migrations first\ntrigger: integration tests\nstrength: 0.5\napplication_count: 800\n" +
		"last_applied: " + last + "\ncreated: 2024-01-01\n---\n\nThe test database starts empty.\n\n## History\n\n" + h.String()
	// The strength written is what the History computes, as a writer leaves it.
	n := markdown.Parse(notePath, []byte(base))
	base = strings.Replace(base, "strength: 0.5\n", fmt.Sprintf("strength: %v\n", lesson.DefaultRules().Strength(lesson.ReadLedger(n), at).Strength), 1)
	side := func(lines ...string) string {
		s := base
		for _, l := range lines {
			s += "- " + at.AddDate(0, 0, 40).Format(lesson.DateLayout) + " " + l + "\n"
		}
		return strings.Replace(strings.Replace(s, "strength: ", "strength: 0.1", 1), "application_count: 800", "application_count: 802", 1)
	}
	ours := side("10:00 success: 0.5 → 0.55", "11:00 success: 0.55 → 0.6")
	theirs := strings.Replace(side("10:30 failure: 0.5 → 0.4", "12:00 decayed: 0.4 → 0.39 (1 days unused past 30)"),
		"last_applied: ", "decayed: "+at.AddDate(0, 0, 41).Format(lesson.DateLayout)+"\nlast_applied: ", 1)
	b.ResetTimer()
	for b.Loop() {
		got, clean, err := markdown.MergeNote(notePath, []byte(base), []byte(ours), []byte(theirs), gitMerge, lesson.MergeRules)
		if err != nil || !clean || strings.Count(string(got), "\n- ") != 1004 {
			b.Fatalf("clean %v, err %v, %d entries", clean, err, strings.Count(string(got), "\n- "))
		}
	}
}

// TestMergeOrderFree: N machines' notes of one lesson (outcomes and
// decays at random times on each, each note's strength what its own
// History computes), merged by the note driver in any order, give the
// strength the union of their Histories computes for the latest of their
// days, and the sum of their applications.
func TestMergeOrderFree(t *testing.T) {
	rules := lesson.DefaultRules()
	rng := rand.New(rand.NewPCG(38, 9))
	const created = "- 2026-01-01 09:00 created at 0.5\n"
	base := "---\ntype: lesson\ntrigger: deploy\nstrength: 0.5\napplication_count: 0\ncreated: 2026-01-01\n---\n\nBody.\n\n## History\n\n" + created
	for trial := range 12 {
		var notes []string
		all, apps, latest := created, 0, time.Time{}
		for m := range 2 + rng.IntN(3) {
			var lines []string
			lastApplied, decayed := "", ""
			n := 0
			for range 1 + rng.IntN(5) {
				at := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC).AddDate(0, 0, rng.IntN(200)).Add(time.Duration(rng.IntN(600)) * time.Minute)
				stamp := at.Format(lesson.HistoryTimeLayout)
				switch rng.IntN(3) {
				case 0:
					lines = append(lines, fmt.Sprintf("- %s success: 0 → 0 (machine %d)\n", stamp, m))
					n, lastApplied = n+1, max(lastApplied, stamp[:10])
				case 1:
					lines = append(lines, fmt.Sprintf("- %s failure: 0 → 0 (machine %d)\n", stamp, m))
					n, lastApplied = n+1, max(lastApplied, stamp[:10])
				default:
					lines = append(lines, fmt.Sprintf("- %s decayed: 0 → 0 (machine %d)\n", stamp, m))
					decayed = max(decayed, stamp[:10])
				}
			}
			slices.Sort(lines) // a machine appends in time order
			history := created + strings.Join(lines, "")
			front := fmt.Sprintf("application_count: %d\n", n)
			if lastApplied != "" {
				front += "last_applied: " + lastApplied + "\n"
			}
			if decayed != "" {
				front += "decayed: " + decayed + "\n"
			}
			note := strings.Replace(base, created, history, 1)
			note = strings.Replace(note, "application_count: 0\n", front, 1)
			p := markdown.Parse(notePath, []byte(note))
			led := lesson.ReadLedger(p)
			day := latestDay(led, lastApplied, decayed)
			c := rules.Strength(led, day)
			note = strings.Replace(note, "strength: 0.5\n", fmt.Sprintf("strength: %v\n", c.Strength), 1)
			if !c.ArchivedOn.IsZero() {
				note = strings.Replace(note, "created: 2026-01-01\n", "created: 2026-01-01\narchived: "+c.ArchivedOn.Format(lesson.DateLayout)+"\n", 1)
			}
			notes = append(notes, note)
			all += strings.Join(lines, "")
			apps += n
			if day.After(latest) {
				latest = day
			}
		}
		want := rules.Strength(lesson.Ledger{Entries: lesson.ParseHistory(all), Created: day("2026-01-01")}, latest).Strength
		for range 3 {
			rng.Shuffle(len(notes), func(i, j int) { notes[i], notes[j] = notes[j], notes[i] })
			got := notes[0]
			for _, n := range notes[1:] {
				got = merge(t, base, got, n)
			}
			l := lesson.Read(markdown.Parse(notePath, []byte(got)))
			if l.Strength != want || l.Applications != apps {
				t.Fatalf("trial %d: strength %v, applications %d; want %v, %d:\n%s", trial, l.Strength, l.Applications, want, apps, got)
			}
		}
	}
}

// latestDay is the latest of a ledger's entries' days and the days given.
func latestDay(led lesson.Ledger, days ...string) time.Time {
	var out time.Time
	for _, e := range led.Entries {
		if d := day(e.Time.Format(lesson.DateLayout)); d.After(out) {
			out = d
		}
	}
	for _, s := range days {
		if s != "" && day(s).After(out) {
			out = day(s)
		}
	}
	return out
}

// TestMergeOlderNote: a note whose History does not give its strength,
// written on two machines (each records the same set-by-hand line first),
// merges to what one machine gives.
func TestMergeOlderNote(t *testing.T) {
	older := "---\ntype: lesson\ntrigger: integration tests\nstrength: 0.7\napplication_count: 1\ncreated: 2026-09-01\n" +
		"last_applied: 2026-09-02\ndecayed: 2026-10-07\n---\n\n## History\n\n- 2026-09-01 10:00 created at 0.5\n" +
		"- 2026-09-02 10:00 success: 0.5 → 0.55\n- 2026-10-07 04:00 decayed: 0.55 → 0.523 (5 days unused past 30)\n"
	a, b, one := machine(t, older), machine(t, older), machine(t, older)
	a.outcome("2026-10-08 10:00", false)
	b.decay("2026-10-09 04:00")
	one.outcome("2026-10-08 10:00", false)
	one.decay("2026-10-09 04:00")
	// 0.7 × 0.99 (10-08) − 0.1; no decay on 10-09, a day after the failure.
	const want = `strength 0.593, applications 2, archived ""`
	for _, got := range []string{merge(t, older, a.read(notePath), b.read(notePath)), merge(t, older, b.read(notePath), a.read(notePath))} {
		if state(got) != want || state(one.read(notePath)) != want {
			t.Errorf("merged %s, one machine %s, want %s:\n%s\none machine:\n%s", state(got), state(one.read(notePath)), want, got, one.read(notePath))
		}
	}
}
