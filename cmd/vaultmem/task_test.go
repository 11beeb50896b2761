package main

import (
	"encoding/json"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/vaultmem/vaultmem/frame"
)

// TestTaskWorkflow runs docs/tasks.md's worked example as processes: plan a
// feature as a tree, work through it with spawn, event and done, then
// show the context and the tree.
func TestTaskWorkflow(t *testing.T) {
	dir := newVault(t)
	ag := "--agent=claude"
	ok(t, dir, "task", "add", "Ship search", "--priority", "high", "--description", "Full-text search for the app.")
	ok(t, dir, "task", "add", "Build the index", "--parent", "Ship search")
	ok(t, dir, "task", "add", "Search UI", "--parent", "Ship search", "--depends-on", "Build the index")
	ok(t, dir, "task", "start", "Build the index", ag)
	if out := ok(t, dir, "task", "spawn", "Tokenizer", ag); out != "tasks/Tokenizer.md (focused, doing)\n" {
		t.Errorf("spawn: %q", out)
	}
	if r := vaultmem(t, dir, "chose FTS5 over bleve\nbecause it ships with SQLite\n", "task", "event", "--type", "decision", ag); r.code != 0 {
		t.Fatalf("event from stdin: %d %s", r.code, r.stderr)
	}
	ok(t, dir, "task", "event", "--type", "milestone", ag, "tokenizer", "passes", "its", "tests")

	var c struct {
		Task      struct{ Path string }
		Ancestors []struct{ Path string }
		Events    []struct{ Type, Text string }
		Context   string
		Used      int `json:"used_tokens"`
		Budget    int
		Truncated bool
	}
	if err := json.Unmarshal([]byte(ok(t, dir, "task", "context", "--json", ag)), &c); err != nil {
		t.Fatal(err)
	}
	if c.Task.Path != "tasks/Tokenizer.md" || len(c.Ancestors) != 2 || len(c.Events) != 2 ||
		c.Events[0].Text != "chose FTS5 over bleve\nbecause it ships with SQLite" || c.Budget != 2000 || c.Used == 0 || c.Truncated {
		t.Errorf("context: %+v", c)
	}

	// Recall finds the decision, and puts the focus first.
	rec := ok(t, dir, "recall", ag, "why did we choose FTS5")
	if !strings.Contains(rec, frame.Open+"\n"+`<note source="task" path="tasks/Tokenizer.md" title="Focused task: tasks/Tokenizer.md">`) ||
		strings.Count(rec, `<note source="task" path="tasks/Tokenizer.md"`) != 2 {
		t.Errorf("recall:\n%s", rec)
	}

	if r := vaultmem(t, dir, "", "task", "done", "Build the index", ag); r.code != exitConflict || !strings.Contains(r.stderr, "tasks/Tokenizer.md") {
		t.Errorf("done with an open child: exit %d %s", r.code, r.stderr)
	}
	var d struct {
		Done  string
		Focus *string
	}
	if err := json.Unmarshal([]byte(ok(t, dir, "task", "done", "--json", ag)), &d); err != nil || d.Done != "tasks/Tokenizer.md" || d.Focus == nil || *d.Focus != "tasks/Build the index.md" {
		t.Errorf("done: %+v %v", d, err)
	}
	ok(t, dir, "task", "done", ag)
	if out := ok(t, dir, "task", "ready"); !strings.HasPrefix(out, "1. Search UI — tasks/Search UI.md\n") {
		t.Errorf("ready:\n%s", out)
	}
	golden(t, "task-tree.txt", ok(t, dir, "task", "tree"))
	golden(t, "task-tree-all.json", ok(t, dir, "task", "tree", "--all", "--json"))
	ok(t, dir, "task", "add", "Write docs")
	var page struct {
		Tasks      []struct{ Path string }
		Total      int
		More       int
		NextOffset int `json:"next_offset"`
	}
	if err := json.Unmarshal([]byte(ok(t, dir, "task", "ready", "--json", "--limit", "1")), &page); err != nil ||
		len(page.Tasks) != 1 || page.Total != 2 || page.More != 1 || page.NextOffset != 1 {
		t.Errorf("ready, a page of one: %+v %v", page, err)
	}
	if err := json.Unmarshal([]byte(ok(t, dir, "task", "ready", "--json", "--offset", "1")), &page); err != nil ||
		len(page.Tasks) != 1 || page.More != 0 {
		t.Errorf("ready, the second page: %+v %v", page, err)
	}
}

// TestTaskErrors: refusals exit 3 naming why, bad arguments 2, a missing
// task 1; problems a human wrote are warnings naming file and line.
func TestTaskErrors(t *testing.T) {
	dir := newVault(t)
	ok(t, dir, "task", "add", "One")
	ok(t, dir, "task", "start", "One", "--agent=a")
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"task", "start", "One", "--agent=b"}, exitConflict, "agent a holds it"},
		{[]string{"task", "event", "--type", "opinion", "--agent=a", "meh"}, exitUsage, "event type must be one of decision, note, blocker, milestone"},
		{[]string{"task", "event", "--type", "note", "--agent=a", " "}, exitUsage, "event text must not be empty"},
		{[]string{"task", "event", "--type", "note", "--agent=b", "hi"}, exitError, "no focused task for agent b"},
		{[]string{"task", "done", "Nope"}, exitError, `no task "Nope"`},
		{[]string{"task", "add", "X", "--priority", "urgent"}, exitUsage, "priority must be one of high, medium, low"},
		{[]string{"task", "start", "One", "--agent=../x"}, exitUsage, "agent"},
		{[]string{"task", "context", "--budget", "0", "--agent=a"}, exitUsage, "--budget"},
		{[]string{"task", "ready", "--limit", "0"}, exitUsage, "--limit must be from 1 to 1000"},
		{[]string{"task", "ready", "--limit", "1001"}, exitUsage, "limit 1001 is out of range"},
		{[]string{"task", "ready", "--offset", "-1"}, exitUsage, "offset -1 is negative"},
		{[]string{"task", "spawn", "Sub", "--agent=b"}, exitError, "no focused task for agent b"},
	} {
		r := vaultmem(t, dir, "", c.args...)
		if r.code != c.code || !strings.Contains(r.stderr, c.msg) {
			t.Errorf("%v: exit %d, %s; want %d and %q", c.args, r.code, r.stderr, c.code, c.msg)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "tasks", "Loop.md"), []byte("---\ntype: task\nparent: \"[[Loop]]\"\nstatus: wip\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := vaultmem(t, dir, "", "task", "tree")
	if r.code != 0 || !strings.Contains(r.stderr, "warning: tasks/Loop.md:3: parent is the task itself") ||
		!strings.Contains(r.stderr, `warning: tasks/Loop.md:4: status "wip" is not one of`) {
		t.Errorf("tree: exit %d\n%s", r.code, r.stderr)
	}
}

// TestTaskStartRace: four processes start one task at once; exactly one
// holds it, the others exit 3 naming the holder.
func TestTaskStartRace(t *testing.T) {
	dir := newVault(t)
	ok(t, dir, "task", "add", "Contended")
	var wg sync.WaitGroup
	codes := make([]int, 4)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = vaultmem(t, dir, "", "task", "start", "Contended", "--agent=agent"+string(rune('a'+i))).code
		}()
	}
	wg.Wait()
	won := 0
	for _, c := range codes {
		switch c {
		case 0:
			won++
		case exitConflict:
		default:
			t.Errorf("exit %d", c)
		}
	}
	if won != 1 {
		t.Errorf("%d processes won: %v", won, codes)
	}
}

// TestDoctorReportsDependsOnCycles: tasks that wait on each other, or on
// themselves, are never ready; doctor names them, by file and line.
func TestDoctorReportsDependsOnCycles(t *testing.T) {
	dir := newVault(t)
	for name, content := range map[string]string{
		"A": "---\ntype: task\ndepends_on:\n  - \"[[B]]\"\n---\n",
		"B": "---\ntype: task\ndepends_on:\n  - \"[[A]]\"\n---\n",
		"C": "---\ntype: task\ndepends_on: \"[[C]]\"\n---\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, "tasks", name+".md"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out := ok(t, dir, "task", "ready"); out != "no task is ready\n" {
		t.Errorf("ready: %q", out)
	}
	out := ok(t, dir, "doctor")
	for _, want := range []string{
		"tasks/A.md:4: task: depends_on cycle: tasks/A.md → tasks/B.md → tasks/A.md;",
		"tasks/C.md:3: task: depends_on is the task itself",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor lacks %q:\n%s", want, out)
		}
	}
}

// TestTaskNamesThatLookLikeSyntax: a title beginning with a dash goes
// after "--" (and without it the error says so, exit 2); a task named
// "x|y" (its file "x y.md") is a parent by that name, linked so that
// Obsidian resolves it; a file whose name no wikilink can name is refused
// as a parent, never linked wrongly.
func TestTaskNamesThatLookLikeSyntax(t *testing.T) {
	dir := newVault(t)
	if out := ok(t, dir, "task", "add", "--", "-dash"); out != "tasks/-dash.md\n" {
		t.Errorf("add -- -dash: %q", out)
	}
	if got := mustRead(t, filepath.Join(dir, "tasks", "-dash.md")); !strings.Contains(got, "\nname: -dash\n") {
		t.Errorf("tasks/-dash.md:\n%s", got)
	}
	ok(t, dir, "task", "start", "--", "-dash")
	r := vaultmem(t, dir, "", "task", "add", "-other")
	if r.code != exitUsage || !strings.Contains(r.stderr, "add has no flag -other; an argument that begins with '-' goes after '--': vaultmem task add -- TITLE") ||
		strings.Contains(r.stdout+r.stderr, "USAGE:") {
		t.Errorf("add -other: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}

	if out := ok(t, dir, "task", "add", "x|y"); out != "tasks/x y.md\n" {
		t.Errorf("add x|y: %q", out)
	}
	for _, parent := range []string{"x|y", "[[x y|the x task]]"} {
		out := ok(t, dir, "task", "add", "Child of "+parent, "--parent", parent, "--depends-on", parent, "--json")
		var added struct {
			Path, Parent string
			DependsOn    []string `json:"depends_on"`
		}
		if err := json.Unmarshal([]byte(out), &added); err != nil || added.Parent != "tasks/x y.md" || len(added.DependsOn) != 1 || added.DependsOn[0] != "tasks/x y.md" {
			t.Fatalf("--parent %q: %+v %v", parent, added, err)
		}
		if got := mustRead(t, filepath.Join(dir, filepath.FromSlash(added.Path))); !strings.Contains(got, "\nparent: \"[[x y]]\"\n") {
			t.Errorf("%s:\n%s", added.Path, got)
		}
	}
	if out := ok(t, dir, "task", "tree", "x|y"); !strings.Contains(out, "  - Child of x|y [todo, medium]") {
		t.Errorf("tree x|y:\n%s", out)
	}

	if err := os.WriteFile(filepath.Join(dir, "tasks", "a|b.md"), []byte("---\ntype: task\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = vaultmem(t, dir, "", "task", "add", "Under a|b", "--parent", "a|b")
	if r.code != exitUsage || !strings.Contains(r.stderr, "parent tasks/a|b.md cannot be linked to") {
		t.Errorf("--parent a|b: exit %d %s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "tasks", "Under a b.md")); !os.IsNotExist(err) {
		t.Errorf("a task was written with a link that names no file: %v", err)
	}
}

// TestTaskClaimAcrossClones: two clones start the same task (agents
// claude and codex), then pull through git with vaultmem's note driver:
// the merge is clean, claude holds the task (it started first, or in the
// same minute with the lower agent id), codex's claim is in the log, and
// codex's next task command and its task context say it lost the task.
func TestTaskClaimAcrossClones(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH")
	}
	tmp := t.TempDir()
	driver := testDriver(t, tmp)
	remote, a, b := filepath.Join(tmp, "remote.git"), filepath.Join(tmp, "a"), filepath.Join(tmp, "b")
	gitIn(t, tmp, "init", "-q", "--bare", "-b", "main", remote)
	cloneWithDrivers(t, "", a, driver)
	ok(t, a, "init")
	ok(t, a, "task", "add", "Ship it")
	gitIn(t, a, "add", "-A")
	gitIn(t, a, "commit", "-q", "-m", "plan")
	gitIn(t, a, "remote", "add", "origin", remote)
	gitIn(t, a, "push", "-q", "-u", "origin", "main")
	cloneWithDrivers(t, remote, b, driver)

	ok(t, a, "task", "start", "Ship it", "--agent=claude")
	ok(t, b, "task", "start", "Ship it", "--agent=codex")
	for _, dir := range []string{a, b} {
		gitIn(t, dir, "add", "-A")
		gitIn(t, dir, "commit", "-q", "-m", "start on "+filepath.Base(dir))
	}
	gitIn(t, a, "push", "-q")
	gitIn(t, b, "pull", "-q", "--no-edit")
	raw, err := os.ReadFile(filepath.Join(b, "tasks", "Ship it.md"))
	if err != nil {
		t.Fatal(err)
	}
	note := string(raw)
	if !strings.Contains(note, "assignee: claude\n") || !strings.Contains(note, "note: claim settled to claude") ||
		!strings.Contains(note, "codex's claim") || strings.Contains(note, "<<<<<<<") {
		t.Fatalf("merged task:\n%s", note)
	}
	r := vaultmem(t, b, "", "task", "focus", "--agent=codex")
	if r.code != 0 || !strings.Contains(r.stderr, "warning: task Ship it (tasks/Ship it.md) is held by agent claude since") ||
		!strings.Contains(r.stderr, "was settled to claude when two clones' changes merged") {
		t.Errorf("codex's task focus: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	var f struct{ HeldBy, Notice string }
	if err := json.Unmarshal([]byte(ok(t, b, "task", "focus", "--json", "--agent=codex", "-q")), &struct {
		HeldBy *string `json:"held_by"`
		Notice *string `json:"notice"`
	}{&f.HeldBy, &f.Notice}); err != nil || f.HeldBy != "claude" || f.Notice == "" {
		t.Errorf("task focus --json: %+v, %v", f, err)
	}
	if out := ok(t, b, "task", "context", "--agent=codex"); !strings.Contains(out, "**Not yours:** task Ship it") {
		t.Errorf("codex's task context:\n%s", out)
	}
	// The winner hears nothing.
	gitIn(t, b, "push", "-q")
	gitIn(t, a, "pull", "-q", "--no-edit")
	if r := vaultmem(t, a, "", "task", "focus", "--agent=claude"); r.code != 0 || strings.Contains(r.stderr, "held by") {
		t.Errorf("claude's task focus: exit %d\n%s", r.code, r.stderr)
	}
}

// TestTaskCommandsImportOnlyApp: the task commands reach the vault through
// app's use cases alone (issue 40's boundary): task.go imports no vaultmem
// package but app.
func TestTaskCommandsImportOnlyApp(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "task.go", nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if strings.HasPrefix(p, "github.com/vaultmem/vaultmem/") && p != "github.com/vaultmem/vaultmem/app" {
			t.Errorf("task.go:%d imports %s: the task commands call app's use cases only", fset.Position(imp.Pos()).Line, p)
		}
	}
}
