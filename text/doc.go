// Package text is vaultmem's one definition of how text is cut into words
// and measured: which characters are Chinese, Japanese or Korean (CJK), the
// words of a text and their search terms (lower-cased, diacritics folded,
// English stemmed with Snowball), the stop words, how two texts compare
// (the Jaccard and LCS similarity of near duplicates), and how many tokens
// a text costs a language model. The index, the embedder, recall and Dream
// all use these, so that what one of them counts as a word the others do
// too.
//
// Canonical, Same and Contains say when two texts provably say the same
// thing: equal after a fixed list of normalisations that keep a meaning
// (case of prose words, punctuation, emphasis, list order, number words,
// date formats, units, a small table of equivalent terms), or one's
// sentences all among the other's. Dream merges two memories by itself
// only then; docs/merge-rules.md lists the rules.
//
// It is a leaf: it imports no other vaultmem package (.ci/run checks it).
package text
