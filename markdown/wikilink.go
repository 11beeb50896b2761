package markdown

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"go.abhg.dev/goldmark/wikilink"
)

// wikilinkParser finds [[wikilinks]] with go.abhg.dev/goldmark/wikilink and
// then reads the text between the brackets itself, to follow Obsidian where
// that extension does not: the fragment starts at the FIRST '#'
// ([[A#H1#H2]] is heading "H1#H2" of A), and "\|" (the escaped pipe that
// tables need) separates target and label without leaving a '\' behind.
//
// The extension looks for the closing "]]" from every '[' and '!' to the
// end of the line, which is quadratic on a long line of them ("[[a[[a..."
// or "a!a!..."). So Parse first checks the opening itself, finds the
// closing "]]" through a per-parse cache (see [closeSearch]), and hands
// the extension only a link it will accept.
type wikilinkParser struct {
	wikilink.Parser
}

// wikiNode is a parsed wikilink with its Obsidian reading.
type wikiNode struct {
	ast.BaseInline
	link Link
}

var kindWiki = ast.NewNodeKind("VaultWikilink")

func (n *wikiNode) Kind() ast.NodeKind { return kindWiki }

func (n *wikiNode) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, map[string]string{"Target": n.link.Target}, nil)
}

var (
	wikiOpen       = []byte("[[")
	wikiEmbedOpen  = []byte("![[")
	wikiClose      = []byte("]]")
	closeSearchKey = parser.NewContextKey()
)

// closeSearch remembers the last search for "]]": the first one at or
// after from, in the line that ends at end, is at at (-1: none), and pipe
// is the last '|' in [from, at-1) (-1: none). A later search from a
// position in [from, at] of the same line has the same answer, so
// searching from each of n openers on a line costs O(line) in all rather
// than O(n × line).
type closeSearch struct{ from, end, at, pipe int }

// find returns the offset in src of the first "]]" in src[from:end] (-1:
// none), and of the last '|' between from and the byte before it.
func (c *closeSearch) find(src []byte, from, end int) (at, pipe int) {
	if c.end != end || c.from > from || c.at >= 0 && c.at < from {
		*c = closeSearch{from: from, end: end, at: -1, pipe: -1}
		if i := bytes.Index(src[from:end], wikiClose); i >= 0 {
			c.at = from + i
			if j := bytes.LastIndexByte(src[from:max(from, c.at-1)], '|'); j >= 0 {
				c.pipe = from + j
			}
		}
	}
	if c.pipe < from {
		return c.at, -1
	}
	return c.at, c.pipe
}

// wikilinkAt reports whether src[from:at], the text between "[[" and
// "]]", makes a link that wikilinkParser takes: the extension wants a
// target and a label (after the first '|', if any) that are not empty, and
// Obsidian a target, heading or block. pipe is the last '|' in [from,
// at-1), from closeSearch, which tells a '|' right before "]]" (an empty
// label) at once: many openers can share one "]]", and reading each one's
// text to its '|' would be quadratic. Otherwise it reads the text to its
// first '|' and the target: when the link is taken that text is consumed,
// and when it is not it holds no "[[".
func wikilinkAt(src []byte, from, at, pipe int) bool {
	if at <= from || at-1 > from && src[at-1] == '|' && pipe < 0 {
		return false
	}
	target, label, piped := bytes.Cut(src[from:at], []byte("|"))
	if len(target) == 0 || piped && len(label) == 0 {
		return false
	}
	if piped {
		target = bytes.TrimSuffix(target, []byte(`\`))
	}
	name, frag, _ := bytes.Cut(target, []byte("#"))
	if len(bytes.TrimSpace(name)) > 0 {
		return true
	}
	f := bytes.TrimSpace(frag)
	return len(f) > 0 && string(f) != "^"
}

func (p *wikilinkParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	open := len(wikiOpen)
	switch {
	case bytes.HasPrefix(line, wikiOpen):
	case bytes.HasPrefix(line, wikiEmbedOpen):
		open = len(wikiEmbedOpen)
	default:
		return nil
	}
	src := block.Source()
	if seg.Padding != 0 || seg.Stop-seg.Start != len(line) {
		return nil // never so for a line that starts with "[["
	}
	c, _ := pc.Get(closeSearchKey).(*closeSearch)
	if c == nil {
		c = &closeSearch{end: -1}
		pc.Set(closeSearchKey, c)
	}
	from := seg.Start + open
	stop, pipe := c.find(src, from, seg.Stop)
	if stop < 0 || !wikilinkAt(src, from, stop, pipe) {
		return nil // no "]]" on the line, or not a link
	}
	inner := src[from:stop]
	l, _ := parseWikiInner(string(inner))
	// The extension reads the link from a reader of this link alone: on
	// the paragraph's reader, its call to Value walks back over every line
	// of the paragraph, for every link.
	if p.Parser.Parse(parent, text.NewReader(src[seg.Start:stop+len(wikiClose)]), pc) == nil {
		return nil
	}
	block.Advance(stop + len(wikiClose) - seg.Start)
	l.Embed = open == len(wikiEmbedOpen)
	l.Start, l.End = seg.Start, stop+len(wikiClose) // in src; the walker maps them to the note
	return &wikiNode{link: l}
}

// parseWikiInner reads "target#fragment|label" the way Obsidian does.
func parseWikiInner(inner string) (Link, bool) {
	var l Link
	target := inner
	if i := strings.IndexByte(inner, '|'); i >= 0 {
		target, l.Label = inner[:i], inner[i+1:]
		target = strings.TrimSuffix(target, `\`)
	}
	if i := strings.IndexByte(target, '#'); i >= 0 {
		setFragment(&l, target[i+1:])
		target = target[:i]
	}
	l.Target = strings.TrimSpace(target)
	if l.Target == "" && l.Heading == "" && l.Block == "" {
		return l, false
	}
	return l, true
}

// setFragment stores a link fragment: "^id" is a block, anything else a
// (possibly nested) heading.
func setFragment(l *Link, frag string) {
	frag = strings.TrimSpace(frag)
	if b, ok := strings.CutPrefix(frag, "^"); ok {
		l.Block = b
		return
	}
	l.Heading = frag
}
