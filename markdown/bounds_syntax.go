package markdown

import (
	"bytes"
)

// indentAt measures the spaces and tabs at line[pos:], which starts at
// column col: it returns their width in columns (a tab goes to the next
// multiple of 4) and in bytes.
func indentAt(line []byte, pos, col int) (width, n int) {
	c := col
	for pos+n < len(line) {
		switch line[pos+n] {
		case ' ':
			c++
		case '\t':
			c += 4 - c%4
		default:
			return c - col, n
		}
		n++
	}
	return c - col, n
}

// listMarker returns the length of the list marker at the start of b
// ("-", "*", "+", or up to 9 digits and '.' or ')'), followed by white
// space or the end of the line, or 0.
func listMarker(b []byte) int {
	n := 0
	switch {
	case len(b) > 0 && (b[0] == '-' || b[0] == '*' || b[0] == '+'):
		n = 1
	default:
		for n < len(b) && n < 9 && b[n] >= '0' && b[n] <= '9' {
			n++
		}
		if n == 0 || n >= len(b) || (b[n] != '.' && b[n] != ')') {
			return 0
		}
		n++
	}
	if n < len(b) && b[n] != ' ' && b[n] != '\t' {
		return 0
	}
	return n
}

// thematicBreakFrom returns the smallest offset from which the rest of the
// line is a thematic break (three or more of one of '-', '*', '_' with
// only white space between), or len(line).
func thematicBreakFrom(line []byte) int {
	var c byte
	count, from := 0, len(line)
	for i := len(line) - 1; i >= 0; i-- {
		switch b := line[i]; {
		case b == ' ' || b == '\t':
		case (b == '-' || b == '*' || b == '_') && (c == 0 || b == c):
			c = b
			count++
			if count >= 3 {
				from = i
			}
		default:
			return from
		}
	}
	return from
}

// isFence reports whether text opens a fenced code block: three or more
// '`' (with no '`' after them) or '~'.
func isFence(text []byte) bool {
	if len(text) < 3 || (text[0] != '`' && text[0] != '~') {
		return false
	}
	n := fenceRun(text)
	return n >= 3 && (text[0] == '~' || bytes.IndexByte(text[n:], '`') < 0)
}

func fenceRun(text []byte) int {
	n := 0
	for n < len(text) && text[n] == text[0] {
		n++
	}
	return n
}

func isATXHeading(text []byte) bool {
	n := 0
	for n < len(text) && n < 7 && text[n] == '#' {
		n++
	}
	return n >= 1 && n <= 6 && (n == len(text) || text[n] == ' ' || text[n] == '\t')
}

func isASCIIPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}
