// Package app is vaultmem's application: the one place that opens a vault
// (its config, the one Writer, the index, the memory, task and lesson
// stores, recall and Dream) and the use cases every front end shares,
// grouped by what they act on: [App.Notes] (show, read, write, list,
// search, links), [App.Tasks] (the task tree), [App.Lessons] (the
// lessons), and on App itself recall, remember, Dream, the hooks' events,
// sync, doctor, init and Claude Code adoption, the git merge drivers. The
// front ends (the CLI in cmd/vaultmem, the MCP server in mcpserver, the
// agent hooks) are thin adapters over it: their arguments become one call
// of a use case, its answer their output. The parts it was split into by
// job (the hook policy, the local transport, making a vault, the merge
// drivers, Obsidian's CLI) are under internal/ and serve it alone.
//
// A long-running process calls [App.Serve]: it keeps the index current
// with a watcher, keeps MEMORY.md listing the memories, runs Dream when
// its gate opens, and answers the read use cases for CLI processes over a
// local socket (package internal/localrpc; [App.Handle], [Ask], the ops [Op]), with the same methods a front end calls
// in process.
//
// Errors carry a [Class] (an invalid request, a conflict, a cancellation)
// that each front end maps to its own form: an exit code, a tool error.
// app imports no front end, and only the front ends import it; they
// import no package below it (.ci/run checks all three): the lower
// packages' result types and sentinels a front end prints or tests are
// re-exported here as aliases (frontend.go).
package app
