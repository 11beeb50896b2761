package app

import (
	"context"
	"fmt"
	"slices"

	"github.com/vaultmem/vaultmem/frame"
	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/task"
	"github.com/vaultmem/vaultmem/vault"
)

// The task use cases: every change and read of the task tree the CLI's
// task commands and the MCP server's task tools make, each once, so that
// the two front ends differ only in how they print. One policy holds for
// all of them:
//
//   - Freshness: the index is brought up to date first (as every read is,
//     see fresh), since a task is named, its tree built and its focus found
//     through the index; NoSync skips that for a front end that synced
//     itself just before (the MCP server, which reports a failed sync as a
//     warning and answers from the index as it was), and only an index no
//     sync has ever filled is refused.
//   - Names: a task is named by its vault path or its note's name, resolved
//     as a [[wikilink]] is (task.Store.Resolve), the same for both.
//   - Agent: the request's Agent is the one the front end chose by app's one
//     rule (Config.Agent, AgentIn); "" is task.DefaultAgent.
//
// Errors keep the task package's, which ClassOf classes: task.ErrInvalid
// is Invalid, task.ErrState a Conflict.

// The task package's results, as the use cases return them: a front end
// prints them without importing task.
type (
	// TaskAdded is what Tasks.Add and Tasks.Spawn wrote.
	TaskAdded = task.Added
	// TaskStarted is what Tasks.Start did.
	TaskStarted = task.Started
	// TaskFinished is what Tasks.Finish did.
	TaskFinished = task.Finished
	// TaskLogged is the event Tasks.Log or Tasks.Block appended.
	TaskLogged = task.Logged
	// TaskFocus is an agent's focused task, and who holds it now.
	TaskFocus = task.Focus
	// TaskNode is a task of the tree Tasks.Tree returns, with its children.
	TaskNode = task.Node
	// TaskReady is a task that can be worked on now, and why it comes where
	// it does.
	TaskReady = task.Ready
	// TaskContextResult is a task's context, as Tasks.Context gives it.
	TaskContextResult = task.Context
	// Problem is what is wrong in a note, naming its file and line (a
	// task tree's problems, in TaskNode.Problems and CanvasAnswer).
	Problem = markdown.Problem
)

// Bounds and names of tasks a front end states in its help and schemas.
const (
	// TaskDefaultBudget is Tasks.Context's budget, in tokens, when none is
	// asked for.
	TaskDefaultBudget = task.DefaultBudget
	// TaskMaxBudget is the largest budget Tasks.Context takes.
	TaskMaxBudget = task.MaxBudget
	// MaxLimit is the most items one page may hold (ReadyRequest.Limit).
	MaxLimit = index.MaxLimit
	// CanvasExt is the extension of a JSON Canvas file (Tasks.Canvas's).
	CanvasExt = vault.CanvasExt
)

// TaskPriorities returns the priorities a task may have, most urgent
// first (a copy: the caller may keep it).
func TaskPriorities() []string { return slices.Clone(task.Priorities) }

// TaskEventTypes returns the types of event a task's log holds (a copy).
func TaskEventTypes() []string { return slices.Clone(task.EventTypes) }

// AgentID makes an agent id of any name (an MCP client's, "Claude
// Code"): the runs of characters an id cannot hold become '-';
// task.DefaultAgent when nothing is left. What a front end passes as
// Config.Agent's fallback.
func AgentID(name string) string { return task.AgentID(name) }

// CheckAgent refuses id when it is no agent id (each part 1-64 letters,
// digits, '.', '_', '@' or '-', starting with a letter or digit; parts
// joined by '/' for a subagent, at most 8 deep): a
// *task.InvalidError, matching task.ErrInvalid (class Invalid). What
// Config.Agent checks of the id it chooses, for a front end that takes
// one ahead of any call.
func CheckAgent(id string) error { return task.CheckAgent(id) }

// FrameTaskContext is c's context text in the frame every text vaultmem
// hands an agent wears (package frame), under preamble, marked as a
// task's and naming its path: what an agent reads of Tasks.Context.
func FrameTaskContext(preamble string, c TaskContextResult) string {
	return frame.Frame(preamble, frame.Item{Source: frame.SourceTask, Path: c.Task.Path, Text: c.Context})
}

// Tasks are the task use cases of one App (see above): every change and
// read of the task tree, each once. Get them with App.Tasks.
type Tasks struct{ a *App }

// Tasks returns a's task use cases.
func (a *App) Tasks() Tasks { return Tasks{a} }

// store returns the task store over an index made current by the task
// use cases' policy (see above): synced first unless noSync, and refused
// when no sync ever filled it.
func (t Tasks) store(ctx context.Context, noSync bool) (*task.Store, error) {
	a := t.a
	var err error
	if noSync {
		err = a.RequireBuilt(ctx)
	} else {
		err = a.fresh(ctx, false)
	}
	if err != nil {
		return nil, err
	}
	return a.taskStore(), nil
}

// agentOr is agent, or task.DefaultAgent when none is named.
func agentOr(agent string) string {
	if agent == "" {
		return task.DefaultAgent
	}
	return agent
}

// NewTaskRequest is a task to add (AddTask), or a subtask of the
// agent's focused task to add and start (SpawnTask).
type NewTaskRequest struct {
	// Agent is whose focused task the new one goes under (SpawnTask
	// only: adding one changes no focus).
	Agent string `json:"agent,omitempty"`
	// Title is the task in one line, also its note's name.
	Title string `json:"title"`
	// Parent names the parent task ("" for a root task); SpawnTask
	// refuses one (the parent is the focused task).
	Parent string `json:"parent,omitempty"`
	// Priority is high, medium or low ("" means medium).
	Priority string `json:"priority,omitempty"`
	// DependsOn names the tasks it waits for.
	DependsOn []string `json:"depends_on,omitempty"`
	// Description is the note's body before its log (markdown).
	Description string `json:"description,omitempty"`
	// NoSync: the caller brought the index up to date itself.
	NoSync bool `json:"no_sync,omitempty"`
}

// asNew is the task.New req asks for.
func (req NewTaskRequest) asNew() task.New {
	return task.New{Title: req.Title, Parent: req.Parent, Priority: req.Priority, DependsOn: req.DependsOn, Description: req.Description}
}

// Add writes a new task note, status todo, under req's parent (a
// root task when none), waiting for req's dependencies; no focus changes.
// Syncs first unless req.NoSync. Errors: task.ErrInvalid (a title that is
// empty or more than one line, an unknown priority); vault.ErrNotFound or
// task.ErrNotTask for a parent or dependency that is no task; the
// index's and the Writer's.
func (t Tasks) Add(ctx context.Context, req NewTaskRequest) (TaskAdded, error) {
	st, err := t.store(ctx, req.NoSync)
	if err != nil {
		return TaskAdded{}, err
	}
	return st.Add(ctx, req.asNew())
}

// Spawn adds a child of req.Agent's focused task and starts it (the
// focus moves to it). Syncs first unless req.NoSync. Errors: task.ErrNoFocus
// when the agent has no focused task; task.ErrInvalid for a Parent given;
// AddTask's and StartTask's.
func (t Tasks) Spawn(ctx context.Context, req NewTaskRequest) (TaskAdded, error) {
	st, err := t.store(ctx, req.NoSync)
	if err != nil {
		return TaskAdded{}, err
	}
	return st.Spawn(ctx, agentOr(req.Agent), req.asNew())
}

// StartTaskRequest names the task an agent starts. In this and the
// requests below, Agent is the agent acting ("" is task.DefaultAgent) and
// NoSync says the caller brought the index up to date itself (see the
// policy above).
type StartTaskRequest struct {
	Agent string `json:"agent,omitempty"`
	// Task names the task: its path or name.
	Task string `json:"task"`
	// Force takes it over from the agent holding it, or reopens it when
	// done.
	Force  bool `json:"force,omitempty"`
	NoSync bool `json:"no_sync,omitempty"`
}

// Start focuses req.Agent on req.Task and marks it doing, held by the
// agent; of two agents starting one task at once exactly one wins. Syncs
// first unless req.NoSync. Errors: task.ErrState (a Conflict) when another
// agent holds it or it is done, unless req.Force; vault.ErrNotFound or
// task.ErrNotTask for a name that is no task; the index's and the
// Writer's.
func (t Tasks) Start(ctx context.Context, req StartTaskRequest) (TaskStarted, error) {
	st, err := t.store(ctx, req.NoSync)
	if err != nil {
		return TaskStarted{}, err
	}
	return st.Start(ctx, agentOr(req.Agent), req.Task, req.Force)
}

// FinishTaskRequest names the task an agent finishes.
type FinishTaskRequest struct {
	Agent string `json:"agent,omitempty"`
	// Task names the task ("" is the agent's focused task).
	Task string `json:"task,omitempty"`
	// Force finishes it even with children not done.
	Force  bool `json:"force,omitempty"`
	NoSync bool `json:"no_sync,omitempty"`
}

// Finish marks req's task done; when it was the agent's focus, the
// focus moves to its parent. Syncs first unless req.NoSync. Errors:
// task.ErrNoFocus when no task is named and the agent has no focus;
// task.ErrState while children are not done, unless req.Force;
// StartTask's for the name.
func (t Tasks) Finish(ctx context.Context, req FinishTaskRequest) (TaskFinished, error) {
	st, err := t.store(ctx, req.NoSync)
	if err != nil {
		return TaskFinished{}, err
	}
	return st.Done(ctx, agentOr(req.Agent), req.Task, req.Force)
}

// BlockTaskRequest names the task an agent finds blocked, and why.
type BlockTaskRequest struct {
	Agent string `json:"agent,omitempty"`
	// Task names the task ("" is the agent's focused task).
	Task string `json:"task,omitempty"`
	// Reason is what blocks it, logged as a blocker event.
	Reason string `json:"reason"`
	NoSync bool   `json:"no_sync,omitempty"`
}

// Block marks req's task blocked and logs the reason as a blocker
// event (secrets masked). Syncs first unless req.NoSync. Errors:
// task.ErrInvalid for an empty reason; task.ErrNoFocus; StartTask's for
// the name.
func (t Tasks) Block(ctx context.Context, req BlockTaskRequest) (TaskLogged, error) {
	st, err := t.store(ctx, req.NoSync)
	if err != nil {
		return TaskLogged{}, err
	}
	return st.Block(ctx, agentOr(req.Agent), req.Task, req.Reason)
}

// TaskEventRequest is an event to append to a task's log.
type TaskEventRequest struct {
	Agent string `json:"agent,omitempty"`
	// Task names the task ("" is the agent's focused task).
	Task string `json:"task,omitempty"`
	// Type is decision, note, blocker or milestone (TaskEventTypes).
	Type string `json:"type"`
	// Text is the event, a line or a few.
	Text   string `json:"text"`
	NoSync bool   `json:"no_sync,omitempty"`
}

// Log appends req's event to the task's log (secrets masked).
// Syncs first unless req.NoSync. Errors: task.ErrInvalid for an unknown
// type or an empty text; task.ErrNoFocus; StartTask's for the name.
func (t Tasks) Log(ctx context.Context, req TaskEventRequest) (TaskLogged, error) {
	st, err := t.store(ctx, req.NoSync)
	if err != nil {
		return TaskLogged{}, err
	}
	return st.Event(ctx, agentOr(req.Agent), req.Task, req.Type, req.Text)
}

// TaskFocusRequest asks for an agent's focused task.
type TaskFocusRequest struct {
	Agent  string `json:"agent,omitempty"`
	NoSync bool   `json:"no_sync,omitempty"`
}

// Focused returns req.Agent's focused task (a subagent without its
// own reads its parent's), saying when another agent holds it now
// (HeldBy, Notice) and when its focus file names no task (Lost). Syncs
// first unless req.NoSync. Errors: task.ErrInvalid for an agent id that
// is no id; a focus file that cannot be read; the index's.
func (t Tasks) Focused(ctx context.Context, req TaskFocusRequest) (TaskFocus, error) {
	st, err := t.store(ctx, req.NoSync)
	if err != nil {
		return TaskFocus{}, err
	}
	return st.Focus(ctx, agentOr(req.Agent))
}

// TaskTreeRequest asks for the task tree under a task, or the vault's.
type TaskTreeRequest struct {
	// Task names the top task ("" for every tree of the vault).
	Task string `json:"task,omitempty"`
	// All unfolds the branches under finished tasks (else only counted).
	All    bool `json:"all,omitempty"`
	NoSync bool `json:"no_sync,omitempty"`
}

// Tree returns the tree under req.Task, or, for none, a top node
// without a path whose children are the roots; its Problems name what is
// wrong in the tasks shown (cycles, parents and dependencies that are no
// task, unknown statuses), each with its file and line. Syncs first unless
// req.NoSync. Errors: StartTask's for the name; the index's.
func (t Tasks) Tree(ctx context.Context, req TaskTreeRequest) (*TaskNode, error) {
	st, err := t.store(ctx, req.NoSync)
	if err != nil {
		return nil, err
	}
	return st.Tree(ctx, req.Task, req.All)
}

// ReadyRequest asks for a page of the tasks that can be worked on now:
// at most Limit (0: 100; at most MaxLimit) from Offset on, or from
// Cursor, the NextCursor of the page before (an MCP client's way).
type ReadyRequest struct {
	Offset int    `json:"offset,omitempty"`
	Limit  int    `json:"limit,omitempty"`
	Cursor string `json:"cursor,omitempty"`
	NoSync bool   `json:"no_sync,omitempty"`
}

// ReadyPage is a page of the ready tasks and where it lies in the list.
type ReadyPage struct {
	// Tasks are the page's tasks, most urgent first; never nil.
	Tasks []TaskReady `json:"tasks"`
	index.PageInfo
}

// Ready returns the page req asks for of the tasks that can be worked
// on now (todo, every dependency done, no open child), most urgent first:
// by priority, then how many tasks each unblocks, then age. The page is
// checked before the index is touched; then it syncs first unless
// req.NoSync. Errors: index.ErrBadPage (Invalid) for an offset, limit or
// cursor out of bounds, or both an offset and a cursor; the index's.
func (t Tasks) Ready(ctx context.Context, req ReadyRequest) (ReadyPage, error) {
	offset := req.Offset
	if req.Cursor != "" {
		if req.Offset != 0 {
			return ReadyPage{}, fmt.Errorf("%w: give an offset or a cursor, not both", index.ErrBadPage)
		}
		var err error
		if offset, err = index.ParseCursor(req.Cursor); err != nil {
			return ReadyPage{}, err
		}
	}
	page, err := index.Page{Offset: offset, Limit: req.Limit}.Check()
	if err != nil {
		return ReadyPage{}, err
	}
	st, err := t.store(ctx, req.NoSync)
	if err != nil {
		return ReadyPage{}, err
	}
	all, err := st.Ready(ctx)
	if err != nil {
		return ReadyPage{}, err
	}
	rs, info, err := index.Paginate(all, page)
	if err != nil {
		return ReadyPage{}, err
	}
	return ReadyPage{Tasks: NonNil(rs), PageInfo: info}, nil
}
