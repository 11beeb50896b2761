// Package strength is the lesson's strength rule: its constants (Rules),
// the History entries it reads (Entry, ParseHistory) and the ledger it
// computes a strength from on a day (Ledger, Rules.Strength). A lesson's
// strength is a function of its record: the dated entries of its History,
// its last application and the day it is computed for. The frontmatter's
// strength is a cache of that value, so that any number of machines
// computing it on any day agree, and git's merge driver computes it again
// from the merged History instead of adding up both sides' changes (which
// counted a day's decay once per machine).
//
// Package lesson reads a note's ledger and writes its History lines; this
// package knows no note. Standard library only; never lesson.
package strength

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// HistoryTimeLayout is the layout of a history line's time.
const HistoryTimeLayout = "2006-01-02 15:04"

// Rules are the strength rule's constants, in one place; the
// zero value of a field means its default (see DefaultRules).
type Rules struct {
	// Initial is a new lesson's strength.
	Initial float64 `yaml:"initial" json:"initial"`
	// Success is added on a success (the strength never passes 1).
	Success float64 `yaml:"success" json:"success"`
	// Failure is taken away on a failure (never below 0).
	Failure float64 `yaml:"failure" json:"failure"`
	// ReviewBelow flags a lesson for review when its strength falls
	// below it.
	ReviewBelow float64 `yaml:"review_below" json:"review_below"`
	// DecayAfterDays is how long a lesson may go unused before it decays.
	DecayAfterDays int `yaml:"decay_after_days" json:"decay_after_days"`
	// DecayPerDay multiplies the strength for each day past that.
	DecayPerDay float64 `yaml:"decay_per_day" json:"decay_per_day"`
	// ArchiveBelow archives a lesson (kept as a note, out of matching)
	// when decay takes its strength below it.
	ArchiveBelow float64 `yaml:"archive_below" json:"archive_below"`
}

// DefaultRules are: success +0.05, failure −0.1, review below
// 0.3, decay ×0.99 a day after 30 days unused, archived below 0.2.
func DefaultRules() Rules {
	return Rules{Initial: 0.5, Success: 0.05, Failure: 0.1, ReviewBelow: 0.3, DecayAfterDays: 30, DecayPerDay: 0.99, ArchiveBelow: 0.2}
}

// Check fills r's zero fields with the defaults and refuses values that
// make no sense.
func (r Rules) Check() (Rules, error) {
	d := DefaultRules()
	fill := func(v *float64, def float64) {
		if *v == 0 {
			*v = def
		}
	}
	fill(&r.Initial, d.Initial)
	fill(&r.Success, d.Success)
	fill(&r.Failure, d.Failure)
	fill(&r.ReviewBelow, d.ReviewBelow)
	fill(&r.DecayPerDay, d.DecayPerDay)
	fill(&r.ArchiveBelow, d.ArchiveBelow)
	if r.DecayAfterDays == 0 {
		r.DecayAfterDays = d.DecayAfterDays
	}
	for _, v := range []struct {
		name string
		v    float64
	}{{"initial", r.Initial}, {"success", r.Success}, {"failure", r.Failure}, {"review_below", r.ReviewBelow}, {"archive_below", r.ArchiveBelow}} {
		if v.v < 0 || v.v > 1 || math.IsNaN(v.v) {
			return r, fmt.Errorf("lesson rules: %s %v is outside 0..1", v.name, v.v)
		}
	}
	if r.DecayPerDay <= 0 || r.DecayPerDay > 1 {
		return r, fmt.Errorf("lesson rules: decay_per_day %v is outside (0, 1]", r.DecayPerDay)
	}
	if r.DecayAfterDays < 0 {
		return r, fmt.Errorf("lesson rules: decay_after_days %d is negative", r.DecayAfterDays)
	}
	return r, nil
}

// After is the strength after an outcome.
func (r Rules) After(strength float64, success bool) float64 {
	if success {
		return Round(math.Min(1, strength+r.Success))
	}
	return Round(math.Max(0, strength-r.Failure))
}

// Decayed is the strength after days of decay.
func (r Rules) Decayed(strength float64, days int) float64 {
	if days <= 0 {
		return strength
	}
	return Round(strength * math.Pow(r.DecayPerDay, float64(days)))
}

// Flagged reports whether a lesson of this strength needs review.
func (r Rules) Flagged(strength float64) bool { return strength < r.ReviewBelow }

// Round keeps four decimals, so that strengths read well in YAML: every
// step of the rule is rounded so.
func Round(f float64) float64 { return math.Round(f*1e4) / 1e4 }

// EntryKind is what a History entry does to the strength.
type EntryKind int

// The kinds of History entries the computation reads.
const (
	// EntryOther is a line the computation does not read: a decay entry
	// (decay follows from the dates, never from the entries, so that two
	// machines' entries for the same day count once), a person's note.
	EntryOther EntryKind = iota
	// EntryCreated sets the strength the lesson starts at, and starts its
	// unused days.
	EntryCreated
	// EntrySuccess adds Rules.Success (never past 1) and is an application.
	EntrySuccess
	// EntryFailure takes away Rules.Failure (never below 0) and is an
	// application.
	EntryFailure
	// EntrySet is an absolute strength a person wrote into the note (or a
	// strength an older note holds that its History does not compute to):
	// the strength is that value from then on.
	EntrySet
	// entryApplied is an application no entry records (an older note's
	// last_applied): it changes no strength, only the unused days.
	entryApplied
)

// Entry is one History line as the computation reads it.
type Entry struct {
	// Time is the line's time (minutes; the layout HistoryTimeLayout).
	Time time.Time
	Kind EntryKind
	// Value is the strength of an EntryCreated or EntrySet.
	Value float64
}

// The words a History line starts with after its time: CreatedWord and
// SetWord are package lesson's too, which writes those lines.
const (
	CreatedWord = "created at "
	SetWord     = "set by hand: "
	successWord = "success: "
	failureWord = "failure: "
)

// ParseHistory reads the entries of a History section's text (without its
// heading): one for each line "- YYYY-MM-DD HH:MM what"; lines under an
// entry, and lines without a time, are no entries. A line whose kind is
// not known, or whose value does not parse, is EntryOther.
func ParseHistory(section string) []Entry {
	var out []Entry
	for line := range strings.Lines(section) {
		rest, ok := strings.CutPrefix(strings.TrimRight(line, "\r\n"), "- ")
		if !ok || len(rest) < len(HistoryTimeLayout) {
			continue
		}
		at, err := time.Parse(HistoryTimeLayout, rest[:len(HistoryTimeLayout)])
		if err != nil {
			continue
		}
		what := strings.TrimSpace(rest[len(HistoryTimeLayout):])
		e := Entry{Time: at}
		switch {
		case strings.HasPrefix(what, CreatedWord):
			if v, ok := leadingUnit(strings.TrimPrefix(what, CreatedWord)); ok {
				e.Kind, e.Value = EntryCreated, v
			}
		case strings.HasPrefix(what, SetWord):
			// "set by hand: A → B": B is the strength from then on.
			if _, to, ok := strings.Cut(strings.TrimPrefix(what, SetWord), "→"); ok {
				if v, ok := leadingUnit(strings.TrimSpace(to)); ok {
					e.Kind, e.Value = EntrySet, v
				}
			}
		case strings.HasPrefix(what, successWord):
			e.Kind = EntrySuccess
		case strings.HasPrefix(what, failureWord):
			e.Kind = EntryFailure
		}
		out = append(out, e)
	}
	return out
}

// leadingUnit parses the number in 0..1 that s starts with (up to a
// space, a comma or a parenthesis).
func leadingUnit(s string) (float64, bool) {
	end := strings.IndexAny(s, " ,;(")
	if end < 0 {
		end = len(s)
	}
	f, err := strconv.ParseFloat(s[:end], 64)
	if err != nil || math.IsNaN(f) || f < 0 || f > 1 {
		return 0, false
	}
	return Round(f), true
}

// Ledger is what a lesson's strength is computed from.
type Ledger struct {
	// Entries are its History's entries, in any order: the computation
	// orders them by time (then created, success, failure, set within a
	// minute), so that the order two machines' entries were merged in
	// does not matter.
	Entries []Entry
	// Created is the frontmatter's created day, the start when no entry
	// says "created at" (zero when unknown).
	Created time.Time
	// LastApplied is the frontmatter's last_applied day, an application
	// when no outcome entry is as late (zero when unknown).
	LastApplied time.Time
	// Still says the lesson does not decay: pinned, or proposed and not
	// yet accepted.
	Still bool
}

// Computed is a lesson's strength on a day, as its ledger gives it.
type Computed struct {
	Strength float64
	// ArchivedOn is the day decay took the strength below
	// Rules.ArchiveBelow since the last entry that changed it; zero when
	// it has not.
	ArchivedOn time.Time
	// LastUse is the day its unused days count from: its last application
	// or creation (zero when the record has neither; then it never decays).
	LastUse time.Time
}

// DayOf is the day t falls on, as a count of days (the calendar day t
// shows, whatever its zone).
func DayOf(t time.Time) int {
	y, m, d := t.Date()
	return int(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

// FromDay is the date of a day count.
func FromDay(d int) time.Time { return time.Unix(int64(d)*86400, 0).UTC() }

// rank orders the entries of one minute.
func rank(k EntryKind) int {
	switch k {
	case EntryCreated:
		return 0
	case entryApplied:
		return 1
	case EntrySuccess:
		return 2
	case EntryFailure:
		return 3
	default:
		return 4 // EntrySet: a person's value is the last word of its minute
	}
}

// Strength computes the strength lesson ledger rec gives on day: from the
// start (its "created at" entry, else Initial on its created day, else
// Initial), each success adds Success (up to 1), each failure takes away
// Failure (down to 0), a "set by hand" entry sets its value, and every
// day more than DecayAfterDays after the last application (or creation)
// multiplies it by DecayPerDay; the decay of a stretch of days without
// entries is computed at once from the value the stretch starts at
// (rounded to four decimals then, as every step is). Decay entries are not
// read: the same set of entries, in any order and with decay entries
// repeated, computes the same value on the same day. A Still record does
// not decay.
func (r Rules) Strength(rec Ledger, day time.Time) Computed {
	entries := make([]Entry, 0, len(rec.Entries)+2)
	created, lastOutcome := false, -1<<31
	for _, e := range rec.Entries {
		switch e.Kind {
		case EntryOther:
			continue
		case EntryCreated:
			created = true
		case EntrySuccess, EntryFailure:
			lastOutcome = max(lastOutcome, DayOf(e.Time))
		}
		entries = append(entries, e)
	}
	if !created && !rec.Created.IsZero() {
		entries = append(entries, Entry{Time: rec.Created, Kind: EntryCreated, Value: r.Initial})
	}
	if !rec.LastApplied.IsZero() && DayOf(rec.LastApplied) > lastOutcome {
		entries = append(entries, Entry{Time: rec.LastApplied, Kind: entryApplied})
	}
	slices.SortStableFunc(entries, func(a, b Entry) int {
		return cmp.Or(a.Time.Compare(b.Time), cmp.Compare(rank(a.Kind), rank(b.Kind)), cmp.Compare(a.Value, b.Value))
	})
	var (
		base    = r.Initial // the strength the current stretch starts at
		from    int         // the day it starts
		lastUse int
		used    bool // lastUse is known
	)
	// start is the first day of decay in a stretch that starts at from.
	start := func() int { return max(from, lastUse+r.DecayAfterDays) }
	at := func(d int) float64 {
		if rec.Still || !used || d <= start() {
			return base
		}
		return r.Decayed(base, d-start())
	}
	for _, e := range entries {
		d := DayOf(e.Time)
		s := at(d)
		switch e.Kind {
		case EntryCreated:
			s, lastUse, used = e.Value, max(lastUse, d), true
		case entryApplied:
			lastUse, used = max(lastUse, d), true
		case EntrySuccess, EntryFailure:
			s, lastUse, used = r.After(s, e.Kind == EntrySuccess), max(lastUse, d), true
		case EntrySet:
			s = e.Value
		}
		base, from = s, max(from, d)
	}
	d := DayOf(day)
	out := Computed{Strength: at(d)}
	if used {
		out.LastUse = FromDay(lastUse)
	}
	if k := d - start(); !rec.Still && used && k > 0 && out.Strength < r.ArchiveBelow {
		// The first day of the stretch whose decay left it below the line.
		lo, hi := 1, k
		for lo < hi {
			mid := (lo + hi) / 2
			if r.Decayed(base, mid) < r.ArchiveBelow {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		out.ArchivedOn = FromDay(start() + lo)
	}
	return out
}
