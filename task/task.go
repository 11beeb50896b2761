// Package task keeps a focus-driven task tree as notes: one note per task
// (type: task) with its status, priority, parent and dependencies in
// frontmatter and an append-only log of events (decision, note, blocker,
// milestone) under "## Log"; one focused task per agent, in a small state
// file each; and the context an agent loads for its focus task T (T's
// ancestors, its siblings and its own events, finished side branches
// pruned), whose cost grows with the tree's depth, not its size.
//
// Every write goes through the vault's Writer, compare-before-write: a
// human's edit saved meanwhile is never lost (an append is retried on the
// new content). The tree's links are read from the index (parent and
// depends_on are frontmatter wikilinks); each write refreshes the index
// for the notes it wrote, so the next call sees them.
//
// The package owns the task note's kind: its type (Type), what the index
// keeps of it (Task, Read), its log's format (Event, FormatEvent, Events)
// and how git merges it (MergeRules). It imports markdown, vault, text and redact;
// the index answers it through the small Index interface it declares.
package task

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/vaultmem/vaultmem/vault"
)

// The statuses of a task.
const (
	Todo    = "todo"
	Doing   = "doing"
	Done    = "done"
	Blocked = "blocked"
)

// Statuses are the statuses a task may have.
var Statuses = []string{Todo, Doing, Done, Blocked}

// Priorities a task may have, most urgent first.
var Priorities = []string{"high", "medium", "low"}

// DefaultPriority is a new task's priority when none is given.
const DefaultPriority = "medium"

// Errors; the typed errors below match them with errors.Is.
var (
	// ErrInvalid: an argument is not acceptable (an unknown priority or
	// event type, an empty title or event). Matched by *InvalidError.
	ErrInvalid = errors.New("task: invalid argument")
	// ErrNotTask: the note named is not a task.
	ErrNotTask = errors.New("task: not a task")
	// ErrNoFocus: the agent has no focused task and none was named.
	ErrNoFocus = errors.New("task: no focused task")
	// ErrState: the task's state forbids the change (starting a task that
	// is done, finishing one with open children, one another agent holds).
	// Matched by *StateError.
	ErrState = errors.New("task: refused by the task's state")
)

// InvalidError says which argument is wrong and why.
type InvalidError struct {
	Field, Reason string
}

func (e *InvalidError) Error() string { return e.Field + " " + e.Reason }

// Is makes errors.Is(err, ErrInvalid) true.
func (e *InvalidError) Is(target error) bool { return target == ErrInvalid }

// StateError says why a task's state refuses a change. Holder is the agent
// holding the task when that is why; Open the children not done.
type StateError struct {
	Path, Reason string
	Holder       string
	Open         []string
}

func (e *StateError) Error() string { return e.Path + ": " + e.Reason }

// Is makes errors.Is(err, ErrState) true.
func (e *StateError) Is(target error) bool { return target == ErrState }

// checkPriority returns p lower-cased, DefaultPriority for "", or an
// *InvalidError.
func checkPriority(p string) (string, error) {
	p = strings.ToLower(strings.TrimSpace(p))
	if p == "" {
		return DefaultPriority, nil
	}
	if !slices.Contains(Priorities, p) {
		return "", &InvalidError{"priority", fmt.Sprintf("must be one of %s; got %q", strings.Join(Priorities, ", "), p)}
	}
	return p, nil
}

// checkEvent validates an event's type and text.
func checkEvent(typ, text string) error {
	if !IsEventType(typ) {
		return &InvalidError{"event type", fmt.Sprintf("must be one of %s; got %q", strings.Join(EventTypes, ", "), typ)}
	}
	if strings.TrimSpace(text) == "" {
		return &InvalidError{"event text", "must not be empty"}
	}
	return nil
}

// priorityRank orders priorities, most urgent first; unknown ones last.
func priorityRank(p string) int {
	if i := slices.Index(Priorities, p); i >= 0 {
		return i
	}
	return len(Priorities)
}

// fileName is the file name (without ".md") of a task titled title.
func fileName(title string) (string, error) {
	name, err := vault.FileName(title)
	if err != nil {
		return "", &InvalidError{"title", err.Error()}
	}
	return name, nil
}
