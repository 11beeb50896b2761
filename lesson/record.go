package lesson

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/vaultmem/vaultmem/lesson/strength"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/vault"
)

// A lesson's strength is a function of its record (see package
// lesson/strength): this file reads a lesson note's record and finds a
// person's edit of its strength.

// EntryKind, Entry, Ledger and Computed are the strength rule's (see
// package lesson/strength).
type (
	// EntryKind is what a History entry does to the strength.
	EntryKind = strength.EntryKind
	// Entry is one History line as the computation reads it.
	Entry = strength.Entry
	// Ledger is what a lesson's strength is computed from.
	Ledger = strength.Ledger
	// Computed is a lesson's strength on a day, as its ledger gives it.
	Computed = strength.Computed
)

// The kinds of History entries the computation reads (see
// strength.EntryOther and the others).
const (
	EntryOther   = strength.EntryOther
	EntryCreated = strength.EntryCreated
	EntrySuccess = strength.EntrySuccess
	EntryFailure = strength.EntryFailure
	EntrySet     = strength.EntrySet
)

// createdWord begins a lesson's first History line (see
// strength.CreatedWord), which Store.Add writes.
const createdWord = strength.CreatedWord

// ParseHistory reads the entries of a History section's text (see
// strength.ParseHistory).
func ParseHistory(section string) []Entry { return strength.ParseHistory(section) }

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
		if t := strength.FromDay(strength.DayOf(e.Time)); e.Kind != EntryOther && t.After(day) {
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
func handEdit(r Rules, n *markdown.Note, rec Ledger, fallback time.Time) (Entry, string, bool) {
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
	return e, historyLine(at, fmt.Sprintf("%s%s → %s", strength.SetWord, num(computed), num(written)), ""), true
}
