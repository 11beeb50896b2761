package hookpolicy

import (
	"context"
	"fmt"
	"io/fs"

	"github.com/vaultmem/vaultmem/config"
	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/recall"
	"github.com/vaultmem/vaultmem/task"
	"github.com/vaultmem/vaultmem/vault"
)

// Policy is what vaultmem does at each event of an agent's session, over
// the parts of one opened vault. Every field must be set; the parts are
// used as they are at each call (an index attached late is seen). A
// Policy is safe for concurrent use when its parts are: two events of
// one session are kept apart by the state storage's lock and the session
// note's.
type Policy struct {
	// Settings are what of the vault's config the policy reads.
	Settings Settings
	// Vault is the vault: the session note's lock, the session notes'
	// folder, the times of the sessions' state files, the paths a tool
	// call names inside it.
	Vault *vault.Vault
	// States keeps each session's state (package session); Notes writes
	// the session notes. Both are the vault's one Writer.
	States States
	Notes  NoteWriter
	// Index is the few calls the policy makes of the index itself.
	Index Index
	// Sync brings the index up to date (a session's start reads it
	// whole).
	Sync Syncer
	// Recall finds what the vault holds for a prompt.
	Recall Recaller
	// Tasks is the task tree: an agent's focus, a task's context, its log.
	Tasks Tasks
	// Memory is the memories and MEMORY.md.
	Memory Memory
	// Lessons are the lessons: those for a tool call, those needing
	// review, their outcomes.
	Lessons Lessons
}

// Settings are what of the vault's config the policy reads; the
// application gives them as the config loaded them (checked then).
type Settings struct {
	// Hooks is the config's hooks section: the budgets, the coverage a
	// recalled passage needs, how many lessons, how much of a prompt is
	// kept.
	Hooks config.HooksConfig
	// Rules are the lessons' rules (which strength is flagged for
	// review).
	Rules lesson.Rules
	// SessionsFolder is the session notes' folder (folders.sessions).
	SessionsFolder string
}

// States keeps the state files of the sessions (vault.Writer's state
// files, under the state folder): read, changed under a lock, listed,
// removed. Errors: vault.ErrNotFound for a file that is not there.
type States interface {
	ReadState(name string) ([]byte, string, error)
	UpdateState(ctx context.Context, name string, fn func(current []byte) ([]byte, error)) (hash string, err error)
	ListState(dir string) ([]string, error)
	RemoveState(ctx context.Context, name, expected string) error
}

// NoteWriter writes a note at a vault path if it is still as expected
// (its hash; "" for a new note), as vault.Writer.Write does: a
// *vault.ConflictError when it is not.
type NoteWriter interface {
	Write(ctx context.Context, p string, content []byte, expected string) (hash string, err error)
}

// Index is what the policy asks of the index itself: the notes Dream
// proposed, a note just written made known, the titles of notes.
type Index interface {
	Proposed(ctx context.Context) ([]memory.Proposal, error)
	Refresh(ctx context.Context, fsys fs.FS, paths ...string) error
	List(ctx context.Context, q index.Query) ([]index.NoteInfo, error)
}

// Syncer brings the index up to date with the vault before a read of it.
type Syncer interface {
	Fresh(ctx context.Context) error
}

// RecallQuery is what the policy asks recall for a prompt.
type RecallQuery struct {
	Query  string
	Budget int
	// Agent is whose focused task it is; NoFocus leaves the task's
	// context out (the session was given it at its start).
	Agent   string
	NoFocus bool
	// Hide are the vault paths of notes not to give.
	Hide []string
	// Given and Recent are the session's working memory: what it was
	// given (recall.ItemKey keys), not given again, and the notes it just
	// wrote, ranked a little higher (see recall.Request).
	Given, Recent []string
}

// Recaller answers a prompt with what the vault holds for it, within a
// budget, on an index brought up to date. Errors: recall.ErrEmptyQuery
// (wrapped or not) for a prompt with no word to search for.
type Recaller interface {
	Recall(ctx context.Context, q RecallQuery) (*recall.Result, error)
}

// Tasks is the task tree as the policy uses it (task.Store's methods): an
// agent's focus, a task's context within a budget, a note in a task's
// log.
type Tasks interface {
	Focus(ctx context.Context, agent string) (task.Focus, error)
	Context(ctx context.Context, agent, ref string, budget int) (task.Context, error)
	Event(ctx context.Context, agent, ref, typ, text string) (task.Logged, error)
}

// Memory is the memories as the policy uses them (memory.Store's
// methods): a person's own and a teammate's, MEMORY.md's text and path,
// the contradictions Dream found that still stand.
type Memory interface {
	Personal(ctx context.Context) (mine []memory.Entry, theirs map[string]bool, shared bool, err error)
	ListText() (string, error)
	ListFile() string
	Standing(ctx context.Context) ([]memory.Flag, error)
}

// Lessons are the lessons: Match gives those for a situation (as the
// application matches them for every front end); Open the store that
// lists those needing review and logs outcomes, and its error when it
// cannot be opened.
type Lessons interface {
	Match(ctx context.Context, s lesson.Situation, k int) (lesson.Result, error)
	Open() (LessonStore, error)
}

// LessonStore is what the policy asks of the lesson store (lesson.Store's
// methods): the lessons needing review, a lesson's outcome logged.
type LessonStore interface {
	Review(ctx context.Context, all bool) ([]lesson.Review, error)
	Outcome(ctx context.Context, o lesson.Outcome) (lesson.Applied, error)
}

// Answer answers one event of an agent's session: at its start,
// MEMORY.md, the focused task's context and what needs review (and after
// a compaction, the checkpoint taken before it); with a prompt, what
// recall finds for it that the session was not given yet; before a tool
// call, the lessons for it; after it, the outcome of each lesson shown;
// before a compaction, a checkpoint on the focused task; at each stop, the
// session note. The session's state is kept under the state folder (see
// package session). ev must name its session, its time and a valid agent
// id (the caller checks them). Errors: ErrUnknownKind for a kind Answer
// does not know; the parts'.
func (h *Policy) Answer(ctx context.Context, ev Event) (Answer, error) {
	switch ev.Kind {
	case SessionStart:
		return h.sessionStart(ctx, ev)
	case Prompt:
		return h.promptContext(ctx, ev)
	case BeforeTool:
		return h.toolLessons(ctx, ev)
	case AfterTool:
		return Answer{}, h.toolOutcome(ctx, ev)
	case Compact:
		return Answer{}, h.checkpoint(ctx, ev)
	case Compacted:
		return Answer{}, h.compacted(ctx, ev)
	case Stop, SubagentStop, SessionEnd:
		return h.stop(ctx, ev)
	}
	return Answer{}, fmt.Errorf("hook: %w %q", ErrUnknownKind, ev.Kind)
}
