// Package vectors holds the index's embedding vectors in memory for an
// exact scan: every chunk's vector quantized to one signed byte per
// dimension with a scale of its own, all of them contiguous ([Set]),
// scanned on every core with AVX2 and FMA where the CPU has them
// ([Set.Nearest]). A set is never changed once searches can see it: a
// process's own changes make new sets that share its arrays ([Set.With],
// [Set.Without]). The vector pack is a set's file format, written in one
// stream ([WritePack]) and used where its bytes lie, mapped into memory
// ([MapFile], [DecodePack]), so that a new process loads every vector at
// once.
//
// It is not where vectors are kept: the index stores them in its SQLite
// database, reads them into a set, and decides when a set or a pack is
// current (their versions) and where the pack lies. It embeds nothing
// (that is package embed's job). It imports only the standard library,
// golang.org/x/sys and rank.
package vectors
