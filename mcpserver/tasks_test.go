package mcpserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vaultmem/vaultmem/frame"
	"github.com/vaultmem/vaultmem/mcpserver"
	"github.com/vaultmem/vaultmem/task"
)

// mustCall calls a tool that must succeed, decodes its structured content
// into out, and returns its text content.
func mustCall(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, out any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	text := ""
	if len(res.Content) > 0 {
		if tc, ok := res.Content[0].(*mcp.TextContent); ok {
			text = tc.Text
		}
	}
	if res.IsError {
		t.Fatalf("%s %v: %s", name, args, text)
	}
	if out != nil {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s: decode %s: %v", name, b, err)
		}
	}
	return text
}

// mustFail calls a tool that must fail, and returns its error text.
func mustFail(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) string {
	t.Helper()
	msg, ok := callTool(t, cs, name, args, nil)
	if ok {
		t.Fatalf("%s %v succeeded; want an error", name, args)
	}
	return msg
}

// TestTaskWorkflow: an agent adds a task, starts it, spawns a subtask,
// logs a decision, loads the context, finishes the subtask (the focus
// goes back to the parent), and reads the tree and the ready tasks.
func TestTaskWorkflow(t *testing.T) {
	cs, dir := connect(t)
	var root task.Added
	mustCall(t, cs, "task_add", map[string]any{"title": "Ship v1", "description": "Release the first version."}, &root)
	if root.Path != "tasks/Ship v1.md" || root.Priority != "medium" {
		t.Fatalf("task_add: %+v", root)
	}
	if _, err := os.Stat(filepath.Join(dir, "tasks", "Ship v1.md")); err != nil {
		t.Fatalf("task note: %v", err)
	}
	var started task.Started
	mustCall(t, cs, "task_start", map[string]any{"task": "Ship v1", "agent": "a"}, &started)
	if started.Agent != "a" || started.Focus != root.Path {
		t.Fatalf("task_start: %+v", started)
	}
	var child task.Added
	mustCall(t, cs, "task_spawn", map[string]any{"title": "Write docs", "priority": "high", "agent": "a"}, &child)
	if child.Parent != root.Path || child.Focus != child.Path || child.Priority != "high" {
		t.Fatalf("task_spawn: %+v", child)
	}
	var logged task.Logged
	mustCall(t, cs, "task_event", map[string]any{"type": "decision", "text": "use mkdocs for the site", "agent": "a"}, &logged)
	if logged.Path != child.Path || logged.Type != "decision" || logged.Agent != "a" {
		t.Fatalf("task_event: %+v", logged)
	}

	var c task.Context
	text := mustCall(t, cs, "task_context", map[string]any{"agent": "a"}, &c)
	if want := frame.Frame("The context of a task, from the user's vault (vaultmem):",
		frame.Item{Source: frame.SourceTask, Path: c.Task.Path, Text: c.Context}); text != want {
		t.Errorf("task_context text is not the context alone, framed:\n%s", text)
	}
	if !strings.Contains(text, "use mkdocs for the site") || !strings.Contains(text, "Ship v1") {
		t.Errorf("task_context text lacks the decision or the parent:\n%s", text)
	}
	if c.Task.Path != child.Path || len(c.Events) != 1 || c.Events[0].Type != "decision" || c.Events[0].Text != "use mkdocs for the site" {
		t.Errorf("task_context: task %s, events %+v", c.Task.Path, c.Events)
	}
	if len(c.Ancestors) != 1 || c.Ancestors[0].Path != root.Path {
		t.Errorf("task_context ancestors: %+v", c.Ancestors)
	}

	var done task.Finished
	mustCall(t, cs, "task_done", map[string]any{"agent": "a"}, &done)
	if done.Done != child.Path || done.Focus == nil || *done.Focus != root.Path {
		t.Fatalf("task_done: %+v", done)
	}
	var f task.Focus
	mustCall(t, cs, "task_focus", map[string]any{"agent": "a"}, &f)
	if f.Agent != "a" || f.Task != root.Path {
		t.Errorf("task_focus after task_done: %+v", f)
	}

	var later task.Added
	mustCall(t, cs, "task_add", map[string]any{"title": "Announce", "depends_on": []string{"Ship v1"}}, &later)
	var plan task.Added
	mustCall(t, cs, "task_add", map[string]any{"title": "Plan v2", "priority": "low"}, &plan)

	var tree task.Node
	mustCall(t, cs, "task_tree", map[string]any{}, &tree)
	if got := len(tree.Children); got != 3 {
		t.Fatalf("task_tree has %d roots, want 3: %+v", got, tree)
	}
	var shipped *task.Node
	for _, n := range tree.Children {
		if n.Path == root.Path {
			shipped = n
		}
	}
	if shipped == nil || shipped.Status != task.Doing || shipped.Assignee != "a" ||
		len(shipped.Children) != 1 || shipped.Children[0].Path != child.Path || shipped.Children[0].Status != task.Done {
		t.Errorf("task_tree: the root is %+v", shipped)
	}

	var ready mcpserver.TaskReadyOut
	mustCall(t, cs, "task_ready", map[string]any{}, &ready)
	if len(ready.Tasks) != 1 || ready.Tasks[0].Path != plan.Path || ready.Tasks[0].Why == "" {
		t.Errorf("task_ready: %+v; want only %s (Announce waits for Ship v1, which is doing)", ready.Tasks, plan.Path)
	}
}

// TestTaskHeldByAnother: a task one agent holds is refused to another,
// with the holder named, until it forces.
func TestTaskHeldByAnother(t *testing.T) {
	cs, _ := connect(t)
	mustCall(t, cs, "task_add", map[string]any{"title": "Migrate"}, nil)
	mustCall(t, cs, "task_start", map[string]any{"task": "Migrate", "agent": "a"}, nil)
	msg := mustFail(t, cs, "task_start", map[string]any{"task": "Migrate", "agent": "b"})
	if !strings.HasPrefix(msg, "conflict:") || !strings.Contains(msg, "agent a ") {
		t.Errorf("task_start of a held task: %q; want a conflict naming agent a", msg)
	}
	var took task.Started
	mustCall(t, cs, "task_start", map[string]any{"task": "Migrate", "agent": "b", "force": true}, &took)
	if took.Agent != "b" || took.TookFrom != "a" {
		t.Errorf("task_start with force: %+v", took)
	}
}

// TestTaskAgentFromClient: a call without an agent is the MCP client's
// (the harness client is named "t").
func TestTaskAgentFromClient(t *testing.T) {
	cs, _ := connect(t)
	var added task.Added
	mustCall(t, cs, "task_add", map[string]any{"title": "Refactor"}, &added)
	var started task.Started
	mustCall(t, cs, "task_start", map[string]any{"task": "Refactor"}, &started)
	if started.Agent != "t" {
		t.Errorf("task_start agent %q, want the client's name t", started.Agent)
	}
	var f task.Focus
	mustCall(t, cs, "task_focus", map[string]any{}, &f)
	if f.Agent != "t" || f.Task != added.Path {
		t.Errorf("task_focus: %+v, want agent t on %s", f, added.Path)
	}
	var other task.Focus
	mustCall(t, cs, "task_focus", map[string]any{"agent": "someone"}, &other)
	if other.Task != "" {
		t.Errorf("another agent's focus: %+v, want none", other)
	}
}

// TestTaskBadInput: each bad call is a tool error that says what kind of
// problem it is.
func TestTaskBadInput(t *testing.T) {
	cs, _ := connect(t)
	mustCall(t, cs, "task_add", map[string]any{"title": "Fix"}, nil)
	mustCall(t, cs, "task_start", map[string]any{"task": "Fix", "agent": "a"}, nil)
	mustCall(t, cs, "task_spawn", map[string]any{"title": "Fix the parser", "agent": "a"}, nil)
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"task_event", map[string]any{"type": "note", "text": "", "agent": "a"}, "invalid:"},
		{"task_event", map[string]any{"type": "note", "text": "  ", "agent": "a"}, "invalid:"},
		{"task_add", map[string]any{"title": " "}, "invalid:"},
		{"task_focus", map[string]any{"agent": "a b"}, "invalid: agent"},
		{"task_context", map[string]any{"agent": "a", "budget": -1}, `invalid argument "budget": must be at least 0`},
		{"task_done", map[string]any{"task": "No such task", "agent": "a"}, "not found:"},
		{"task_add", map[string]any{"title": "Orphan", "parent": "nowhere"}, "not found:"},
		{"task_done", map[string]any{"agent": "nobody"}, "no focus:"},
		{"task_done", map[string]any{"task": "Fix", "agent": "a"}, "conflict:"},
	} {
		msg := mustFail(t, cs, c.tool, c.args)
		if !strings.HasPrefix(msg, c.want) {
			t.Errorf("%s %v: %q; want it to start with %q", c.tool, c.args, msg, c.want)
		}
	}
}

// TestTaskNotATask: a note that is no task cannot be started.
func TestTaskNotATask(t *testing.T) {
	cs, _ := connect(t)
	mustCall(t, cs, "write_note", map[string]any{"path": "plain.md", "body": "just a note"}, nil)
	msg := mustFail(t, cs, "task_start", map[string]any{"task": "plain.md", "agent": "a"})
	if !strings.HasPrefix(msg, "not a task:") {
		t.Errorf("task_start of a plain note: %q; want not a task", msg)
	}
}

// TestServerAgent: a call without an agent is the server's Options.Agent
// when set; New refuses an agent id that is not one.
func TestServerAgent(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	o := mcpserver.Options{App: openApp(t, dir, "")}

	o.Agent = "not an id"
	if _, err := mcpserver.New(o); !errors.Is(err, task.ErrInvalid) {
		t.Errorf("New with agent %q: %v; want task.ErrInvalid", o.Agent, err)
	}

	o.Agent = "claude/tests"
	srv, err := mcpserver.New(o)
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	go srv.Run(ctx, st)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	mustCall(t, cs, "task_add", map[string]any{"title": "Test it"}, nil)
	var started task.Started
	mustCall(t, cs, "task_start", map[string]any{"task": "Test it"}, &started)
	if started.Agent != "claude/tests" {
		t.Errorf("task_start agent %q, want the server's claude/tests", started.Agent)
	}
}

// TestTaskReadyPages: task_ready reads on by the next_cursor of the page
// before, and refuses a cursor it did not give as invalid.
func TestTaskReadyPages(t *testing.T) {
	cs, _ := connect(t)
	for _, title := range []string{"One", "Two", "Three"} {
		mustCall(t, cs, "task_add", map[string]any{"title": title}, nil)
	}
	var seen []string
	cursor := ""
	for range 3 {
		var page mcpserver.TaskReadyOut
		args := map[string]any{"limit": 2}
		if cursor != "" {
			args["cursor"] = cursor
		}
		mustCall(t, cs, "task_ready", args, &page)
		if page.Total != 3 {
			t.Fatalf("task_ready %v: total %d, want 3", args, page.Total)
		}
		for _, r := range page.Tasks {
			seen = append(seen, r.Name)
		}
		if cursor = page.NextCursor; cursor == "" {
			break
		}
	}
	if len(seen) != 3 || seen[0] == seen[1] || seen[1] == seen[2] || seen[0] == seen[2] {
		t.Errorf("the pages gave %v; want each of the three tasks once", seen)
	}
	if msg := mustFail(t, cs, "task_ready", map[string]any{"cursor": "x"}); !strings.HasPrefix(msg, "invalid argument:") {
		t.Errorf("task_ready with a cursor it never gave: %q; want an invalid argument", msg)
	}
}

// TestTaskToolsSeeHandEdits: a task a person wrote a moment ago, with no
// watcher running, is found by name: the tools bring the index up to date
// first.
func TestTaskToolsSeeHandEdits(t *testing.T) {
	cs, dir := connect(t)
	mustCall(t, cs, "task_add", map[string]any{"title": "First"}, nil)
	if err := os.WriteFile(filepath.Join(dir, "tasks", "By hand.md"), []byte("---\ntype: task\nstatus: todo\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var started task.Started
	mustCall(t, cs, "task_start", map[string]any{"task": "By hand", "agent": "a"}, &started)
	if started.Path != "tasks/By hand.md" {
		t.Errorf("task_start of a task written by hand: %+v", started)
	}
}

// TestTaskToolsImportOnlyApp: the task tools reach the vault through app's
// use cases alone (issue 40's boundary): tasks.go imports no vaultmem
// package but app.
func TestTaskToolsImportOnlyApp(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "tasks.go", nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if strings.HasPrefix(p, "github.com/vaultmem/vaultmem/") && p != "github.com/vaultmem/vaultmem/app" {
			t.Errorf("tasks.go:%d imports %s: the task tools call app's use cases only", fset.Position(imp.Pos()).Line, p)
		}
	}
}
