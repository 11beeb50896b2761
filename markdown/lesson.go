package markdown

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The frontmatter keys of a lesson note that vaultmem reads and writes.
const (
	LessonTrigger      = "trigger"
	LessonActionBias   = "action_bias"
	LessonDomain       = "domain"
	LessonStrength     = "strength"
	LessonConfidence   = "confidence"
	LessonApplications = "application_count"
	LessonLastApplied  = "last_applied"
	LessonEpisodes     = "source_episodes"
	LessonDerivedFrom  = "derived_from"
	LessonVersion      = "version"
)

// HistoryHeading is the section of a lesson note that gets one line per
// change of its strength.
const HistoryHeading = "History"

// DefaultStrength is the strength of a lesson that has none written.
const DefaultStrength = 0.5

// Lesson is what a lesson note's frontmatter says, as read: the note is
// never changed to make it so. Problems lists what is wrong with it
// (naming the line); a lesson with a problem in its trigger or strength is
// left out of matching until a human fixes it.
type Lesson struct {
	Name string
	// Trigger is when it applies: words, "tool:NAME", path globs (a
	// string or a list in the note).
	Trigger    []string
	ActionBias string
	Domain     string
	// Strength and Confidence are 0..1; Strength is DefaultStrength and
	// Confidence 0.5 when not written.
	Strength, Confidence float64
	Applications         int
	LastApplied          string
	Pinned               bool
	Problems             []LessonProblem
}

// LessonProblem is one thing wrong in a lesson note's frontmatter.
type LessonProblem struct {
	Key     string `json:"key"`
	Line    int    `json:"line,omitempty"` // 1-based file line; 0 when the key is missing
	Message string `json:"message"`
}

// ReadLesson reads the lesson fields of n (which should have type: lesson).
func ReadLesson(n *Note) Lesson {
	l := Lesson{Name: n.Name, Strength: DefaultStrength, Confidence: 0.5, Pinned: n.Pinned()}
	if s, ok := n.Frontmatter.String("name"); ok && strings.TrimSpace(s) != "" {
		l.Name = strings.TrimSpace(s)
	}
	line := func(key string) int {
		if n.Frontmatter == nil {
			return 0
		}
		if v := n.Frontmatter.Value(key); v != nil {
			return n.Frontmatter.Line + v.Line - 1
		}
		return 0
	}
	problem := func(key, format string, args ...any) {
		l.Problems = append(l.Problems, LessonProblem{Key: key, Line: line(key), Message: fmt.Sprintf(format, args...)})
	}
	l.Trigger = n.Frontmatter.Strings(LessonTrigger)
	if len(l.Trigger) == 0 {
		problem(LessonTrigger, "no trigger: a lesson needs one (words, tool:NAME or a path glob) to be matched")
	}
	l.ActionBias, _ = n.Frontmatter.String(LessonActionBias)
	l.ActionBias = strings.TrimSpace(l.ActionBias)
	l.Domain, _ = n.Frontmatter.String(LessonDomain)
	l.Domain = strings.ToLower(strings.TrimSpace(l.Domain))
	unit := func(key string, into *float64) {
		if n.Frontmatter.Value(key) == nil {
			return
		}
		s, _ := n.Frontmatter.String(key)
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		switch {
		case err != nil || math.IsNaN(f):
			problem(key, "%s %q is not a number between 0 and 1", key, s)
		case f < 0 || f > 1:
			problem(key, "%s %s is outside 0..1", key, s)
		default:
			*into = f
		}
	}
	unit(LessonStrength, &l.Strength)
	unit(LessonConfidence, &l.Confidence)
	if n.Frontmatter.Value(LessonApplications) != nil {
		s, _ := n.Frontmatter.String(LessonApplications)
		if c, err := strconv.Atoi(strings.TrimSpace(s)); err == nil && c >= 0 {
			l.Applications = c
		} else {
			problem(LessonApplications, "%s %q is not a count", LessonApplications, s)
		}
	}
	l.LastApplied, _ = n.Frontmatter.String(LessonLastApplied)
	l.LastApplied = strings.TrimSpace(l.LastApplied)
	return l
}

// LessonText is the body of lesson note n without its History section:
// what the lesson says, for matching.
func LessonText(n *Note) string {
	body := string(n.Body())
	if head, _, end, ok := sectionOf(n, HistoryHeading); ok {
		body = string(n.Content[n.BodyStart:head]) + string(n.Content[end:])
	}
	return strings.TrimSpace(body)
}
