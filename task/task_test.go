package task_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/task"
	"github.com/vaultmem/vaultmem/vault"
)

// TestWorkflow plans a feature as a tree and works through it as an agent
// does: start, spawn, events, done popping the focus to the parent; the
// notes are plain markdown a human can read, and the context shows
// ancestors, siblings, children and events.
func TestWorkflow(t *testing.T) {
	f := newFixture(t)
	ctx := f.ctx
	root := f.add(task.New{Title: "Ship search", Priority: "high", Description: "Full-text search for the app."})
	idx := f.add(task.New{Title: "Build the index", Parent: "Ship search"})
	ui := f.add(task.New{Title: "Search UI", Parent: root.Path, DependsOn: []string{"Build the index"}})
	if root.Path != "tasks/Ship search.md" || idx.Parent != root.Path || ui.DependsOn[0] != idx.Path {
		t.Fatalf("added %+v %+v %+v", root, idx, ui)
	}
	want := "---\ntype: task\nname: Search UI\nstatus: todo\npriority: medium\nparent: \"[[Ship search]]\"\ndepends_on:\n  - \"[[Build the index]]\"\ncreated: 2026-11-23\n---\n\n## Log\n"
	if got := f.read(ui.Path); got != want {
		t.Errorf("note:\n%s\nwant:\n%s", got, want)
	}

	st := must[task.Started](t)(f.s.Start(ctx, "claude", "Build the index", false))
	if st.Focus != idx.Path {
		t.Errorf("start: %+v", st)
	}
	sub := must[task.Added](t)(f.s.Spawn(ctx, "claude", task.New{Title: "Tokenizer"}))
	if sub.Parent != idx.Path || sub.Focus != sub.Path {
		t.Errorf("spawn: %+v", sub)
	}
	must[task.Logged](t)(f.s.Event(ctx, "claude", "", "decision", "chose FTS5 over bleve\nbecause it ships with SQLite"))
	must[task.Logged](t)(f.s.Event(ctx, "claude", "", "milestone", "tokenizer passes its tests"))
	if !strings.Contains(f.read(sub.Path), "## Log\n\n- 2026-11-23 14:09 decision: chose FTS5 over bleve\n  because it ships with SQLite\n- 2026-11-23 14:10 milestone: tokenizer passes its tests\n") {
		t.Errorf("log:\n%s", f.read(sub.Path))
	}

	c := must[task.Context](t)(f.s.Context(ctx, "claude", "", 0))
	if c.Task.Path != sub.Path || len(c.Ancestors) != 2 || c.Ancestors[0].Path != root.Path || c.Ancestors[1].Path != idx.Path ||
		len(c.Events) != 2 || c.Events[0].Type != "decision" || c.Truncated {
		t.Errorf("context: %+v", c)
	}
	for _, w := range []string{"# Task: Tokenizer (doing, medium)", "- Ship search (todo) — tasks/Ship search.md: Full-text search for the app.",
		"- 2026-11-23 14:09 decision: chose FTS5 over bleve\n  because it ships with SQLite"} {
		if !strings.Contains(c.Context, w) {
			t.Errorf("context lacks %q:\n%s", w, c.Context)
		}
	}

	// The parent cannot be done while its child is open.
	_, err := f.s.Done(ctx, "claude", idx.Path, false)
	var se *task.StateError
	if !errors.As(err, &se) || len(se.Open) != 1 || se.Open[0] != sub.Path {
		t.Fatalf("done with an open child: %v", err)
	}
	d := must[task.Finished](t)(f.s.Done(ctx, "claude", "", false))
	if d.Done != sub.Path || d.Focus == nil || *d.Focus != idx.Path {
		t.Errorf("done: %+v", d)
	}
	if fo := must[task.Focus](t)(f.s.Focus(ctx, "claude")); fo.Task != idx.Path {
		t.Errorf("focus after done: %+v", fo)
	}
	// The UI waits for the index: not ready until it is done.
	ready := must[[]task.Ready](t)(f.s.Ready(ctx))
	if len(ready) != 0 {
		t.Errorf("ready while the index is open: %+v", ready)
	}
	d = must[task.Finished](t)(f.s.Done(ctx, "claude", "", false))
	if d.Focus == nil || *d.Focus != root.Path {
		t.Errorf("done: %+v", d)
	}
	ready = must[[]task.Ready](t)(f.s.Ready(ctx))
	if len(ready) != 1 || ready[0].Path != ui.Path || !strings.Contains(ready[0].Why, "its dependencies are done (tasks/Build the index.md)") {
		t.Errorf("ready: %+v", ready)
	}

	tree := must[*task.Node](t)(f.s.Tree(ctx, "", false))
	if len(tree.Children) != 1 || tree.Children[0].Status != "doing" || len(tree.Children[0].Children) != 2 {
		t.Fatalf("tree: %+v", tree)
	}
	if folded := tree.Children[0].Children[0]; folded.Path != idx.Path || folded.Folded != 1 || len(folded.Children) != 0 {
		t.Errorf("a finished branch is not folded: %+v", folded)
	}
	all := must[*task.Node](t)(f.s.Tree(ctx, root.Path, true))
	if len(all.Children[0].Children) != 1 {
		t.Errorf("--all: %+v", all.Children[0])
	}
}

// TestStartRace: of eight agents starting one task at once, exactly one
// holds it; the others are told who does.
func TestStartRace(t *testing.T) {
	f := newFixture(t)
	a := f.add(task.New{Title: "Contended"})
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = f.s.Start(f.ctx, "agent"+string(rune('a'+i)), a.Path, false)
		}()
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		var se *task.StateError
		switch {
		case err == nil:
			won++
		case errors.As(err, &se) && se.Holder != "":
		default:
			t.Errorf("start: %v", err)
		}
	}
	if won != 1 {
		t.Errorf("%d agents won", won)
	}
	if _, err := f.s.Start(f.ctx, "intruder", a.Path, true); err != nil {
		t.Errorf("--force: %v", err)
	}
}

// TestBadInput: errors name what is wrong.
func TestBadInput(t *testing.T) {
	f := newFixture(t)
	a := f.add(task.New{Title: "One"})
	f.write("notes/plain.md", "Just a note.\n")
	f.sync()
	for _, c := range []struct {
		name string
		err  error
		is   error
	}{
		{"unknown event type", errOf(f.s.Event(f.ctx, "x", a.Path, "opinion", "meh")), task.ErrInvalid},
		{"empty event", errOf(f.s.Event(f.ctx, "x", a.Path, "note", "  \n")), task.ErrInvalid},
		{"no focus", errOf(f.s.Event(f.ctx, "x", "", "note", "hi")), task.ErrNoFocus},
		{"missing task", errOf(f.s.Done(f.ctx, "x", "Nope", false)), vault.ErrNotFound},
		{"not a task", errOf(f.s.Start(f.ctx, "x", "plain", false)), task.ErrNotTask},
		{"bad priority", errOf(f.s.Add(f.ctx, task.New{Title: "X", Priority: "urgent"})), task.ErrInvalid},
		{"missing parent", errOf(f.s.Add(f.ctx, task.New{Title: "X", Parent: "Nope"})), vault.ErrNotFound},
		{"bad agent", errOf(f.s.Start(f.ctx, "../evil", a.Path, false)), task.ErrInvalid},
		{"empty title", errOf(f.s.Add(f.ctx, task.New{Title: " "})), task.ErrInvalid},
		{"budget", errOf(f.s.Context(f.ctx, "x", a.Path, -1)), task.ErrInvalid},
	} {
		if !errors.Is(c.err, c.is) {
			t.Errorf("%s: %v, want %v", c.name, c.err, c.is)
		}
	}
	must[task.Finished](t)(f.s.Done(f.ctx, "x", a.Path, false))
	if _, err := f.s.Start(f.ctx, "x", a.Path, false); !errors.Is(err, task.ErrState) || !strings.Contains(err.Error(), "is done") {
		t.Errorf("starting a done task: %v", err)
	}
}

func errOf[T any](_ T, err error) error { return err }

// TestProblems: what a human may write wrong in Obsidian is reported with
// file and line, never fixed behind their back, and never hangs.
func TestProblems(t *testing.T) {
	f := newFixture(t)
	f.write("tasks/A.md", "---\ntype: task\nname: A\nparent: \"[[B]]\"\n---\n")
	f.write("tasks/B.md", "---\ntype: task\nname: B\nparent: \"[[A]]\"\n---\n")
	f.write("tasks/C.md", "---\ntype: task\nstatus: wip\npriority: urgent\nparent: \"[[Ghost]]\"\ndepends_on: [\"[[Missing]]\", \"[[plain]]\"]\n---\n")
	f.write("tasks/D.md", "---\ntype: task\nparent: \"[[A]]\"\n---\n")
	f.write("plain.md", "Not a task.\n")
	f.sync()
	before := f.read("tasks/C.md")
	tree := must[*task.Node](t)(f.s.Tree(f.ctx, "", false))
	var got []string
	for _, p := range tree.Problems {
		got = append(got, p.Path+":"+strconv.Itoa(p.Line)+": "+p.Message)
	}
	want := []string{
		"tasks/A.md:4: parent cycle: tasks/A.md → tasks/B.md → tasks/A.md (these tasks are in no tree until one parent is changed)",
		"tasks/C.md:3: status \"wip\" is not one of todo, doing, done, blocked (left as it is)",
		"tasks/C.md:4: priority \"urgent\" is not one of high, medium, low (left as it is)",
		"tasks/C.md:5: parent [[Ghost]] names no note",
		"tasks/C.md:6: depends_on [[Missing]] names no note",
		"tasks/C.md:6: depends_on [[plain]] is not a task (plain.md has no type: task)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var roots []string
	for _, c := range tree.Children {
		roots = append(roots, c.Path)
	}
	if strings.Join(roots, ",") != "tasks/C.md,tasks/D.md" {
		t.Errorf("roots %v", roots)
	}
	if f.read("tasks/C.md") != before {
		t.Error("a problem was fixed silently")
	}
	// The context of a task in a cycle ends.
	if _, err := f.s.Context(f.ctx, "x", "tasks/A.md", 0); err != nil {
		t.Error(err)
	}
}

// TestHumanEditsWhileAgentLogs: a human saves a task again and again (as
// an editor does: read, change, write, without vaultmem's lock) while an
// agent appends events; no line the human wrote is ever lost, and every
// event the agent logged after the human's last save is there.
func TestHumanEditsWhileAgentLogs(t *testing.T) {
	f := newFixture(t)
	a := f.add(task.New{Title: "Shared", Description: "Edited by both."})
	p := filepath.Join(f.dir, filepath.FromSlash(a.Path))
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range 30 {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Error(err)
				return
			}
			next := strings.Replace(string(b), "Edited by both.", fmt.Sprintf("Edited by both.\nHuman line %d.", i), 1)
			if err := os.WriteFile(p, []byte(next), 0o644); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for i := range 30 {
		if _, err := f.s.Event(f.ctx, "agent", a.Path, "note", fmt.Sprintf("agent event %d", i)); err != nil {
			t.Error(err)
			break
		}
	}
	wg.Wait()
	if _, err := f.s.Event(f.ctx, "agent", a.Path, "note", "agent event last"); err != nil {
		t.Fatal(err)
	}
	got := f.read(a.Path)
	for i := range 30 {
		if !strings.Contains(got, fmt.Sprintf("Human line %d.", i)) {
			t.Errorf("human line %d lost:\n%s", i, got)
		}
	}
	if !strings.Contains(got, "- 2026-11-23 ") || !strings.HasSuffix(got, "note: agent event last\n") {
		t.Errorf("the last event is missing:\n%s", got)
	}
}

// TestDependsOnCycles: a task that depends on itself, or on a task that
// depends back on it, is never ready; the tree's problems (which doctor
// lists) name the tasks on the cycle, at the line of the link.
func TestDependsOnCycles(t *testing.T) {
	dep := func(targets ...string) string {
		s := "---\ntype: task\ndepends_on:\n"
		for _, tg := range targets {
			s += "  - \"[[" + tg + "]]\"\n"
		}
		return s + "---\n"
	}
	for _, c := range []struct {
		name  string
		tasks map[string]string
		want  []string
	}{
		{"none", map[string]string{"A": dep("B"), "B": dep("C"), "C": dep()}, nil},
		{"itself", map[string]string{"A": dep("B", "A"), "B": dep()},
			[]string{"tasks/A.md:5: depends_on is the task itself: it can never be ready until that dependency is removed"}},
		{"two", map[string]string{"A": dep("B"), "B": dep("A")},
			[]string{"tasks/A.md:4: depends_on cycle: tasks/A.md → tasks/B.md → tasks/A.md; none of these tasks can be ready until one of these dependencies is removed"}},
		{"three, and a task waiting on them", map[string]string{"A": dep("Z", "B"), "B": dep("C"), "C": dep("A"), "D": dep("A"), "Z": dep()},
			[]string{"tasks/A.md:5: depends_on cycle: tasks/A.md → tasks/B.md → tasks/C.md → tasks/A.md; none of these tasks can be ready until one of these dependencies is removed"}},
		{"a knot of two cycles", map[string]string{"A": dep("B"), "B": dep("C", "A"), "C": dep("B")},
			[]string{"tasks/A.md:4: depends_on cycle: tasks/A.md → tasks/B.md → tasks/A.md (and tasks/C.md, on other cycles through them); none of these tasks can be ready until one of these dependencies is removed"}},
		{"two apart", map[string]string{"A": dep("B"), "B": dep("A"), "C": dep("D"), "D": dep("C")},
			[]string{"tasks/A.md:4: depends_on cycle: tasks/A.md → tasks/B.md → tasks/A.md; none of these tasks can be ready until one of these dependencies is removed",
				"tasks/C.md:4: depends_on cycle: tasks/C.md → tasks/D.md → tasks/C.md; none of these tasks can be ready until one of these dependencies is removed"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			for name, content := range c.tasks {
				f.write("tasks/"+name+".md", content)
			}
			f.sync()
			var got []string
			for _, p := range must[[]markdown.Problem](t)(f.s.Problems(f.ctx)) {
				got = append(got, p.Path+":"+strconv.Itoa(p.Line)+": "+p.Message)
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}
