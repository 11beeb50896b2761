package agenthook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/vaultmem/vaultmem/app"
	"github.com/vaultmem/vaultmem/setup"
)

// events map each client's event names to vaultmem's kinds. A failure
// event is an after-tool event whose call failed.
var events = map[setup.Client]map[string]app.HookKind{
	setup.ClaudeCode: {
		"SessionStart": app.HookSessionStart, "UserPromptSubmit": app.HookPrompt, "PreToolUse": app.HookBeforeTool,
		"PostToolUse": app.HookAfterTool, "PostToolUseFailure": app.HookAfterTool, "PreCompact": app.HookCompact,
		"Stop": app.HookStop, "SubagentStop": app.HookSubagentStop, "SessionEnd": app.HookSessionEnd,
	},
	setup.Codex: {
		"SessionStart": app.HookSessionStart, "UserPromptSubmit": app.HookPrompt, "PreToolUse": app.HookBeforeTool,
		"PostToolUse": app.HookAfterTool, "PreCompact": app.HookCompact, "PostCompact": app.HookCompacted,
		"Stop": app.HookStop, "SubagentStop": app.HookSubagentStop, "SessionEnd": app.HookSessionEnd,
	},
	setup.GeminiCLI: {
		"SessionStart": app.HookSessionStart, "BeforeAgent": app.HookPrompt, "BeforeTool": app.HookBeforeTool,
		"AfterTool": app.HookAfterTool, "PreCompress": app.HookCompact, "AfterAgent": app.HookStop, "SessionEnd": app.HookSessionEnd,
	},
	setup.Cursor: {
		"sessionStart": app.HookSessionStart, "beforeSubmitPrompt": app.HookPrompt, "preToolUse": app.HookBeforeTool,
		"postToolUse": app.HookAfterTool, "postToolUseFailure": app.HookAfterTool, "preCompact": app.HookCompact,
		"stop": app.HookStop, "subagentStop": app.HookSubagentStop, "sessionEnd": app.HookSessionEnd,
	},
}

// contextEvents are the events whose output may add context for the
// agent, by client.
var contextEvents = map[setup.Client]map[string]bool{
	setup.ClaudeCode: {"SessionStart": true, "UserPromptSubmit": true, "PreToolUse": true, "PostToolUse": true, "PostToolUseFailure": true},
	setup.Codex:      {"SessionStart": true, "UserPromptSubmit": true, "PreToolUse": true, "PostToolUse": true},
	setup.GeminiCLI:  {"SessionStart": true, "BeforeAgent": true, "AfterTool": true},
	setup.Cursor:     {"sessionStart": true, "postToolUse": true},
}

// Event is a client's hook event: what vaultmem makes of it, and the
// client's own name for it, which the answer repeats.
type Event struct {
	app.HookEvent
	Name string
}

// input is every field of the clients' hook inputs that vaultmem reads.
type input struct {
	HookEventName  string          `json:"hook_event_name"`
	SessionID      string          `json:"session_id"`
	ConversationID string          `json:"conversation_id"` // Cursor's session
	Cwd            string          `json:"cwd"`
	WorkspaceRoots []string        `json:"workspace_roots"` // Cursor's project
	Source         string          `json:"source"`
	Prompt         string          `json:"prompt"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolResponse   json.RawMessage `json:"tool_response"`
	ToolOutput     json.RawMessage `json:"tool_output"` // Cursor's
	ToolUseID      string          `json:"tool_use_id"`
	Trigger        string          `json:"trigger"`
	Reason         string          `json:"reason"`
	TranscriptPath string          `json:"transcript_path"`
	// A sub-agent's stop (Claude Code, Codex): its kind, its transcript
	// and its last answer.
	AgentType            string `json:"agent_type"`
	AgentTranscriptPath  string `json:"agent_transcript_path"`
	LastAssistantMessage string `json:"last_assistant_message"`
	// MessagesToCompact is Cursor's preCompact count of the messages it
	// is about to compact (nil: not sent).
	MessagesToCompact *int `json:"messages_to_compact"`
}

// ErrUnknownEvent is returned for an event vaultmem does not answer:
// the hook then says nothing.
var ErrUnknownEvent = errors.New("agenthook: an event vaultmem does not answer")

// MaxInput is the most of a hook's input Read takes: a Write of a large
// file, or a prompt with a large paste, is in the input whole, and past
// this size reading and decoding it alone would use the hook's time.
const MaxInput = 64 << 20

// ErrInputTooLarge is returned for an input over MaxInput: the hook then
// answers nothing.
var ErrInputTooLarge = errors.New("agenthook: the hook's input is over the limit")

// Read reads one hook event of client c from r (at most MaxInput bytes:
// the rest is read and dropped, so that the client's write never fails,
// and the event is refused with ErrInputTooLarge), at now.
func Read(c setup.Client, r io.Reader, now time.Time) (Event, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxInput+1))
	if err != nil {
		return Event{}, fmt.Errorf("read the hook's input: %w", err)
	}
	if len(b) > MaxInput {
		n, _ := io.Copy(io.Discard, r)
		return Event{}, fmt.Errorf("%w: %d bytes, over %d: answered with nothing", ErrInputTooLarge, int64(len(b))+n, MaxInput)
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return Event{}, errors.New("the hook's input is empty: it should be the client's event JSON")
	}
	var in input
	if err := json.Unmarshal(b, &in); err != nil {
		return Event{}, fmt.Errorf("the hook's input is not an event's JSON: %w", err)
	}
	kind, ok := events[c][in.HookEventName]
	if !ok {
		return Event{Name: in.HookEventName}, fmt.Errorf("%w: %s %q", ErrUnknownEvent, c, in.HookEventName)
	}
	ev := app.HookEvent{Kind: kind, Client: string(c), Session: in.SessionID, Cwd: in.Cwd, Time: now,
		Source: in.Source, Prompt: in.Prompt, Tool: in.ToolName, ToolUseID: in.ToolUseID, Trigger: in.Trigger, Reason: in.Reason}
	if c == setup.GeminiCLI {
		gemini(&ev, in)
	}
	if c == setup.Cursor {
		// Cursor says no compaction came after its preCompact, and its
		// preCompact counts the messages it compacts: none, no compaction.
		ev.Compacts = kind == app.HookCompact && (in.MessagesToCompact == nil || *in.MessagesToCompact > 0)
		if in.ConversationID != "" {
			ev.Session = in.ConversationID
		}
		if ev.Cwd == "" && len(in.WorkspaceRoots) > 0 {
			ev.Cwd = in.WorkspaceRoots[0]
		}
	}
	if kind == app.HookSubagentStop {
		ev.Subagent = in.AgentType
		ev.Found = subagentResult(in.LastAssistantMessage, in.AgentTranscriptPath)
	}
	if ev.Tool != "" {
		ev.Paths, ev.Words, ev.Edits = toolCall(ev.Tool, in.ToolInput)
	}
	if kind == app.HookAfterTool {
		ev.Failed = strings.HasSuffix(in.HookEventName, "Failure") || failed(in.ToolResponse) || failed(in.ToolOutput)
	}
	return Event{HookEvent: ev, Name: in.HookEventName}, nil
}

// failed reads a tool's result for a failure: an error flag, an error,
// success false, an interrupted run or a non-zero exit status. A result
// that is a JSON string holding an object (Cursor's) is read inside.
func failed(raw json.RawMessage) bool {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		raw = json.RawMessage(s)
	}
	var r map[string]any
	if json.Unmarshal(raw, &r) != nil {
		return false
	}
	for k, v := range r {
		switch k {
		case "is_error", "isError", "interrupted":
			if b, ok := v.(bool); ok && b {
				return true
			}
		case "success":
			if b, ok := v.(bool); ok && !b {
				return true
			}
		case "exit_code", "exitCode", "returncode", "exit_status":
			if n, ok := v.(float64); ok && n != 0 {
				return true
			}
		case "error":
			switch e := v.(type) {
			case string:
				if e != "" {
					return true
				}
			case map[string]any:
				return true
			}
		}
	}
	return false
}

// Output is what the hook prints for ev's answer ans in client c's
// dialect: the context where the event takes one, else what the client
// needs to read as "nothing to add" (nil: print nothing).
func (ev Event) Output(c setup.Client, ans app.HookAnswer) []byte {
	canSay := ans.Context != "" && contextEvents[c][ev.Name]
	var out any
	switch {
	case canSay && c == setup.Cursor:
		out = map[string]any{"additional_context": ans.Context}
	case canSay:
		out = map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": ev.Name, "additionalContext": ans.Context}}
	case c == setup.Cursor && ev.Name == "beforeSubmitPrompt":
		out = map[string]any{"continue": true}
	case c == setup.ClaudeCode:
		return nil
	default:
		// Codex wants JSON from a Stop hook, Gemini CLI from every hook,
		// and an empty object says nothing to both and to Cursor.
		out = map[string]any{}
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil
	}
	return append(b, '\n')
}
