// Package sameness says when two texts provably say the same thing:
// Canonical writes a text in a normal form, equal for two texts only after
// a fixed list of normalisations that keep a meaning (case of prose words,
// punctuation, emphasis, list order, number words, date formats, units, a
// small table of equivalent terms); Same compares two normal forms, and
// Contains says every sentence of one text is among the other's. Dream
// merges two memories by itself only then; docs/merge-rules.md lists the
// rules.
//
// It imports only text (for stop words, CJK, Chinese numerals and ordinal
// suffixes) of vaultmem's packages (.ci/run checks it).
package sameness
