// Package markdown reads a note the way Obsidian does, from its bytes and
// nothing else: YAML frontmatter, [[wikilinks]] and markdown links (with
// headings, block ids and embeds), headings, block ids, tags, aliases and
// Obsidian comments, and where code, math and HTML hide what looks like a
// link ([Parse] gives a [Note]). It also edits a note's text without
// disturbing the rest of it (frontmatter keys, the body, an append-only
// section) and merges three versions of a note (git's merge driver).
//
// It does no I/O: package vault reads and writes the files. It is a leaf
// of vaultmem: it imports no other vaultmem package (.ci/run checks it).
package markdown
