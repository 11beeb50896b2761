package lesson

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/vault"
)

// decayedKey records the day decay last ran on a lesson, which makes decay
// idempotent by date.
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

// Decay weakens the lessons unused for longer than the rule allows: ×0.99
// (DecayPerDay) for each day past DecayAfterDays since last_applied (or
// created, for a lesson never applied), counted from the last day decay
// ran on it, so that running it twice on one day changes nothing. A lesson
// that falls below ArchiveBelow is archived (archived: true; kept as a
// note, out of matching). Pinned, archived and proposed lessons (status:
// proposed, not yet accepted) are left alone. A
// lesson due to decay whose trigger or strength is broken (no words,
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
			days := s.unusedDays(n, lf, day)
			if days <= 0 {
				return n.Content, nil
			}
			if pr, ok := brokenBy(lf.Problems); ok {
				skip = &Skip{Path: l.Path, Line: pr.Line, Reason: pr.Message + "; not decayed until it is fixed"}
				return n.Content, nil
			}
			d = Decay{Path: l.Path, Name: lf.Name, Before: lf.Strength, After: s.rules.Decayed(lf.Strength, days), Days: days}
			d.Archived = d.After < s.rules.ArchiveBelow
			what := fmt.Sprintf("decayed: %s → %s (%d days unused past %d)", num(d.Before), num(d.After), days, s.rules.DecayAfterDays)
			kv := []any{KeyStrength, d.After, decayedKey, markdown.FromJSON(today)}
			if d.Archived {
				what += fmt.Sprintf("; archived (below %s)", num(s.rules.ArchiveBelow))
				kv = append(kv, "archived", true)
			}
			next, err := markdown.SetFrontmatterKeys(l.Path, n.Content, kv...)
			if err != nil {
				return nil, err
			}
			return markdown.AppendToSection(next, HistoryHeading, historyLine(s.now(), what, "")), nil
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

// unusedDays is how many days of decay lesson note n owes on day: the days
// past the grace period since it was last applied (or created), not
// counting those decay already took.
func (s *Store) unusedDays(n *markdown.Note, l Lesson, day time.Time) int {
	date := func(key string) (time.Time, bool) {
		v, ok := n.Frontmatter.String(key)
		if !ok {
			return time.Time{}, false
		}
		t, err := time.Parse(DateLayout, strings.TrimSpace(v))
		return t, err == nil
	}
	ref, ok := time.Time{}, false
	if t, err := time.Parse(DateLayout, l.LastApplied); err == nil {
		ref, ok = t, true
	} else {
		ref, ok = date("created")
	}
	if !ok {
		return 0 // no day to count from
	}
	from := ref.AddDate(0, 0, s.rules.DecayAfterDays)
	if t, ok := date(decayedKey); ok && t.After(from) {
		from = t
	}
	return int(day.Sub(from).Hours() / 24)
}
