package sameness

import (
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/vaultmem/vaultmem/text"
)

// Numbers in the normal form. A number is compared by its digits with
// the thousands separators dropped ("1,000" and "1 000" are 1000), a
// number word by its value ("twenty-five" is 25), decimals as written
// ("0.01" is not "0.1", and "1.50" not "1.5": it may be a version). Dates
// are read in canonicaldates.go, units and percents in canonicalunits.go.

// numberTokens reads a core that starts with a digit, or with a currency
// sign and a digit, into at most two tokens (see classify).
func numberTokens(core string) ([2]cToken, int) {
	var out [2]cToken
	if d, ok := isoDate(core); ok {
		out[0] = cToken{s: d, raw: core, kind: madeTok}
		return out, 1
	}
	cur, body := "", core
	if !isDigitByte(core[0]) {
		_, n := utf8.DecodeRuneInString(core)
		cur, body = core[:n], core[n:]
	}
	i := digitRun(body, 0)
	whole := body[:i]
	if i <= 3 {
		for i+4 <= len(body) && body[i] == ',' && digitRun(body, i+1) == i+4 {
			whole += body[i+1 : i+4]
			i += 4
		}
	}
	frac := ""
	if i+1 < len(body) && body[i] == '.' && isDigitByte(body[i+1]) {
		j := digitRun(body, i+1)
		frac, i = body[i+1:j], j
	}
	digits := whole
	if frac != "" {
		digits += "." + frac
	}
	rest := body[i:]
	switch {
	case cur != "": // "$1,000" is "$1000"; "$40k" is not "$40m"
		out[0] = cToken{s: escToken(cur + digits + rest), raw: core, kind: otherTok}
		return out, 1
	case rest == "":
		out[0] = cToken{s: digits, raw: core, kind: numTok}
		return out, 1
	case frac == "" && text.IsOrdinalSuffix(rest):
		out[0] = cToken{s: whole + rest, raw: core, kind: ordTok}
		return out, 1
	case rest == "%" || unitAbbrevs[rest].base != "":
		out[0] = cToken{s: digits, raw: body[:i], kind: numTok}
		out[1] = cToken{s: escToken(rest), raw: rest, kind: otherTok}
		return out, 2
	}
	out[0] = cToken{s: escToken(core), raw: core, kind: otherTok}
	return out, 1
}

// digitRun returns the index after the run of ASCII digits at s[i:].
func digitRun(s string, i int) int {
	for i < len(s) && isDigitByte(s[i]) {
		i++
	}
	return i
}

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

func isDigits(s string) bool { return s != "" && digitRun(s, 0) == len(s) }

// normalizeNumbers applies, in order, the normalisations of numbers to a
// sentence's tokens: a number after "v" or "version" stays as written;
// thousands separated by spaces join; number words become numbers; dates
// become \date:; "percent" and "per cent" become "%"; a number and its
// unit become the value in the unit's base.
func normalizeNumbers(ts []cToken) []cToken {
	for i := 0; i+1 < len(ts); i++ {
		if ts[i].kind == wordTok && (ts[i].s == "version" || ts[i].s == "v" || ts[i].s == "V") {
			switch n := &ts[i+1]; n.kind {
			case numTok:
				n.kind, n.s = otherTok, escToken(n.raw)
			case wordTok:
				n.kind = otherTok
			}
		}
	}
	ts = joinThousands(ts)
	ts = spelledNumbers(ts)
	ts = readDates(ts)
	ts = readPercents(ts)
	return readUnits(ts)
}

// joinThousands joins "1 000 000" into 1000000: a number of one to three
// digits followed, after one space each, by groups of three.
func joinThousands(ts []cToken) []cToken {
	out := ts[:0]
	for i := 0; i < len(ts); i++ {
		t := ts[i]
		if t.kind == numTok && isDigits(t.raw) && len(t.raw) <= 3 && t.raw[0] != '0' && !t.comma {
			j := i + 1
			for j < len(ts) && ts[j].kind == numTok && ts[j].spaced && len(ts[j].raw) == 3 && isDigits(ts[j].raw) && !ts[j-1].comma {
				t.s += ts[j].raw
				j++
			}
			if j > i+1 {
				t.raw, t.comma, t.colon = t.s, ts[j-1].comma, ts[j-1].colon
				i = j - 1
			}
		}
		out = append(out, t)
	}
	return out
}

// English number words.
var (
	numberOnes = indexWords("zero one two three four five six seven eight nine ten eleven twelve thirteen " +
		"fourteen fifteen sixteen seventeen eighteen nineteen")
	numberTens   = map[string]int64{"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
	numberScales = map[string]int64{"hundred": 100, "thousand": 1000, "million": 1000000, "billion": 1000000000}
)

func indexWords(s string) map[string]int64 {
	m := map[string]int64{}
	for i, w := range strings.Fields(s) {
		m[w] = int64(i)
	}
	return m
}

// spelledNumbers turns number words into numbers ("twenty-five" and "twenty
// five" are 25, "two hundred and five" 205, "three thousand" 3000), and a
// number with a scale word into its value ("1.5 million" is 1500000).
func spelledNumbers(ts []cToken) []cToken {
	out := ts[:0]
	for i := 0; i < len(ts); {
		if ts[i].kind == numTok && i+1 < len(ts) && !ts[i].comma && ts[i+1].kind == wordTok && numberScales[ts[i+1].s] > 0 {
			if v, ok := ratOf(ts[i].s); ok {
				v.Mul(v, new(big.Rat).SetInt64(numberScales[ts[i+1].s]))
				out = append(out, merged(ts[i:i+2], decimalString(v)))
				i += 2
				continue
			}
		}
		if v, end := wordNumber(ts, i); end > i {
			out = append(out, merged(ts[i:end], strconv.FormatInt(v, 10)))
			i = end
			continue
		}
		out = append(out, ts[i])
		i++
	}
	return out
}

// merged is one number token standing for ts.
func merged(ts []cToken, s string) cToken {
	raws := make([]string, len(ts))
	for i, t := range ts {
		raws[i] = t.raw
	}
	first, last := ts[0], ts[len(ts)-1]
	return cToken{s: s, raw: strings.Join(raws, " "), kind: numTok, comma: last.comma, colon: last.colon,
		initial: first.initial, spaced: first.spaced}
}

// wordNumber reads number words at ts[i], returning the value and the
// index after them (i when there are none).
func wordNumber(ts []cToken, i int) (int64, int) {
	var total int64
	last := int64(1) << 62 // the last scale read: a later one must be smaller
	end := i
	for pos := i; ; {
		v, next, ok := smallNumber(ts, pos)
		if !ok {
			break
		}
		if next < len(ts) && ts[next].kind == wordTok && ts[next].s == "hundred" && v >= 1 && !ts[next-1].comma {
			v *= 100
			next++
			if next+1 < len(ts) && ts[next].kind == wordTok && ts[next].s == "and" && !ts[next-1].comma {
				if w, n2, ok := smallNumber(ts, next+1); ok {
					v, next = v+w, n2
				}
			} else if w, n2, ok := smallNumber(ts, next); ok && !ts[next-1].comma {
				v, next = v+w, n2
			}
		}
		end = next
		if next < len(ts) && ts[next].kind == wordTok && !ts[next-1].comma {
			if sc := numberScales[ts[next].s]; sc > 100 && sc < last {
				total += v * sc
				last, pos, end = sc, next+1, next+1
				continue
			}
		}
		total += v
		break
	}
	return total, end
}

// smallNumber reads a number below 100 in words at ts[i]: "seven",
// "seventeen", "seventy", "seventy-five", "seventy five".
func smallNumber(ts []cToken, i int) (int64, int, bool) {
	if i >= len(ts) || ts[i].kind != wordTok {
		return 0, i, false
	}
	w := ts[i].s
	if v, ok := numberOnes[w]; ok {
		return v, i + 1, true
	}
	if tens, cUnit, ok := strings.Cut(w, "-"); ok {
		if t, u := numberTens[tens], numberOnes[cUnit]; t > 0 && u >= 1 && u <= 9 {
			return t + u, i + 1, true
		}
		return 0, i, false
	}
	t, ok := numberTens[w]
	if !ok {
		return 0, i, false
	}
	if i+1 < len(ts) && !ts[i].comma && ts[i+1].kind == wordTok {
		if u, ok := numberOnes[ts[i+1].s]; ok && u >= 1 && u <= 9 {
			return t + u, i + 2, true
		}
	}
	return t, i + 1, true
}
