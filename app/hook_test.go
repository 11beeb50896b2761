package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/session"
	"github.com/vaultmem/vaultmem/task"
)

// hookApp is an open App on a new vault with a memory, a lesson on
// db/migrations/** and "integration tests", and a focused task.
func hookApp(t *testing.T) *App {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	if _, err := Init(ctx, dir); err != nil {
		t.Fatal(err)
	}
	a, err := Open(ctx, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	if _, err := a.Remember(ctx, memory.Memory{Type: "feedback", Name: "Use pnpm", Description: "The user wants pnpm, not npm",
		Body: "Always use pnpm for package installs in this repository."}, memory.Options{}); err != nil {
		t.Fatal(err)
	}
	ls, err := a.openLessons()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ls.Add(ctx, lesson.New{Title: "Run migrations first", Trigger: []string{"db/migrations/**", "integration tests"},
		ActionBias: "run make migrate before the integration tests"}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.taskStore().Add(ctx, task.New{Title: "Ship the importer", Description: "Import the CSV exports."}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.taskStore().Start(ctx, task.DefaultAgent, "Ship the importer", false); err != nil {
		t.Fatal(err)
	}
	return a
}

// hookRun sends the events of session id to a, in order, one second
// apart from at, failing the test on an error.
func hookRun(t *testing.T, a *App, id string, at time.Time, evs ...HookEvent) []HookAnswer {
	t.Helper()
	var out []HookAnswer
	for i, ev := range evs {
		ev.Session, ev.Client, ev.Time = id, "claude-code", at.Add(time.Duration(i)*time.Second)
		ans, err := a.Hook(context.Background(), ev)
		if err != nil {
			t.Fatalf("%s %s: %v", id, ev.Kind, err)
		}
		out = append(out, ans)
	}
	return out
}

// sessionEvents are the whole loop of one session: start, a prompt, a
// tool call the lesson is about, a compaction that happens, a stop.
func sessionEvents(migration string) []HookEvent {
	return []HookEvent{
		{Kind: HookSessionStart, Source: "startup"},
		{Kind: HookPrompt, Prompt: "which package manager for installs?"},
		{Kind: HookBeforeTool, Tool: "Edit", ToolUseID: "t1", Paths: []string{migration}, Edits: true},
		{Kind: HookAfterTool, Tool: "Edit", ToolUseID: "t1", Paths: []string{migration}, Edits: true},
		{Kind: HookCompact, Trigger: "auto"},
		{Kind: HookSessionStart, Source: "compact"},
		{Kind: HookStop},
	}
}

// TestHookInProcess: a session's loop through App.Hook in process (under
// -race in CI): what each event gives and records.
func TestHookInProcess(t *testing.T) {
	a := hookApp(t)
	at := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	evs := sessionEvents("db/migrations/0042.sql")
	evs[3].Failed = true
	ans := hookRun(t, a, "s1", at, evs...)
	if !strings.Contains(ans[0].Context, "What you remember") || !strings.Contains(ans[1].Context, "Always use pnpm") {
		t.Errorf("start %q\nprompt %q", ans[0].Context, ans[1].Context)
	}
	if len(ans[2].Given) != 1 || ans[2].Given[0] != "lessons/Run migrations first.md" {
		t.Errorf("before the edit, given %v", ans[2].Given)
	}
	if !strings.Contains(ans[5].Context, "Before the compaction") || ans[6].Note == "" {
		t.Errorf("after the compaction %q; note %q", ans[5].Context, ans[6].Note)
	}
	lessonNote, err := os.ReadFile(filepath.Join(a.Vault.Dir, "lessons", "Run migrations first.md"))
	if err != nil || !strings.Contains(string(lessonNote), "strength: 0.4\n") {
		t.Errorf("the lesson after a failed call it is about: %v\n%s", err, lessonNote)
	}
	b, _, err := a.writer.ReadState(session.StateName("s1"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := session.Decode(b)
	if err != nil || st.Checkpoint == nil || !st.Checkpoint.Compacted || len(st.Outcomes) != 1 || st.Outcomes[0].Success {
		t.Errorf("state: %v, %+v", err, st)
	}
}

// TestHookConcurrentInProcess: one App (as the server holds it) answers
// eight sessions' loops at once; each session keeps its own state and
// note, and the lesson takes every outcome.
func TestHookConcurrentInProcess(t *testing.T) {
	a := hookApp(t)
	at := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := fmt.Sprintf("c%d", i)
			for j, ev := range sessionEvents("db/migrations/0042.sql") {
				ev.Session, ev.Client, ev.Time = id, "claude-code", at.Add(time.Duration(j)*time.Second)
				if _, err := a.Hook(context.Background(), ev); err != nil {
					errs[i] = fmt.Errorf("%s %s: %w", id, ev.Kind, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	notes, _ := filepath.Glob(filepath.Join(a.Vault.Dir, "sessions", "*.md"))
	if len(notes) != n {
		t.Errorf("%d session notes, want %d", len(notes), n)
	}
	ls, _ := a.openLessons()
	h, err := ls.History(context.Background(), "Run migrations first")
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Outcomes) != n {
		t.Errorf("%d outcomes logged, want one per session (%d)", len(h.Outcomes), n)
	}
	taskNote, _ := os.ReadFile(filepath.Join(a.Vault.Dir, "tasks", "Ship the importer.md"))
	if c := strings.Count(string(taskNote), "Checkpoint before the conversation was compacted"); c != n {
		t.Errorf("%d checkpoints in the task's log, want %d", c, n)
	}
}
