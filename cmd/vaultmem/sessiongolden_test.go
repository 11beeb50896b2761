package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// loop is one agent session's run of hook events through the real
// binary, as its client would send them.
type loop struct {
	t              *testing.T
	vault, project string
	client         string
	out            strings.Builder // the readable transcript
}

func newLoop(t *testing.T, client string) *loop {
	vaultDir, project := hookVaultFor(t)
	return &loop{t: t, vault: vaultDir, project: project, client: client}
}

// send runs one event of session id and writes what the agent was told
// (the context, as text) into the transcript; the hook must exit 0 with
// nothing on stderr.
func (l *loop) send(id, name string, f map[string]any) string {
	l.t.Helper()
	if f == nil {
		f = map[string]any{}
	}
	r := vaultmemGuarded(l.t, l.vault, hookEvent(id, l.project, name, f), nil, "--vault", l.vault, "hook", "--client", l.client)
	if r.code != 0 || r.stderr != "" {
		l.t.Fatalf("%s %s: exit %d, stderr %q", id, name, r.code, r.stderr)
	}
	told := strings.TrimSpace(r.stdout)
	var out struct {
		Specific struct {
			Context string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if json.Unmarshal([]byte(told), &out) == nil && out.Specific.Context != "" {
		told = out.Specific.Context
	}
	if told == "" {
		told = "(nothing)"
	}
	fmt.Fprintf(&l.out, "== %s %s\n%s\n", id, name, strings.TrimSpace(timesRe.ReplaceAllString(told, "TIME")))
	return told
}

// note says a step of the scenario in the transcript.
func (l *loop) note(format string, args ...any) {
	fmt.Fprintf(&l.out, "-- "+format+"\n", args...)
}

// notes are the session notes' paths, relative to the vault.
func (l *loop) notes() []string {
	var out []string
	ps, _ := filepath.Glob(filepath.Join(l.vault, "sessions", "*.md"))
	for _, p := range ps {
		rel, _ := filepath.Rel(l.vault, p)
		out = append(out, filepath.ToSlash(rel))
	}
	return out
}

// transcript is the run's transcript, then every session note and the
// focused task's log, times replaced: the golden file's text.
func (l *loop) transcript() string {
	var b strings.Builder
	b.WriteString(l.out.String())
	for _, p := range l.notes() {
		fmt.Fprintf(&b, "\n== note %s\n%s", timesRe.ReplaceAllString(p, "TIME"), timesRe.ReplaceAllString(mustRead(l.t, filepath.Join(l.vault, p)), "TIME"))
	}
	task := mustRead(l.t, filepath.Join(l.vault, "tasks", "Ship the importer.md"))
	_, log, _ := strings.Cut(task, "## Log")
	fmt.Fprintf(&b, "\n== the focused task's log\n%s", timesRe.ReplaceAllString(strings.TrimLeft(log, "\n"), "TIME"))
	return b.String()
}

// shiftState moves every time of session id's state back by d: the
// session as if it had run d earlier (a resume in a later minute, or a
// day later).
func (l *loop) shiftState(id string, d time.Duration) {
	l.t.Helper()
	p := filepath.Join(l.vault, ".vaultmem", "state", "sessions", id+".json")
	var st map[string]any
	if err := json.Unmarshal([]byte(mustRead(l.t, p)), &st); err != nil {
		l.t.Fatal(err)
	}
	var shift func(v any) any
	shift = func(v any) any {
		switch x := v.(type) {
		case string:
			if tm, err := time.Parse(time.RFC3339Nano, x); err == nil {
				return tm.Add(-d).Format(time.RFC3339Nano)
			}
		case map[string]any:
			for k, e := range x {
				x[k] = shift(e)
			}
		case []any:
			for i, e := range x {
				x[i] = shift(e)
			}
		}
		return v
	}
	b, _ := json.Marshal(shift(st))
	writeFile(l.t, p, string(b))
}

// TestResumeGolden (issue 39, item 1): a Claude Code session resumed in
// the same minute after its end, again in a later minute, and a day
// later, is one note: every resume is given memory, its prompts are
// appended, and each resume is said.
func TestResumeGolden(t *testing.T) {
	l := newLoop(t, "claude-code")
	l.send("s1", "SessionStart", map[string]any{"source": "startup"})
	l.send("s1", "UserPromptSubmit", map[string]any{"prompt": "which package manager for installs?"})
	l.send("s1", "Stop", nil)
	l.send("s1", "SessionEnd", map[string]any{"reason": "prompt_input_exit"})
	l.note("claude -c in the same minute")
	if told := l.send("s1", "SessionStart", map[string]any{"source": "resume"}); !strings.Contains(told, "What you remember") {
		t.Errorf("the resume in the same minute got no memory: %s", told)
	}
	l.send("s1", "UserPromptSubmit", map[string]any{"prompt": "and the integration tests?"})
	l.send("s1", "Stop", nil)
	l.send("s1", "SessionEnd", map[string]any{"reason": "prompt_input_exit"})
	l.note("claude --resume, the session having run 3 minutes earlier")
	l.shiftState("s1", 3*time.Minute)
	l.send("s1", "SessionStart", map[string]any{"source": "resume"})
	l.send("s1", "UserPromptSubmit", map[string]any{"prompt": "where do the migrations live?"})
	l.send("s1", "Stop", nil)
	l.send("s1", "SessionEnd", map[string]any{"reason": "logout"})
	l.note("claude --resume a day later")
	l.shiftState("s1", 24*time.Hour)
	l.send("s1", "SessionStart", map[string]any{"source": "resume"})
	l.send("s1", "UserPromptSubmit", map[string]any{"prompt": "one more thing about the CSV importer"})
	l.send("s1", "Stop", nil)
	if n := l.notes(); len(n) != 1 {
		t.Fatalf("notes %v, want the session's one", n)
	}
	note := mustRead(t, filepath.Join(l.vault, l.notes()[0]))
	for _, p := range []string{"which package manager", "integration tests?", "migrations live?", "CSV importer"} {
		if !strings.Contains(note, p) {
			t.Errorf("the note lacks the prompt %q", p)
		}
	}
	if n := strings.Count(note, "Resumed "); n != 3 {
		t.Errorf("the note says %d resumes, want 3:\n%s", n, note)
	}
	golden(t, "hook/resume.golden", l.transcript())
}

// TestClearCompactGolden (issue 39, items 1 and 4): /clear ends one
// Claude Code session and starts another (two notes); a /compact that
// compacts nothing (PreCompact, no SessionStart after it) leaves no
// checkpoint in the task's log or the note, and one that compacts
// (SessionStart source compact) logs exactly one and gives it back; a
// SessionEnd alone (claude mcp list) writes nothing.
func TestClearCompactGolden(t *testing.T) {
	l := newLoop(t, "claude-code")
	l.note("claude mcp list")
	l.send("mcp-list", "SessionEnd", map[string]any{"reason": "other"})
	l.send("a", "SessionStart", map[string]any{"source": "startup"})
	l.send("a", "UserPromptSubmit", map[string]any{"prompt": "which package manager for installs?"})
	l.note("/compact of a short conversation: nothing to compact")
	l.send("a", "PreCompact", map[string]any{"trigger": "manual", "custom_instructions": ""})
	l.send("a", "Stop", nil)
	if log := mustRead(t, filepath.Join(l.vault, "tasks", "Ship the importer.md")); strings.Contains(log, "Checkpoint") {
		t.Errorf("a compaction that compacted nothing left a checkpoint:\n%s", log)
	}
	l.note("/compact that compacts")
	l.send("a", "UserPromptSubmit", map[string]any{"prompt": "now edit the importer's CSV reader"})
	l.send("a", "PreCompact", map[string]any{"trigger": "manual", "custom_instructions": ""})
	if told := l.send("a", "SessionStart", map[string]any{"source": "compact"}); !strings.Contains(told, "Before the compaction") {
		t.Errorf("the start after the compaction was not given the checkpoint: %s", told)
	}
	l.note("/clear: the session ends, a new one starts")
	l.send("a", "SessionEnd", map[string]any{"reason": "clear"})
	l.send("b", "SessionStart", map[string]any{"source": "clear"})
	l.send("b", "UserPromptSubmit", map[string]any{"prompt": "start over on the CSV importer"})
	l.send("b", "Stop", nil)
	if n := l.notes(); len(n) != 2 {
		t.Errorf("notes %v, want a's and b's", n)
	}
	task := mustRead(t, filepath.Join(l.vault, "tasks", "Ship the importer.md"))
	if n := strings.Count(task, "Checkpoint before the conversation was compacted"); n != 1 {
		t.Errorf("%d checkpoints in the task's log, want the one compaction's:\n%s", n, task)
	}
	golden(t, "hook/clear-compact.golden", l.transcript())
}

// TestCodexUUIDv7Golden (issue 39, item 2 of Why): two Codex sessions
// started a second apart have UUIDv7 ids with the same first 8
// characters; each is given memory and keeps its own note. Codex's
// PostCompact says the compaction happened.
func TestCodexUUIDv7Golden(t *testing.T) {
	l := newLoop(t, "codex")
	a, b := "019ad2f4-7c1e-7a10-9b5e-3f0c2a9d4e11", "019ad2f4-8b02-7f44-8c21-6e5b1d7a9c02"
	for _, id := range []string{a, b} {
		if told := l.send(id, "SessionStart", map[string]any{"source": "startup", "model": "gpt-5-codex"}); !strings.Contains(told, "What you remember") {
			t.Errorf("session %s got no memory: %s", id, told)
		}
	}
	l.send(a, "UserPromptSubmit", map[string]any{"prompt": "which package manager for installs?", "turn_id": "1"})
	l.send(b, "UserPromptSubmit", map[string]any{"prompt": "which package manager for installs?", "turn_id": "1"})
	l.send(a, "PreCompact", map[string]any{"trigger": "auto", "turn_id": "1"})
	l.send(a, "PostCompact", map[string]any{"trigger": "auto", "turn_id": "1"})
	l.send(a, "Stop", map[string]any{"stop_hook_active": false, "turn_id": "1"})
	l.send(b, "Stop", map[string]any{"stop_hook_active": false, "turn_id": "1"})
	l.send(a, "SessionEnd", map[string]any{"reason": "exit"})
	l.send(b, "SessionEnd", map[string]any{"reason": "exit"})
	if n := l.notes(); len(n) != 2 {
		t.Errorf("notes %v, want one per session", n)
	}
	for _, id := range []string{a, b} {
		st := mustRead(t, filepath.Join(l.vault, ".vaultmem", "state", "sessions", id+".json"))
		if !strings.Contains(st, `"ended"`) {
			t.Errorf("Codex's SessionEnd did not end session %s: %s", id, st)
		}
	}
	golden(t, "hook/codex-uuidv7.golden", l.transcript())
}

// TestGeminiPromptModeGolden (issue 39, item 4): a gemini -p session.
// BeforeAgent's prompt starts with vaultmem's own SessionStart context in
// <hook_context>: recall runs on the user's question and finds its
// memory. PreCompress fires (auto) before every turn and compacts
// nothing: no checkpoint anywhere; a turn whose history the transcript
// shows shrank logs one.
func TestGeminiPromptModeGolden(t *testing.T) {
	l := newLoop(t, "gemini-cli")
	id := "5f0c8a52-3b7e-4c19-a2d4-9e61b0c7f3a8"
	transcript := filepath.Join(t.TempDir(), "session-2026-11-29T10-00-5f0c8a52.jsonl")
	writeTranscript := func(lines ...string) {
		writeFile(t, transcript, `{"sessionId":"`+id+`","projectHash":"h","startTime":"2026-11-29T10:00:00Z","kind":"main"}`+"\n"+strings.Join(lines, "\n")+"\n")
	}
	turn := func(n int, input int) []string {
		return []string{fmt.Sprintf(`{"id":"u%d","type":"user","content":[{"text":"q"}]}`, n),
			fmt.Sprintf(`{"id":"g%d","type":"gemini","content":"a","tokens":{"input":%d,"output":9}}`, n, input)}
	}
	start := l.send(id, "SessionStart", map[string]any{"source": "startup", "transcript_path": transcript})
	prompt := "<hook_context>" + start + "</hook_context>\n\nwhich package manager for installs?"
	l.send(id, "PreCompress", map[string]any{"trigger": "auto", "transcript_path": transcript})
	if told := l.send(id, "BeforeAgent", map[string]any{"prompt": prompt, "transcript_path": transcript}); !strings.Contains(told, "Always use pnpm") {
		t.Errorf("the prompt's question found nothing: %s", told)
	}
	writeTranscript(turn(1, 4000)...)
	l.send(id, "AfterAgent", map[string]any{"prompt": prompt, "prompt_response": "pnpm", "transcript_path": transcript})
	l.send(id, "PreCompress", map[string]any{"trigger": "auto", "transcript_path": transcript})
	l.send(id, "BeforeAgent", map[string]any{"prompt": "and the CSV importer?", "transcript_path": transcript})
	writeTranscript(append(turn(1, 4000), turn(2, 4600)...)...)
	l.send(id, "AfterAgent", map[string]any{"prompt": "and the CSV importer?", "prompt_response": "ok", "transcript_path": transcript})
	if task := mustRead(t, filepath.Join(l.vault, "tasks", "Ship the importer.md")); strings.Contains(task, "Checkpoint") {
		t.Errorf("PreCompress on every turn logged a checkpoint:\n%s", task)
	}
	l.note("a turn whose history Gemini compressed")
	l.send(id, "PreCompress", map[string]any{"trigger": "auto", "transcript_path": transcript})
	l.send(id, "BeforeAgent", map[string]any{"prompt": "go on with the importer", "transcript_path": transcript})
	writeTranscript(slices.Concat(turn(1, 4000), turn(2, 600000), turn(3, 30000))...)
	l.send(id, "AfterAgent", map[string]any{"prompt": "go on with the importer", "prompt_response": "ok", "transcript_path": transcript})
	l.send(id, "SessionEnd", map[string]any{"reason": "exit", "transcript_path": transcript})
	task := mustRead(t, filepath.Join(l.vault, "tasks", "Ship the importer.md"))
	if n := strings.Count(task, "Checkpoint before the conversation was compacted"); n != 1 {
		t.Errorf("%d checkpoints in the task's log, want the compressed turn's:\n%s", n, task)
	}
	note := mustRead(t, filepath.Join(l.vault, l.notes()[0]))
	if strings.Contains(note, "hook_context") || strings.Contains(note, "Memory from the user's vault") {
		t.Errorf("the session note kept vaultmem's own context as a prompt:\n%s", note)
	}
	golden(t, "hook/gemini-prompt-mode.golden", l.transcript())
}

// TestOutcomeOnlyForCallsAbout (issue 39, item 7): a lesson shown before
// a call on its keywords alone (the call is not what it is about) keeps
// its strength when the call fails; a call it is about (its path glob)
// still counts.
func TestOutcomeOnlyForCallsAbout(t *testing.T) {
	l := newLoop(t, "claude-code")
	lessonPath := filepath.Join(l.vault, "lessons", "Run migrations first.md")
	before := mustRead(t, lessonPath)
	l.send("s", "SessionStart", map[string]any{"source": "startup"})
	// "make migrate" is in the lesson's text, not its trigger: shown on
	// its keywords, the failing test run is not its outcome.
	told := l.send("s", "PreToolUse", map[string]any{"tool_name": "Bash", "tool_use_id": "t1",
		"tool_input": map[string]any{"command": "go test ./... # before make migrate"}})
	if !strings.Contains(told, "Run migrations first") {
		t.Fatalf("the lesson was not shown on its keywords (the test has nothing to check): %s", told)
	}
	l.send("s", "PostToolUseFailure", map[string]any{"tool_name": "Bash", "tool_use_id": "t1",
		"tool_input": map[string]any{"command": "go test ./..."}, "error": "exit status 1"})
	if after := mustRead(t, lessonPath); after != before {
		t.Errorf("an unrelated failing call changed the lesson:\n%s", after)
	}
	l.send("s", "PreToolUse", map[string]any{"tool_name": "Edit", "tool_use_id": "t2",
		"tool_input": map[string]any{"file_path": filepath.Join(l.project, "db", "migrations", "0043.sql")}})
	l.send("s", "PostToolUse", map[string]any{"tool_name": "Edit", "tool_use_id": "t2",
		"tool_input": map[string]any{"file_path": filepath.Join(l.project, "db", "migrations", "0043.sql")}, "tool_response": map[string]any{"success": true}})
	l.send("s", "Stop", nil)
	if after := mustRead(t, lessonPath); !strings.Contains(after, "strength: 0.55") {
		t.Errorf("the call the lesson is about did not count:\n%s", after)
	}
	note := mustRead(t, filepath.Join(l.vault, l.notes()[0]))
	if !strings.Contains(note, "not counted, the call was not what the lesson is about") {
		t.Errorf("the session note does not say the outcome was not counted:\n%s", note)
	}
}

// TestSubagentFindingsReachTheTask (issue 41, item 6): when a sub-agent
// stops, its last answer is logged on the task it worked under, so the
// parent's next context (the task's log) holds what it found.
func TestSubagentFindingsReachTheTask(t *testing.T) {
	for _, client := range []string{"claude-code", "codex"} {
		t.Run(client, func(t *testing.T) {
			l := newLoop(t, client)
			l.send("p", "SessionStart", map[string]any{"source": "startup"})
			l.send("p", "UserPromptSubmit", map[string]any{"prompt": "find where the CSV importer starts"})
			l.send("p", "SubagentStop", map[string]any{"agent_id": "a1", "agent_type": "Explore", "stop_hook_active": false,
				"last_assistant_message": "The importer starts in cmd/import/main.go;\nthe CSV reader is internal/csvread."})
			task := mustRead(t, filepath.Join(l.vault, "tasks", "Ship the importer.md"))
			if !strings.Contains(task, "note: Sub-agent Explore found: The importer starts in cmd/import/main.go; the CSV reader is internal/csvread.") {
				t.Fatalf("the task's log:\n%s", task)
			}
			if told := l.send("p", "SessionStart", map[string]any{"source": "compact"}); !strings.Contains(told, "Sub-agent Explore found") {
				t.Errorf("the parent's next context does not hold it:\n%s", told)
			}
			// A sub-agent that says nothing logs nothing.
			l.send("p", "SubagentStop", map[string]any{"agent_id": "a2", "agent_type": "Plan", "stop_hook_active": false})
			if task := mustRead(t, filepath.Join(l.vault, "tasks", "Ship the importer.md")); strings.Contains(task, "Plan found") {
				t.Errorf("a silent sub-agent was logged:\n%s", task)
			}
		})
	}
}

// TestHookWritesDirectly: a hook's process lives for one event; with
// Obsidian's CLI on the PATH (vault.access: auto, the default) it still
// writes the session note directly, never running the CLI, which takes a
// subprocess's time and may start the app.
func TestHookWritesDirectly(t *testing.T) {
	vaultDir, project := hookVaultFor(t)
	bin := t.TempDir()
	mark := filepath.Join(t.TempDir(), "obsidian-ran")
	writeFile(t, filepath.Join(bin, "obsidian"), "#!/bin/sh\ntouch '"+mark+"'\necho \"$PWD\"\n")
	if err := os.Chmod(filepath.Join(bin, "obsidian"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + bin + ":" + os.Getenv("PATH"), "VAULTMEM_SERVER=off"}
	for _, ev := range []string{
		hookEvent("s-direct", project, "SessionStart", map[string]any{"source": "startup"}),
		hookEvent("s-direct", project, "UserPromptSubmit", map[string]any{"prompt": "which package manager for installs?"}),
		hookEvent("s-direct", project, "Stop", nil),
	} {
		if r := vaultmemGuarded(t, vaultDir, ev, env, "--vault", vaultDir, "hook", "--client", "claude-code"); r.code != 0 || r.stderr != "" {
			t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
		}
	}
	if notes, _ := filepath.Glob(filepath.Join(vaultDir, "sessions", "*.md")); len(notes) != 1 {
		t.Fatalf("session notes %v", notes)
	}
	if _, err := os.Stat(mark); err == nil {
		t.Error("a hook ran Obsidian's CLI")
	}
}
