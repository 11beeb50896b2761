package task

import (
	"strings"

	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/text"
)

// Type is the frontmatter type of a task note.
const Type = "task"

// Task is a task note as the index holds it: its frontmatter as read
// (see Read), and what a context shows of it.
type Task struct {
	Path string `json:"path"`
	// Name is the frontmatter name, else the note's title.
	Name string `json:"name"`
	// Status and Priority are as written, lower-cased; a task without them
	// is "todo" and "medium".
	Status   string `json:"status"`
	Priority string `json:"priority"`
	Assignee string `json:"assignee,omitempty"`
	Created  string `json:"created,omitempty"`
	Started  string `json:"started,omitempty"`
	Finished string `json:"finished,omitempty"`
	// Summary is the start of the task's description (its body before the
	// log), at most SummaryLen bytes; Milestone the text of its last
	// milestone event; Events how many events its log holds.
	Summary   string `json:"summary,omitempty"`
	Milestone string `json:"milestone,omitempty"`
	Events    int    `json:"events"`
	// Hash is the note's content hash as indexed.
	Hash string `json:"-"`
}

// Link is one of a task's frontmatter links under parent or depends_on.
type Link struct {
	// Source is the task linking.
	Source string `json:"source"`
	// Field is the frontmatter key: ParentField or DependsOnField.
	Field string `json:"field"`
	// Target is the linked note's path when Resolved, else the link as
	// written.
	Target   string `json:"target"`
	Resolved bool   `json:"resolved"`
	// Line is the link's line in the source.
	Line int `json:"line"`
}

// The frontmatter keys of a task's links.
const (
	ParentField    = "parent"
	DependsOnField = "depends_on"
)

// SummaryLen bounds Task.Summary and Task.Milestone, in bytes.
const SummaryLen = 300

// Read returns what the index keeps of task note n (Path and Hash
// included).
func Read(n *markdown.Note) Task {
	str := func(k string) string {
		s, _ := n.Frontmatter.String(k)
		return strings.TrimSpace(s)
	}
	t := Task{Path: n.Path, Name: str("name"), Status: strings.ToLower(str("status")), Priority: strings.ToLower(str("priority")),
		Assignee: str("assignee"), Created: str("created"), Started: str("started"), Finished: str("finished"), Hash: n.Hash}
	if t.Name == "" {
		t.Name = n.Title()
	}
	if t.Status == "" {
		t.Status = "todo"
	}
	if t.Priority == "" {
		t.Priority = "medium"
	}
	events := Events(n)
	for _, e := range events {
		if e.Type == "milestone" {
			t.Milestone = e.Text
		}
	}
	t.Summary, t.Milestone, t.Events = text.Shorten(Description(n), SummaryLen), text.Shorten(t.Milestone, SummaryLen), len(events)
	return t
}

// MergeRules are how git's merge driver combines two machines' changes to
// a task note (see markdown.MergeRules): the log is append-only; a claim
// both sides made for different agents (two clones started the task) is
// settled to one of them, the same whichever side merges (see
// ClaimWinner), and the loser's claim is logged.
var MergeRules = markdown.MergeRules{AppendOnly: []string{LogHeading}, Later: []string{"started", "finished", "updated"},
	Earlier: []string{"created"}, Settle: []func(base, ours, theirs *markdown.Note) markdown.Settlement{settleClaim}}
