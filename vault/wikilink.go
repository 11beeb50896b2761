package vault

import (
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

func (p *wikilinkParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	embed := len(line) > 0 && line[0] == '!'
	node := p.Parser.Parse(parent, block, pc)
	if node == nil {
		return nil
	}
	// The extension's node ends with a text child whose segment stops at
	// the closing "]]"; the inner text starts after "[[" or "![[".
	open := seg.Start + 2
	if embed {
		open++
	}
	var stop int
	if t, ok := node.LastChild().(*ast.Text); ok {
		stop = t.Segment.Stop
	} else {
		return nil
	}
	inner := string(block.Source()[open:stop])
	l, ok := parseWikiInner(inner)
	if !ok {
		return nil
	}
	l.Embed = embed
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
