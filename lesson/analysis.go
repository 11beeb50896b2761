package lesson

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/vaultmem/vaultmem/lesson/outcomelog"
	"github.com/vaultmem/vaultmem/markdown"
)

// Review is a lesson that needs a human's look, and why.
type Review struct {
	Path     string   `json:"path"`
	Name     string   `json:"name"`
	Strength float64  `json:"strength"`
	Archived bool     `json:"archived"`
	Reasons  []string `json:"reasons"`
	// Line is the line at fault when a reason is a frontmatter problem.
	Line int `json:"line,omitempty"`
}

// ProposedReason is why Review lists a proposed lesson.
const ProposedReason = "proposed by Dream from a session (status: proposed): out of matching until accepted; " +
	"accept it by removing status: proposed, or delete the note"

// weakOutcomes is how many logged outcomes a lesson needs before its
// success rate can call it weak.
const weakOutcomes = 3

// headIndex is an Index that can list the lessons without their text and
// terms (see index.Kinds.LessonHeads), which review does not read.
type headIndex interface {
	LessonHeads(ctx context.Context) ([]Lesson, error)
}

// heads lists the lessons, without their text and terms when the index
// can (see headIndex): for what reads neither (review, list, health).
func (s *Store) heads(ctx context.Context) ([]Lesson, error) {
	if h, ok := s.ix.(headIndex); ok {
		return h.LessonHeads(ctx)
	}
	return s.ix.Lessons(ctx)
}

// Review lists the lessons flagged (strength below ReviewBelow), weak (at
// least three outcomes logged, fewer than half of them successes),
// proposed by Dream and not yet accepted, a sync service's conflict copy
// of another lesson (see ConflictCopies; out of matching), or with
// problems in their frontmatter (named by line; such a lesson is out of
// matching until fixed), and the notes in the lessons folder whose
// frontmatter does not parse; with all, every lesson. Weakest first. The
// weak rule's counts come from the cache folder when the Store has one
// (see outcomelog.TallyFile), so that only the log files changed since
// the last review are read; the answers are those of reading the whole
// log.
func (s *Store) Review(ctx context.Context, all bool) ([]Review, error) {
	lessons, err := s.heads(ctx) // review reads neither text nor terms
	if err != nil {
		return nil, err
	}
	tally, err := s.log().Tally() // outcomes, successes
	if err != nil {
		return nil, err
	}
	out := []Review{}
	copies := ConflictCopies(lessons)
	for _, l := range lessons {
		r := Review{Path: l.Path, Name: l.Name, Strength: l.Strength, Archived: l.Archived, Reasons: []string{}}
		if s.rules.Flagged(l.Strength) && !l.Archived {
			r.Reasons = append(r.Reasons, fmt.Sprintf("strength %s is below %s: flagged for review", num(l.Strength), num(s.rules.ReviewBelow)))
		}
		if t := tally[l.Path]; t[0] >= weakOutcomes && 2*t[1] < t[0] {
			r.Reasons = append(r.Reasons, fmt.Sprintf("weak: %d of %d outcomes were successes", t[1], t[0]))
		}
		for _, g := range badGlobs(l.Trigger) {
			r.Reasons = append(r.Reasons, fmt.Sprintf("trigger %q is no path glob: it never matches", g))
		}
		for _, p := range l.Problems {
			r.Reasons = append(r.Reasons, fmt.Sprintf("%s:%d: %s", l.Path, p.Line, p.Message))
			if r.Line == 0 {
				r.Line = p.Line
			}
		}
		if l.Proposed {
			r.Reasons = append(r.Reasons, ProposedReason)
		}
		if c, ok := copies[l.Path]; ok {
			r.Reasons = append(r.Reasons, ConflictCopyReason(l.Path, c))
		}
		if l.Archived && all {
			r.Reasons = append(r.Reasons, "archived (out of matching)")
		}
		if len(r.Reasons) > 0 || all {
			out = append(out, r)
		}
	}
	bad, err := s.ix.BadFrontmatter(ctx, s.folder)
	if err != nil {
		return nil, err
	}
	for _, b := range bad {
		out = append(out, Review{Path: b.Path, Name: markdown.NameOf(b.Path), Line: b.Line, Reasons: []string{b.Message + " (not read as a lesson until fixed)"}})
	}
	slices.SortStableFunc(out, func(a, b Review) int {
		return cmp.Or(cmp.Compare(len(b.Reasons), len(a.Reasons)), cmp.Compare(a.Strength, b.Strength), strings.Compare(a.Path, b.Path))
	})
	return out, nil
}

// History is a lesson's audit trail: the lines of its History section,
// oldest first, and its outcomes in the log.
type History struct {
	Path     string  `json:"path"`
	Name     string  `json:"name"`
	Strength float64 `json:"strength"`
	// Confidence and Version are the note's (see Confidence and
	// RecordEdits).
	Confidence float64  `json:"confidence"`
	Version    int      `json:"version"`
	Lines      []string `json:"lines"`
	Outcomes   []Record `json:"outcomes"`
}

// History returns the history of the lesson ref names.
func (s *Store) History(ctx context.Context, ref string) (History, error) {
	p, err := s.Resolve(ctx, ref)
	if err != nil {
		return History{}, err
	}
	b, _, err := s.w.Read(p)
	if err != nil {
		return History{}, err
	}
	n := markdown.Parse(p, b)
	l := Read(n)
	h := History{Path: p, Name: l.Name, Strength: l.Strength, Confidence: l.Confidence, Version: noteVersion(n), Lines: []string{}, Outcomes: []Record{}}
	if sec, ok := markdown.Section(n, HistoryHeading); ok {
		for _, line := range strings.Split(strings.ReplaceAll(sec, "\r\n", "\n"), "\n") {
			if line = strings.TrimSpace(line); strings.HasPrefix(line, "- ") {
				h.Lines = append(h.Lines, strings.TrimPrefix(line, "- "))
			}
		}
	}
	recs, err := s.ReadLog()
	if err != nil {
		return History{}, err
	}
	for _, r := range recs {
		if r.Lesson == p {
			h.Outcomes = append(h.Outcomes, r)
		}
	}
	return h, nil
}

// Trend is one domain's outcomes in one month (see outcomelog.Trend).
type Trend = outcomelog.Trend

// TrendsFilter chooses the outcomes Trends counts; the zero value
// chooses all.
type TrendsFilter struct {
	// Domain keeps one domain's outcomes ("(none)" for those of lessons
	// without one).
	Domain string
	// Since and Until keep the outcomes logged on these days (UTC),
	// YYYY-MM-DD, both included; "" for no bound.
	Since, Until string
}

// Trends returns, by domain and month, the outcomes logged that f
// chooses, their success rate and the mean strength they left. Errors:
// ErrInvalid (wrapped) for a Since or Until that is no date, or a Since
// after Until; the outcome log's.
func (s *Store) Trends(ctx context.Context, f TrendsFilter) ([]Trend, error) {
	var since, until time.Time
	for _, b := range []struct {
		name, v string
		into    *time.Time
	}{{"since", f.Since, &since}, {"until", f.Until, &until}} {
		if strings.TrimSpace(b.v) == "" {
			continue
		}
		t, err := time.Parse(DateLayout, strings.TrimSpace(b.v))
		if err != nil {
			return nil, fmt.Errorf("%w: %s %q is no date (YYYY-MM-DD)", ErrInvalid, b.name, b.v)
		}
		*b.into = t
	}
	if !since.IsZero() && !until.IsZero() && since.After(until) {
		return nil, fmt.Errorf("%w: since %s is after until %s", ErrInvalid, f.Since, f.Until)
	}
	recs, err := s.ReadLog()
	if err != nil {
		return nil, err
	}
	return outcomelog.Trends(recs, f.Domain, since, until), nil
}

// Stats are the lessons' quality measures, from the outcome log.
type Stats struct {
	Lessons  int `json:"lessons"`
	Live     int `json:"live"`
	Flagged  int `json:"flagged"`
	Archived int `json:"archived"`
	// Proposed counts the lessons Dream proposed that wait to be
	// accepted (not live).
	Proposed int `json:"proposed"`
	Outcomes int `json:"outcomes"`
	// Successes counts the successful outcomes.
	Successes int `json:"successes"`
	// Precision is the share of the lessons shown (for outcomes logged
	// with a context) that were the one applied; Recall the share of
	// those outcomes whose lesson had been shown. Null without such
	// outcomes.
	Precision *float64 `json:"precision"`
	Recall    *float64 `json:"recall"`
	// StrengthSuccess is the correlation of a lesson's strength before an
	// outcome with the outcome's success (point-biserial, -1..1): strong
	// lessons should succeed more. Null when it cannot be computed.
	StrengthSuccess *float64 `json:"strength_success_correlation"`
}

// Stats measures the lessons and the outcome log.
func (s *Store) Stats(ctx context.Context) (Stats, error) {
	lessons, err := s.ix.Lessons(ctx)
	if err != nil {
		return Stats{}, err
	}
	var st Stats
	st.Lessons = len(lessons)
	for _, l := range lessons {
		switch {
		case l.Archived:
			st.Archived++
		case l.Proposed:
			st.Proposed++
		default:
			st.Live++
			if s.rules.Flagged(l.Strength) {
				st.Flagged++
			}
		}
	}
	recs, err := s.ReadLog()
	if err != nil {
		return Stats{}, err
	}
	m := outcomelog.Measure(recs)
	st.Outcomes, st.Successes, st.Precision, st.Recall, st.StrengthSuccess = m.Outcomes, m.Successes, m.Precision, m.Recall, m.StrengthSuccess
	return st, nil
}
