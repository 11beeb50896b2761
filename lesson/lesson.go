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
// matcher's vector scan and cache file are package lesson/vectors', and
// the strength rule over a ledger package lesson/strength's.
//
// A lesson's strength is a function of its record (its History's dated
// entries, its last application) and the day (Rules.Strength, package
// lesson/strength): the frontmatter's strength is a cache of it that every
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
// lesson/outcomelog, lesson/router, lesson/strength, lesson/vectors,
// markdown, redact, text and vault; the index answers it through the
// small Index interface it declares.
package lesson

import (
	"errors"
	"time"

	"github.com/vaultmem/vaultmem/lesson/strength"
)

// Rules are the strength rule's constants (see strength.Rules).
type Rules = strength.Rules

// DefaultRules are: success +0.05, failure −0.1, review below
// 0.3, decay ×0.99 a day after 30 days unused, archived below 0.2.
func DefaultRules() Rules { return strength.DefaultRules() }

// round keeps four decimals, so that strengths read well in YAML (as
// strength.Round does).
func round(f float64) float64 { return strength.Round(f) }

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
const HistoryTimeLayout = strength.HistoryTimeLayout
