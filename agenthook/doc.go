// Package agenthook speaks the hook dialects of the agent clients vaultmem
// sets up (Claude Code, Codex, Gemini CLI, Cursor): it reads a client's
// hook event from its JSON, as each documents it, into an app.HookEvent,
// and writes an app.HookAnswer back in the output that client expects for
// that event. The clients name their events their own way
// (UserPromptSubmit, BeforeAgent, beforeSubmitPrompt) and accept context
// on different events in different shapes; what vaultmem does with an
// event is the same for all of them (app.App.Hook). The rest of the
// clients' dialect lives here too: the variable through which the Claude
// Code plugin names its vault (PluginVault), and when a client's hook must
// stay silent because another of vaultmem's answers the event
// (AnsweredElsewhere: Cursor runs Claude Code's hooks beside its own).
//
// It is a front end's part, beside cmd/vaultmem, and imports app.
package agenthook
