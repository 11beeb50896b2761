package lesson

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/text"
	"github.com/vaultmem/vaultmem/vault"
)

// Type is the frontmatter type of a lesson note.
const Type = "lesson"

// The frontmatter keys of a lesson note that vaultmem reads and writes.
const (
	KeyTrigger      = "trigger"
	KeyActionBias   = "action_bias"
	KeyDomain       = "domain"
	KeyStrength     = "strength"
	KeyConfidence   = "confidence"
	KeyApplications = "application_count"
	KeyLastApplied  = "last_applied"
	KeyEpisodes     = "source_episodes"
	KeyDerivedFrom  = "derived_from"
	KeyVersion      = "version"
	// KeyArchived is the day decay archived the lesson (YYYY-MM-DD, as
	// memories have it); older notes have true, read alike.
	KeyArchived = "archived"
)

// HistoryHeading is the section of a lesson note that gets one line per
// change of its strength.
const HistoryHeading = "History"

// DefaultStrength is the strength of a lesson that has none written.
const DefaultStrength = 0.5

// TextLen is the most bytes of a lesson's body Read keeps as its Text.
const TextLen = 4000

// Lesson is a lesson note as read (see Read): the note is never changed to
// make it so. Problems lists what is wrong with its frontmatter (naming
// the line); a lesson with a problem in its trigger or strength is left
// out of matching until a human fixes it.
type Lesson struct {
	Path string `json:"path"`
	Name string `json:"name"`
	// Trigger is when it applies: words, "tool:NAME", path globs (a
	// string or a list in the note).
	Trigger    []string `json:"trigger"`
	ActionBias string   `json:"action_bias"`
	Domain     string   `json:"domain"`
	Tags       []string `json:"tags"`
	// Strength and Confidence are 0..1; Strength is DefaultStrength and
	// Confidence 0.5 when not written.
	Strength     float64 `json:"strength"`
	Confidence   float64 `json:"confidence"`
	Applications int     `json:"application_count"`
	LastApplied  string  `json:"last_applied"`
	Pinned       bool    `json:"pinned"`
	Archived     bool    `json:"archived"`
	// Proposed says Dream proposed it from a session and no one has
	// accepted it yet (status: proposed): it is out of matching and decay.
	Proposed bool `json:"proposed,omitempty"`
	// Text is the body without its History section, cut to TextLen;
	// Terms the analyzed words of Name, Trigger, ActionBias and Text
	// (what matching ranks by).
	Text  string   `json:"-"`
	Terms []string `json:"-"`
	// Hash is the note's content hash.
	Hash     string    `json:"-"`
	Problems []Problem `json:"problems,omitempty"`
}

// Problem is one thing wrong in a lesson note's frontmatter.
type Problem struct {
	Key     string `json:"key"`
	Line    int    `json:"line,omitempty"` // 1-based file line; 0 when the key is missing
	Message string `json:"message"`
}

// Read reads lesson note n.
func Read(n *markdown.Note) Lesson {
	l := Lesson{Path: n.Path, Name: n.Name, Strength: DefaultStrength, Confidence: 0.5, Pinned: n.Pinned(), Hash: n.Hash,
		Archived: vault.IsArchived(n), Tags: slices.Clone(n.Tags)}
	l.Proposed = vault.IsProposed(n) && !l.Archived
	if l.Tags == nil {
		l.Tags = []string{}
	}
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
		l.Problems = append(l.Problems, Problem{Key: key, Line: line(key), Message: fmt.Sprintf(format, args...)})
	}
	l.Trigger = n.Frontmatter.Strings(KeyTrigger)
	if len(l.Trigger) == 0 {
		problem(KeyTrigger, "no trigger: a lesson needs one (words, tool:NAME or a path glob) to be matched")
	}
	l.ActionBias, _ = n.Frontmatter.String(KeyActionBias)
	l.ActionBias = strings.TrimSpace(l.ActionBias)
	l.Domain, _ = n.Frontmatter.String(KeyDomain)
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
	unit(KeyStrength, &l.Strength)
	unit(KeyConfidence, &l.Confidence)
	if n.Frontmatter.Value(KeyApplications) != nil {
		s, _ := n.Frontmatter.String(KeyApplications)
		if c, err := strconv.Atoi(strings.TrimSpace(s)); err == nil && c >= 0 {
			l.Applications = c
		} else {
			problem(KeyApplications, "%s %q is not a count", KeyApplications, s)
		}
	}
	l.LastApplied, _ = n.Frontmatter.String(KeyLastApplied)
	l.LastApplied = strings.TrimSpace(l.LastApplied)
	if l.Trigger == nil {
		l.Trigger = []string{}
	}
	l.Text = TextOf(n)
	if len(l.Text) > TextLen {
		l.Text = text.Shorten(l.Text, TextLen)
	}
	l.Terms = strings.Fields(text.Analyzed(strings.Join([]string{l.Name, strings.Join(l.Trigger, " "), l.ActionBias, l.Text}, " ")))
	return l
}

// TextOf is the body of lesson note n without its History section: what
// the lesson says, for matching.
func TextOf(n *markdown.Note) string { return markdown.WithoutSection(n, HistoryHeading) }
