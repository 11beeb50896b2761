package markdown

import (
	"bytes"
	"fmt"
)

// goldmark takes time that grows faster than the note for some markup:
// containers nested hundreds deep (quadratic in the depth on every line,
// and every blank line in a list costs each open level), emphasis markers
// that never pair up (each closer walks back over every earlier marker),
// unclosed link destinations and titles (each rescans the rest of the line
// or paragraph), backtick runs of many lengths (each rescans the rest of
// the paragraph), failed link labels in a long paragraph (each looks back
// over the paragraph's lines) and paragraphs of link reference
// definitions. A parse cannot be interrupted, so before a body goes to
// goldmark, checkBounds estimates that work in one linear pass, in
// nanoseconds of goldmark time (weights measured with the shapes of
// BenchmarkParsePathological), and Parse reads the body as plain text when
// the estimate is over the budget or the nesting is deeper than
// maxNesting. The pass follows goldmark's rules where they decide the cost
// (which lines continue a paragraph, which markers can open or close,
// which wikilinks our parser takes) and errs high where it cannot follow
// them cheaply (it does not know code spans or HTML inside a paragraph).
// Ordinary notes stay far below their budget: under a hundredth for every
// fixture, generated and real note (TestOrdinaryNotesParseAsBefore).

// maxNesting is the deepest nesting of block quotes and list items that
// Parse hands to goldmark; Obsidian outlines rarely pass 10.
const maxNesting = 32

// The budget is budgetBase plus budgetPerByte for each byte of the body:
// about 30 ms for any note and a quarter of a second more per megabyte, on
// top of goldmark's linear cost (about 0.1 s per megabyte).
const (
	budgetBase    = 32 << 20
	budgetPerByte = 256
)

// Estimated goldmark time, in nanoseconds, of one unit of each kind of work.
const (
	costLevel       = 450 // each open container on each line
	costLevelSquare = 16  // the square of the container depth of each line
	costDelimStep   = 4   // each emphasis marker walked over by a closer
	costScanByte    = 3   // each byte scanned for a link destination or title
	costCodeByte    = 8   // each byte scanned for a closing backtick run
	costLookBack    = 2   // each line a failed link label looks back over
	costRefLine     = 1   // each line of a paragraph, for each link reference definition in it
	costNode        = 48  // each inline node walked over when a link label closes
)

// PlainTextError is the Err of the warning (a *ParseError) of a note whose
// body was read as plain text because parsing its markdown would take too
// long. Such a note's frontmatter is read as usual; its body gives
// paragraphs of text (its Spans) but no headings, block ids, links or tags.
type PlainTextError struct {
	// Reason says what made the markdown too costly.
	Reason string
}

func (e *PlainTextError) Error() string { return e.Reason + "; read as plain text" }

// The kinds of work checkBounds counts, for the warning's reason.
const (
	workNesting = iota
	workEmphasis
	workLinks
	workCode
	workRefs
	workKinds
)

var workReasons = [workKinds]string{
	workNesting:  "block quotes and lists nested too deep for their length",
	workEmphasis: "emphasis markers that do not pair up",
	workLinks:    "link brackets and destinations that do not close",
	workCode:     "unmatched backtick runs",
	workRefs:     "too many link reference definitions in one paragraph",
}

// checkBounds estimates goldmark's work on body, whose first line is line
// first of the note p. It returns nil when the body may be parsed as
// markdown, else a *ParseError whose Err is a *PlainTextError, at the line
// where the costly markup starts (the paragraph's first line, or the line
// where the nesting goes too deep).
func checkBounds(p string, body []byte, first int) *ParseError {
	s := boundScan{src: body, budget: budgetBase + budgetPerByte*int64(len(body))}
	s.run()
	if s.reason == "" {
		return nil
	}
	return &ParseError{Path: p, Line: first + s.at - 1, Err: &PlainTextError{Reason: s.reason}}
}

// boundScan is the state of checkBounds' pass over a body.
type boundScan struct {
	src    []byte
	budget int64
	work   [workKinds]int64
	total  int64
	reason string // why the body is over its bounds; "" while it is not
	at     int    // 1-based body line of the reason

	line      int   // current 1-based line
	prevDepth int   // containers open on the previous line
	prevText  bool  // the previous line was paragraph text (the next may continue it lazily)
	items     []int // content columns of the open list items, innermost last

	// An open fenced code block: its character and length, the '>'
	// markers and list content column that contain it, and its depth.
	fenceChar            byte
	fenceLen             int
	fenceQuote, fenceCol int
	fenceDepth           int

	para paraScan
}

// add counts n units of work of kind k at cost c each.
func (s *boundScan) add(k int, n, c int64) {
	if n <= 0 || s.reason != "" {
		return
	}
	s.work[k] += n * c
	s.total += n * c
	if s.total > s.budget && s.reason == "" {
		top := 0
		for i := range s.work {
			if s.work[i] > s.work[top] {
				top = i
			}
		}
		s.reason = workReasons[top]
		s.at = s.line
		if top != workNesting && s.para.line > 0 {
			s.at = s.para.line
		}
	}
}

func (s *boundScan) run() {
	for pos := 0; pos < len(s.src) && s.reason == ""; {
		end := bytes.IndexByte(s.src[pos:], '\n')
		next := len(s.src)
		if end < 0 {
			end = len(s.src)
		} else {
			end += pos
			next = end + 1
		}
		s.line++
		s.scanLine(bytes.TrimSuffix(s.src[pos:end], []byte("\r")), pos)
		pos = next
	}
	if s.reason == "" {
		s.endPara()
	}
}

// container is one block quote or list marker at the start of a line.
type container struct {
	quote      bool
	col        int // column of the marker
	contentCol int // column where the item's content starts (lists)
}

// scanLine looks at one line: the containers it opens or continues, then
// its inline markup as part of the current paragraph.
func (s *boundScan) scanLine(line []byte, off int) {
	if s.fenceChar != 0 && s.inFence(line) {
		s.add(workNesting, 1, costLevel*int64(s.fenceDepth)+costLevelSquare*int64(s.fenceDepth*s.fenceDepth))
		return
	}
	tb := thematicBreakFrom(line)
	var markers []container
	pos, col := 0, 0
	quotes, lists := 0, 0
	base := -1 // content column markers are indented from; -1: from the open items
	for pos < len(line) && len(markers) <= maxNesting {
		ws, n := indentAt(line, pos, col)
		p := pos + n
		if p >= len(line) {
			break
		}
		from := base
		if from < 0 {
			from = 0
			for _, c := range s.items {
				if c <= col+ws {
					from = c
				}
			}
		}
		if col+ws-from >= 4 {
			break // indented code or paragraph text, not a marker
		}
		if line[p] == '>' {
			markers = append(markers, container{quote: true, col: col + ws})
			quotes++
			pos, col = p+1, col+ws+1
			if pos < len(line) && line[pos] == ' ' {
				pos, col = pos+1, col+1
			}
			base = col
			continue
		}
		if p >= tb {
			break // the rest is a thematic break, not list markers
		}
		w := listMarker(line[p:])
		if w == 0 {
			break
		}
		mcol := col + ws
		pos, col = p+w, mcol+w
		sp, sn := indentAt(line, pos, col)
		if pos+sn >= len(line) || sp > 4 {
			sp, sn = 1, min(sn, 1) // empty item, or content that is indented code
		}
		pos, col = pos+sn, col+sp
		markers = append(markers, container{col: mcol, contentCol: col})
		lists++
		base = col
	}
	rest := line[pos:]
	ws, _ := indentAt(rest, 0, col)
	text := rest[len(rest)-len(bytes.TrimLeft(rest, " \t")):]
	blank := len(text) == 0
	textAt := pos + len(rest) - len(text) // offset of text in line
	textCol := col + ws
	inside := 0 // the open items that contain text, by its column
	itemCol := 0
	for _, c := range s.items {
		if c <= textCol {
			inside++
			itemCol = c
		}
	}
	if len(markers) > 0 {
		itemCol = col
	}

	depth := quotes + lists
	switch {
	case lists > 0:
		// A list marker closes the items its column is not inside.
		first := 0
		for markers[first].quote {
			first++
		}
		keep := 0
		for keep < len(s.items) && s.items[keep] <= markers[first].col {
			keep++
		}
		s.items = s.items[:keep]
		depth += len(s.items)
		for _, m := range markers[first:] {
			if !m.quote {
				s.items = append(s.items, m.contentCol)
			}
		}
	case !blank:
		depth += inside
	}
	lazy := len(markers) == 0 && s.prevText && !blank
	if blank || lazy {
		depth = max(depth, s.prevDepth)
	}
	if depth > maxNesting {
		s.reason = fmt.Sprintf("nesting deeper than %d levels", maxNesting)
		s.at = s.line
		return
	}
	s.add(workNesting, 1, costLevel*int64(depth)+costLevelSquare*int64(depth*depth))
	s.prevDepth = depth
	if !blank && !lazy && len(markers) == 0 && textCol == 0 {
		s.items = s.items[:0] // unindented text after a blank line ends every list
	}

	// Paragraph boundaries: a blank line, a list item, a deeper quote, a
	// heading, a fence or a thematic break ends the current paragraph.
	code := textCol-itemCol >= 4 && !s.prevText // indented code: no inline markup
	switch {
	case blank:
		s.endPara()
		s.prevText = false
	case !code && isFence(text):
		s.endPara()
		s.fenceChar, s.fenceLen = text[0], fenceRun(text)
		s.fenceQuote, s.fenceCol, s.fenceDepth = quotes, itemCol, depth
		s.prevText = false
	case !code && (isATXHeading(text) || textAt >= tb):
		// A heading is a paragraph of one line; a thematic break (or a
		// setext underline) ends the paragraph before it.
		s.endPara()
		if isATXHeading(text) {
			s.para.line = s.line
			s.inline(text, off+textAt)
			s.endPara()
		}
		s.prevText = false
	default:
		if lists > 0 || quotes > s.para.quote {
			s.endPara() // a list item or a deeper quote starts a paragraph
		}
		if !code {
			if s.para.line == 0 {
				s.para.line, s.para.quote = s.line, quotes
			}
			s.inline(text, off+textAt)
			s.prevText = true
		}
	}
}

// inFence reports whether line is inside the open fenced code block,
// closing the block at its closing fence or when the line leaves the
// block's containers.
func (s *boundScan) inFence(line []byte) bool {
	pos, col, quotes := 0, 0, 0
	for quotes < s.fenceQuote {
		ws, n := indentAt(line, pos, col)
		if pos+n >= len(line) || line[pos+n] != '>' {
			break
		}
		pos, col = pos+n+1, col+ws+1
		quotes++
	}
	rest := line[pos:]
	ws, _ := indentAt(rest, 0, col)
	text := bytes.TrimLeft(rest, " \t")
	if len(text) > 0 && (quotes < s.fenceQuote || col+ws < s.fenceCol) {
		s.fenceChar = 0 // the containers ended, and the fence with them
		return false
	}
	if len(text) >= s.fenceLen && text[0] == s.fenceChar && fenceRun(text) >= s.fenceLen &&
		len(bytes.TrimRight(text[fenceRun(text):], " \t")) == 0 {
		s.fenceChar = 0
	}
	s.prevText, s.prevDepth = false, s.fenceDepth
	return true
}

// endPara ends the current paragraph, counting the work that depends on
// its whole length.
func (s *boundScan) endPara() {
	p := &s.para
	if p.line == 0 {
		return
	}
	lines := int64(p.last - p.line + 1)
	end := int64(p.end)
	s.add(workLinks, lines*p.closers-p.closerLines, costLookBack)
	s.add(workRefs, p.refs*lines, costRefLine)
	for _, g := range p.titles {
		s.add(workLinks, g.n*end-g.sum, costScanByte)
	}
	s.add(workCode, p.codeScan(), costCodeByte)
	*p = paraScan{stack: p.stack[:0], openers: [2][]int{p.openers[0][:0], p.openers[1][:0]}, labels: p.labels[:0], runs: p.runs[:0]}
}
