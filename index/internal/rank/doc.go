// Package rank is what the index's rankings have in common: a chunk with
// its score ([Scored]) and the order of a ranking ([Better]), the heap
// that keeps the best k of a scan ([Heap]), and the notes a query keeps
// ([Filter]). The keyword rankings (FTS5's in index, the resident
// lexicon's in package lexicon) and the vector scan (package vectors) all
// give rankings of this kind, which index fuses and loads.
//
// It ranks nothing itself, and imports only the standard library.
package rank
