// Package session keeps what an agent's session did, for the hooks that
// carry memory through it: a small state per session while it runs (the
// prompts, the context already given, the lessons shown before each tool
// call and their outcomes, the files changed, the tasks touched, the
// checkpoint written before a compaction), and at its end a session note
// (type: session) that a human reads in Obsidian and that tasks and
// lessons link to as the episode they came from.
//
// A session's state is one JSON file under .vaultmem/state/sessions/,
// named by the client's session id, so that two sessions never mix; every
// change goes through the vault Writer's UpdateState, so that the hooks of
// one session, which the client may run at once, never lose one another's
// changes. Prompts are kept as the config says (off, first line, full).
// Every text an agent gave is written with its secrets masked, in the
// state file and in the note alike (see [State.Encode] and package
// redact).
//
// It imports markdown and redact.
package session
