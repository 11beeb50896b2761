package text

import (
	"slices"
	"strings"
)

// ContentTerms are the search terms (Term) of the words of s that are not
// stop words, each once, in the order first seen: what a prompt or a
// situation is about, as the analyzer sees it.
func ContentTerms(s string) []string {
	var out []string
	for _, w := range Words(s) {
		if IsStopWord(strings.ToLower(w)) {
			continue
		}
		if t := Term(w); t != "" && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}
