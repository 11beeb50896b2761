package agenthook_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/agenthook"
	"github.com/vaultmem/vaultmem/setup"
)

// TestGeminiPrompt: in gemini -p, BeforeAgent's prompt starts with the
// SessionStart hooks' context in <hook_context>; the prompt vaultmem
// reads is the user's alone.
func TestGeminiPrompt(t *testing.T) {
	for _, tt := range []struct{ prompt, want string }{
		{"<hook_context>Memory from the user's vault (vaultmem).\n# Memory\n- [Use pnpm](memory/use-pnpm.md)</hook_context>\n\nwhich package manager?", "which package manager?"},
		{"<hook_context>a</hook_context>\n\n<hook_context>b</hook_context>\n\nwhy FTS5?", "why FTS5?"},
		{"plain prompt about <hook_context> tags", "plain prompt about <hook_context> tags"},
		{"<hook_context>only context</hook_context>", ""},
	} {
		in, _ := json.Marshal(map[string]any{"hook_event_name": "BeforeAgent", "session_id": "g", "prompt": tt.prompt})
		ev, err := agenthook.Read(setup.GeminiCLI, strings.NewReader(string(in)), now)
		if err != nil || ev.Prompt != tt.want {
			t.Errorf("prompt %q: read %q (%v), want %q", tt.prompt, ev.Prompt, err, tt.want)
		}
	}
	// Another client's prompt is the user's as it is.
	in := `{"hook_event_name":"UserPromptSubmit","session_id":"c","prompt":"<hook_context>x</hook_context> y"}`
	if ev, _ := agenthook.Read(setup.ClaudeCode, strings.NewReader(in), now); ev.Prompt != "<hook_context>x</hook_context> y" {
		t.Errorf("Claude Code's prompt changed: %q", ev.Prompt)
	}
}

// geminiTranscript writes a Gemini CLI 0.61 session file: a metadata
// line, then messages as JSON lines, a message written again (with its
// tokens) when it changes.
func geminiTranscript(t *testing.T, lines ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "session-2026-11-29T10-00-abcd.jsonl")
	body := `{"sessionId":"g","projectHash":"h","startTime":"2026-11-29T10:00:00Z","lastUpdated":"2026-11-29T10:00:00Z","kind":"main"}` + "\n" +
		strings.Join(lines, "\n") + "\n"
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestGeminiCompress: PreCompress fires before Gemini's own threshold
// check, on every turn; only /compress (manual) compacts for certain, and
// an automatic one is confirmed at the turn's end when the transcript
// shows the history shrank.
func TestGeminiCompress(t *testing.T) {
	read := func(name string, f map[string]any) (compacts, compacted bool) {
		t.Helper()
		f["hook_event_name"], f["session_id"] = name, "g"
		in, _ := json.Marshal(f)
		ev, err := agenthook.Read(setup.GeminiCLI, strings.NewReader(string(in)), now)
		if err != nil {
			t.Fatal(err)
		}
		return ev.Compacts, ev.Compacted
	}
	if c, _ := read("PreCompress", map[string]any{"trigger": "auto"}); c {
		t.Error("an automatic PreCompress is taken as a certain compaction")
	}
	if c, _ := read("PreCompress", map[string]any{"trigger": "manual"}); !c {
		t.Error("/compress is not taken as a compaction")
	}
	user := func(id string) string {
		return `{"id":"` + id + `","timestamp":"2026-11-29T10:00:00Z","type":"user","content":[{"text":"q"}]}`
	}
	reply := func(id string, input int) string {
		return `{"id":"` + id + `","timestamp":"2026-11-29T10:00:01Z","type":"gemini","content":"a","tokens":{"input":` + strconv.Itoa(input) + `,"output":10,"cached":0,"thoughts":0,"tool":0,"total":0}}`
	}
	noTokens := func(id string) string { return `{"id":"` + id + `","type":"gemini","content":"a"}` }
	for _, tt := range []struct {
		name  string
		lines []string
		want  bool
	}{
		{"history grew", []string{user("u1"), reply("g1", 50000), user("u2"), reply("g2", 52000)}, false},
		{"history compressed in the last turn", []string{user("u1"), reply("g1", 500000), user("u2"), reply("g2", 40000)}, true},
		{"compressed in an earlier turn", []string{user("u1"), reply("g1", 500000), user("u2"), reply("g2", 40000), user("u3"), reply("g3", 41000)}, false},
		{"tokens written with the message again", []string{user("u1"), reply("g1", 500000), user("u2"), noTokens("g2"), reply("g2", 30000)}, true},
		{"first turn", []string{user("u1"), reply("g1", 900)}, false},
		{"tool calls in the turn, the first reply counts", []string{user("u1"), reply("g1", 600000), user("u2"), reply("g2", 50000), reply("g3", 700000)}, true},
		{"no user message", []string{reply("g1", 5), reply("g2", 1)}, false},
		{"garbage lines", []string{"not json", user("u1"), "{", reply("g1", 500000), user("u2"), reply("g2", 1000)}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := geminiTranscript(t, tt.lines...)
			if _, got := read("AfterAgent", map[string]any{"transcript_path": p}); got != tt.want {
				t.Errorf("compacted = %v, want %v", got, tt.want)
			}
		})
	}
	for _, p := range []string{"", filepath.Join(t.TempDir(), "missing.jsonl"), t.TempDir()} {
		if _, got := read("AfterAgent", map[string]any{"transcript_path": p}); got {
			t.Errorf("transcript %q: compacted", p)
		}
	}
}
