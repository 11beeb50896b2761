package index

import (
	"bytes"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/session"
	"github.com/vaultmem/vaultmem/task"
	"github.com/vaultmem/vaultmem/text"
)

// chunk is the unit the index searches and recall returns: a heading
// section, a paragraph, or a run of short paragraphs.
type chunk struct {
	heading            string   // heading path, "Top > Sub"
	blocks             []string // block ids inside the chunk
	lineStart, lineEnd int
	text               string
	tokens             int
	date               string // a task's log event's day; "" for others
}

// chunkNote splits a note into chunks of at most max tokens. A heading
// section small enough (max/2 tokens) is one chunk; a larger one is split
// at its top-level blocks (paragraphs, lists, tables, code), short
// neighbours merged up to max/2 tokens, except that a paragraph with a
// block id always stands alone, so that a block can be returned by itself.
// A block over max tokens is split at line, then word, boundaries. Every
// note yields at least one chunk (perhaps empty), so that its name and
// description are searchable.
//
// What Obsidian does not show is not indexed: "%%" comments (see
// markdown.Note.Comments) are cut out of the chunks' text, and of an
// Excalidraw drawing (see markdown.Note.IsExcalidraw) the "Drawing" section
// (the drawing's JSON) and the "Switch to EXCALIDRAW VIEW" banner are
// left out, while the "Text Elements" section, the words drawn, is
// indexed as text.
//
// In a task note (type: task) every event of its "## Log" section (see
// task.Events) is a chunk of its own with the event's date, so that
// "why did we choose X" finds the one decision, dated.
//
// A session note (type: session) is an episode: its "Prompts" section
// (session.PromptsHeading), the user's prompts word for word, is left out,
// so that a search finds what the session did (its tasks, files, lessons,
// checkpoint), never an old transcript of questions.
func chunkNote(n *markdown.Note, max int) []chunk {
	c := chunker{note: n, max: max, small: max / 2, blocks: n.Blocks}
	if n.Type() == task.Type {
		c.events = task.Events(n)
	}
	if !sort.SliceIsSorted(c.blocks, func(i, j int) bool { return c.blocks[i].Line < c.blocks[j].Line }) {
		c.blocks = append([]markdown.Block(nil), n.Blocks...)
		sort.SliceStable(c.blocks, func(i, j int) bool { return c.blocks[i].Line < c.blocks[j].Line })
	}
	var section []markdown.Span
	var stack []string // heading texts by level-1
	drawing := n.IsExcalidraw()
	episode := n.Type() == session.Type
	skip := 0 // the level of the drawing section (or a session's prompts) being left out, or 0
	for _, s := range n.Spans {
		if s.Kind != "heading" {
			if skip == 0 && !(drawing && isExcalidrawBanner(c.text(s.Start, s.End))) {
				section = append(section, s)
			}
			continue
		}
		if skip > 0 && s.Level > skip {
			continue // a heading inside the drawing section
		}
		skip = 0
		c.section(section)
		section = nil
		if s.Level > len(stack) {
			stack = append(stack, make([]string, s.Level-len(stack))...)
		}
		stack = append(stack[:s.Level-1], headingText(n, s))
		c.heading = joinHeadings(stack)
		c.headingLine = s.Line
		if drawing && s.Level <= 2 && strings.EqualFold(stack[s.Level-1], "Drawing") {
			skip = s.Level
		}
		if episode && strings.EqualFold(stack[s.Level-1], session.PromptsHeading) {
			skip = s.Level
		}
	}
	c.section(section)
	if len(c.out) == 0 {
		c.out = append(c.out, chunk{heading: c.heading, lineStart: n.BodyLine, lineEnd: n.BodyLine})
	}
	return c.out
}

// isExcalidrawBanner reports whether text is the line the Excalidraw
// plugin writes at the top of a drawing ("==⚠  Switch to EXCALIDRAW VIEW
// in the MORE OPTIONS menu of this document. ⚠== ...").
func isExcalidrawBanner(text string) bool {
	return strings.HasPrefix(text, "==⚠") && strings.Contains(text, "EXCALIDRAW VIEW")
}

type chunker struct {
	note        *markdown.Note
	blocks      []markdown.Block // the note's block ids, by line
	max, small  int
	heading     string
	headingLine int
	out         []chunk
	events      []task.Event // a task's log, when the note is one
	date        string       // the date of the chunks emitted now
	// atLine starts at offset atOff: where lineOffset last stopped.
	atLine, atOff int
}

func (c *chunker) section(spans []markdown.Span) {
	if len(spans) == 0 {
		return
	}
	if len(c.events) > 0 && isLogSection(c.heading) {
		c.logSection(spans)
		return
	}
	total := 0
	for _, s := range spans {
		total += text.EstimateTokens(c.text(s.Start, s.End))
	}
	if total <= c.small {
		c.emit(spans[0].Line, spans[len(spans)-1].EndLine, spans[0].Start, spans[len(spans)-1].End)
		return
	}
	// Units: each span, with a lone "^id" line joined to the span before it.
	var run []markdown.Span
	runTokens := 0
	flush := func() {
		if len(run) > 0 {
			c.emit(run[0].Line, run[len(run)-1].EndLine, run[0].Start, run[len(run)-1].End)
			run, runTokens = nil, 0
		}
	}
	for i := 0; i < len(spans); i++ {
		s := spans[i]
		if i+1 < len(spans) && isBlockIDLine(c.text(spans[i+1].Start, spans[i+1].End)) {
			s.End, s.EndLine = spans[i+1].End, spans[i+1].EndLine
			i++
		}
		tokens := text.EstimateTokens(c.text(s.Start, s.End))
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

// isLogSection reports whether the heading path ends in a task's log
// heading.
func isLogSection(heading string) bool {
	i := strings.LastIndex(heading, " > ")
	return strings.EqualFold(strings.TrimSpace(heading[i+1:]), task.LogHeading) ||
		i < 0 && strings.EqualFold(heading, task.LogHeading)
}

// logSection chunks a task's log section: each event alone, dated (split
// when over max tokens), the rest as any section's.
func (c *chunker) logSection(spans []markdown.Span) {
	for _, s := range spans {
		var evs []task.Event
		for _, e := range c.events {
			if e.Line >= s.Line && e.EndLine <= s.EndLine {
				evs = append(evs, e)
			}
		}
		if s.Kind != "list" || len(evs) == 0 {
			c.section0(s)
			continue
		}
		for _, e := range evs {
			start, end := c.lineOffset(e.Line), c.lineOffset(e.EndLine+1)
			if end > s.End {
				end = s.End
			}
			ev := markdown.Span{Kind: "list", Start: start, End: end, Line: e.Line, EndLine: e.EndLine}
			c.date = e.Date()
			if text.EstimateTokens(c.text(start, end)) > c.max {
				c.split(ev)
			} else {
				c.emit(ev.Line, ev.EndLine, ev.Start, ev.End)
			}
			c.date = ""
		}
	}
}

// section0 chunks one span as a section of its own.
func (c *chunker) section0(s markdown.Span) {
	events := c.events
	c.events = nil
	c.section([]markdown.Span{s})
	c.events = events
}

// lineOffset returns the offset in the note where the 1-based line
// starts; len(content) past the last line. Asked for lines in order, it
// goes on from the last answer.
func (c *chunker) lineOffset(line int) int {
	if c.atLine == 0 || line < c.atLine {
		c.atLine, c.atOff = 1, 0
	}
	b := c.note.Content
	for c.atLine < line {
		i := bytes.IndexByte(b[c.atOff:], '\n')
		if i < 0 {
			return len(b)
		}
		c.atOff += i + 1
		c.atLine++
	}
	return c.atOff
}

// split cuts an oversized span at line boundaries (and an oversized line
// at word boundaries) into chunks of at most max tokens.
func (c *chunker) split(s markdown.Span) {
	src := c.note.Content[s.Start:s.End]
	line := s.Line
	start, startLine := s.Start, s.Line
	tokens := 0
	for i := 0; i < len(src); {
		j := i
		for j < len(src) && src[j] != '\n' {
			j++
		}
		lt := text.EstimateTokens(string(src[i:j]))
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
	if start < s.End && strings.TrimSpace(c.text(start, s.End)) != "" {
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
		wt := text.EstimateTokens(string(b[i:min(j+1, to)]))
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
			i, start = cut, cut
			// Over 4*max bytes is over max tokens (a token is at most 4
			// bytes): counting the rest again at every cut would take
			// time quadratic in the word.
			if rest := min(j+1, to) - cut; rest > 4*c.max {
				wt = c.max + 1
			} else {
				wt = text.EstimateTokens(string(b[cut:min(j+1, to)]))
			}
		}
		tokens += wt
		i = j + 1
	}
	if start < to {
		c.emit(line, line, start, to)
	}
}

// emit adds the chunk of lines lineStart to lineEnd, bytes start to end of
// the note; one that is only comments is left out.
func (c *chunker) emit(lineStart, lineEnd, start, end int) {
	body := strings.TrimSpace(c.text(start, end))
	if body == "" {
		return
	}
	ch := chunk{heading: c.heading, lineStart: lineStart, lineEnd: lineEnd, text: body, tokens: text.EstimateTokens(body), date: c.date}
	for _, b := range c.blocksFrom(lineStart) {
		if b.Line > lineEnd {
			break
		}
		ch.blocks = append(ch.blocks, b.ID)
	}
	c.out = append(c.out, ch)
}

// text returns the note's bytes start to end with its comments cut out.
// It reads only the comments that overlap the range.
func (c *chunker) text(start, end int) string {
	b := c.note.Content
	cms := c.note.Comments
	size := end - start
	var out strings.Builder
	for _, cm := range cms[sort.Search(len(cms), func(i int) bool { return cms[i].End > start }):] {
		if cm.Start >= end {
			break
		}
		if cm.Start > start {
			out.Write(b[start:cm.Start])
		}
		start = max(start, cm.End)
	}
	if start < end {
		out.Write(b[start:end])
	}
	if out.Len() == size {
		return out.String()
	}
	// A comment on lines of its own leaves blank lines: keep one.
	t := out.String()
	for strings.Contains(t, "\n\n\n") {
		t = strings.ReplaceAll(t, "\n\n\n", "\n\n")
	}
	return t
}

func (c *chunker) hasBlockID(s markdown.Span) bool {
	b := c.blocksFrom(s.Line)
	return len(b) > 0 && b[0].Line <= s.EndLine
}

// blocksFrom returns the note's block ids from line on, in line order: a
// binary search, as a note can have a block id on every paragraph and so
// as many chunks as blocks.
func (c *chunker) blocksFrom(line int) []markdown.Block {
	return c.blocks[sort.Search(len(c.blocks), func(i int) bool { return c.blocks[i].Line >= line }):]
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

func headingText(n *markdown.Note, s markdown.Span) string {
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
