package lesson

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/vault"
)

// A lesson's strength is a function of its record: the dated entries of
// its History, its last application and the day it is computed for. The
// frontmatter's strength is a cache of that value, so that any number of
// machines computing it on any day agree, and git's merge driver computes
// it again from the merged History instead of adding up both sides'
// changes (which counted a day's decay once per machine).

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

// The words a History line starts with after its time.
const (
	createdWord = "created at "
	setWord     = "set by hand: "
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
		case strings.HasPrefix(what, createdWord):
			if v, ok := leadingUnit(strings.TrimPrefix(what, createdWord)); ok {
				e.Kind, e.Value = EntryCreated, v
			}
		case strings.HasPrefix(what, setWord):
			// "set by hand: A → B": B is the strength from then on.
			if _, to, ok := strings.Cut(strings.TrimPrefix(what, setWord), "→"); ok {
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
	return round(f), true
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

// ReadLedger reads lesson note n's record: its History's entries, its
// created and last_applied days, and whether it is pinned or proposed.
func ReadLedger(n *markdown.Note) Ledger {
	r := Ledger{Created: frontDay(n, "created"), LastApplied: frontDay(n, KeyLastApplied), Still: n.Pinned() || vault.IsProposed(n)}
	if sec, ok := markdown.Section(n, HistoryHeading); ok {
		r.Entries = ParseHistory(sec)
	}
	return r
}

// frontDay is the day frontmatter key holds (YYYY-MM-DD, or a time that
// starts with one); zero when it holds none.
func frontDay(n *markdown.Note, key string) time.Time {
	v, ok := n.Frontmatter.String(key)
	if v = strings.TrimSpace(v); !ok || len(v) < len(DateLayout) {
		return time.Time{}
	}
	t, err := time.Parse(DateLayout, v[:len(DateLayout)])
	if err != nil {
		return time.Time{}
	}
	return t
}

// dayOf is the day t falls on, as a count of days (the calendar day t
// shows, whatever its zone).
func dayOf(t time.Time) int {
	y, m, d := t.Date()
	return int(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

// fromDay is the date of a day count.
func fromDay(d int) time.Time { return time.Unix(int64(d)*86400, 0).UTC() }

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
			lastOutcome = max(lastOutcome, dayOf(e.Time))
		}
		entries = append(entries, e)
	}
	if !created && !rec.Created.IsZero() {
		entries = append(entries, Entry{Time: rec.Created, Kind: EntryCreated, Value: r.Initial})
	}
	if !rec.LastApplied.IsZero() && dayOf(rec.LastApplied) > lastOutcome {
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
		d := dayOf(e.Time)
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
	d := dayOf(day)
	out := Computed{Strength: at(d)}
	if used {
		out.LastUse = fromDay(lastUse)
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
		out.ArchivedOn = fromDay(start() + lo)
	}
	return out
}

// cacheDay is the day lesson note n's written strength was computed for:
// the latest of its decayed, last_applied and created days and of the
// days of the History entries the computation reads (every writer writes
// one of them with the strength; a decay line's time is the clock's, while
// decayed is the day decay computed for); zero when it has none.
func cacheDay(n *markdown.Note, rec Ledger) time.Time {
	day := rec.Created
	for _, t := range []time.Time{frontDay(n, decayedKey), rec.LastApplied} {
		if t.After(day) {
			day = t
		}
	}
	for _, e := range rec.Entries {
		if t := fromDay(dayOf(e.Time)); e.Kind != EntryOther && t.After(day) {
			day = t
		}
	}
	return day
}

// handEdit returns the History entry that records lesson note n's written
// strength as set by hand, when n's record does not compute to it on the
// day it was written for (a person edited it in Obsidian, or the note is
// older than the record: hand-written, or decayed a day at a time): timed
// at that day, after every entry of n, so that what follows starts from
// it; a minute before fallback (the writer's time) when n has no day at
// all (no entry is made then when fallback is zero). ok is false when the record computes to it, or when
// n has no strength written (or a broken one: a problem Read reports).
func (r Rules) handEdit(n *markdown.Note, rec Ledger, fallback time.Time) (Entry, string, bool) {
	v, ok := n.Frontmatter.String(KeyStrength)
	if !ok {
		return Entry{}, "", false
	}
	written, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || math.IsNaN(written) || written < 0 || written > 1 {
		return Entry{}, "", false
	}
	day := cacheDay(n, rec)
	if day.IsZero() {
		if fallback.IsZero() {
			return Entry{}, "", false
		}
		// A minute before the writer's own entry, which a person's value
		// of the same minute would otherwise override.
		day = fallback.Add(-time.Minute)
	}
	computed := r.Strength(rec, day).Strength
	if round(written) == computed {
		return Entry{}, "", false
	}
	at := day
	for _, e := range rec.Entries {
		if e.Time.After(at) {
			at = e.Time
		}
	}
	e := Entry{Time: at, Kind: EntrySet, Value: round(written)}
	return e, historyLine(at, fmt.Sprintf("%s%s → %s", setWord, num(computed), num(written)), ""), true
}
