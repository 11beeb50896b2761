package text

import (
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Numbers, dates and units in the normal form. A number is compared by
// its digits with the thousands separators dropped ("1,000" and "1 000"
// are 1000), a number word by its value ("twenty-five" is 25), decimals
// as written ("0.01" is not "0.1", and "1.50" not "1.5": it may be a
// version). A date in any of the formats read is \date:YYYY-MM-DD, a
// duration or size with a unit spelled without ambiguity is its value in
// the unit's base (\sec:120 for "2 min"); a unit that may mean two things
// ("5m": minutes, metres or million) stays as written.

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
	case frac == "" && ordinalSuffix[rest]:
		out[0] = cToken{s: whole + rest, raw: core, kind: ordTok}
		return out, 1
	case rest == "%" || unitAbbrevs[rest].base != "":
		out[0] = cToken{s: digits, raw: body[:i], kind: numTok}
		out[1] = cToken{s: escToken(rest), raw: rest, kind: otherTok, glued: true}
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

// isoDate reads 2026-03-01 or 2026/3/1 as \date:2026-03-01.
func isoDate(s string) (string, bool) {
	if len(s) < 8 || !isDigits(s[:4]) || s[4] != '-' && s[4] != '/' {
		return "", false
	}
	m, rest, ok := strings.Cut(s[5:], s[4:5])
	if !ok {
		return "", false
	}
	return dateToken(s[:4], m, rest)
}

// dateToken is the normal form of a date from its year (or ""), month and
// day (or ""), false when they are no date.
func dateToken(y, m, d string) (string, bool) {
	mn, err := strconv.Atoi(m)
	if err != nil || len(m) > 2 || mn < 1 || mn > 12 || y != "" && (len(y) != 4 || !isDigits(y)) {
		return "", false
	}
	out := `\date:` + y + "-" + pad2(mn)
	if y == "" {
		out = `\date:--` + pad2(mn)
	}
	if d != "" {
		dn, err := strconv.Atoi(d)
		if err != nil || len(d) > 2 || dn < 1 || dn > 31 {
			return "", false
		}
		out += "-" + pad2(dn)
	}
	return out, true
}

func pad2(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

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

// numberWords turns number words into numbers ("twenty-five" and "twenty
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
		initial: first.initial, glued: first.glued, spaced: first.spaced}
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

// monthNumbers are the English month names and their abbreviations, by number.
var monthNumbers = func() map[string]int {
	m := map[string]int{}
	for i, line := range []string{"january jan", "february feb", "march mar", "april apr", "may", "june jun",
		"july jul", "august aug", "september sep sept", "october oct", "november nov", "december dec"} {
		for _, w := range strings.Fields(line) {
			m[w] = i + 1
		}
	}
	return m
}()

// readDates turns the dates of a sentence into \date: tokens: "1 March
// 2026", "March 1, 2026", "Mar 1 2026", "March 1st", "March 2026" and the
// Chinese 2026年3月1日. A date without its year stays without one
// (\date:--03-01), a month and year without a day too (\date:2026-03).
// "May" is the month only in capitals, and a month name only beside a
// day or year.
func readDates(ts []cToken) []cToken {
	out := ts[:0]
	for i := 0; i < len(ts); {
		if d, end := dateAt(ts, i); end > i {
			t := merged(ts[i:end], d)
			t.kind = madeTok
			out = append(out, t)
			i = end
			continue
		}
		out = append(out, ts[i])
		i++
	}
	return out
}

// dateAt reads a date at ts[i], returning it and the index after it (i
// when there is none).
func dateAt(ts []cToken, i int) (string, int) {
	at := func(k int) cToken {
		if k < len(ts) {
			return ts[k]
		}
		return cToken{}
	}
	if d, ok := dayOf(at(i)); ok && !at(i).comma { // "Sprint 12, March 3" is no 12 March
		if m, ok := monthOf(at(i + 1)); ok {
			if y, ok := yearOf(at(i + 2)); ok {
				return mustDate(y, m, d), i + 3
			}
			return mustDate("", m, d), i + 2
		}
	}
	if m, ok := monthOf(at(i)); ok && !at(i).comma {
		if d, ok := dayOf(at(i + 1)); ok {
			if y, ok := yearOf(at(i + 2)); ok {
				return mustDate(y, m, d), i + 3
			}
			return mustDate("", m, d), i + 2
		}
		if y, ok := yearOf(at(i + 1)); ok {
			return mustDate(y, m, ""), i + 2
		}
	}
	// 2026年3月1日, 3月1日, 2026年3月
	if y, ok := yearOf(at(i)); ok && at(i+1).s == "年" && at(i+2).kind == numTok && at(i+3).s == "月" {
		if at(i+4).kind == numTok && (at(i+5).s == "日" || at(i+5).s == "号") {
			if d, ok := dateToken(y, at(i+2).s, at(i+4).s); ok {
				return d, i + 6
			}
		}
		if d, ok := dateToken(y, at(i+2).s, ""); ok {
			return d, i + 4
		}
	}
	if at(i).kind == numTok && at(i+1).s == "月" && at(i+2).kind == numTok && (at(i+3).s == "日" || at(i+3).s == "号") {
		if d, ok := dateToken("", at(i).s, at(i+2).s); ok {
			return d, i + 4
		}
	}
	return "", i
}

func mustDate(y, m, d string) string {
	s, _ := dateToken(y, m, d)
	return s
}

// monthOf returns a month name's number, as digits.
func monthOf(t cToken) (string, bool) {
	n, ok := monthNumbers[t.s]
	if t.kind != wordTok || !ok || t.s == "may" && t.raw != "May" {
		return "", false
	}
	return strconv.Itoa(n), true
}

// dayOf returns a day of the month (1 to 31), written "1", "01" or "1st".
func dayOf(t cToken) (string, bool) {
	d := t.s
	switch t.kind {
	case ordTok:
		d = d[:len(d)-2]
	case numTok:
		if !isDigits(t.raw) {
			return "", false
		}
	default:
		return "", false
	}
	n, err := strconv.Atoi(d)
	return d, err == nil && len(d) <= 2 && n >= 1 && n <= 31
}

// yearOf returns a year written in four digits.
func yearOf(t cToken) (string, bool) {
	return t.raw, t.kind == numTok && len(t.raw) == 4 && isDigits(t.raw)
}

// readPercents writes "percent", "per cent" and a number's "%" as one "%"
// after the number: "5 percent", "five per cent" and "5%" are 5%.
func readPercents(ts []cToken) []cToken {
	out := ts[:0]
	for i := 0; i < len(ts); i++ {
		t := ts[i]
		switch {
		case t.kind == wordTok && t.s == "percent":
			t.kind, t.s = otherTok, "%"
		case t.kind == wordTok && t.s == "per" && i+1 < len(ts) && ts[i+1].kind == wordTok && ts[i+1].s == "cent" && !t.comma:
			t = cToken{s: "%", raw: "per cent", kind: otherTok, comma: ts[i+1].comma, colon: ts[i+1].colon}
			i++
		}
		if n := len(out); n > 0 && t.kind == otherTok && t.s == "%" && out[n-1].kind == numTok && !out[n-1].comma {
			out[n-1].kind, out[n-1].s = otherTok, out[n-1].s+"%"
			out[n-1].comma, out[n-1].colon = t.comma, t.colon
			continue
		}
		out = append(out, t)
	}
	return out
}

// measure is a unit of duration or size: the base its values are written in
// (\sec:, \bytes:, \kB: ...) and how many of the base one of it is.
type measure struct {
	base   string
	factor string // a rational: "60", "1/1000"
}

// unitAbbrevs are the short spellings of units, matched as written (case
// counts: "MB" is megabytes, "Mb" megabits, which is not read). "m" is
// not one: minutes, metres or million.
var unitAbbrevs = map[string]measure{
	"ns": {"sec", "1/1000000000"}, "µs": {"sec", "1/1000000"}, "μs": {"sec", "1/1000000"}, "ms": {"sec", "1/1000"},
	"s": {"sec", "1"}, "sec": {"sec", "1"}, "secs": {"sec", "1"}, "min": {"sec", "60"}, "mins": {"sec", "60"},
	"h": {"sec", "3600"}, "hr": {"sec", "3600"}, "hrs": {"sec", "3600"}, "d": {"sec", "86400"},
	"wk": {"sec", "604800"}, "wks": {"sec", "604800"}, "mo": {"month", "1"}, "yr": {"year", "1"}, "yrs": {"year", "1"},
	"KiB": {"bytes", "1024"}, "MiB": {"bytes", "1048576"}, "GiB": {"bytes", "1073741824"}, "TiB": {"bytes", "1099511627776"},
	"KB": {"kB", "1"}, "kB": {"kB", "1"}, "MB": {"MB", "1"}, "GB": {"GB", "1"}, "TB": {"TB", "1"}, "PB": {"PB", "1"},
}

// unitNames are the units spelled as words, matched in any case. Months
// and years are kept apart from days (their length varies); decimal
// sizes from each other and from bytes (a kilobyte is 1000 or 1024 bytes,
// as the writer means).
var unitNames = func() map[string]measure {
	m := map[string]measure{}
	for _, line := range []string{
		"sec 1/1000000000 nanosecond nanoseconds", "sec 1/1000000 microsecond microseconds",
		"sec 1/1000 millisecond milliseconds msec msecs", "sec 1 second seconds sec secs", "sec 60 minute minutes min mins",
		"sec 3600 hour hours hr hrs", "sec 86400 day days", "sec 604800 week weeks", "month 1 month months",
		"year 1 year years yr yrs", "bytes 1 byte bytes", "bytes 1024 kibibyte kibibytes", "bytes 1048576 mebibyte mebibytes",
		"bytes 1073741824 gibibyte gibibytes", "bytes 1099511627776 tebibyte tebibytes", "kB 1 kilobyte kilobytes",
		"MB 1 megabyte megabytes", "GB 1 gigabyte gigabytes", "TB 1 terabyte terabytes", "PB 1 petabyte petabytes",
	} {
		f := strings.Fields(line)
		for _, w := range f[2:] {
			m[w] = measure{f[0], f[1]}
		}
	}
	return m
}()

// readUnits writes a number and its unit as the value in the unit's base:
// "2 min", "2 minutes" and "120 seconds" are \sec:120.
func readUnits(ts []cToken) []cToken {
	out := ts[:0]
	for i := 0; i < len(ts); i++ {
		t := ts[i]
		if t.kind == numTok && i+1 < len(ts) && !t.comma {
			u := unitAbbrevs[ts[i+1].raw]
			if ts[i+1].kind == wordTok && unitNames[ts[i+1].s].base != "" {
				u = unitNames[ts[i+1].s]
			}
			if u.base == "" {
				out = append(out, t)
				continue
			}
			if v, ok := scaled(t.s, u.factor); ok {
				m := merged(ts[i:i+2], `\`+u.base+":"+v)
				m.kind = madeTok
				out = append(out, m)
				i++
				continue
			}
		}
		out = append(out, t)
	}
	return out
}

// scaled returns the number n times factor, in decimals, false when n is
// too long to be worth it. Whole numbers of up to six digits times a
// whole factor are worked out without big numbers.
func scaled(n, factor string) (string, bool) {
	if len(n) <= 6 && isDigits(n) {
		if f, err := strconv.ParseInt(factor, 10, 64); err == nil {
			v, _ := strconv.ParseInt(n, 10, 64)
			return strconv.FormatInt(v*f, 10), true
		}
	}
	v, ok := ratOf(n)
	if !ok {
		return "", false
	}
	f, _ := new(big.Rat).SetString(factor)
	return decimalString(v.Mul(v, f)), true
}

// ratOf reads a number's digits as a rational, false when they are too
// long to be worth it (a number of 40 digits is compared as written).
func ratOf(s string) (*big.Rat, bool) {
	if len(s) > 40 || s == "" {
		return nil, false
	}
	return new(big.Rat).SetString(s)
}

// decimalString writes r in decimals when it has a finite expansion
// ("0.001", "1500000"), as a fraction otherwise ("1/3").
func decimalString(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	d := new(big.Int).Set(r.Denom())
	digits := 0
	for _, p := range []int64{2, 5} {
		n, q, m := 0, new(big.Int), new(big.Int)
		for {
			q.QuoRem(d, big.NewInt(p), m)
			if m.Sign() != 0 {
				break
			}
			d.Set(q)
			n++
		}
		digits = max(digits, n)
	}
	if d.Cmp(big.NewInt(1)) != 0 {
		return r.RatString()
	}
	return strings.TrimRight(r.FloatString(digits), "0")
}
