package lesson

import (
	"context"
	"fmt"
	"time"

	"github.com/vaultmem/vaultmem/lesson/strength"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/vault"
)

// decayedKey records the day decay last computed a lesson's strength for
// (see cacheDay).
const decayedKey = "decayed"

// Decay is one lesson's decay.
type Decay struct {
	Path     string  `json:"path"`
	Name     string  `json:"name"`
	Before   float64 `json:"strength_before"`
	After    float64 `json:"strength_after"`
	Days     int     `json:"days"`
	Archived bool    `json:"archived"`
}

// Skip is a lesson that decay left alone although it was due, because a
// human must fix it first: the file, the line at fault and why.
type Skip struct {
	Path   string `json:"path"`
	Line   int    `json:"line,omitempty"`
	Reason string `json:"reason"`
}

// Decay writes today's strength of the lessons unused for longer than the
// rule allows, as their ledger computes it (Rules.Strength): ×0.99
// (DecayPerDay) for each day past DecayAfterDays since the last
// application (or creation). The strength is a function of the dates, not
// of the runs: running it twice on one day, or on two machines, changes
// nothing more. A lesson that falls below ArchiveBelow is archived
// (archived: the day decay took it below; kept as a note, out of
// matching). A strength a person wrote that the ledger does not give is
// recorded first (a "set by hand" line) and decays from there. Pinned,
// archived and proposed lessons (status: proposed, not yet accepted) are
// left alone. A lesson due to decay whose trigger or strength is broken (no words,
// tool:NAME or glob as its trigger, say a map, a nested list or an empty
// string; a strength that is not a number in 0..1) is neither rewritten
// nor archived: it is returned among the skipped, with its file and line.
// today is YYYY-MM-DD; with dryRun nothing is written.
func (s *Store) Decay(ctx context.Context, today string, dryRun bool) ([]Decay, []Skip, error) {
	day, err := time.Parse(DateLayout, today)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: today %q is not YYYY-MM-DD", ErrInvalid, today)
	}
	lessons, err := s.ix.Lessons(ctx)
	if err != nil {
		return nil, nil, err
	}
	out, skipped := []Decay{}, []Skip{}
	var written []string
	for _, l := range lessons {
		if err := ctx.Err(); err != nil {
			return out, skipped, err
		}
		if l.Pinned || l.Archived || l.Proposed {
			continue
		}
		if last, err := time.Parse(DateLayout, l.LastApplied); err == nil && day.Sub(last) <= time.Duration(s.rules.DecayAfterDays)*24*time.Hour {
			continue // used lately: nothing to read
		}
		var d Decay
		var skip *Skip
		change := func(n *markdown.Note) ([]byte, error) {
			d, skip = Decay{}, nil
			if vault.IsArchived(n) || n.Pinned() || vault.IsProposed(n) {
				return n.Content, nil
			}
			lf := Read(n)
			led := ReadLedger(n)
			from := cacheDay(n, led)
			days := s.unusedDays(led, from, day)
			if days <= 0 {
				return n.Content, nil
			}
			if pr, ok := brokenBy(lf.Problems); ok {
				skip = &Skip{Path: l.Path, Line: pr.Line, Reason: pr.Message + "; not decayed until it is fixed"}
				return n.Content, nil
			}
			at := s.now()
			content := n.Content
			if e, line, ok := handEdit(s.rules, n, led, at); ok {
				content = markdown.AppendToSection(content, HistoryHeading, line)
				led.Entries = append(led.Entries, e)
			}
			c := s.rules.Strength(led, day)
			d = Decay{Path: l.Path, Name: lf.Name, Before: lf.Strength, After: c.Strength, Days: days, Archived: !c.ArchivedOn.IsZero()}
			what := fmt.Sprintf("decayed: %s → %s (%d days unused past %d)", num(d.Before), num(d.After), days, s.rules.DecayAfterDays)
			kv := []any{KeyStrength, d.After, decayedKey, markdown.FromJSON(today)}
			if d.Archived {
				what += fmt.Sprintf("; archived (below %s)", num(s.rules.ArchiveBelow))
				kv = append(kv, KeyArchived, markdown.FromJSON(c.ArchivedOn.Format(DateLayout)))
			}
			next, err := markdown.SetFrontmatterKeys(l.Path, content, kv...)
			if err != nil {
				return nil, err
			}
			return markdown.AppendToSection(next, HistoryHeading, historyLine(at, what, "")), nil
		}
		if dryRun {
			b, _, err := s.w.Read(l.Path)
			if err != nil {
				continue // gone since the index saw it
			}
			if n := markdown.Parse(l.Path, b); n.Type() == Type {
				change(n)
			}
		} else if err := s.update(ctx, l.Path, change); err != nil {
			return out, skipped, err
		}
		if skip != nil {
			skipped = append(skipped, *skip)
		}
		if d.Path != "" {
			out = append(out, d)
			written = append(written, d.Path)
		}
	}
	if dryRun || len(written) == 0 {
		return out, skipped, nil
	}
	return out, skipped, s.refresh(ctx, written...)
}

// unusedDays is how many days of decay a lesson whose ledger is led owes
// on day when its strength was last computed for from: the days past
// DecayAfterDays since its last application (or creation), not counting
// those up to from, whose decay its strength holds. Pinned and proposed
// lessons owe none.
func (s *Store) unusedDays(led Ledger, from, day time.Time) int {
	last := s.rules.Strength(led, from).LastUse
	if led.Still || last.IsZero() {
		return 0 // no day to count from
	}
	start := max(strength.DayOf(from), strength.DayOf(last)+s.rules.DecayAfterDays)
	return strength.DayOf(day) - start
}
