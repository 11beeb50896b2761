package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/vaultmem/vaultmem/app"
)

// hookVaultFor makes a vault for the hook tests, beside a project folder
// (the agent's cwd): a feedback memory, a lesson on the project's
// migrations (a path glob, and words), a lesson flagged for review, a
// lesson for every Bash call, and a focused task.
func hookVaultFor(t *testing.T) (vaultDir, project string) {
	t.Helper()
	root := t.TempDir()
	vaultDir, project = filepath.Join(root, "my vault #1"), filepath.Join(root, "proj")
	if err := os.MkdirAll(filepath.Join(project, "db", "migrations"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(vaultDir, 0o755); err != nil {
		t.Fatal(err)
	}
	ok(t, vaultDir, "init")
	ok(t, vaultDir, "remember", "--type", "feedback", "--name", "Use pnpm", "--description", "The user wants pnpm, not npm",
		"Always use pnpm for package installs in this repository.")
	ok(t, vaultDir, "lesson", "add", "Run migrations first", "--trigger", "db/migrations/**", "--trigger", "integration tests",
		"--action-bias", "run make migrate before the integration tests")
	ok(t, vaultDir, "lesson", "add", "Weak advice", "--trigger", "db/migrations/**", "--action-bias", "reformat every migration")
	writeFile(t, filepath.Join(vaultDir, "lessons", "Weak advice.md"),
		strings.Replace(mustRead(t, filepath.Join(vaultDir, "lessons", "Weak advice.md")), "strength: 0.5", "strength: 0.2", 1))
	ok(t, vaultDir, "lesson", "add", "Any bash call", "--trigger", "tool:Bash", "--action-bias", "think twice")
	ok(t, vaultDir, "task", "add", "Ship the importer", "--description", "Import the CSV exports.")
	ok(t, vaultDir, "task", "start", "Ship the importer")
	return vaultDir, project
}

// hookEvent is a client's hook input: fields, with the session and cwd.
func hookEvent(session, cwd, name string, fields map[string]any) string {
	ev := map[string]any{"session_id": session, "cwd": cwd, "hook_event_name": name, "transcript_path": "/tmp/t.jsonl"}
	for k, v := range fields {
		ev[k] = v
	}
	b, _ := json.Marshal(ev)
	return string(b)
}

// timesRe are the dates and times that differ from run to run.
var timesRe = regexp.MustCompile(`\d{4}-\d{2}-\d{2}([ T]\d{2}:?\d{2}(:\d{2})?Z?)?|\b\d{2}:\d{2}\b|\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}`)

// transcript runs events through `vaultmem hook` as the client would and
// returns each event's name and output, times replaced.
func transcript(t *testing.T, vaultDir, client string, events []string) string {
	t.Helper()
	var b strings.Builder
	for _, ev := range events {
		var in struct {
			Name string `json:"hook_event_name"`
		}
		json.Unmarshal([]byte(ev), &in)
		r := vaultmemGuarded(t, vaultDir, ev, nil, "--vault", vaultDir, "hook", "--client", client)
		if r.code != 0 || r.stderr != "" {
			t.Fatalf("%s: exit %d, stderr %q", in.Name, r.code, r.stderr)
		}
		out := r.stdout
		if out == "" {
			out = "(nothing)\n"
		} else {
			var v any
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Fatalf("%s: the output is not JSON: %q", in.Name, out)
			}
			pretty, _ := json.MarshalIndent(v, "", "  ")
			out = string(pretty) + "\n"
		}
		fmt.Fprintf(&b, "== %s\n%s", in.Name, timesRe.ReplaceAllString(out, "TIME"))
	}
	return b.String()
}

// TestHookClaudeCodeSession replays a whole Claude Code session through
// the real binary: every answer's shape and event name, the lesson's
// strength after a failing call, the checkpoint on the task, the session
// note; and a second session at the same time, whose state never mixes.
func TestHookClaudeCodeSession(t *testing.T) {
	vaultDir, project := hookVaultFor(t)
	migration := filepath.Join(project, "db", "migrations", "0042.sql") // absolute, as Claude Code sends it
	s1 := func(name string, f map[string]any) string { return hookEvent("s1", project, name, f) }
	s2 := func(name string, f map[string]any) string { return hookEvent("s2", project, name, f) }
	got := transcript(t, vaultDir, "claude-code", []string{
		s1("SessionStart", map[string]any{"source": "startup"}),
		s1("UserPromptSubmit", map[string]any{"prompt": "Which package manager do we use for installs? My token is ghp_abcdefghijklmnopqrstuvwxyz0123456789AB"}),
		s2("SessionStart", map[string]any{"source": "startup"}),
		s2("UserPromptSubmit", map[string]any{"prompt": "which package manager for installs?"}), // s1 was given it, s2 was not
		s1("UserPromptSubmit", map[string]any{"prompt": "which package manager for installs, again?"}),
		s1("UserPromptSubmit", map[string]any{"prompt": "yes, go on"}),
		s1("PreToolUse", map[string]any{"tool_name": "Edit", "tool_use_id": "toolu_1",
			"tool_input": map[string]any{"file_path": migration, "old_string": "a", "new_string": "b"}}),
		s1("PostToolUse", map[string]any{"tool_name": "Edit", "tool_use_id": "toolu_1",
			"tool_input": map[string]any{"file_path": migration}, "tool_response": map[string]any{"filePath": migration, "success": true}}),
		s1("PreToolUse", map[string]any{"tool_name": "Bash", "tool_use_id": "toolu_2",
			"tool_input": map[string]any{"command": "make integration tests", "description": "run the integration tests"}}),
		s1("PostToolUseFailure", map[string]any{"tool_name": "Bash", "tool_use_id": "toolu_2",
			"tool_input": map[string]any{"command": "make integration tests"}, "error": "exit status 2"}),
		s1("PreToolUse", map[string]any{"tool_name": "Bash", "tool_use_id": "toolu_3", "tool_input": map[string]any{"command": "ls"}}),
		s1("PreCompact", map[string]any{"trigger": "auto", "custom_instructions": ""}),
		s1("SessionStart", map[string]any{"source": "compact"}),
		s1("SubagentStop", map[string]any{"stop_hook_active": false, "agent_id": "a1", "agent_type": "Explore"}),
		s1("Stop", map[string]any{"stop_hook_active": false}),
		s1("SessionEnd", map[string]any{"reason": "logout"}),
		s2("Stop", map[string]any{"stop_hook_active": false}),
	})
	golden(t, "hook/claude-code.golden", got)

	// The lesson shown before the passing edit and the failing run:
	// 0.5, +0.05, -0.1. The weak lesson and the Bash-only one were never
	// shown.
	lessonNote := mustRead(t, filepath.Join(vaultDir, "lessons", "Run migrations first.md"))
	if !strings.Contains(lessonNote, "strength: 0.45") || strings.Count(lessonNote, "(episode [[") != 2 {
		t.Errorf("the lesson after a success and a failure:\n%s", lessonNote)
	}
	for _, name := range []string{"Weak advice", "Any bash call"} {
		if strings.Contains(got, `- `+name+`: `) {
			t.Errorf("%s was shown before a tool call", name)
		}
	}
	taskNote := mustRead(t, filepath.Join(vaultDir, "tasks", "Ship the importer.md"))
	if !strings.Contains(taskNote, "note: Checkpoint before the conversation was compacted: working on Ship the importer") {
		t.Errorf("no checkpoint on the task:\n%s", taskNote)
	}
	notes, _ := filepath.Glob(filepath.Join(vaultDir, "sessions", "*.md"))
	if len(notes) != 2 {
		t.Fatalf("session notes: %v, want one per session", notes)
	}
	for _, p := range notes {
		note := mustRead(t, p)
		name := "s1"
		if strings.Contains(note, "session_id: s2") {
			name = "s2"
		}
		golden(t, "hook/claude-code-"+name+".md", timesRe.ReplaceAllString(note, "TIME"))
	}
	// Both sessions' states stay: the ended one's, marked ended, for a
	// resume to continue its note.
	left, _ := filepath.Glob(filepath.Join(vaultDir, ".vaultmem", "state", "sessions", "*"))
	if len(left) != 2 || !strings.Contains(mustRead(t, filepath.Join(vaultDir, ".vaultmem", "state", "sessions", "s1.json")), `"ended"`) {
		t.Errorf("session states left: %v, want both, s1's ended", left)
	}
	// The session notes are notes like any other: recall finds them.
	if out := ok(t, vaultDir, "search", "--json", "Ship the importer session"); !strings.Contains(out, "sessions/") {
		t.Errorf("search does not find the session notes:\n%s", out)
	}
}

// TestHookCodexSession: Codex's events, its strict outputs (JSON from a
// Stop hook, context only where it takes it).
func TestHookCodexSession(t *testing.T) {
	vaultDir, project := hookVaultFor(t)
	ev := func(name string, f map[string]any) string {
		f["turn_id"], f["model"] = "turn-1", "gpt-5-codex"
		return hookEvent("019a-codex", project, name, f)
	}
	got := transcript(t, vaultDir, "codex", []string{
		ev("SessionStart", map[string]any{"source": "startup"}),
		ev("UserPromptSubmit", map[string]any{"prompt": "which package manager for installs?"}),
		ev("PreToolUse", map[string]any{"tool_name": "Bash", "tool_use_id": "call_1",
			"tool_input": map[string]any{"command": "run the integration tests for db/migrations"}}),
		ev("PostToolUse", map[string]any{"tool_name": "Bash", "tool_use_id": "call_1",
			"tool_input": map[string]any{"command": "run the integration tests"}, "tool_response": map[string]any{"exit_code": 1, "output": "FAIL"}}),
		ev("PreCompact", map[string]any{"trigger": "manual"}),
		ev("SubagentStop", map[string]any{"agent_id": "a", "agent_type": "worker", "stop_hook_active": false, "last_assistant_message": nil}),
		ev("Stop", map[string]any{"stop_hook_active": false, "last_assistant_message": "done"}),
	})
	golden(t, "hook/codex.golden", got)
	if note := mustRead(t, filepath.Join(vaultDir, "lessons", "Run migrations first.md")); !strings.Contains(note, "strength: 0.4") {
		t.Errorf("a failed Bash call (exit_code 1) did not lower the lesson:\n%s", note)
	}
}

// TestHookNeverBlocks: the defects of the first hook, each a case that
// must exit 0 without blocking the agent.
func TestHookNeverBlocks(t *testing.T) {
	vaultDir, project := hookVaultFor(t)
	big := strings.Repeat("x", 3<<20) // a Write of a 3 MiB file
	for _, tt := range []struct {
		name, client, stdin string
		wantOut             string // a substring of stdout ("" for nothing)
		wantErr             string // a substring of stderr ("" for none)
	}{
		{"empty input", "claude-code", "", "", "input is empty"},
		{"not JSON", "claude-code", "{", "", "not an event's JSON"},
		{"over a MiB", "claude-code", hookEvent("s9", project, "PreToolUse", map[string]any{"tool_name": "Write", "tool_use_id": "t",
			"tool_input": map[string]any{"file_path": filepath.Join(project, "db", "migrations", "big.sql"), "content": big}}), `"hookEventName":"PreToolUse"`, ""},
		{"PostToolUse is answered as itself", "claude-code", hookEvent("s9", project, "PostToolUse", map[string]any{"tool_name": "Read",
			"tool_use_id": "t9", "tool_input": map[string]any{"file_path": "README.md"}, "tool_response": map[string]any{}}), "", ""},
		{"an event vaultmem does not answer", "claude-code", hookEvent("s9", project, "Notification", map[string]any{"message": "hi"}), "", ""},
		{"Gemini CLI wants JSON even for nothing", "gemini-cli", hookEvent("s9", project, "Notification", nil), "{}", ""},
		{"no session id", "claude-code", `{"hook_event_name":"Stop"}`, "", "no session id"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := vaultmemGuarded(t, project, tt.stdin, nil, "--vault", vaultDir, "hook", "--client", tt.client)
			if r.code != 0 {
				t.Fatalf("exit %d (stderr %q): a hook must never block the agent", r.code, r.stderr)
			}
			if tt.wantOut == "" && r.stdout != "" || !strings.Contains(r.stdout, tt.wantOut) {
				t.Errorf("stdout %q, want %q", r.stdout, tt.wantOut)
			}
			if tt.wantErr == "" && r.stderr != "" || !strings.Contains(r.stderr, tt.wantErr) || strings.Count(r.stderr, "\n") > 1 {
				t.Errorf("stderr %q, want one line with %q", r.stderr, tt.wantErr)
			}
		})
	}
}

// TestHookOutsideAVault: a hook whose folder is no vault (a code repo)
// writes nothing anywhere; nor does --vault on a folder that is no vault
// make one. The session's start is told in one line how to make a vault,
// on standard output for the agent; every other event says nothing.
func TestHookOutsideAVault(t *testing.T) {
	repo := t.TempDir()
	start := hookEvent("s1", repo, "SessionStart", map[string]any{"source": "startup"})
	prompt := hookEvent("s1", repo, "UserPromptSubmit", map[string]any{"prompt": "how do we run the tests?"})
	for _, args := range [][]string{{"hook"}, {"--vault", repo, "hook"}, {"lesson", "match", "--hook"}} {
		r := vaultmemGuarded(t, repo, start, nil, args...)
		if r.code != 0 || !strings.Contains(r.stdout, "no memory vault for this project yet") || strings.Count(r.stdout, "vaultmem setup") != 1 || r.stderr != "" {
			t.Errorf("%v SessionStart outside a vault: %+v", args, r)
		}
		if r = vaultmemGuarded(t, repo, prompt, nil, args...); r.code != 0 || r.stdout != "" || r.stderr != "" {
			t.Errorf("%v UserPromptSubmit outside a vault: %+v", args, r)
		}
		if entries, _ := os.ReadDir(repo); len(entries) != 0 {
			t.Fatalf("%v wrote %v into a folder that is no vault", args, entries)
		}
	}
}

// TestHookBesideAStoppedServer: a server that takes the event and never
// answers (stopped, stuck) costs the hook its time limit, not the
// client's: it says so in one line and gives nothing, and does not run
// the event a second time in process.
func TestHookBesideAStoppedServer(t *testing.T) {
	vaultDir, project := hookVaultFor(t)
	cfg := filepath.Join(vaultDir, ".vaultmem", "config.yaml")
	writeFile(t, cfg, strings.Replace(mustRead(t, cfg), "timeout: 8s", "timeout: 2s", 1))
	fakeServer(t, vaultDir, func(c net.Conn) {
		bufio.NewReader(c).ReadString('\n')
		c.Write([]byte("\n")) // taken, never answered
	})
	// VAULTMEM_SERVER=require gives the server the whole timeout to take
	// the request, so that a loaded machine cannot make the hook answer in
	// process instead (TestAskOnceTaken holds that a request the server
	// took is never run again here).
	r := vaultmemGuarded(t, project, hookEvent("s1", project, "UserPromptSubmit", map[string]any{"prompt": "which package manager for installs?"}),
		[]string{"VAULTMEM_SERVER=require"}, "--vault", vaultDir, "hook")
	if r.code != 0 || r.stdout != "" || !strings.Contains(r.stderr, "no answer within hooks.timeout") {
		t.Errorf("beside a stuck server: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(vaultDir, ".vaultmem", "state", "sessions", "s1.json")); err == nil {
		t.Error("the event ran in process too after the server took it")
	}
}

// TestHookThroughTheServer: with the vault's server running (the MCP
// server the client started), the hook's answer comes from it and is the
// one the hook makes in process.
func TestHookThroughTheServer(t *testing.T) {
	vaultDir, project := hookVaultFor(t)
	w := startWatch(t, vaultDir)
	addr := app.ServerAddress(vaultDir)
	waitForServer(t, addr, w)
	prompt := hookEvent("s1", project, "UserPromptSubmit", map[string]any{"prompt": "which package manager for installs?"})
	r := vaultmemGuarded(t, project, prompt, nil, "--vault", vaultDir, "hook", "--json")
	if r.code != 0 || !strings.Contains(r.stdout, "memory/use-pnpm.md") {
		t.Fatalf("through the server: %+v", r)
	}
	// The server gave it, so the session's state says so: not again.
	r = vaultmemGuarded(t, project, prompt, nil, "--vault", vaultDir, "hook", "--json")
	if r.code != 0 || strings.Contains(r.stdout, "use-pnpm") {
		t.Errorf("given twice in one session: %+v", r)
	}
}

// TestHookConcurrentSessions: two sessions whose hooks run at once, each
// with calls that run at once (a client runs the hooks of parallel tool
// calls together): every prompt and outcome lands in its own session's
// note, none in the other's, and none is lost.
func TestHookConcurrentSessions(t *testing.T) {
	vaultDir, project := hookVaultFor(t)
	migration := filepath.Join(project, "db", "migrations", "0001.sql")
	var wg sync.WaitGroup
	for _, s := range []string{"alpha", "beta"} {
		wg.Go(func() {
			ev := func(name string, f map[string]any) string { return hookEvent(s, project, name, f) }
			vaultmemGuarded(t, vaultDir, ev("SessionStart", map[string]any{"source": "startup"}), nil, "--vault", vaultDir, "hook")
			var calls sync.WaitGroup
			for i := range 3 {
				calls.Go(func() {
					id := fmt.Sprintf("%s-call-%d", s, i)
					vaultmemGuarded(t, vaultDir, ev("UserPromptSubmit", map[string]any{"prompt": fmt.Sprintf("%s prompt number %d", s, i)}), nil, "--vault", vaultDir, "hook")
					vaultmemGuarded(t, vaultDir, ev("PreToolUse", map[string]any{"tool_name": "Edit", "tool_use_id": id,
						"tool_input": map[string]any{"file_path": migration}}), nil, "--vault", vaultDir, "hook")
					vaultmemGuarded(t, vaultDir, ev("PostToolUse", map[string]any{"tool_name": "Edit", "tool_use_id": id,
						"tool_input": map[string]any{"file_path": migration}, "tool_response": map[string]any{"success": true}}), nil, "--vault", vaultDir, "hook")
				})
			}
			calls.Wait()
			vaultmemGuarded(t, vaultDir, ev("Stop", map[string]any{}), nil, "--vault", vaultDir, "hook")
		})
	}
	wg.Wait()
	notes, _ := filepath.Glob(filepath.Join(vaultDir, "sessions", "*.md"))
	if len(notes) != 2 {
		t.Fatalf("session notes %v", notes)
	}
	for _, p := range notes {
		note := mustRead(t, p)
		own, other := "alpha", "beta"
		if strings.Contains(note, "session_id: beta") {
			own, other = other, own
		}
		if strings.Count(note, own+" prompt number") != 3 || strings.Contains(note, other) {
			t.Errorf("%s's note mixes or loses prompts:\n%s", own, note)
		}
		if n := strings.Count(note, "before Edit: the call succeeded"); n != 3 {
			t.Errorf("%s's note has %d outcomes, want 3:\n%s", own, n, note)
		}
	}
	// Six successes on one lesson, from two sessions at once: 0.5 + 6 × 0.05.
	if note := mustRead(t, filepath.Join(vaultDir, "lessons", "Run migrations first.md")); !strings.Contains(note, "strength: 0.8") {
		t.Errorf("six concurrent outcomes, the lesson:\n%s", note)
	}
}
