// Package relink points links at the memories Dream's merges went into:
// after a merge, every link to a memory merged away (but those of the
// notes a run leaves out: the merged notes, MEMORY.md, the dream log) is
// pointed at the memory it went into, its text kept, so that it reads the
// same in Obsidian ([[old]] becomes [[winner|old]]; a markdown link gets
// the winner's path relative to its note; a link to a block follows the
// block under the id the merge gave it, see RenamedBlock). Rewrite does
// it over the notes of the vault, as the index resolved their links, each
// note in one compare-before-write; Winners does it in the merges'
// winners as planned, which the index has not read.
//
// It is given the index and the writer through the small interfaces it
// declares (Index, Notes), and imports index (its edge types), markdown
// and vault; never dream, which calls it.
package relink
