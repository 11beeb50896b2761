package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSessionLifeOneNote (issue 39, item 1 in part): a session is one
// note for its whole life. A SessionEnd with no start (claude mcp list)
// writes nothing; a session that only starts leaves no note; a session
// resumed after its end continues its note (its earlier prompts kept, a
// "Resumed" line, the new prompts appended), never "the note already
// exists".
func TestSessionLifeOneNote(t *testing.T) {
	vaultDir, project := hookVaultFor(t)
	run := func(session, name string, f map[string]any) {
		t.Helper()
		r := vaultmemGuarded(t, vaultDir, hookEvent(session, project, name, f), nil, "--vault", vaultDir, "hook", "--client", "claude-code")
		if r.code != 0 || r.stderr != "" {
			t.Fatalf("%s %s: exit %d, stderr %q", session, name, r.code, r.stderr)
		}
	}
	notes := func() []string {
		n, _ := filepath.Glob(filepath.Join(vaultDir, "sessions", "*.md"))
		return n
	}
	run("mcp-list", "SessionEnd", map[string]any{"reason": "other"})
	run("idle", "SessionStart", map[string]any{"source": "startup"})
	run("idle", "SessionEnd", map[string]any{"reason": "prompt_input_exit"})
	if n := notes(); len(n) != 0 {
		t.Fatalf("notes of sessions that did nothing: %q", n)
	}
	if _, err := os.Stat(filepath.Join(vaultDir, ".vaultmem", "state", "sessions", "mcp-list.json")); err == nil {
		t.Error("an end with no start made a session state")
	}

	run("s1", "SessionStart", map[string]any{"source": "startup"})
	run("s1", "UserPromptSubmit", map[string]any{"prompt": "which package manager for installs?"})
	run("s1", "Stop", map[string]any{"stop_hook_active": false})
	run("s1", "SessionEnd", map[string]any{"reason": "logout"})
	run("s1", "SessionStart", map[string]any{"source": "resume"})
	run("s1", "UserPromptSubmit", map[string]any{"prompt": "and how do we run the integration tests?"})
	run("s1", "Stop", map[string]any{"stop_hook_active": false})
	n := notes()
	if len(n) != 1 {
		t.Fatalf("notes %q, want the session's one", n)
	}
	note := mustRead(t, n[0])
	for _, want := range []string{"which package manager for installs?", "Resumed ", "and how do we run the integration tests?"} {
		if !strings.Contains(note, want) {
			t.Errorf("the resumed session's note lacks %q:\n%s", want, note)
		}
	}
	if strings.Contains(note, "Ended ") {
		t.Errorf("the resumed session's note says it ended:\n%s", note)
	}
}

// TestOutcomeNotRecordedIsSaid (issue 39, item 8 in part): a lesson
// archived between the call it was shown for and the call's end cannot
// take the outcome; the hook says so on stderr (exit 0) and the session
// note says so, instead of "the call succeeded" alone.
func TestOutcomeNotRecordedIsSaid(t *testing.T) {
	vaultDir, project := hookVaultFor(t)
	migration := filepath.Join(project, "db", "migrations", "0042.sql")
	ev := func(name string, f map[string]any) string { return hookEvent("s-archived", project, name, f) }
	hook := func(e string) result {
		return vaultmemGuarded(t, vaultDir, e, nil, "--vault", vaultDir, "hook", "--client", "claude-code")
	}
	hook(ev("SessionStart", map[string]any{"source": "startup"}))
	if r := hook(ev("PreToolUse", map[string]any{"tool_name": "Edit", "tool_use_id": "t1",
		"tool_input": map[string]any{"file_path": migration}})); !strings.Contains(r.stdout, "Run migrations first") {
		t.Fatalf("the lesson was not shown: %s", r.stdout)
	}
	p := filepath.Join(vaultDir, "lessons", "Run migrations first.md")
	writeFile(t, p, strings.Replace(mustRead(t, p), "type: lesson\n", "type: lesson\narchived: 2026-11-29\n", 1))
	r := hook(ev("PostToolUse", map[string]any{"tool_name": "Edit", "tool_use_id": "t1",
		"tool_input": map[string]any{"file_path": migration}, "tool_response": map[string]any{"success": true}}))
	if r.code != 0 || !strings.Contains(r.stderr, "was not recorded") {
		t.Errorf("PostToolUse: exit %d, stderr %q", r.code, r.stderr)
	}
	hook(ev("Stop", map[string]any{"stop_hook_active": false}))
	notes, _ := filepath.Glob(filepath.Join(vaultDir, "sessions", "*.md"))
	if len(notes) != 1 || !strings.Contains(mustRead(t, notes[0]), "the outcome was not recorded") {
		t.Errorf("the session note does not say the outcome was not recorded: %q", notes)
	}
}

// TestPromptNeverGivesTheSessionsOwnNote (issue 39, item 2): the
// session's own note says what it is doing; a later prompt of the same
// session is never given it back as memory, while another session is.
func TestPromptNeverGivesTheSessionsOwnNote(t *testing.T) {
	vaultDir, project := hookVaultFor(t)
	ev := func(name string, f map[string]any) string { return hookEvent("s-own", project, name, f) }
	hook := func(e string) result {
		t.Helper()
		r := vaultmemGuarded(t, vaultDir, e, nil, "--vault", vaultDir, "hook", "--client", "claude-code")
		if r.code != 0 || r.stderr != "" {
			t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
		}
		return r
	}
	// The note's prompts are not indexed (they are not memory at all);
	// what the session did is: the file it changed.
	file := filepath.Join(project, "zebrafish_quokka_telemetry.go")
	hook(ev("SessionStart", map[string]any{"source": "startup"}))
	hook(ev("UserPromptSubmit", map[string]any{"prompt": "fix the telemetry"}))
	hook(ev("PostToolUse", map[string]any{"tool_name": "Write", "tool_use_id": "w1",
		"tool_input": map[string]any{"file_path": file}, "tool_response": map[string]any{"success": true}}))
	hook(ev("Stop", map[string]any{"stop_hook_active": false}))
	notes, _ := filepath.Glob(filepath.Join(vaultDir, "sessions", "*.md"))
	if len(notes) != 1 || !strings.Contains(mustRead(t, notes[0]), "zebrafish_quokka_telemetry.go") {
		t.Fatalf("the session's note: %q", notes)
	}
	// Another session is given it: an episode of the vault's.
	other := vaultmemGuarded(t, vaultDir, hookEvent("s-other", project, "UserPromptSubmit", map[string]any{"prompt": "zebrafish quokka telemetry quirks"}), nil, "--vault", vaultDir, "hook", "--client", "claude-code")
	if !strings.Contains(other.stdout, "sessions/") {
		t.Fatalf("another session is not given the note (the test finds nothing to hold back): %s", other.stdout)
	}
	if r := hook(ev("UserPromptSubmit", map[string]any{"prompt": "zebrafish quokka telemetry quirks, again"})); strings.Contains(r.stdout, "sessions/") {
		t.Errorf("the session was given its own note:\n%s", r.stdout)
	}
}
