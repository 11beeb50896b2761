package hookpolicy

import (
	"errors"
	"time"
)

// Kind is what happened in an agent's session, in vaultmem's terms:
// each client names its hook events its own way, and the hook command
// maps them to these.
type Kind string

// The kinds of hook events.
const (
	SessionStart Kind = "session-start" // a session started, resumed, was cleared or compacted
	Prompt       Kind = "prompt"        // the user sent a prompt
	BeforeTool   Kind = "before-tool"   // the agent is about to call a tool
	AfterTool    Kind = "after-tool"    // a tool call ended (Failed says how)
	Compact      Kind = "compact"       // the conversation is about to be compacted (it may not be)
	Compacted    Kind = "compacted"     // the conversation was compacted
	Stop         Kind = "stop"          // the agent finished its turn
	SubagentStop Kind = "subagent-stop" // a subagent finished
	SessionEnd   Kind = "session-end"   // the session ended
)

// Event is one event of an agent's session, as a hook gets it.
type Event struct {
	Kind Kind `json:"kind"`
	// Client is the agent's program (claude-code, codex, gemini-cli,
	// cursor); Session its session id, which keeps each session's state
	// apart.
	Client  string `json:"client"`
	Session string `json:"session"`
	// Agent is whose focus the session works under ("" is chosen by the
	// one rule for the agent id: see config.Config.Agent).
	Agent string `json:"agent,omitempty"`
	// Cwd is the folder the agent works in: the paths of its tool calls
	// are made relative to it.
	Cwd string `json:"cwd,omitempty"`
	// Time is when the hook ran; the same event sent twice (a server that
	// took it but did not answer in time) is recognised by it.
	Time time.Time `json:"time"`
	// Source is why a session started: startup, resume, clear, compact.
	Source string `json:"source,omitempty"`
	// Prompt is the user's prompt.
	Prompt string `json:"prompt,omitempty"`
	// Tool and ToolUseID are the tool call's; Failed says the call failed
	// (an error, a non-zero exit status).
	Tool      string `json:"tool,omitempty"`
	ToolUseID string `json:"tool_use_id,omitempty"`
	Failed    bool   `json:"failed,omitempty"`
	// Paths are the files the tool call names (absolute, or relative to
	// Cwd), Words the words of its command, query or description; Edits
	// says the call changes the files at Paths. Each client's tools and
	// arguments are read into these by its hook (package agenthook).
	Paths []string `json:"paths,omitempty"`
	Words string   `json:"words,omitempty"`
	Edits bool     `json:"edits,omitempty"`
	// Trigger is why the conversation is compacted: manual or auto.
	Trigger string `json:"trigger,omitempty"`
	// Compacts says, on a compact event, that the client compacts for
	// certain after it; else the checkpoint waits for the client to say
	// the conversation was compacted (a compacted event, a session start
	// after a compaction, a stop with Compacted).
	Compacts bool `json:"compacts,omitempty"`
	// Compacted says, on a stop event, that the conversation was
	// compacted during the turn (as the client's transcript shows).
	Compacted bool `json:"compacted,omitempty"`
	// Reason is why the session ended, as the client says.
	Reason string `json:"reason,omitempty"`
	// Subagent is the kind of sub-agent that stopped ("Explore"), Found
	// its last answer (cut short): what it found, for its parent.
	Subagent string `json:"subagent,omitempty"`
	Found    string `json:"found,omitempty"`
}

// Answer is what a hook tells the agent.
type Answer struct {
	// Context is the text to add to the agent's context; "" for nothing.
	// What it holds from the vault is in vaultmem's frame (package frame),
	// under a line of vaultmem's own.
	Context string `json:"context,omitempty"`
	// Given names what the context holds: the notes recalled, the
	// lessons shown.
	Given []string `json:"given,omitempty"`
	// Note is the session note's path, once written.
	Note string `json:"note,omitempty"`
}

// ErrUnknownKind is returned (wrapped, naming the kind) for an event whose
// kind is none of the kinds above: the caller's mistake, not the vault's.
var ErrUnknownKind = errors.New("unknown event kind")
