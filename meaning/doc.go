// Package meaning says how two alike texts differ in what they say:
// Differ (and Meaning, a text read once for many comparisons) finds a
// number, date, unit, name, restriction, negation, opposite, swap or
// replaced word that one text has and the other does not, and whether it
// makes them contradict each other; Polarity reads whether a sentence says
// to do or not to do something. Dream asks it before merging near
// duplicates and to find contradictions, recall before dropping one,
// lesson to find lessons that disagree.
//
// It imports only text (for words, search terms, stop words, CJK and
// numbers written in words) of vaultmem's packages (.ci/run checks it).
package meaning
