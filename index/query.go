package index

import (
	"strings"
	"unicode"

	"github.com/vaultmem/vaultmem/text"
)

// queryTerms splits s into lower-cased words (letters and digits) and
// CJK runs; stop words are dropped unless nothing else is left.
func queryTerms(s string) (words []string, cjk [][]rune) {
	var all []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		runs := text.CJKRuns(f)
		if len(runs) > 0 {
			cjk = append(cjk, runs...)
			f = strings.Map(func(r rune) rune {
				if text.IsCJK(r) {
					return ' '
				}
				return r
			}, f)
		}
		for _, w := range strings.Fields(f) {
			all = append(all, strings.ToLower(w))
		}
	}
	for _, w := range all {
		if !text.IsStopWord(w) {
			words = append(words, w)
		}
	}
	if len(words) == 0 && len(cjk) == 0 {
		words = all
	}
	return dedup(words), cjk
}

// Terms returns the search words of a query as keyword search uses them:
// lower-cased, stop words dropped (unless nothing else is left), each
// once, and the query's Chinese and Japanese runs.
func Terms(query string) []string {
	words, cjk := queryTerms(query)
	for _, r := range cjk {
		words = append(words, string(r))
	}
	return words
}

func dedup(ss []string) []string {
	seen := map[string]bool{}
	out := ss[:0]
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// keywordQuery is what a keyword search looks for: the analyzed terms of
// the query's words and its CJK runs.
type keywordQuery struct {
	terms []string
	cjk   [][]rune
}

func newKeywordQuery(s string) keywordQuery {
	words, cjk := queryTerms(s)
	return keywordQuery{terms: searchTerms(words), cjk: cjk}
}

// size is the number of terms and runs.
func (q keywordQuery) size() int { return len(q.terms) + len(q.cjk) }

// expr builds the FTS5 MATCH expression of q: any of its terms (BM25
// ranks chunks with more and rarer ones first), and each CJK run as a
// phrase of its bigrams in the cjk column; with all, every one must
// match. It returns "" when q has no term.
func (q keywordQuery) expr(all bool) string {
	var parts []string
	for _, t := range q.terms {
		parts = append(parts, `"`+t+`"`)
	}
	for _, run := range q.cjk {
		if len(run) == 1 {
			parts = append(parts, `cjk : `+string(run)+`*`)
			continue
		}
		parts = append(parts, `cjk : "`+text.Bigrams(run)+`"`)
	}
	if all {
		return strings.Join(parts, " AND ")
	}
	return strings.Join(parts, " OR ")
}

// searchTerms are the analyzed terms of query words, each once.
func searchTerms(words []string) []string {
	out := make([]string, 0, len(words))
	for _, w := range words {
		out = append(out, text.Term(w))
	}
	return dedup(out)
}
