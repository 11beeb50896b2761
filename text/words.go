package text

import (
	"strings"
	"unicode"
)

// Words returns the lower-cased words of s (runs of letters and digits),
// each CJK character a word of its own: the units that overlap measures
// (Similarity, how many of a question's words a text holds) compare.
func Words(s string) []string {
	if isASCII(s) {
		return asciiWords(s)
	}
	return unicodeWords(s)
}

// unicodeWords is Words for any text.
func unicodeWords(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if !HasCJK(f) {
			out = append(out, f)
			continue
		}
		var latin []rune
		for _, r := range f {
			if IsCJK(r) {
				if len(latin) > 0 {
					out = append(out, string(latin))
					latin = latin[:0]
				}
				out = append(out, string(r))
				continue
			}
			latin = append(latin, r)
		}
		if len(latin) > 0 {
			out = append(out, string(latin))
		}
	}
	return out
}

// asciiWords is Words for ASCII text, without a rune decoded: the words
// are substrings of one lower-cased copy.
func asciiWords(s string) []string {
	lower := strings.ToLower(s)
	out := make([]string, 0, len(s)/5)
	start := -1
	for i := 0; i <= len(lower); i++ {
		word := i < len(lower) && (lower[i] >= 'a' && lower[i] <= 'z' || lower[i] >= '0' && lower[i] <= '9')
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			out = append(out, lower[start:i])
			start = -1
		}
	}
	return out
}
