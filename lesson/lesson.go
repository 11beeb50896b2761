// Package lesson keeps intuition memory as notes: lessons (type: lesson)
// with a trigger (when they apply), an action bias (what to do or avoid)
// and a strength that success raises, failure lowers and disuse decays;
// each change is a line in the note's "## History", so the note is its own
// audit trail and a human can read, fix, pin or delete any lesson in
// Obsidian. A fast path ([Matcher]) returns the lessons for a situation in
// well under a millisecond from memory, with a hot cache, by their
// trigger's words, tools and globs, their keywords, and, given the vault's
// embedder ([Meaning]), their meaning: each lesson placed by its words and
// the notes around it, so that a paraphrase of its situation finds it
// (meaning.go). Each lesson found carries a suggested adjustment
// ([Suggest]) and its confidence ([Confidence]: a Beta posterior of its
// outcomes); an edit of its rule is a new version ([Store.RecordEdits]),
// the old rule kept in its History. Outcomes are
// logged (context, lessons shown, outcome) for the analyses and for the
// learned router (package lesson/router), which reranks only when switched
// on; the log itself, its records and the analyses that need only them
// (tallies, failing streaks, and their cache files) are package
// lesson/outcomelog's, which the Store gives its writer and cache folder.
// Which lessons contradict each other is package lesson/contradict's
// (Store.Contradictions adapts the live lessons to it), and a process's
// live counters package lesson/livehealth's (Health adapts to it); the
// matcher's vector scan and cache file are package lesson/vectors'.
//
// A lesson's strength is a function of its record (its History's dated
// entries, its last application) and the day (Rules.Strength, see
// record.go): the frontmatter's strength is a cache of it that every
// writer, and git's merge driver (MergeRules), computes again rather than
// adds to, so that machines decaying the same lesson on the same day agree.
// Every write goes through the vault's Writer, compare-before-write and
// locked: concurrent outcomes from many processes are all applied, and a
// human's edit of strength wins (recorded as "set by hand", the next
// outcome starts from it).
//
// The package owns the lesson note's kind: its type (Type), frontmatter
// keys, what a lesson says (Lesson, Read), its History and how git merges
// it (MergeRules). It imports lesson/contradict, lesson/livehealth,
// lesson/outcomelog, lesson/router, lesson/vectors, markdown, redact, text
// and vault; the index answers it through the small Index interface it
// declares.
package lesson

import (
	"errors"
	"fmt"
	"math"
	"time"
)

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
		return round(math.Min(1, strength+r.Success))
	}
	return round(math.Max(0, strength-r.Failure))
}

// Decayed is the strength after days of decay.
func (r Rules) Decayed(strength float64, days int) float64 {
	if days <= 0 {
		return strength
	}
	return round(strength * math.Pow(r.DecayPerDay, float64(days)))
}

// Flagged reports whether a lesson of this strength needs review.
func (r Rules) Flagged(strength float64) bool { return strength < r.ReviewBelow }

// round keeps four decimals, so that strengths read well in YAML.
func round(f float64) float64 { return math.Round(f*1e4) / 1e4 }

// Errors; wrapped with the lesson named.
var (
	// ErrInvalid: an argument is not acceptable (an empty title, no
	// trigger).
	ErrInvalid = errors.New("lesson: invalid argument")
	// ErrNotLesson: the note named is not a lesson.
	ErrNotLesson = errors.New("lesson: not a lesson")
	// ErrArchived: the lesson is archived (out of matching); a human may
	// bring it back by removing archived from it and raising its strength
	// (else the next decay archives it again).
	ErrArchived = errors.New("lesson: archived")
)

// DateLayout is the layout of the dates lessons keep (last_applied,
// created, decayed).
const DateLayout = time.DateOnly

// HistoryTimeLayout is the layout of a history line's time.
const HistoryTimeLayout = "2006-01-02 15:04"
