// Package obsidian writes what Obsidian shows of the vault beside the
// notes: a base (Obsidian Bases, YAML) per note kind, whose table views
// list the memories, tasks, lessons and sessions by the frontmatter keys
// vaultmem writes, and a JSON Canvas 1.0 file of the task tree. They are
// views: the notes stay the truth, and every file is generated from them
// or from vaultmem's own keys.
//
// A person's edit of a view is never overwritten. A base is rewritten only
// while it still has the hash vaultmem recorded when it last wrote it
// (.vaultmem/state/views.yaml); once a person edits it, it is theirs. A
// canvas is merged: vaultmem updates only the nodes and edges it made
// (their ids start with "vaultmem-"), keeping where a person moved or
// resized them, and keeps every node, edge and group a person added. A
// canvas file that does not parse as JSON Canvas is refused, never
// overwritten. Every write goes through the vault's Writer
// (compare-before-write).
//
// It imports the note kinds (memory, task, lesson, session) for their
// types and keys, vault and markdown.
package obsidian
