// Package text is vaultmem's one definition of how text is cut into words
// and measured: which characters are Chinese, Japanese or Korean (CJK), the
// words of a text and their search terms (lower-cased, diacritics folded,
// English stemmed with Snowball), the stop words, numbers written in words
// that are compared by value (Chinese numerals, ordinal suffixes), how two
// texts compare (the Jaccard and LCS similarity of near duplicates), and
// how many tokens a text costs a language model. The index, the embedder,
// recall, Dream, sameness and meaning all use these, so that what one of
// them counts as a word the others do too.
//
// It is a leaf: it imports no other vaultmem package (.ci/run checks it).
package text
