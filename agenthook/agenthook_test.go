package agenthook_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/agenthook"
	"github.com/vaultmem/vaultmem/app"
	"github.com/vaultmem/vaultmem/setup"
)

var now = time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)

func TestRead(t *testing.T) {
	for _, tt := range []struct {
		client setup.Client
		in     string
		kind   app.HookKind
		check  func(app.HookEvent) bool
	}{
		{setup.ClaudeCode, `{"hook_event_name":"SessionStart","session_id":"s","cwd":"/p","source":"compact"}`, app.HookSessionStart,
			func(e app.HookEvent) bool { return e.Session == "s" && e.Cwd == "/p" && e.Source == "compact" }},
		{setup.ClaudeCode, `{"hook_event_name":"PostToolUseFailure","session_id":"s","tool_name":"Bash","tool_use_id":"t","error":"exit 1"}`, app.HookAfterTool,
			func(e app.HookEvent) bool { return e.Failed && e.ToolUseID == "t" }},
		{setup.ClaudeCode, `{"hook_event_name":"PostToolUse","session_id":"s","tool_name":"Write","tool_input":{"file_path":"/p/a.go"},"tool_response":{"success":true}}`, app.HookAfterTool,
			func(e app.HookEvent) bool {
				return !e.Failed && e.Edits && len(e.Paths) == 1 && e.Paths[0] == "/p/a.go"
			}},
		{setup.Codex, `{"hook_event_name":"PostToolUse","session_id":"c","turn_id":"1","model":"m","tool_name":"Bash","tool_response":{"exit_code":2}}`, app.HookAfterTool,
			func(e app.HookEvent) bool { return e.Failed }},
		{setup.Codex, `{"hook_event_name":"SessionEnd","session_id":"c","reason":"exit"}`, app.HookSessionEnd,
			func(e app.HookEvent) bool { return e.Session == "c" && e.Reason == "exit" }},
		{setup.GeminiCLI, `{"hook_event_name":"BeforeAgent","session_id":"g","prompt":"hi there","timestamp":"2026-11-27T10:00:00Z"}`, app.HookPrompt,
			func(e app.HookEvent) bool { return e.Prompt == "hi there" && e.Client == "gemini-cli" }},
		{setup.GeminiCLI, `{"hook_event_name":"AfterTool","session_id":"g","tool_name":"run_shell_command","tool_response":{"llmContent":"x","error":{"message":"boom"}}}`, app.HookAfterTool,
			func(e app.HookEvent) bool { return e.Failed }},
		{setup.Cursor, `{"hook_event_name":"postToolUse","conversation_id":"cv","workspace_roots":["/w"],"tool_name":"Shell","tool_output":"{\"exitCode\":1}"}`, app.HookAfterTool,
			func(e app.HookEvent) bool { return e.Session == "cv" && e.Cwd == "/w" && e.Failed }},
		{setup.Cursor, `{"hook_event_name":"beforeSubmitPrompt","conversation_id":"cv","prompt":"p"}`, app.HookPrompt,
			func(e app.HookEvent) bool { return e.Prompt == "p" }},
		{setup.Cursor, `{"hook_event_name":"preCompact","conversation_id":"cv","trigger":"auto","messages_to_compact":12}`, app.HookCompact,
			func(e app.HookEvent) bool { return e.Compacts }},
		{setup.Cursor, `{"hook_event_name":"preCompact","conversation_id":"cv","trigger":"manual","messages_to_compact":0}`, app.HookCompact,
			func(e app.HookEvent) bool { return !e.Compacts }},
		{setup.ClaudeCode, `{"hook_event_name":"PreCompact","session_id":"s","trigger":"manual"}`, app.HookCompact,
			func(e app.HookEvent) bool { return !e.Compacts }},
		{setup.Codex, `{"hook_event_name":"PostCompact","session_id":"c","turn_id":"1","trigger":"auto"}`, app.HookCompacted,
			func(e app.HookEvent) bool { return e.Session == "c" }},
	} {
		t.Run(string(tt.client)+"/"+string(tt.kind), func(t *testing.T) {
			ev, err := agenthook.Read(tt.client, strings.NewReader(tt.in), now)
			if err != nil {
				t.Fatal(err)
			}
			if ev.Kind != tt.kind || !ev.Time.Equal(now) || !tt.check(ev.HookEvent) {
				t.Errorf("Read = %+v", ev)
			}
		})
	}
}

// TestReadTooLarge: an input over MaxInput is read through (the client's
// write never fails) and refused, saying so.
func TestReadTooLarge(t *testing.T) {
	r := strings.NewReader(`{"hook_event_name":"UserPromptSubmit","prompt":"` + strings.Repeat("x", agenthook.MaxInput) + `"}`)
	_, err := agenthook.Read(setup.ClaudeCode, r, now)
	if !errors.Is(err, agenthook.ErrInputTooLarge) || r.Len() != 0 {
		t.Errorf("err %v, %d bytes left unread", err, r.Len())
	}
}

func TestReadRefuses(t *testing.T) {
	for _, in := range []string{"", "  \n", "{", `["not", "an", "object"]`} {
		if _, err := agenthook.Read(setup.ClaudeCode, strings.NewReader(in), now); err == nil || errors.Is(err, agenthook.ErrUnknownEvent) {
			t.Errorf("Read(%q) = %v, want an input error", in, err)
		}
	}
	// Another client's event name, or one vaultmem does not answer.
	for _, in := range []string{`{"hook_event_name":"BeforeAgent"}`, `{"hook_event_name":"Notification"}`, `{}`} {
		if _, err := agenthook.Read(setup.ClaudeCode, strings.NewReader(in), now); !errors.Is(err, agenthook.ErrUnknownEvent) {
			t.Errorf("Read(%q) = %v, want ErrUnknownEvent", in, err)
		}
	}
}

func TestOutput(t *testing.T) {
	ctx := app.HookAnswer{Context: "remember this"}
	none := app.HookAnswer{}
	for _, tt := range []struct {
		client setup.Client
		event  string
		ans    app.HookAnswer
		want   string
	}{
		{setup.ClaudeCode, "UserPromptSubmit", ctx, `{"hookSpecificOutput":{"additionalContext":"remember this","hookEventName":"UserPromptSubmit"}}`},
		{setup.ClaudeCode, "PreToolUse", ctx, `{"hookSpecificOutput":{"additionalContext":"remember this","hookEventName":"PreToolUse"}}`},
		{setup.ClaudeCode, "PreCompact", ctx, ``}, // takes no context
		{setup.ClaudeCode, "Stop", none, ``},
		{setup.Codex, "Stop", none, `{}`},
		{setup.Codex, "SessionStart", ctx, `{"hookSpecificOutput":{"additionalContext":"remember this","hookEventName":"SessionStart"}}`},
		{setup.GeminiCLI, "BeforeAgent", ctx, `{"hookSpecificOutput":{"additionalContext":"remember this","hookEventName":"BeforeAgent"}}`},
		{setup.GeminiCLI, "BeforeTool", ctx, `{}`}, // takes no context
		{setup.Cursor, "sessionStart", ctx, `{"additional_context":"remember this"}`},
		{setup.Cursor, "beforeSubmitPrompt", ctx, `{"continue":true}`},
		{setup.Cursor, "stop", none, `{}`},
	} {
		ev := agenthook.Event{Name: tt.event}
		if got := strings.TrimSuffix(string(ev.Output(tt.client, tt.ans)), "\n"); got != tt.want {
			t.Errorf("%s %s: %s, want %s", tt.client, tt.event, got, tt.want)
		}
	}
}

// FuzzRead: any input gives an event or an error, never a panic, and an
// event's output is JSON or nothing for every client.
func FuzzRead(f *testing.F) {
	f.Add(`{"hook_event_name":"PostToolUse","session_id":"s","tool_response":"{\"exitCode\":1}"}`)
	f.Add(`{"hook_event_name":"postToolUse","conversation_id":"c","tool_output":"\"x\"","workspace_roots":[]}`)
	f.Add(`{"hook_event_name":"AfterTool","tool_input":[1,2],"tool_response":{"error":null}}`)
	f.Fuzz(func(t *testing.T, in string) {
		for _, c := range setup.Clients {
			ev, err := agenthook.Read(c, strings.NewReader(in), now)
			out := ev.Output(c, app.HookAnswer{Context: "x"})
			if len(out) > 0 && !json.Valid(out) {
				t.Fatalf("%s: output %q is not JSON", c, out)
			}
			if err == nil && ev.Kind == "" {
				t.Fatalf("%s: an event without a kind", c)
			}
		}
	})
}
