package sameness

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The inline text of a paragraph: code spans, links and emphasis read,
// then cut into chunks at whitespace, each chunk into its tokens, and the
// tokens into sentences.

// cPieceKind is what a piece of inline text is.
type cPieceKind int

const (
	textPiece  cPieceKind = iota // text, cut into tokens later
	spacePiece                   // whitespace
	codePiece                    // a code span's content, compared as written
	linkPiece                    // a URL or wikilink, compared as written
	delimPiece                   // a run of * or _ that may open or close emphasis
)

// cPiece is one piece of inline text.
type cPiece struct {
	kind              cPieceKind
	s                 string
	canOpen, canClose bool
	removed           bool // an emphasis delimiter matched with another
	newline, nonBreak bool // a space piece: holds a line break; is one space or no-break space
}

// maxEmphasisSearch bounds how far back a closing delimiter looks for its
// opener, so that many unmatched ones cost linear time.
const maxEmphasisSearch = 16

// lexInline cuts a paragraph's text into pieces and removes the
// delimiters of emphasis (*x*, **x**, _x_, __x__) that match. Strikethrough
// (~~x~~) is kept: it changes what the text says.
func lexInline(s string) []cPiece {
	var out []cPiece
	text := textRun{s: s}
	flush := func() {
		if t := text.take(); t != "" {
			out = append(out, cPiece{kind: textPiece, s: t})
		}
	}
	brackets := matchBrackets(s)
	var ticks backtickRuns
	closeWiki, lineEnd := nextOf{sep: "]]"}, nextOf{sep: "\n"}
	var linkEnds map[int]int // the index of a link's "]" -> the index after its ")"
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]):
			text.add(i+1, i+2)
			i += 2
			continue
		case c == '`':
			n := runLen(s, i, '`')
			if end := ticks.next(s, i+n, n); end >= 0 {
				flush()
				out = append(out, cPiece{kind: codePiece, s: codeContent(s[i+n : end])})
				i = end + n
				continue
			}
			text.add(i, i+n)
			i += n
			continue
		case c == '[' && i+1 < len(s) && s[i+1] == '[':
			if end := closeWiki.next(s, i+2); end >= 0 && !(lineEnd.next(s, i+2) >= 0 && lineEnd.next(s, i+2) < end) {
				flush()
				out = append(out, cPiece{kind: linkPiece, s: s[i : end+2]})
				i = end + 2
				continue
			}
		case c == '[' || c == '!' && i+1 < len(s) && s[i+1] == '[':
			open := i
			if c == '!' {
				open++
			}
			if close, ok := brackets[open]; ok && close+1 < len(s) && s[close+1] == '(' {
				if end, ok := brackets[close+1]; ok {
					flush()
					dest := strings.TrimSpace(s[close+2 : end])
					if c == '!' {
						dest = "!" + dest
					}
					out = append(out, cPiece{kind: linkPiece, s: "(" + dest + ")"})
					if linkEnds == nil {
						linkEnds = map[int]int{}
					}
					linkEnds[close] = end + 1
					i = open + 1
					continue
				}
			}
		case c == ']':
			if end, ok := linkEnds[i]; ok {
				i = end
				continue
			}
		case c == '<':
			if end := strings.IndexByte(s[i:min(len(s), i+2048)], '>'); end > 1 && isAutolink(s[i+1:i+end]) {
				flush()
				out = append(out, cPiece{kind: linkPiece, s: s[i+1 : i+end]})
				i += end + 1
				continue
			}
		case (c == 'h' || c == 'w') && (i == 0 || !isAlnumByte(s[i-1])) && (strings.HasPrefix(s[i:], "http://") ||
			strings.HasPrefix(s[i:], "https://") || strings.HasPrefix(s[i:], "www.")):
			end := i
			for end < len(s) && !isSpaceByte(s[end]) {
				end++
			}
			if url := trimURL(s[i:end]); len(url) > strings.Index(url, "/")+2 && len(url) > 4 {
				flush()
				out = append(out, cPiece{kind: linkPiece, s: url})
				i += len(url)
				continue
			}
		case c == '*' || c == '_':
			n := runLen(s, i, c)
			prev, _ := utf8.DecodeLastRuneInString(s[:i])
			next, _ := utf8.DecodeRuneInString(s[i+n:])
			if i == 0 {
				prev = ' '
			}
			if i+n == len(s) {
				next = ' '
			}
			left := !unicode.IsSpace(next) && (!isPunctOrSymbol(next) || unicode.IsSpace(prev) || isPunctOrSymbol(prev))
			right := !unicode.IsSpace(prev) && (!isPunctOrSymbol(prev) || unicode.IsSpace(next) || isPunctOrSymbol(next))
			p := cPiece{kind: delimPiece, s: s[i : i+n], canOpen: left, canClose: right}
			if c == '_' {
				p.canOpen = left && (!right || isPunctOrSymbol(prev))
				p.canClose = right && (!left || isPunctOrSymbol(next))
			}
			if p.canOpen || p.canClose {
				flush()
				out = append(out, p)
			} else {
				text.add(i, i+n)
			}
			i += n
			continue
		case isSpaceByte(c) || c >= 0x80:
			r, n := utf8.DecodeRuneInString(s[i:])
			if unicode.IsSpace(r) {
				j := i
				nl := false
				for j < len(s) {
					r2, n2 := utf8.DecodeRuneInString(s[j:])
					if !unicode.IsSpace(r2) {
						break
					}
					nl = nl || r2 == '\n'
					j += n2
				}
				flush()
				single := j-i == n && (r == ' ' || r == '\u00a0' || r == '\u202f' || r == '\u2009')
				out = append(out, cPiece{kind: spacePiece, newline: nl, nonBreak: single})
				i = j
				continue
			}
			text.add(i, i+n)
			i += n
			continue
		}
		text.add(i, i+1)
		i++
	}
	flush()
	matchEmphasis(out)
	return out
}

// textRun gathers the text of a piece from the indexes of s it is made
// of: a substring of s while they follow each other, a copy only when
// they do not (after an escape).
type textRun struct {
	s          string
	start, end int
	b          strings.Builder
	copied     bool
}

// add adds s[i:j].
func (t *textRun) add(i, j int) {
	switch {
	case !t.copied && t.start == t.end:
		t.start, t.end = i, j
	case !t.copied && t.end == i:
		t.end = j
	default:
		if !t.copied {
			t.b.WriteString(t.s[t.start:t.end])
			t.copied = true
		}
		t.b.WriteString(t.s[i:j])
	}
}

// take returns the text gathered and starts anew.
func (t *textRun) take() string {
	out := t.s[t.start:t.end]
	if t.copied {
		out = t.b.String()
		t.b.Reset()
	}
	t.start, t.end, t.copied = 0, 0, false
	return out
}

// matchEmphasis marks the delimiters that open and close emphasis as
// removed; the rest are literal text.
func matchEmphasis(ps []cPiece) {
	var openers []int
	for i := range ps {
		p := &ps[i]
		if p.kind != delimPiece {
			continue
		}
		if p.canClose {
			found := -1
			for k := len(openers) - 1; k >= 0 && k >= len(openers)-maxEmphasisSearch; k-- {
				if ps[openers[k]].s == p.s {
					found = k
					break
				}
			}
			if found >= 0 {
				ps[openers[found]].removed, p.removed = true, true
				openers = openers[:found]
				continue
			}
		}
		if p.canOpen {
			openers = append(openers, i)
		}
	}
}

// matchBrackets pairs each [ with its ] and each ( with its ), by index,
// in one pass.
func matchBrackets(s string) map[int]int {
	if !strings.ContainsAny(s, "[(") {
		return nil
	}
	m := map[int]int{}
	var sq, par []int
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			sq = append(sq, i)
		case ']':
			if len(sq) > 0 {
				m[sq[len(sq)-1]] = i
				sq = sq[:len(sq)-1]
			}
		case '(':
			par = append(par, i)
		case ')':
			if len(par) > 0 {
				m[par[len(par)-1]] = i
				par = par[:len(par)-1]
			}
		}
	}
	return m
}

// backtickRuns finds the run of backticks that closes a code span: the
// runs of s are found once, by length, so that many unclosed ones cost
// linear time.
type backtickRuns struct {
	byLen map[int][]int // run length -> the indexes of the runs, ascending
}

// next returns the index of the first run of exactly n backticks at or
// after i, or -1.
func (b *backtickRuns) next(s string, i, n int) int {
	if b.byLen == nil {
		b.byLen = map[int][]int{}
		for k := 0; k < len(s); {
			if s[k] != '`' {
				k++
				continue
			}
			m := runLen(s, k, '`')
			b.byLen[m] = append(b.byLen[m], k)
			k += m
		}
	}
	runs := b.byLen[n]
	if k, _ := slices.BinarySearch(runs, i); k < len(runs) {
		return runs[k]
	}
	return -1
}

// nextOf finds the next occurrence of sep at or after an index that only
// grows, remembering the last one found, so that many searches cost
// linear time.
type nextOf struct {
	sep  string
	at   int  // the last occurrence found
	none bool // none at or after the last search
	done bool // at is valid
}

// next returns the index of sep's first occurrence at or after i, or -1.
func (n *nextOf) next(s string, i int) int {
	switch {
	case n.none:
		return -1
	case n.done && n.at >= i:
		return n.at
	}
	k := strings.Index(s[i:], n.sep)
	if k < 0 {
		n.none = true
		return -1
	}
	n.at, n.done = i+k, true
	return n.at
}

// codeContent is a code span's text as CommonMark reads it: line breaks
// are spaces, and one space at each end is dropped when both ends have one.
func codeContent(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) >= 2 && s[0] == ' ' && s[len(s)-1] == ' ' && strings.Trim(s, " ") != "" {
		s = s[1 : len(s)-1]
	}
	return s
}

// isAutolink reports whether the text between < and > is a URL or an
// e-mail address.
func isAutolink(s string) bool {
	if strings.ContainsAny(s, " \t\n<") {
		return false
	}
	if i := strings.Index(s, ":"); i > 1 && isASCIILetterRun(s[:i]) {
		return true
	}
	at := strings.IndexByte(s, '@')
	return at > 0 && strings.Contains(s[at:], ".")
}

// trimURL drops what ends a sentence after a bare URL: ".,;:!?'\"" and a
// ")" it does not open.
func trimURL(u string) string {
	for len(u) > 0 {
		c := u[len(u)-1]
		if strings.IndexByte(".,;:!?'\"*_", c) >= 0 ||
			c == ')' && strings.Count(u, ")") > strings.Count(u, "(") {
			u = u[:len(u)-1]
			continue
		}
		break
	}
	return u
}

func runLen(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

func isASCIILetterRun(s string) bool {
	for i := 0; i < len(s); i++ {
		if !(s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
			return false
		}
	}
	return s != ""
}

func isAlnumByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' }

func isASCIIPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

func isPunctOrSymbol(r rune) bool { return unicode.IsPunct(r) || unicode.IsSymbol(r) }
