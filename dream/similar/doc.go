// Package similar is how Dream compares memories: whether two say the
// same thing (their normal forms equal, see sameness.Canonical; the
// sentences of one held in the other), how they differ in meaning (see
// meaning.Differ), whether they may contradict each other (opposite
// polar sentences about the same terms, or near the same words of
// opposite meaning), how alike their words are, and which pairs are worth
// comparing at all: candidates from an inverted index or a merge of
// hashed words, never from all pairs of strings, and from the sketches
// (each memory's distinct words and polar sentences) that an incremental
// run keeps in the cache so as to read from disk only the memories that
// may pair with a changed one.
//
// Find is the rule that decides what becomes of the pairs of alike
// memories of one type: merges of the provably same around the most
// complete (never into a sync service's conflict copy), contradictions,
// and possible duplicates for review, which a judge (Dream's LLM, when
// there is one) may settle.
//
// Its Memory is what comparing needs of a memory (path, type, name, the
// note as read and its content as planned, whether it changed since the
// last run, what it is a conflict copy of) with what comparing read from
// it, kept until the planned content changes; package dream's memory of a
// run embeds it, and dream applies what Find found (archives the merged,
// flags the pairs). similar writes nothing but its cache of sketches.
//
// It imports markdown, meaning, memory, sameness, text, vault (the cache
// file), and dream/proposal (the normal form of a name); never dream.
package similar
