package mcpserver

import (
	"context"
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vaultmem/vaultmem/app"
)

// AgentIn is the agent argument every task tool takes.
type AgentIn struct {
	Agent string `json:"agent,omitempty" jsonschema:"your agent id: 1-64 letters, digits, '.', '_', '@' or '-', and 'parent/name' for a subagent; each agent has its own focus (omitted: the server's --agent, else VAULTMEM_AGENT, else the vault config's hooks.agent, else the MCP client's name)"`
}

// TaskAddIn is the task_add tool's input.
type TaskAddIn struct {
	Title       string   `json:"title" jsonschema:"the task, in one line; also its note's name"`
	Parent      string   `json:"parent,omitempty" jsonschema:"the parent task: its path, note name or task name (omitted: a root task)"`
	Priority    string   `json:"priority,omitempty" jsonschema:"high, medium or low (omitted: medium)"`
	DependsOn   []string `json:"depends_on,omitempty" jsonschema:"the tasks it waits for: paths, note names or task names"`
	Description string   `json:"description,omitempty" jsonschema:"what the task is and what done means (markdown)"`
	AgentIn
}

// TaskSpawnIn is the task_spawn tool's input.
type TaskSpawnIn struct {
	Title       string   `json:"title" jsonschema:"the subtask, in one line; also its note's name"`
	Priority    string   `json:"priority,omitempty" jsonschema:"high, medium or low (omitted: medium)"`
	DependsOn   []string `json:"depends_on,omitempty" jsonschema:"the tasks it waits for: paths, note names or task names"`
	Description string   `json:"description,omitempty" jsonschema:"what the subtask is and what done means (markdown)"`
	AgentIn
}

// TaskStartIn is the task_start tool's input.
type TaskStartIn struct {
	Task  string `json:"task" jsonschema:"the task to start: its path, note name or task name"`
	Force bool   `json:"force,omitempty" jsonschema:"take it over from the agent holding it, or reopen it when done"`
	AgentIn
}

// TaskDoneIn is the task_done tool's input.
type TaskDoneIn struct {
	Task  string `json:"task,omitempty" jsonschema:"the task to finish (omitted: your focused task)"`
	Force bool   `json:"force,omitempty" jsonschema:"finish it even though some of its children are not done"`
	AgentIn
}

// TaskBlockIn is the task_block tool's input.
type TaskBlockIn struct {
	Task   string `json:"task,omitempty" jsonschema:"the blocked task (omitted: your focused task)"`
	Reason string `json:"reason" jsonschema:"what blocks it, logged as a blocker event"`
	AgentIn
}

// TaskEventIn is the task_event tool's input.
type TaskEventIn struct {
	Type string `json:"type" jsonschema:"decision: a choice made and why; note: something learnt; blocker: what stands in the way; milestone: a step reached"`
	Text string `json:"text" jsonschema:"the event, in a line or a few"`
	Task string `json:"task,omitempty" jsonschema:"the task whose log gets it (omitted: your focused task)"`
	AgentIn
}

// TaskFocusIn is the task_focus tool's input.
type TaskFocusIn struct {
	AgentIn
}

// TaskTreeIn is the task_tree tool's input.
type TaskTreeIn struct {
	Task string `json:"task,omitempty" jsonschema:"the task whose subtree to show (omitted: every task tree of the vault)"`
	All  bool   `json:"all,omitempty" jsonschema:"show the tasks under finished tasks too (else they are only counted)"`
	AgentIn
}

// TaskReadyIn is the task_ready tool's input.
type TaskReadyIn struct {
	Limit  int    `json:"limit,omitempty" jsonschema:"at most this many tasks, 1 to 1000 (0 or omitted: 100)"`
	Cursor string `json:"cursor,omitempty" jsonschema:"next_cursor of the previous page, to read on"`
	AgentIn
}

// TaskReadyOut is the task_ready tool's output: a page of the tasks that
// can be worked on now, most urgent first.
type TaskReadyOut = app.ReadyPage

// TaskContextIn is the task_context tool's input.
type TaskContextIn struct {
	Task   string `json:"task,omitempty" jsonschema:"the task (omitted: your focused task)"`
	Budget int    `json:"budget,omitempty" jsonschema:"at most this many tokens of context, up to 100000 (0 or omitted: 2000)"`
	AgentIn
}

func (s *Server) addTaskTools() {
	closed := false // every tool works on the vault alone
	write := func(title string) *mcp.ToolAnnotations {
		return &mcp.ToolAnnotations{Title: title, DestructiveHint: &closed, OpenWorldHint: &closed}
	}
	read := func(title string) *mcp.ToolAnnotations {
		return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, OpenWorldHint: &closed}
	}
	priority := enum("priority", app.TaskPriorities()...)
	addTool(s, &mcp.Tool{Name: "task_add", Description: "Add a task to the vault's task tree, as a note (status todo), " +
		"under a parent task or as a root, optionally waiting for other tasks. It does not change your focus; task_spawn adds a subtask of your focus and starts it.",
		InputSchema: schemaFor[TaskAddIn](priority), Annotations: write("Add task")}, s.taskAdd)
	addTool(s, &mcp.Tool{Name: "task_spawn", Description: "Add a subtask of your focused task and start it: " +
		"the focus moves to the subtask, and task_done brings it back to the parent.",
		InputSchema: schemaFor[TaskSpawnIn](priority), Annotations: write("Spawn subtask")}, s.taskSpawn)
	addTool(s, &mcp.Tool{Name: "task_start", Description: "Focus on a task and mark it doing, held by you. " +
		"Refused when another agent holds it or it is done, unless force.",
		InputSchema: schemaFor[TaskStartIn](), Annotations: write("Start task")}, s.taskStart)
	addTool(s, &mcp.Tool{Name: "task_done", Description: "Finish the focused task (or the one named): status done; " +
		"the focus moves to its parent. Refused while it has children not done, unless force.",
		InputSchema: schemaFor[TaskDoneIn](), Annotations: write("Finish task")}, s.taskDone)
	addTool(s, &mcp.Tool{Name: "task_block", Description: "Mark the focused task (or the one named) blocked, " +
		"and log the reason as a blocker event. task_start it again once unblocked.",
		InputSchema: schemaFor[TaskBlockIn](), Annotations: write("Block task")}, s.taskBlock)
	addTool(s, &mcp.Tool{Name: "task_event", Description: "Log a decision, note, blocker or milestone in the focused task's " +
		"log (or the named task's), so that you or another agent can pick up the work later with task_context.",
		InputSchema: schemaFor[TaskEventIn](enum("type", app.TaskEventTypes()...)), Annotations: write("Log task event")}, s.taskEvent)
	addTool(s, &mcp.Tool{Name: "task_focus", Description: "Your focused task: the one task_done, task_block, " +
		"task_event and task_context act on when no task is named (none when task is empty). held_by and notice say when " +
		"another agent holds it now (a merge of two clones' claims settled it to them): start another task, or take it over with force.",
		InputSchema: schemaFor[TaskFocusIn](), Annotations: read("Focused task")}, framed(s.taskFocus))
	addTool(s, &mcp.Tool{Name: "task_tree", Description: "The task tree under a task, or every tree of the vault: " +
		"each task's status, priority and holder; tasks under finished ones are counted, not shown, unless all. It lists what is wrong in the tasks shown.",
		InputSchema: schemaFor[TaskTreeIn](), OutputSchema: nodeSchema(), Annotations: read("Task tree")}, framed(s.taskTree))
	addTool(s, &mcp.Tool{Name: "task_ready", Description: "The tasks that can be worked on now (todo, their dependencies done, " +
		"no open subtask), most urgent first, each with why it comes where it does.",
		InputSchema: schemaFor[TaskReadyIn](bounds("limit", 0, app.MaxLimit)), Annotations: read("Ready tasks")}, framed(s.taskReady))
	addTool(s, &mcp.Tool{Name: "task_context", Description: "What to know to work on the focused task (or the one named), " +
		"cut to a token budget: the task, its ancestors, open siblings, children and its log of events. Call it when you resume work. " +
		"The text content is the context to use; the structured result holds its parts.",
		InputSchema: schemaFor[TaskContextIn](bounds("budget", 0, app.TaskMaxBudget)), Annotations: read("Task context")}, s.taskContext)
}

// nodeSchema is the output schema of task_tree: an app.TaskNode, whose
// children are nodes again. The SDK cannot infer it, as the type is
// recursive; the children refer back to the root schema instead.
func nodeSchema() *jsonschema.Schema {
	s, err := jsonschema.For[app.TaskNode](&jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[[]*app.TaskNode](): {Type: "array", Items: &jsonschema.Schema{Ref: "#"}},
	}})
	if err != nil {
		panic("mcpserver: schema of app.TaskNode: " + err.Error())
	}
	return s
}

// agent is the agent id of a tool call, by app's one rule
// (app.Config.Agent): its agent argument, else the server's
// Options.Agent, named it explicitly; the MCP client's name made an id
// (app.AgentID) is the fallback. Errors: an id that is no agent id.
func (s *Server) agent(req *mcp.CallToolRequest, in AgentIn) (string, error) {
	var ss *mcp.ServerSession
	if req != nil {
		ss = req.Session
	}
	return s.agentOf(ss, in.Agent)
}

// agentOf is the agent id of a request of the session ss (nil: none)
// that names explicit (""; none): see agent.
func (s *Server) agentOf(ss *mcp.ServerSession, explicit string) (string, error) {
	if strings.TrimSpace(explicit) == "" {
		explicit = s.opts.Agent
	}
	return s.app.Config.Agent(explicit, app.AgentID(clientName(ss)))
}

// clientName is the name the MCP client of the session ss gave when it
// connected; "" when it gave none.
func clientName(ss *mcp.ServerSession) string {
	if ss == nil {
		return ""
	}
	p := ss.InitializeParams()
	if p == nil || p.ClientInfo == nil {
		return ""
	}
	return p.ClientInfo.Name
}

// taskCall prepares a task tool's call: the index made current (s.fresh:
// a failed sync is said and the call answers from the index as it was,
// so the use case is asked with NoSync), and the call's agent id.
func (s *Server) taskCall(ctx context.Context, req *mcp.CallToolRequest, in AgentIn) (string, error) {
	agent, err := s.agent(req, in)
	if err != nil {
		return "", toolError(err)
	}
	if err := s.fresh(ctx, req); err != nil {
		return "", toolError(err)
	}
	return agent, nil
}

func (s *Server) taskAdd(ctx context.Context, req *mcp.CallToolRequest, in TaskAddIn) (*mcp.CallToolResult, app.TaskAdded, error) {
	if _, err := s.taskCall(ctx, req, in.AgentIn); err != nil {
		return nil, app.TaskAdded{}, err
	}
	res, err := s.app.Tasks().Add(ctx, app.NewTaskRequest{Title: in.Title, Parent: in.Parent, Priority: in.Priority, DependsOn: in.DependsOn,
		Description: in.Description, NoSync: true})

	if err != nil {
		return nil, app.TaskAdded{}, toolError(err)
	}
	return nil, res, nil
}

func (s *Server) taskSpawn(ctx context.Context, req *mcp.CallToolRequest, in TaskSpawnIn) (*mcp.CallToolResult, app.TaskAdded, error) {
	agent, err := s.taskCall(ctx, req, in.AgentIn)
	if err != nil {
		return nil, app.TaskAdded{}, err
	}
	res, err := s.app.Tasks().Spawn(ctx, app.NewTaskRequest{Agent: agent, Title: in.Title, Priority: in.Priority, DependsOn: in.DependsOn,
		Description: in.Description, NoSync: true})

	if err != nil {
		return nil, app.TaskAdded{}, toolError(err)
	}
	return nil, res, nil
}

func (s *Server) taskStart(ctx context.Context, req *mcp.CallToolRequest, in TaskStartIn) (*mcp.CallToolResult, app.TaskStarted, error) {
	agent, err := s.taskCall(ctx, req, in.AgentIn)
	if err != nil {
		return nil, app.TaskStarted{}, err
	}
	res, err := s.app.Tasks().Start(ctx, app.StartTaskRequest{Agent: agent, Task: in.Task, Force: in.Force, NoSync: true})
	if err != nil {
		return nil, app.TaskStarted{}, toolError(err)
	}
	return nil, res, nil
}

func (s *Server) taskDone(ctx context.Context, req *mcp.CallToolRequest, in TaskDoneIn) (*mcp.CallToolResult, app.TaskFinished, error) {
	agent, err := s.taskCall(ctx, req, in.AgentIn)
	if err != nil {
		return nil, app.TaskFinished{}, err
	}
	res, err := s.app.Tasks().Finish(ctx, app.FinishTaskRequest{Agent: agent, Task: in.Task, Force: in.Force, NoSync: true})
	if err != nil {
		return nil, app.TaskFinished{}, toolError(err)
	}
	return nil, res, nil
}

func (s *Server) taskBlock(ctx context.Context, req *mcp.CallToolRequest, in TaskBlockIn) (*mcp.CallToolResult, app.TaskLogged, error) {
	agent, err := s.taskCall(ctx, req, in.AgentIn)
	if err != nil {
		return nil, app.TaskLogged{}, err
	}
	res, err := s.app.Tasks().Block(ctx, app.BlockTaskRequest{Agent: agent, Task: in.Task, Reason: in.Reason, NoSync: true})
	if err != nil {
		return nil, app.TaskLogged{}, toolError(err)
	}
	return nil, res, nil
}

func (s *Server) taskEvent(ctx context.Context, req *mcp.CallToolRequest, in TaskEventIn) (*mcp.CallToolResult, app.TaskLogged, error) {
	agent, err := s.taskCall(ctx, req, in.AgentIn)
	if err != nil {
		return nil, app.TaskLogged{}, err
	}
	res, err := s.app.Tasks().Log(ctx, app.TaskEventRequest{Agent: agent, Task: in.Task, Type: in.Type, Text: in.Text, NoSync: true})
	if err != nil {
		return nil, app.TaskLogged{}, toolError(err)
	}
	return nil, res, nil
}

func (s *Server) taskFocus(ctx context.Context, req *mcp.CallToolRequest, in TaskFocusIn) (*mcp.CallToolResult, app.TaskFocus, error) {
	agent, err := s.taskCall(ctx, req, in.AgentIn)
	if err != nil {
		return nil, app.TaskFocus{}, err
	}
	res, err := s.app.Tasks().Focused(ctx, app.TaskFocusRequest{Agent: agent, NoSync: true})
	if err != nil {
		return nil, app.TaskFocus{}, toolError(err)
	}
	return nil, res, nil
}

func (s *Server) taskTree(ctx context.Context, req *mcp.CallToolRequest, in TaskTreeIn) (*mcp.CallToolResult, *app.TaskNode, error) {
	if _, err := s.taskCall(ctx, req, in.AgentIn); err != nil {
		return nil, nil, err
	}
	res, err := s.app.Tasks().Tree(ctx, app.TaskTreeRequest{Task: in.Task, All: in.All, NoSync: true})
	if err != nil {
		return nil, nil, toolError(err)
	}
	return nil, res, nil
}

func (s *Server) taskReady(ctx context.Context, req *mcp.CallToolRequest, in TaskReadyIn) (*mcp.CallToolResult, TaskReadyOut, error) {
	if _, err := s.taskCall(ctx, req, in.AgentIn); err != nil {
		return nil, TaskReadyOut{}, err
	}
	res, err := s.app.Tasks().Ready(ctx, app.ReadyRequest{Cursor: in.Cursor, Limit: in.Limit, NoSync: true})
	if err != nil {
		return nil, TaskReadyOut{}, toolError(err)
	}
	return nil, res, nil
}

func (s *Server) taskContext(ctx context.Context, req *mcp.CallToolRequest, in TaskContextIn) (*mcp.CallToolResult, app.TaskContextResult, error) {
	agent, err := s.taskCall(ctx, req, in.AgentIn)
	if err != nil {
		return nil, app.TaskContextResult{}, err
	}
	// app.TaskContext syncs again (it takes no NoSync): a no-op while the
	// server's watcher keeps the index current.
	res, err := s.app.Tasks().Context(ctx, app.ContextRequest{Task: in.Task, Agent: agent, Budget: in.Budget, NoSync: true})
	if err != nil {
		return nil, app.TaskContextResult{}, toolError(err)
	}
	// As recall's, the text is the context alone, in its frame: the agent
	// reads it, and it costs the budget and the frame's few tokens.
	text := app.FrameTaskContext(taskPreamble, res)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, res, nil
}
