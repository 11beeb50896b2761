package index

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/vaultmem/vaultmem/text"
)

// Snippet sizes: words around the first match, and a cap in bytes for
// text without spaces (Chinese, Japanese).
const (
	snippetWords = 32
	snippetLead  = 8
	snippetBytes = 320
)

// queryWords is the set of a query's search terms (analyzed: see
// analyze) and its CJK runs.
func queryWords(query string) map[string]bool {
	words, cjk := queryTerms(query)
	set := make(map[string]bool, len(words)+len(cjk))
	for _, w := range words {
		set[text.Term(w)] = true
	}
	for _, r := range cjk {
		set[string(r)] = true
	}
	return set
}

// snippet is an excerpt of text on one line, starting a little before the
// first word of terms, with the words of terms in **bold**.
func snippet(text string, terms map[string]bool) string {
	words := strings.Fields(text)
	first := -1
	marked := make([]string, len(words))
	for i, w := range words {
		marked[i] = w
		if matches(w, terms) {
			marked[i] = "**" + w + "**"
			if first < 0 {
				first = i
			}
		}
	}
	from := max(0, first-snippetLead)
	to := min(len(words), from+snippetWords)
	out := strings.Join(marked[from:to], " ")
	if len(out) > snippetBytes {
		cut := snippetBytes
		for cut > 0 && !utf8.RuneStart(out[cut]) {
			cut--
		}
		out = out[:cut] + "…"
	} else if to < len(words) {
		out += " …"
	}
	if from > 0 {
		out = "… " + out
	}
	return out
}

// matches reports whether word, stripped of punctuation, has the term of
// one of terms ("painted" for "painting") or holds one of its CJK runs.
func matches(word string, terms map[string]bool) bool {
	w := strings.TrimFunc(word, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
	if w != "" && terms[text.Term(w)] {
		return true
	}
	for t := range terms {
		if r, _ := utf8.DecodeRuneInString(t); text.IsCJK(r) && strings.Contains(word, t) {
			return true
		}
	}
	return false
}
