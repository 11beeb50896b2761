// Package dream is vaultmem's consolidation pass over the memories of a
// vault: it merges duplicate memories, flags contradicting ones for a
// human, makes relative dates absolute, and rewrites MEMORY.md, losing
// nothing on the way.
//
// A run plans first, from the memories as they are on disk, and applies
// the plan through the vault's Writer, compare-before-write: a memory a
// human edits meanwhile is skipped, never overwritten. A merged-away
// memory is never deleted: it stays a note with merged_into and archived
// in its frontmatter, and every link to it elsewhere is pointed at the
// memory it was merged into, its text kept. Each run that changes
// something appends a dated entry to a dream log note, and may become one
// git commit. A checkpoint under .vaultmem/state makes runs incremental,
// and a lock file makes them one at a time across processes.
//
// With an LLM and Options.Propose, a run first proposes memories and
// lessons from the session notes that ended (status: proposed): that is
// its subpackage proposal's job, given the run's writer, index and memory
// store; dream decides when to propose and reports what was proposed.
//
// Its other parts are subpackages below it, each given what it needs
// through its own small types and interfaces: similar compares memories
// and finds the duplicates and contradictions (whether two say the same,
// how they differ, whether they contradict each other, which pairs are
// worth comparing, the sketches an incremental run keeps, which memories
// merge into which), and dream applies what it found; runstate keeps the run
// records in the state files (the checkpoint and its merge, the journal);
// relink points links at the memories merges went into.
//
// It imports vault, markdown, text, dates, meaning and sameness (a
// memory's dates and words), memory (MEMORY.md and the flagged pairs),
// lesson (its type, the proposals' lessons), gitrepo (a run's commit),
// chat (the optional LLM), its subpackages proposal, similar, runstate and
// relink, and index through the small Index interface it declares.
package dream
