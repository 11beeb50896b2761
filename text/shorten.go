package text

import (
	"strings"
	"unicode/utf8"
)

// Shorten returns s with its runs of white space made one space, cut at a
// word boundary to at most max bytes and ended with "…" when it was
// longer.
func Shorten(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= max {
		return s
	}
	cut := max - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if i := strings.LastIndexByte(s[:cut], ' '); i > cut/2 {
		cut = i
	}
	return strings.TrimRight(s[:cut], " ") + "…"
}
