// Package vault reads and writes an Obsidian vault the way Obsidian itself
// reads it: markdown notes with YAML frontmatter, [[wikilinks]], markdown
// links, headings, block ids, tags and aliases.
//
// It is the domain leaf of vaultmem: it imports no other vaultmem package
// (.ci/run checks it).
// Reads go through an [fs.FS] with slash-separated, vault-relative paths, so
// tests run on [testing/fstest.MapFS]; every write goes through the one
// [Writer], which is atomic, serialised across processes by a lock file and
// refuses to overwrite a note that changed since it was read.
package vault
