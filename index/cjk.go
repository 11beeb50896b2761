package index

import (
	"strings"
	"unicode"
)

// isCJK reports whether r is written without spaces between words: Han,
// Hiragana, Katakana or Hangul.
func isCJK(r rune) bool {
	// Below U+2E80 (CJK Radicals Supplement) no script of the four has a
	// letter: a fast path for alphabetic text.
	return r >= 0x2e80 && unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// cjkRuns returns the runs of CJK characters in s.
func cjkRuns(s string) [][]rune {
	var runs [][]rune
	var cur []rune
	for _, r := range s {
		if isCJK(r) {
			cur = append(cur, r)
			continue
		}
		if len(cur) > 0 {
			runs = append(runs, cur)
			cur = nil
		}
	}
	if len(cur) > 0 {
		runs = append(runs, cur)
	}
	return runs
}

// bigrams returns the overlapping two-character tokens of a run, joined
// by spaces ("数据库" gives "数据 据库"); a one-character run is itself.
func bigrams(run []rune) string {
	if len(run) == 1 {
		return string(run)
	}
	var b strings.Builder
	for i := 0; i+1 < len(run); i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(string(run[i : i+2]))
	}
	return b.String()
}

// cjkText is what the cjk column of chunks_fts holds for a text: the
// bigrams of each CJK run, so that unicode61 sees two-character tokens.
func cjkText(s string) string {
	runs := cjkRuns(s)
	parts := make([]string, len(runs))
	for i, r := range runs {
		parts[i] = bigrams(r)
	}
	return strings.Join(parts, " ")
}
