package text

import (
	"strings"
	"unicode"
)

// IsCJK reports whether r belongs to a script whose words are not split by
// spaces in the way search needs: Han, Hiragana, Katakana and Hangul (a
// Korean word carries its particles: 학교에서), with the iteration mark 々
// and the prolonged sound mark ー, which Unicode files as Common.
func IsCJK(r rune) bool {
	// Below U+1100 (Hangul Jamo) no script of the four has a letter: a fast
	// path for alphabetic text.
	return r >= 0x1100 && (r == 0x3005 || r == 0x30FC ||
		unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul))
}

// HasCJK reports whether s holds a CJK character.
func HasCJK(s string) bool {
	if noCJK(s) {
		return false
	}
	for _, r := range s {
		if r >= 0x1100 && IsCJK(r) {
			return true
		}
	}
	return false
}

// CJKRuns returns the runs of CJK characters in s.
func CJKRuns(s string) [][]rune {
	if noCJK(s) {
		return nil
	}
	var runs [][]rune
	var cur []rune
	for _, r := range s {
		if IsCJK(r) {
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

// noCJK reports, faster than decoding it, that s holds no CJK character:
// every one is at U+1100 or above, encoded in UTF-8 from a lead byte of
// 0xE1 or more.
func noCJK(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0xE1 {
			return false
		}
	}
	return true
}

// Bigrams returns the overlapping two-character pieces of a run, joined by
// spaces ("数据库" gives "数据 据库"); a one-character run is itself. A
// two-character word is found inside a longer run by its bigram.
func Bigrams(run []rune) string {
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
