// Package lexicon is the index's resident keyword index: the full-text
// rows of the index's chunks, analyzed as the FTS5 table holds them, in
// memory, ranked by BM25 exactly as FTS5's bm25() ranks them with the
// same column weights ([ColumnWeights]), and with Chinese and Japanese
// runs matched as FTS5 matches them (phrases of bigrams). A long-running
// process ranks with it in a fraction of FTS5's time.
//
// It runs no SQL and knows no versions: index reads the rows, feeds them
// as documents ([Lexicon.Add], [Lexicon.Drop]), decides when the lexicon
// is current, and locks it. It does not analyze text either: a document's
// columns hold the analyzed tokens, separated by spaces, as index wrote
// them to the full-text table. It imports only the standard library, text
// (a CJK run's bigrams) and rank.
package lexicon
