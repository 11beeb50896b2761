package lesson

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/vaultmem/vaultmem/markdown"
)

// A lesson's version counts the edits of its rule: its trigger and action
// bias. A person edits them in Obsidian (or an agent with write_note); the
// fast path, which holds the lessons as they were, notices the change when
// it reloads them (see Matcher.TakeEdits), and the Store records it
// (Store.RecordEdits): version + 1, and a History line keeping the old
// rule, "version 2: rule edited; was trigger ["integration tests"],
// action_bias "run make migrate"". The write is the Writer's
// compare-before-write, and the line is the record: a process that
// noticed the same edit finds its old rule already recorded in the last
// version line and writes nothing, so that two processes (a watch and an
// MCP server) version an edit once.

// versionWord starts a History line that records a new version.
const versionWord = "version "

// RuleEdit is a change of a lesson's rule the fast path noticed: the
// lesson's path and its rule before the change.
type RuleEdit struct {
	Path       string
	Trigger    []string
	ActionBias string
}

// sameRule reports whether a and b have the same rule.
func sameRule(a, b Lesson) bool {
	return slices.Equal(a.Trigger, b.Trigger) && a.ActionBias == b.ActionBias
}

// ruleEdits are the lessons of now whose rule differs from the lesson at
// their path in before; none when before is empty (nothing was loaded).
func ruleEdits(before, now []Lesson) []RuleEdit {
	if len(before) == 0 {
		return nil
	}
	old := make(map[string]*Lesson, len(before))
	for i := range before {
		old[before[i].Path] = &before[i]
	}
	var out []RuleEdit
	for _, l := range now {
		if o := old[l.Path]; o != nil && !sameRule(*o, l) {
			out = append(out, RuleEdit{Path: l.Path, Trigger: o.Trigger, ActionBias: o.ActionBias})
		}
	}
	return out
}

// ruleText is a rule as a version line keeps it.
func ruleText(trigger []string, actionBias string) string {
	qs := make([]string, len(trigger))
	for i, t := range trigger {
		qs[i] = strconv.Quote(t)
	}
	return fmt.Sprintf("trigger [%s], action_bias %q", strings.Join(qs, ", "), actionBias)
}

// TakeEdits returns the rule edits the Matcher noticed in its reloads
// since the last call, and forgets them.
func (m *Matcher) TakeEdits() []RuleEdit {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := m.edits
	m.edits = nil
	return out
}

// loaded reports whether the Matcher has loaded the lessons once: only
// then can it tell an edit.
func (m *Matcher) loaded() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.last != nil
}

// Versioned is a rule edit recorded: the lesson and its new version.
type Versioned struct {
	Path    string `json:"path"`
	Version int    `json:"version"`
	History string `json:"history"`
}

// RecordEdits records the rule edits the fast path noticed (see above):
// when it has loaded the lessons before, it reloads them if the index
// changed, and gives each lesson whose rule changed its next version and
// a History line with the old rule. Errors: the index's and the writer's
// (the edits not recorded are noticed again at no later reload: the
// lesson then keeps its version).
func (s *Store) RecordEdits(ctx context.Context) ([]Versioned, error) {
	if !s.m.loaded() {
		return nil, nil
	}
	if _, err := s.m.lessons(ctx); err != nil {
		return nil, err
	}
	var out []Versioned
	for _, e := range s.m.TakeEdits() {
		v, ok, err := s.recordEdit(ctx, e)
		if err != nil {
			return out, fmt.Errorf("record the edit of %s: %w", e.Path, err)
		}
		if ok {
			out = append(out, v)
		}
	}
	return out, nil
}

// recordEdit writes edit e into its lesson, unless its rule is back to the
// old one or its last version line records e already.
func (s *Store) recordEdit(ctx context.Context, e RuleEdit) (Versioned, bool, error) {
	at := s.now()
	was := ruleText(e.Trigger, e.ActionBias)
	var out Versioned
	err := s.update(ctx, e.Path, func(n *markdown.Note) ([]byte, error) {
		out = Versioned{}
		l := Read(n)
		if sameRule(l, Lesson{Trigger: e.Trigger, ActionBias: e.ActionBias}) {
			return n.Content, nil
		}
		if last, ok := lastVersionLine(n); ok && strings.HasSuffix(last, "was "+was) {
			return n.Content, nil
		}
		version := noteVersion(n) + 1
		out = Versioned{Path: e.Path, Version: version,
			History: historyLine(at, fmt.Sprintf("%s%d: rule edited; was %s", versionWord, version, was), "")}
		next, err := markdown.SetFrontmatterKeys(e.Path, n.Content, KeyVersion, version)
		if err != nil {
			return nil, err
		}
		return markdown.AppendToSection(next, HistoryHeading, out.History), nil
	})
	if err != nil || out.Path == "" {
		return out, false, err
	}
	return out, true, s.refresh(ctx, e.Path)
}

// noteVersion is lesson note n's version: 1 when it has none, or none
// that is a positive whole number.
func noteVersion(n *markdown.Note) int {
	s, _ := n.Frontmatter.String(KeyVersion)
	if v, err := strconv.Atoi(strings.TrimSpace(s)); err == nil && v > 0 {
		return v
	}
	return 1
}

// lastVersionLine is the text of the last History line of n that records
// a version (without its "- " and time).
func lastVersionLine(n *markdown.Note) (string, bool) {
	sec, ok := markdown.Section(n, HistoryHeading)
	if !ok {
		return "", false
	}
	last, found := "", false
	for line := range strings.Lines(sec) {
		rest, ok := strings.CutPrefix(strings.TrimRight(line, "\r\n"), "- ")
		if !ok || len(rest) <= len(HistoryTimeLayout) {
			continue
		}
		if what := strings.TrimSpace(rest[len(HistoryTimeLayout):]); strings.HasPrefix(what, versionWord) {
			last, found = what, true
		}
	}
	return last, found
}
