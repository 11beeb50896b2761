package text

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Question is what a long message asks, in at most max bytes: a person
// who pastes a 13 KB stack trace around one question wants memory on the
// question, not on the trace. A message of max bytes or fewer is returned
// as it is. Otherwise lines are kept in this order of worth while they
// fit, and joined in the message's order: the lines of prose holding a
// question mark; then the other lines of prose from the ends inwards (the
// first and the last first: where a person writes around what they
// pasted). A line of prose is mostly words (see isProse), not a line of a
// log, a stack trace or code. When no line is prose, the message's first
// and last lines stand for it. The result never splits a character.
func Question(msg string, max int) string {
	if len(msg) <= max {
		return msg
	}
	var lines []qline
	var prose []int
	for l := range strings.Lines(msg) {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		q := qline{text: l, rank: -1, index: len(lines)}
		if isProse(l) {
			if strings.ContainsAny(l, "?？") {
				q.rank = 0
			} else {
				prose = append(prose, q.index)
			}
		}
		lines = append(lines, q)
	}
	for k, lo, hi := 1, 0, len(prose)-1; lo <= hi; k, lo, hi = k+1, lo+1, hi-1 {
		lines[prose[lo]].rank, lines[prose[hi]].rank = k, k
	}
	var order []qline
	for _, l := range lines {
		if l.rank >= 0 {
			order = append(order, l)
		}
	}
	if len(order) == 0 && len(lines) > 0 {
		order = append(order, lines[0])
		if len(lines) > 1 {
			order = append(order, lines[len(lines)-1])
		}
	}
	slices.SortStableFunc(order, func(a, b qline) int { return cmp.Compare(a.rank, b.rank) })
	keep := map[int]bool{}
	size := 0
	for _, l := range order {
		if size+len(l.text)+1 > max && size > 0 {
			continue
		}
		keep[l.index] = true
		size += len(l.text) + 1
	}
	var b strings.Builder
	for _, l := range lines {
		if keep[l.index] {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(l.text)
		}
	}
	return cutAtRune(b.String(), max)
}

// qline is a line of a message Question reads: its text, its worth (lower
// is more; -1 none) and its place.
type qline struct {
	text  string
	rank  int
	index int
}

// isProse reports whether a line is mostly words: at least three words of
// letters, letters making at least 60 % of its characters, and not the
// shape of a stack frame ("at pkg.Func(file.go:12)", "File \"x.py\", line
// 3") or a log line (a timestamp or a level first).
func isProse(l string) bool {
	lower := strings.ToLower(l)
	for _, p := range []string{"at ", "file \"", "goroutine ", "traceback (", "panic:", "error:", "warning:", "warn:", "info:",
		"debug:", "trace:", "fatal:", "caused by:", "[", "{", "}", "//", "$ "} {
		if strings.HasPrefix(lower, p) {
			return false
		}
	}
	if l[0] >= '0' && l[0] <= '9' { // a timestamp, a line number
		return false
	}
	letters, total, words := 0, 0, 0
	inWord := false
	for _, r := range l {
		total++
		switch {
		case unicode.IsLetter(r):
			letters++
			if !inWord {
				words++
			}
			inWord = true
		case r == '\'' || r == '-':
		default:
			inWord = false
		}
	}
	return words >= 3 && letters*10 >= total*6
}

// cutAtRune is s cut to at most max bytes, never inside a character.
func cutAtRune(s string, max int) string {
	if len(s) <= max {
		return s
	}
	for max > 0 && !utf8.RuneStart(s[max]) {
		max--
	}
	return s[:max]
}
