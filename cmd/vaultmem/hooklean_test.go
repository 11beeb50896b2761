package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hookJSON runs one event through `vaultmem hook --json` in its own
// process, no server running, and returns vaultmem's answer's context.
func hookJSON(t *testing.T, vaultDir, event string) string {
	t.Helper()
	r := vaultmemGuarded(t, vaultDir, event, []string{"VAULTMEM_SERVER=off"}, "--vault", vaultDir, "hook", "--client", "claude-code", "--json")
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("hook %s: exit %d, stderr %q", event, r.code, r.stderr)
	}
	var ans struct {
		Context string `json:"context"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &ans); err != nil {
		t.Fatalf("hook %s: the answer is not JSON: %q", event, r.stdout)
	}
	return ans.Context
}

// editInPlace rewrites a note as Obsidian saves it: the same file, new
// text (its folder's time unchanged).
func editInPlace(t *testing.T, p, old, new string) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s does not hold %q:\n%s", p, old, b)
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(strings.Replace(string(b), old, new, 1)); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestHookSeesEditsBetweenHooks: the lean hooks of a tool call leave the
// vault's walk to the prompt's hook, and nothing edited in Obsidian
// between two hooks is missed: a memory edited in place after a prompt
// and a run of tool calls is what the next prompt is given, and a lesson
// edited in place is what the next tool call is shown.
func TestHookSeesEditsBetweenHooks(t *testing.T) {
	vaultDir, project := hookVaultFor(t)
	migration := filepath.Join(project, "db", "migrations", "0042.sql")
	s1 := func(name string, f map[string]any) string { return hookEvent("s1", project, name, f) }
	edit := func(id string) map[string]any {
		return map[string]any{"tool_name": "Edit", "tool_use_id": id,
			"tool_input": map[string]any{"file_path": migration, "old_string": "a", "new_string": "b"}}
	}
	hookJSON(t, vaultDir, s1("SessionStart", map[string]any{"source": "startup"}))
	if got := hookJSON(t, vaultDir, s1("UserPromptSubmit", map[string]any{"prompt": "which package manager for installs?"})); !strings.Contains(got, "Always use pnpm") {
		t.Fatalf("the first prompt was not given the memory:\n%s", got)
	}
	if got := hookJSON(t, vaultDir, s1("PreToolUse", edit("toolu_1"))); !strings.Contains(got, "run make migrate before the integration tests") {
		t.Fatalf("the first edit was not shown the lesson:\n%s", got)
	}
	// Tool calls that change nothing the index holds (the outcome of a
	// call no lesson was shown for), then ones on the stamp the last sync
	// left: the lean path.
	for _, id := range []string{"toolu_2", "toolu_3"} {
		hookJSON(t, vaultDir, s1("PreToolUse", map[string]any{"tool_name": "Bash", "tool_use_id": id, "tool_input": map[string]any{"command": "ls"}}))
		hookJSON(t, vaultDir, s1("PostToolUse", map[string]any{"tool_name": "Bash", "tool_use_id": id,
			"tool_input": map[string]any{"command": "ls"}, "tool_response": map[string]any{"stdout": "", "exit_code": 0}}))
	}

	editInPlace(t, filepath.Join(vaultDir, "lessons", "Run migrations first.md"), "run make migrate before", "run make migrate-all before")
	if got := hookJSON(t, vaultDir, s1("PreToolUse", edit("toolu_4"))); !strings.Contains(got, "run make migrate-all before the integration tests") {
		t.Errorf("the edit after the lesson was edited in place was not shown the new lesson:\n%s", got)
	}
	hookJSON(t, vaultDir, s1("PreToolUse", map[string]any{"tool_name": "Bash", "tool_use_id": "toolu_5", "tool_input": map[string]any{"command": "ls"}}))

	editInPlace(t, filepath.Join(vaultDir, "memory", "use-pnpm.md"), "Always use pnpm for package installs", "Always use bun, the zebrafinch installer, for package installs")
	hookJSON(t, vaultDir, s1("PreToolUse", map[string]any{"tool_name": "Bash", "tool_use_id": "toolu_6", "tool_input": map[string]any{"command": "ls"}}))
	// Another session's first prompt, so that nothing was given to it yet.
	got := hookJSON(t, vaultDir, hookEvent("s2", project, "UserPromptSubmit", map[string]any{"prompt": "which package manager for installs?"}))
	if !strings.Contains(got, "zebrafinch") || strings.Contains(got, "Always use pnpm") {
		t.Errorf("the prompt after the memory was edited in place was not given the new text:\n%s", got)
	}
}
