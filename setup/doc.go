// Package setup registers vaultmem with an agent client (Claude Code,
// Codex, Gemini CLI, Cursor) by editing the client's own files: its MCP
// server list, its hooks and its instruction file (CLAUDE.md, AGENTS.md,
// GEMINI.md, a Cursor rule). It takes out again exactly what it added.
//
// It is pure file editing and runs no program. Every edit merges into what
// the file holds: a JSON file is edited in place (one member or element at
// a time, the rest of the file keeping its bytes, comments and layout), a
// TOML or markdown file gets a block of lines between marker lines. A run
// reads and plans every file first and writes nothing when one of them
// does not parse; it saves a copy of each file it changes next to it and
// writes through a temporary file renamed over the old one.
//
// It imports no other vaultmem package.
package setup
