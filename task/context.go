package task

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/vaultmem/vaultmem/text"
)

// DefaultBudget is a context's token budget when none is given.
const DefaultBudget = 2000

// MaxBudget bounds a context's token budget.
const MaxBudget = 100_000

// maxDepth bounds the walk up a task's ancestors (a parent cycle written
// by hand must not make it endless).
const maxDepth = 256

// Summary is a task as a context shows it.
type Summary struct {
	Path     string `json:"path"`
	Name     string `json:"name"`
	Status   string `json:"status"`
	Priority string `json:"priority,omitempty"`
	Assignee string `json:"assignee,omitempty"`
	// Description is the task's own description in full (the task of the
	// context), or the start of it (an ancestor's).
	Description string `json:"description,omitempty"`
	// Milestone is a sibling's last milestone.
	Milestone string `json:"milestone,omitempty"`
}

// Context is what an agent loads for one task T, within a token budget:
// T's ancestors, its siblings and its own events.
type Context struct {
	Agent string  `json:"agent,omitempty"`
	Task  Summary `json:"task"`
	// Ancestors run from the root to T's parent.
	Ancestors []Summary `json:"ancestors"`
	// Siblings are the other children of T's parent that are not done.
	Siblings []Summary `json:"siblings"`
	Children []Summary `json:"children"`
	// Events are the events of T's log kept, oldest first.
	Events []Event `json:"events"`
	// Context is all of it as markdown, ready to load.
	Context    string `json:"context"`
	UsedTokens int    `json:"used_tokens"`
	Budget     int    `json:"budget"`
	// Truncated is true when something was cut to fit the budget; Cut
	// says what.
	Truncated bool     `json:"truncated"`
	Cut       []string `json:"cut,omitempty"`
	// Pruned counts the finished siblings left out.
	Pruned int `json:"pruned"`
	// Notice says, for the context of the agent's focus, that another
	// agent holds the task (see Focus.Notice).
	Notice string `json:"notice,omitempty"`
}

// Context builds the context of the task ref names (agent's focus when ref
// is ""): T with its description, its ancestors (name and the start of
// their description), its siblings that are not done (name, status, last
// milestone), its children's status, and its log's events in full, within
// budget tokens (0 means DefaultBudget). When the budget is short, the
// oldest events go first, then siblings and children beyond their share;
// what was cut is said in the context and in Cut. Its cost grows with the
// task's depth, its siblings and its events, never with the number of
// tasks in the vault.
func (s *Store) Context(ctx context.Context, agent, ref string, budget int) (Context, error) {
	switch {
	case budget == 0:
		budget = DefaultBudget
	case budget < 0 || budget > MaxBudget:
		return Context{}, &InvalidError{"budget", fmt.Sprintf("must be from 1 to %d tokens; got %d", MaxBudget, budget)}
	}
	p, err := s.target(ctx, agent, ref)
	if err != nil {
		return Context{}, err
	}
	n, err := s.read(p)
	if err != nil {
		return Context{}, err
	}
	out := Context{Agent: agent, Budget: budget, Ancestors: []Summary{}, Siblings: []Summary{}, Children: []Summary{}, Events: []Event{},
		Task: Summary{Path: p, Name: name(n), Status: status(n), Priority: strings.ToLower(field(n, "priority")), Assignee: field(n, "assignee"),
			Description: Description(n)}}

	// Ancestors, nearest first while walking up.
	var up []Summary
	seen := map[string]bool{p: true}
	parent := ""
	for cur := p; len(up) < maxDepth; {
		next, err := s.parent(ctx, cur)
		if err != nil {
			return Context{}, err
		}
		if next == "" || seen[next] {
			break
		}
		seen[next] = true
		if cur == p {
			parent = next
		}
		t, _, err := s.ix.Task(ctx, next)
		if err != nil {
			return Context{}, err
		}
		up = append(up, summaryOf(t, t.Summary, ""))
		cur = next
	}
	kids, err := s.ix.Children(ctx, p)
	if err != nil {
		return Context{}, err
	}
	var sibs []Task
	if parent != "" {
		if sibs, err = s.ix.Children(ctx, parent); err != nil {
			return Context{}, err
		}
	}
	b := &builder{budget: budget}
	b.line(fmt.Sprintf("# Task: %s (%s, %s) — %s", out.Task.Name, out.Task.Status, orNone(out.Task.Priority), p))
	if out.Task.Assignee != "" {
		b.line("Held by agent " + out.Task.Assignee + ".")
	}
	if ref == "" {
		if f, err := s.Focus(ctx, agent); err == nil && f.Notice != "" {
			out.Notice = f.Notice
			b.line("**Not yours:** " + f.Notice + ".")
		}
	}
	if d := out.Task.Description; d != "" {
		kept := b.text(d, budget/4)
		if kept != d {
			out.Cut = append(out.Cut, "the end of the task's description")
		}
		out.Task.Description = kept
	}

	if len(up) > 0 {
		// Nearest first while room lasts, shown root first.
		var lines []string
		share := b.left() / 4
		for i, a := range up {
			l := fmt.Sprintf("%s- %s (%s) — %s", strings.Repeat("  ", len(up)-1-i), a.Name, a.Status, a.Path)
			if a.Description != "" {
				l += ": " + a.Description
			}
			if text.EstimateTokens(l)+1 > share && i > 0 {
				out.Cut = append(out.Cut, fmt.Sprintf("%d ancestors nearest the root", len(up)-i))
				break
			}
			share -= text.EstimateTokens(l) + 1
			lines = append(lines, l)
			out.Ancestors = append(out.Ancestors, a)
		}
		slices.Reverse(lines)
		slices.Reverse(out.Ancestors)
		b.line("\n## Ancestors (root first)")
		for _, l := range lines {
			b.line(l)
		}
	}

	if len(kids) > 0 {
		b.line("\n## Children")
		share := b.left() / 4
		for i, k := range kids {
			l := fmt.Sprintf("- %s (%s) — %s", k.Name, k.Status, k.Path)
			if !b.fits(l, &share) {
				b.line(fmt.Sprintf("- … %d more children cut to fit the budget", len(kids)-i))
				out.Cut = append(out.Cut, fmt.Sprintf("%d children", len(kids)-i))
				break
			}
			b.line(l)
			out.Children = append(out.Children, summaryOf(k, "", ""))
		}
	}

	var open []Task
	for _, sib := range sibs {
		switch {
		case sib.Path == p:
		case sib.Status == Done:
			out.Pruned++
		default:
			open = append(open, sib)
		}
	}
	if len(open) > 0 || out.Pruned > 0 {
		b.line("\n## Siblings")
		share := b.left() / 3
		for i, sib := range open {
			l := fmt.Sprintf("- %s (%s) — %s", sib.Name, sib.Status, sib.Path)
			if sib.Milestone != "" {
				l += "; last milestone: " + sib.Milestone
			}
			if !b.fits(l, &share) {
				b.line(fmt.Sprintf("- … %d more siblings cut to fit the budget", len(open)-i))
				out.Cut = append(out.Cut, fmt.Sprintf("%d siblings", len(open)-i))
				break
			}
			b.line(l)
			out.Siblings = append(out.Siblings, summaryOf(sib, "", sib.Milestone))
		}
		if out.Pruned > 0 {
			b.line(fmt.Sprintf("- (%d finished siblings not shown)", out.Pruned))
		}
	}

	events := Events(n)
	if len(events) > 0 {
		b.line(fmt.Sprintf("\n## Log (%d events)", len(events)))
		// Newest first while they fit, keeping room for the marker.
		room := b.left() - 20
		keep := len(events)
		for keep > 0 {
			t := text.EstimateTokens(eventLine(events[keep-1])) + 1
			if t > room {
				break
			}
			room -= t
			keep--
		}
		if keep > 0 {
			b.line(fmt.Sprintf("- [%d older events cut to fit the budget of %d tokens]", keep, budget))
			out.Cut = append(out.Cut, fmt.Sprintf("the %d oldest events", keep))
		}
		for _, e := range events[keep:] {
			b.line(eventLine(e))
		}
		out.Events = append(out.Events, events[keep:]...)
	}
	out.Context = b.String()
	out.UsedTokens = text.EstimateTokens(out.Context)
	out.Truncated = len(out.Cut) > 0
	return out, nil
}

func orNone(s string) string {
	if s == "" {
		return "no priority"
	}
	return s
}

func summaryOf(t Task, description, milestone string) Summary {
	return Summary{Path: t.Path, Name: t.Name, Status: t.Status, Priority: t.Priority, Assignee: t.Assignee, Description: description, Milestone: milestone}
}

// eventLine is an event as the context shows it: its log line, with its
// later lines indented.
func eventLine(e Event) string {
	head := e.Text
	if e.Type != "" {
		head = e.Time + " " + e.Type + ": " + e.Text
	}
	return "- " + strings.ReplaceAll(head, "\n", "\n  ")
}

// builder writes a context, counting its tokens against a budget.
type builder struct {
	strings.Builder
	budget, used int
}

// line adds l and a line break.
func (b *builder) line(l string) {
	b.WriteString(l)
	b.WriteByte('\n')
	b.used += text.EstimateTokens(l) + 1
}

// left is how many tokens the budget has left.
func (b *builder) left() int { return max(0, b.budget-b.used) }

// fits reports whether l fits in share (and takes it from share).
func (b *builder) fits(l string, share *int) bool {
	t := text.EstimateTokens(l) + 1
	if t > *share {
		return false
	}
	*share -= t
	return true
}

// text adds s as a paragraph, cut at a word boundary to at most max
// tokens (with a marker), and returns what was kept.
func (b *builder) text(s string, max int) string {
	if text.EstimateTokens(s) > max {
		words := strings.Fields(s)
		lo, hi := 0, len(words)
		for lo < hi { // the most words that fit
			mid := (lo + hi + 1) / 2
			if text.EstimateTokens(strings.Join(words[:mid], " ")) <= max {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		s = strings.Join(words[:lo], " ") + " … [description cut to fit the budget]"
	}
	b.line("")
	b.line(s)
	return s
}

// FocusContext is the context of agent's focused task for a recall of
// recallBudget tokens (0: the recall's route decides): what recall puts
// first for an agent at work on a task, in a quarter of the budget (250
// tokens when it is 0). ok is false when the agent has no focus.
func (s *Store) FocusContext(ctx context.Context, agent string, recallBudget int) (c Context, ok bool, err error) {
	f, err := s.Focus(ctx, agent)
	if err != nil || f.Task == "" {
		return Context{}, false, err
	}
	budget := recallBudget / 4
	if budget <= 0 {
		budget = 250
	}
	c, err = s.Context(ctx, agent, f.Task, budget)
	return c, err == nil, err
}
