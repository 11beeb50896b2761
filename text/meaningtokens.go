package text

import (
	"fmt"
	"strings"
	"unicode"
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
			if j < len(rs) && unicode.IsLetter(rs[j]) && !IsCJK(rs[j]) { // 30s, 5GB, 2nd
				k := j
				for k < len(rs) && unicode.IsLetter(rs[k]) && !IsCJK(rs[k]) {
					k++
				}
				if u := strings.ToLower(string(rs[j:k])); !ordinalSuffix[u] {
					out = append(out, wordToken(string(rs[j:k]), false))
				}
				j = k
			}
			i, initial = j, false
		case IsCJK(r):
			if n, j := chineseNumber(rs, i); j > i {
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
			for j < len(rs) && (unicode.IsLetter(rs[j]) && !IsCJK(rs[j]) || unicode.IsDigit(rs[j]) ||
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

var ordinalSuffix = map[string]bool{"st": true, "nd": true, "rd": true, "th": true}

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
	return token{raw: w, lower: lower, term: Term(strings.ReplaceAll(lower, "'", "")), initial: initial}
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

// chineseNumber reads a run of Chinese numerals at rs[i] ("三", "二十",
// "一百五十"), returning its value as digits and where it ends; it ends at
// i when there is none, or when the run is a word that holds a numeral
// without being a number (一起, 一直, 万一, 统一).
func chineseNumber(rs []rune, i int) (string, int) {
	j := i
	for j < len(rs) && strings.ContainsRune(chineseDigits+chineseScales, rs[j]) {
		j++
	}
	if j == i {
		return "", i
	}
	run := string(rs[i:j])
	if run == "一" && j < len(rs) && strings.ContainsRune(notNumberAfterOne, rs[j]) ||
		run == "万一" || i > 0 && strings.ContainsRune("统唯第", rs[i-1]) && run == "一" {
		return "", i
	}
	total, section, digit := 0, 0, -1
	for _, r := range rs[i:j] {
		if k := strings.IndexRune(chineseDigits, r); k >= 0 {
			digit = chineseDigitValue[r]
			continue
		}
		scale := chineseScaleValue[r]
		if digit < 0 {
			digit = 1 // 十 alone is ten
		}
		if scale >= 10000 {
			total = (total + section + digit) * scale
			section, digit = 0, -1
			continue
		}
		section += digit * scale
		digit = -1
	}
	total += section + max(digit, 0)
	return fmt.Sprint(total), j
}

const (
	chineseDigits     = "零〇一二两三四五六七八九"
	chineseScales     = "十百千万亿"
	notNumberAfterOne = "起直定下般些样致旦切边律共同个遍点"
)

var (
	chineseDigitValue = map[rune]int{'零': 0, '〇': 0, '一': 1, '二': 2, '两': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9}
	chineseScaleValue = map[rune]int{'十': 10, '百': 100, '千': 1000, '万': 10000, '亿': 100000000}
)
