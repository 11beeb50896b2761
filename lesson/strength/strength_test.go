package strength_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/lesson/strength"
)

// day is a date of the tests, at midnight UTC.
func day(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t
}

// r4 rounds to four decimals, as strengths are written.
func r4(f float64) float64 { return math.Round(f*1e4) / 1e4 }

// TestStrength holds the computation to the seed rule: +0.05 a success,
// −0.1 a failure (within 0..1), ×0.99 a day after 30 unused days counted
// from the last application or creation, archived below 0.2 on the day
// decay took it there, a person's value absolute from its entry on, decay
// entries never read.
func TestStrength(t *testing.T) {
	rules := strength.DefaultRules()
	const created = "- 2026-09-01 10:00 created at 0.5\n"
	for _, tt := range []struct {
		name, history string
		ledger        strength.Ledger // Entries come from history
		day           string
		want          float64
		archivedOn    string
	}{
		{"created, within the 30 days", created, strength.Ledger{}, "2026-09-20", 0.5, ""},
		{"the 30th unused day does not decay", created, strength.Ledger{}, "2026-10-01", 0.5, ""},
		{"the 31st does", created, strength.Ledger{}, "2026-10-02", 0.495, ""},
		{"45 days past the 30", created, strength.Ledger{}, "2026-11-15", 0.3181, ""},
		{"two successes", created + "- 2026-09-02 10:00 success: 0.5 → 0.55\n- 2026-09-03 10:00 success: 0.55 → 0.6\n", strength.Ledger{}, "2026-09-04", 0.6, ""},
		{"a failure", created + "- 2026-09-02 10:00 failure: 0.5 → 0.4\n", strength.Ledger{}, "2026-09-04", 0.4, ""},
		{"clamped at 1", created + "- 2026-09-02 10:00 set by hand: 0.5 → 0.98\n- 2026-09-02 11:00 success: 0.98 → 1\n- 2026-09-02 12:00 success: 1 → 1\n", strength.Ledger{}, "2026-09-03", 1, ""},
		{"clamped at 0", created + "- 2026-09-02 10:00 set by hand: 0.5 → 0.05\n- 2026-09-02 11:00 failure: 0.05 → 0\n", strength.Ledger{}, "2026-09-03", 0, ""},
		// 40 days unused: the success starts from 0.5 × 0.99^10.
		{"decay across a gap, then a success", created + "- 2026-10-11 09:00 success: 0.4522 → 0.5022\n", strength.Ledger{}, "2026-11-10", 0.5022, ""},
		{"the success restarts the 30 days", created + "- 2026-10-11 09:00 success: 0.4522 → 0.5022\n", strength.Ledger{}, "2026-11-11", r4(0.5022 * 0.99), ""},
		// An entry at 23:59 counts on its day: day 31 after it decays once.
		{"an entry late in its day", created + "- 2026-09-02 23:59 success: 0.5 → 0.55\n", strength.Ledger{}, "2026-10-03", r4(0.55 * 0.99), ""},
		{"a hand edit is absolute; the unused days still count from creation", created + "- 2026-10-11 09:00 set by hand: 0.4522 → 0.8\n", strength.Ledger{}, "2026-10-12", r4(0.8 * 0.99), ""},
		{"decay entries are not read", created + "- 2026-10-02 10:00 decayed: 0.5 → 0.495 (1 days unused past 30)\n- 2026-10-02 11:00 decayed: 0.5 → 0.495 (1 days unused past 30)\n- 2026-10-03 10:00 decayed: 0.495 → 0.4901 (1 days unused past 30)\n", strength.Ledger{}, "2026-10-03", r4(0.5 * 0.99 * 0.99), ""},
		// 0.21 × 0.99^5 = 0.1997: below 0.2 on the fifth day of decay.
		{"archived on the day it fell below 0.2", created + "- 2026-09-02 10:00 set by hand: 0.5 → 0.21\n", strength.Ledger{}, "2026-11-23", r4(0.21 * math.Pow(0.99, 53)), "2026-10-06"},
		{"failures below 0.2 do not archive", created + "- 2026-09-02 10:00 set by hand: 0.5 → 0.25\n- 2026-09-02 11:00 failure: 0.25 → 0.15\n", strength.Ledger{}, "2026-10-02", 0.15, ""},
		{"... the first day of decay does", created + "- 2026-09-02 10:00 set by hand: 0.5 → 0.25\n- 2026-09-02 11:00 failure: 0.25 → 0.15\n", strength.Ledger{}, "2026-10-03", r4(0.15 * 0.99), "2026-10-03"},
		{"pinned: no decay", created, strength.Ledger{Still: true}, "2027-09-01", 0.5, ""},
		{"no History: Initial on the created day", "", strength.Ledger{Created: day("2026-09-01")}, "2026-10-02", 0.495, ""},
		{"last_applied without an entry restarts the 30 days", created, strength.Ledger{LastApplied: day("2026-09-10")}, "2026-10-11", 0.495, ""},
		{"no day at all: no decay", "", strength.Ledger{}, "2030-01-01", 0.5, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			led := tt.ledger
			led.Entries = strength.ParseHistory(tt.history)
			got := rules.Strength(led, day(tt.day))
			on := ""
			if !got.ArchivedOn.IsZero() {
				on = got.ArchivedOn.Format(time.DateOnly)
			}
			if got.Strength != tt.want || on != tt.archivedOn {
				t.Errorf("strength %v archived on %q, want %v archived on %q", got.Strength, on, tt.want, tt.archivedOn)
			}
		})
	}
}

// TestParseHistory reads the lines vaultmem writes today and wrote
// before, and nothing from lines it does not know.
func TestParseHistory(t *testing.T) {
	es := strength.ParseHistory("- 2026-09-01 10:00 created at 0.5, proposed (status: proposed until accepted)\n" +
		"- 2026-09-02 10:00 success: 0.5 → 0.55 (episode [[Fix CI]])\n  a line under it\n" +
		"- 2026-09-03 10:00 failure: 0.55 → 0.45 (below 0.5: flagged for review)\n" +
		"- 2026-09-04 10:00 set by hand: 0.45 → 0.8\n" +
		"- 2026-09-05 10:00 decayed: 0.8 → 0.792 (1 days unused past 30); archived (below 0.2)\n" +
		"- 2026-09-06 10:00 set by hand: 0.45 → high\n" +
		"- a line a person wrote\n")
	var got []string
	for _, e := range es {
		got = append(got, fmt.Sprintf("%s %d %v", e.Time.Format(strength.HistoryTimeLayout), e.Kind, e.Value))
	}
	want := []string{"2026-09-01 10:00 1 0.5", "2026-09-02 10:00 2 0", "2026-09-03 10:00 3 0", "2026-09-04 10:00 4 0.8",
		"2026-09-05 10:00 0 0", "2026-09-06 10:00 0 0"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestStrengthOrderFree is the property the merge driver relies on: the
// History lines of N machines, in any interleaving, with any machine's
// decay, creation and hand-edit lines repeated (two machines that wrote
// the same), compute one strength on one day.
func TestStrengthOrderFree(t *testing.T) {
	rules := strength.DefaultRules()
	rng := rand.New(rand.NewPCG(38, 1))
	start := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	for trial := range 200 {
		machines := 2 + rng.IntN(4)
		lines := []string{"- 2026-01-01 09:00 created at 0.5"}
		repeatable := []string{lines[0]}
		for m := range machines {
			for range rng.IntN(12) {
				// few distinct days and minutes: entries of one minute on
				// several machines are common here
				at := start.AddDate(0, 0, rng.IntN(150)).Add(time.Duration(rng.IntN(3)) * time.Minute)
				stamp := at.Format(strength.HistoryTimeLayout)
				switch rng.IntN(4) {
				case 0:
					lines = append(lines, fmt.Sprintf("- %s success: 0 → 0 (machine %d)", stamp, m))
				case 1:
					lines = append(lines, fmt.Sprintf("- %s failure: 0 → 0 (machine %d)", stamp, m))
				case 2:
					l := fmt.Sprintf("- %s decayed: 0.5 → 0.4 (3 days unused past 30)", stamp)
					lines, repeatable = append(lines, l), append(repeatable, l)
				default:
					l := fmt.Sprintf("- %s set by hand: 0.5 → %v", stamp, float64(rng.IntN(10001))/1e4)
					lines, repeatable = append(lines, l), append(repeatable, l)
				}
			}
		}
		on := start.AddDate(0, 0, 100+rng.IntN(400))
		want := rules.Strength(strength.Ledger{Entries: strength.ParseHistory(strings.Join(lines, "\n"))}, on)
		for range 20 {
			mixed := append([]string{}, lines...)
			for range rng.IntN(4) {
				mixed = append(mixed, repeatable[rng.IntN(len(repeatable))])
			}
			rng.Shuffle(len(mixed), func(i, j int) { mixed[i], mixed[j] = mixed[j], mixed[i] })
			got := rules.Strength(strength.Ledger{Entries: strength.ParseHistory(strings.Join(mixed, "\n"))}, on)
			if got != want {
				t.Fatalf("trial %d: %+v from\n%s\nwant %+v from\n%s", trial, got, strings.Join(mixed, "\n"), want, strings.Join(lines, "\n"))
			}
		}
	}
}
