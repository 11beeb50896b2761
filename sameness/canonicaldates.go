package sameness

import (
	"strconv"
	"strings"
)

// Dates in the normal form: every format read is \date:YYYY-MM-DD (or
// \date:--MM-DD without a year, \date:YYYY-MM without a day). A relative
// date ("tomorrow") is a word, never a date, and a date with slashes and
// the year last (03/01/2026: US or European?) stays as written.

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
