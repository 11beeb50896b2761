package markdown

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

// paraScan is the inline markup of the current paragraph that costs more
// than its length: emphasis markers, link brackets and destinations, and
// backtick runs.
type paraScan struct {
	line, last int // first and last line, 0 when no paragraph is open
	quote      int // the '>' markers of its first line: a line with fewer continues it
	end        int // offset just past the last byte seen

	// Emphasis: the markers goldmark keeps while pairing them, and for '*'
	// and '_' the stack positions of those that can open.
	stack   []delim
	openers [2][]int

	// nodes counts the inline nodes goldmark makes that text does not
	// merge into, about: one for each line, emphasis marker, backtick
	// run, escape, entity, tag and wikilink.
	nodes int64
	ids   int64 // the last id given to an emphasis marker

	// Link labels: the '[' not yet closed; the ']' that close one, and
	// the sum of their line numbers (within the paragraph).
	labels               []label
	closers, closerLines int64

	// Destinations being scanned: ones with no '(' since they began
	// (closed by ')'), others, and "<...>" ones; each a count and a sum of
	// starts. titleWait counts destinations that may be followed by a
	// title. titles are titles being scanned for '"', '\'' and ')'.
	dest, destNested, destAngle group
	titleWait                   int64
	titles                      [3]group

	refs int64 // lines that look like link reference definitions
	runs []run // backtick runs
}

// group is a set of scans still running: how many, and the sum of their
// start offsets, so that ending all of them at offset e costs n*e-sum.
type group struct{ n, sum int64 }

func (g *group) start(at int) { g.n++; g.sum += int64(at) }

// delim is an emphasis marker run as goldmark keeps it.
type delim struct {
	char              byte
	n, orig           int // length left, and as written
	canOpen, canClose bool
	id, node          int64 // a serial number, and paraScan.nodes when it came
}

// label is an open link label ('[' or "!["): its offset, paraScan.nodes
// when it opened, where the first link made after it starts (its node;
// -1: none yet), and the emphasis marker then last (goldmark's "bottom"
// for the link), as its stack position and id (-1: none).
type label struct {
	at          int
	image       bool
	node, link  int64
	bottom, bid int64
}

// run is a backtick run: its offset and length, and the length of the
// code span it can open (one less after a backslash).
type run struct{ at, n, open int }

// inline scans one line of paragraph text starting at body offset off.
func (s *boundScan) inline(text []byte, off int) {
	p := &s.para
	if len(text) > 0 && text[0] == '[' && bytes.Contains(text, []byte("]:")) {
		p.refs++
	}
	pline := int64(s.line - p.line)
	p.last = s.line
	p.nodes++                    // the line's text
	wiki := closeSearch{end: -1} // for wikilinks, as wikilinkParser finds them
	for i := 0; i < len(text) && s.reason == ""; i++ {
		c := text[i]
		// Titles being scanned end at their closing character, and one in
		// parentheses also at another '(' (goldmark gives up there).
		switch c {
		case '"':
			s.endTitle(0, off+i)
		case '\'':
			s.endTitle(1, off+i)
		case '(', ')':
			s.endTitle(2, off+i)
		}
		if p.titleWait > 0 && c != ' ' && c != '\t' {
			// A destination followed by '"', '\'' or '(' goes on with a
			// title, scanned for its closing '"', '\'' or ')' over lines.
			if k := bytes.IndexByte([]byte(`"'(`), c); k >= 0 {
				p.titles[k].n += p.titleWait
				p.titles[k].sum += p.titleWait * int64(off+i)
				p.titleWait = 0
				continue
			}
			p.titleWait = 0
		}
		switch c {
		case '\\':
			if i+1 < len(text) && text[i+1] == '`' {
				// An escaped backtick opens nothing, but the search for
				// a closing run sees it as part of the run.
				j := i + 1
				for j < len(text) && text[j] == '`' {
					j++
				}
				p.runs = append(p.runs, run{at: off + i + 1, n: j - i - 1, open: j - i - 2})
				p.nodes++
				i = j - 1
			} else if i+1 < len(text) && isASCIIPunct(text[i+1]) {
				i++
				p.nodes++
			}
		case '`':
			j := i
			for j < len(text) && text[j] == '`' {
				j++
			}
			p.runs = append(p.runs, run{at: off + i, n: j - i, open: j - i})
			p.nodes++
			i = j - 1
		case '*', '_':
			j := i
			for j < len(text) && text[j] == c {
				j++
			}
			s.emphasis(text, i, j)
			i = j - 1
		case '[':
			if i+1 < len(text) && text[i+1] == '[' {
				if at, pipe := wiki.find(text, i+2, len(text)); at >= 0 && wikilinkAt(text, i+2, at, pipe) {
					i = at + 1 // our parser takes it whole
					p.nodes++
					continue
				}
			}
			l := label{at: off + i, image: i > 0 && text[i-1] == '!', node: p.nodes, link: -1, bottom: int64(len(p.stack)) - 1, bid: -1}
			if l.bottom >= 0 {
				l.bid = p.stack[l.bottom].id
			}
			p.labels = append(p.labels, l)
		case ']':
			if len(p.labels) == 0 {
				break
			}
			s.closeLabel(text, i, off, pline)
			if i+1 < len(text) && text[i+1] == '(' {
				i++
				s.endTitle(2, off+i)
				if i+1 < len(text) && text[i+1] == '<' {
					p.destAngle.start(off + i + 1)
				} else {
					p.dest.start(off + i + 1)
				}
			}
		case '<', '&':
			p.nodes++
		case '(':
			p.destNested.n += p.dest.n
			p.destNested.sum += p.dest.sum
			p.dest = group{}
		case ')':
			s.add(workLinks, p.dest.n*int64(off+i)-p.dest.sum, costScanByte)
			p.dest = group{}
		case '>':
			s.add(workLinks, p.destAngle.n*int64(off+i)-p.destAngle.sum, costScanByte)
			p.destAngle = group{}
		case ' ', '\t':
			s.endDest(off + i)
		}
	}
	s.endDest(off + len(text))
	g := &p.destAngle
	s.add(workLinks, g.n*int64(off+len(text))-g.sum, costScanByte)
	*g = group{}
	p.end = off + len(text)
}

// closeLabel closes the last open link label at text[i] (a ']'). goldmark
// looks back over the paragraph's lines for a failed label and copies it,
// and walks the inline nodes since the label opened looking for a link
// inside it. (It skips both when the open labels span over 998 bytes; the
// estimate counts them anyway, an upper bound that stays right when the
// labels it sees are not goldmark's, such as a '[' inside code.) At an
// inline link ("](") it pairs the
// emphasis markers since the label's bottom marker and clears them,
// walking back over the nodes since that marker, or since the paragraph
// began when the marker is gone.
func (s *boundScan) closeLabel(text []byte, i, off int, pline int64) {
	p := &s.para
	l := p.labels[len(p.labels)-1]
	p.labels = p.labels[:len(p.labels)-1]
	p.closers++
	p.closerLines += pline
	isLink := i+1 < len(text) && text[i+1] == '('
	if !isLink {
		// A failed label is copied to look it up as a reference.
		s.add(workLinks, int64(off+i-l.at), costScanByte)
	}
	if !l.image {
		// Looking for a link inside a link's text walks the nodes after
		// the label, up to the first link.
		end := p.nodes
		if l.link >= 0 {
			end = l.link
		}
		s.add(workLinks, end-l.node, costNode)
	}
	if n := len(p.labels); n > 0 {
		// The label below now has this link, or the links in this
		// label, after it.
		first := l.link
		if isLink {
			first = l.node
		}
		if below := &p.labels[n-1]; first >= 0 && (below.link < 0 || first < below.link) {
			below.link = first
		}
	}
	if !isLink || len(p.stack) == 0 {
		return
	}
	if l.bottom >= 0 && l.bottom < int64(len(p.stack)) && p.stack[l.bottom].id == l.bid {
		if top := int64(len(p.stack)) - 1; top > l.bottom {
			s.add(workLinks, 2*(p.nodes-p.stack[l.bottom].node), costNode)
		}
		p.truncate(int(l.bottom) + 1)
		return
	}
	s.add(workLinks, 2*p.nodes, costNode)
	p.truncate(0)
}

// endDest ends the plain destinations at offset at (white space or the end
// of a line); they may go on with a title.
func (s *boundScan) endDest(at int) {
	p := &s.para
	for _, g := range []*group{&p.dest, &p.destNested} {
		s.add(workLinks, g.n*int64(at)-g.sum, costScanByte)
		p.titleWait += g.n
		*g = group{}
	}
}

func (s *boundScan) endTitle(k, at int) {
	g := &s.para.titles[k]
	s.add(workLinks, g.n*int64(at)-g.sum, costScanByte)
	*g = group{}
}

// emphasis pairs the marker run text[i:j] with the markers before it the
// way goldmark does, counting the markers a closer walks back over. Every
// run is a marker to goldmark, even one that can neither open nor close
// (inside a word): it stays in the list, and closers walk over it, until a
// pair around it is made.
func (s *boundScan) emphasis(text []byte, i, j int) {
	p := &s.para
	c := text[i]
	prev, next := ' ', ' '
	if i > 0 {
		prev, _ = utf8.DecodeLastRune(text[:i])
	}
	if j < len(text) {
		next, _ = utf8.DecodeRune(text[j:])
	}
	// CommonMark's flanking rules, with goldmark's classes of runes.
	prevSpace, nextSpace := unicode.IsSpace(prev), unicode.IsSpace(next)
	prevPunct := unicode.IsPunct(prev) || unicode.IsSymbol(prev)
	nextPunct := unicode.IsPunct(next) || unicode.IsSymbol(next)
	left := !nextSpace && (!nextPunct || prevSpace || prevPunct)
	right := !prevSpace && (!prevPunct || nextSpace || nextPunct)
	p.nodes++
	p.ids++
	d := delim{char: c, n: j - i, orig: j - i, canOpen: left, canClose: right, id: p.ids, node: p.nodes}
	k := 0
	if c == '_' {
		k = 1
		d.canOpen = left && (!right || prevPunct)
		d.canClose = right && (!left || nextPunct)
	}
	for d.canClose && d.n > 0 {
		ops := p.openers[k]
		if len(ops) == 0 {
			// No opener: the closer walks to the bottom, and goes unless
			// it can open.
			s.add(workEmphasis, int64(len(p.stack)), costDelimStep)
			if !d.canOpen {
				return
			}
			break
		}
		at := ops[len(ops)-1]
		o := p.stack[at]
		s.add(workEmphasis, int64(len(p.stack)-at), costDelimStep)
		if (o.canClose || d.canOpen) && (o.orig+d.orig)%3 == 0 && d.orig%3 != 0 {
			// The rule of 3 forbids the pair: goldmark walks on (to the
			// bottom, at most) and keeps the closer.
			s.add(workEmphasis, int64(at), costDelimStep)
			break
		}
		used := min(o.n, d.n)
		d.n -= used
		if o.n > used {
			p.stack[at].n -= used
			p.truncate(at + 1)
		} else {
			p.truncate(at)
		}
	}
	if d.n > 0 {
		p.stack = append(p.stack, d)
		if d.canOpen {
			p.openers[k] = append(p.openers[k], len(p.stack)-1)
		}
	}
}

// truncate drops the emphasis markers from n on: a pair was made around
// them.
func (p *paraScan) truncate(n int) {
	p.stack = p.stack[:n]
	for k, ops := range p.openers {
		for len(ops) > 0 && ops[len(ops)-1] >= n {
			ops = ops[:len(ops)-1]
		}
		p.openers[k] = ops
	}
}

// codeScan is the number of bytes goldmark's code span parser scans in the
// paragraph: from each opening backtick run to the next run of the same
// length, or to the end of the paragraph when there is none (then the run
// is text, and the next run opens).
func (p *paraScan) codeScan() int64 {
	next := make([]int, len(p.runs))
	last := map[int]int{}
	for i := len(p.runs) - 1; i >= 0; i-- {
		next[i] = -1
		if j, ok := last[p.runs[i].open]; ok {
			next[i] = j
		}
		last[p.runs[i].n] = i
	}
	var scanned int64
	for i := 0; i < len(p.runs); {
		if p.runs[i].open == 0 {
			i++
			continue
		}
		if j := next[i]; j >= 0 {
			scanned += int64(p.runs[j].at - p.runs[i].at)
			i = j + 1
			continue
		}
		scanned += int64(p.end - p.runs[i].at)
		i++
	}
	return scanned
}
