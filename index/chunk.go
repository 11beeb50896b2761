package index

import (
	"strings"
	"unicode/utf8"

	"github.com/vaultmem/vaultmem/vault"
)

// chunk is the unit the index searches and recall returns: a heading
// section, a paragraph, or a run of short paragraphs.
type chunk struct {
	heading            string   // heading path, "Top > Sub"
	blocks             []string // block ids inside the chunk
	lineStart, lineEnd int
	text               string
	tokens             int
}

// chunkNote splits a note into chunks of at most max tokens. A heading
// section small enough (max/2 tokens) is one chunk; a larger one is split
// at its top-level blocks (paragraphs, lists, tables, code), short
// neighbours merged up to max/2 tokens, except that a paragraph with a
// block id always stands alone, so that a block can be returned by itself.
// A block over max tokens is split at line, then word, boundaries. Every
// note yields at least one chunk (perhaps empty), so that its name and
// description are searchable.
func chunkNote(n *vault.Note, max int) []chunk {
	c := chunker{note: n, max: max, small: max / 2}
	var section []vault.Span
	var stack []string // heading texts by level-1
	for _, s := range n.Spans {
		if s.Kind != "heading" {
			section = append(section, s)
			continue
		}
		c.section(section)
		section = nil
		if s.Level > len(stack) {
			stack = append(stack, make([]string, s.Level-len(stack))...)
		}
		stack = append(stack[:s.Level-1], headingText(n, s))
		c.heading = joinHeadings(stack)
		c.headingLine = s.Line
	}
	c.section(section)
	if len(c.out) == 0 {
		c.out = append(c.out, chunk{heading: c.heading, lineStart: n.BodyLine, lineEnd: n.BodyLine})
	}
	return c.out
}

type chunker struct {
	note        *vault.Note
	max, small  int
	heading     string
	headingLine int
	out         []chunk
}

func (c *chunker) section(spans []vault.Span) {
	if len(spans) == 0 {
		return
	}
	total := 0
	for _, s := range spans {
		total += vault.EstimateTokens(s.Text(c.note))
	}
	if total <= c.small {
		c.emit(spans[0].Line, spans[len(spans)-1].EndLine, spans[0].Start, spans[len(spans)-1].End)
		return
	}
	// Units: each span, with a lone "^id" line joined to the span before it.
	var run []vault.Span
	runTokens := 0
	flush := func() {
		if len(run) > 0 {
			c.emit(run[0].Line, run[len(run)-1].EndLine, run[0].Start, run[len(run)-1].End)
			run, runTokens = nil, 0
		}
	}
	for i := 0; i < len(spans); i++ {
		s := spans[i]
		if i+1 < len(spans) && isBlockIDLine(spans[i+1].Text(c.note)) {
			s.End, s.EndLine = spans[i+1].End, spans[i+1].EndLine
			i++
		}
		tokens := vault.EstimateTokens(s.Text(c.note))
		switch {
		case tokens > c.max:
			flush()
			c.split(s)
		case c.hasBlockID(s):
			flush()
			c.emit(s.Line, s.EndLine, s.Start, s.End)
		default:
			if runTokens+tokens > c.small {
				flush()
			}
			run = append(run, s)
			runTokens += tokens
		}
	}
	flush()
}

// split cuts an oversized span at line boundaries (and an oversized line
// at word boundaries) into chunks of at most max tokens.
func (c *chunker) split(s vault.Span) {
	text := c.note.Content[s.Start:s.End]
	line := s.Line
	start, startLine := s.Start, s.Line
	tokens := 0
	for i := 0; i < len(text); {
		j := i
		for j < len(text) && text[j] != '\n' {
			j++
		}
		lt := vault.EstimateTokens(string(text[i:j]))
		if tokens > 0 && tokens+lt > c.max {
			c.emit(startLine, line-1, start, s.Start+i)
			start, startLine, tokens = s.Start+i, line, 0
		}
		if lt > c.max {
			c.splitWords(s.Start+i, s.Start+j, line)
			start, startLine, tokens = s.Start+j+1, line+1, 0
		} else {
			tokens += lt
		}
		i = j + 1
		line++
	}
	if start < s.End && strings.TrimSpace(string(c.note.Content[start:s.End])) != "" {
		c.emit(startLine, s.EndLine, start, s.End)
	}
}

// splitWords cuts one long line [from, to) at spaces.
func (c *chunker) splitWords(from, to, line int) {
	b := c.note.Content
	start, tokens := from, 0
	for i := from; i < to; {
		j := i
		for j < to && b[j] != ' ' {
			j++
		}
		wt := vault.EstimateTokens(string(b[i:min(j+1, to)]))
		if tokens > 0 && tokens+wt > c.max {
			c.emit(line, line, start, i)
			start, tokens = i, 0
		}
		for wt > c.max { // a single "word" longer than a chunk
			cut := i + c.max*2 // at most max tokens even if every byte is a rune
			for cut > i && !utf8.RuneStart(b[cut]) {
				cut--
			}
			c.emit(line, line, i, cut)
			i, start, wt = cut, cut, vault.EstimateTokens(string(b[cut:min(j+1, to)]))
		}
		tokens += wt
		i = j + 1
	}
	if start < to {
		c.emit(line, line, start, to)
	}
}

func (c *chunker) emit(lineStart, lineEnd, start, end int) {
	text := strings.TrimSpace(string(c.note.Content[start:end]))
	ch := chunk{heading: c.heading, lineStart: lineStart, lineEnd: lineEnd, text: text, tokens: vault.EstimateTokens(text)}
	for _, b := range c.note.Blocks {
		if b.Line >= lineStart && b.Line <= lineEnd {
			ch.blocks = append(ch.blocks, b.ID)
		}
	}
	c.out = append(c.out, ch)
}

func (c *chunker) hasBlockID(s vault.Span) bool {
	for _, b := range c.note.Blocks {
		if b.Line >= s.Line && b.Line <= s.EndLine {
			return true
		}
	}
	return false
}

// isBlockIDLine reports whether text is only a block id ("^id"), which
// names the block before it.
func isBlockIDLine(text string) bool {
	text = strings.TrimSpace(text)
	if len(text) < 2 || text[0] != '^' {
		return false
	}
	for _, r := range text[1:] {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

func headingText(n *vault.Note, s vault.Span) string {
	for _, h := range n.Headings {
		if h.Line == s.Line {
			return h.Text
		}
	}
	return strings.TrimSpace(strings.TrimLeft(s.Text(n), "#"))
}

func joinHeadings(stack []string) string {
	var parts []string
	for _, h := range stack {
		if h != "" {
			parts = append(parts, h)
		}
	}
	return strings.Join(parts, " > ")
}
