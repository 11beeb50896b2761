package meaning

import (
	"strings"
	"unicode"

	"github.com/vaultmem/vaultmem/text"
)

// token is one word, number or CJK character of a text.
type token struct {
	raw     string // as written
	lower   string
	term    string // stemmed (Term), or the number's normal form
	number  bool
	cjk     bool
	initial bool // opens a sentence
}

// tokenize cuts s into tokens: runs of letters (apostrophes inside kept:
// "don't"), numbers with their inner separators ("1.21", "2026-03-01",
// "1,000"), CJK characters one by one but runs of Chinese numerals as one
// number; a run of letters and digits ("v2", "30s") gives a word and the
// numbers inside it.
func tokenize(s string) []token {
	var out []token
	rs := []rune(s)
	initial := true
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.IsDigit(r):
			j := i + 1
			for j < len(rs) && (unicode.IsDigit(rs[j]) || isNumberSep(rs[j]) && j+1 < len(rs) && unicode.IsDigit(rs[j+1])) {
				j++
			}
			out = append(out, numberToken(string(rs[i:j]), initial))
			if j < len(rs) && unicode.IsLetter(rs[j]) && !text.IsCJK(rs[j]) { // 30s, 5GB, 2nd
				k := j
				for k < len(rs) && unicode.IsLetter(rs[k]) && !text.IsCJK(rs[k]) {
					k++
				}
				if u := strings.ToLower(string(rs[j:k])); !text.IsOrdinalSuffix(u) {
					out = append(out, wordToken(string(rs[j:k]), false))
				}
				j = k
			}
			i, initial = j, false
		case text.IsCJK(r):
			if n, j := text.ChineseNumber(rs, i); j > i {
				out = append(out, token{raw: string(rs[i:j]), lower: n, term: n, number: true, cjk: true})
				i = j
			} else {
				c := string(r)
				out = append(out, token{raw: c, lower: c, term: c, cjk: true})
				i++
			}
			initial = false
		case unicode.IsLetter(r):
			j := i + 1
			for j < len(rs) && (unicode.IsLetter(rs[j]) && !text.IsCJK(rs[j]) || unicode.IsDigit(rs[j]) ||
				(rs[j] == '\'' || rs[j] == '’') && j+1 < len(rs) && unicode.IsLetter(rs[j+1])) {
				j++
			}
			w := strings.ReplaceAll(string(rs[i:j]), "’", "'")
			out = append(out, wordToken(w, initial))
			for _, d := range digitRuns(w) { // v2, ipv6
				out = append(out, numberToken(d, false))
			}
			i, initial = j, false
		default:
			if strings.ContainsRune(".!?:;\n。！？：；", r) {
				initial = true
			}
			i++
		}
	}
	return out
}

func isNumberSep(r rune) bool { return r == '.' || r == ',' || r == ':' || r == '/' || r == '-' }

// numberToken is a number as written, in a normal form: thousands
// separators dropped ("1,000" is "1000"), and the leading zeros of its
// whole part and of a date's or time's parts ("2026-03-01" is "2026-3-1").
// The digits after a decimal point or comma stay as written: their zeros
// are its value ("0.01" is not "0.1", "1.05" not "1.5"); trailing zeros
// stay too, since "1.50" may be a version, which "1.5" is not.
func numberToken(raw string, initial bool) token {
	var parts []string
	var seps []rune
	start := 0
	rs := []rune(raw)
	for i, r := range rs {
		if isNumberSep(r) {
			parts, seps = append(parts, string(rs[start:i])), append(seps, r)
			start = i + 1
		}
	}
	parts = append(parts, string(rs[start:]))
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			if seps[i-1] == ',' && len(p) == 3 {
				b.WriteString(p) // a thousands separator
				continue
			}
			b.WriteRune(seps[i-1])
			if seps[i-1] == '.' || seps[i-1] == ',' { // a fraction
				b.WriteString(p)
				continue
			}
		}
		if t := strings.TrimLeft(p, "0"); t != "" {
			b.WriteString(t)
		} else {
			b.WriteString("0")
		}
	}
	n := b.String()
	return token{raw: raw, lower: n, term: n, number: true, initial: initial}
}

// wordToken is a word: an English number word is a number ("five" is 5).
func wordToken(w string, initial bool) token {
	lower := strings.ToLower(w)
	if n, ok := numberWords[lower]; ok {
		return token{raw: w, lower: n, term: n, number: true, initial: initial}
	}
	return token{raw: w, lower: lower, term: text.Term(strings.ReplaceAll(lower, "'", "")), initial: initial}
}

// digitRuns returns the runs of digits in a word that also has letters.
func digitRuns(w string) []string {
	var out []string
	start := -1
	for i, r := range w + " " {
		switch d := unicode.IsDigit(r); {
		case d && start < 0:
			start = i
		case !d && start >= 0:
			out = append(out, w[start:i])
			start = -1
		}
	}
	return out
}
