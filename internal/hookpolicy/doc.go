// Package hookpolicy is what vaultmem does at each event of an agent's
// session (docs/hooks.md): at its start, the checkpoint taken before a
// compaction, the focused task's context, MEMORY.md and what needs a
// person's review, fitted to a token budget; with a prompt, what recall
// finds that holds enough of its words and was not given yet, unless the
// prompt is trivial, and the prompt kept for the session note as
// hooks.prompts says, secrets masked; before a tool call, the lessons for
// it; after it, each lesson's outcome and the files it changed; before a
// compaction, a checkpoint that goes into the focused task's log once the
// compaction happened; at a stop, the session note, a sub-agent's finding
// in the focused task's log; at a session's end, the states of sessions
// ended long ago forgotten.
//
// A [Policy] is given the parts of one opened vault through small
// interfaces it declares (the session states and the note writer, the
// index's few calls, recall, the task, memory and lesson stores); app
// builds one over its own parts for App.Hook, the use case every front end
// calls (the CLI's `vaultmem hook`, the resident server's hook op).
// Reading each client's payload is package agenthook's.
//
// It imports config, frame, index, lesson, memory, recall, redact,
// session, task, text and vault; no app and no front end (.ci/run checks
// it).
package hookpolicy
