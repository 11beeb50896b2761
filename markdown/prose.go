package markdown

import (
	"bytes"
	"regexp"
	"sort"
	"sync"

	"github.com/yuin/goldmark/ast"
)

// Prose returns the prose of the note's body: the byte ranges of Content
// that a reader of the rendered note reads as its own words, in order and
// non-overlapping. Each is a stretch of the text of a paragraph (also one
// in a list item, a block quote or a callout, and a table row, which
// vaultmem reads as a paragraph), of Kind "paragraph", or of a heading, of
// Kind "heading" with its Level; Line and EndLine are its lines.
//
// Prose is what a program may write into without changing what the note
// means to Obsidian or to a program that reads it. So it leaves out code
// (spans of any number of backticks, fenced and indented blocks, in lists
// and quotes too), math ($...$ and $$...$$), HTML (blocks, tags, "<!--
// -->" and the text inside an inline element), "%%" comments, links (a
// wikilink or embed whole, a markdown link's text and destination, an
// autolink <...>, a bare URL), #tags and the frontmatter. A note read as
// plain text (see [PlainTextError]) has no prose: nil.
//
// Prose parses the note's content again (the Note keeps no markdown
// tree): it costs about what Parse costs.
func (n *Note) Prose() []Span {
	_, t := parseTree(n.Path, n.Content, true)
	if t == nil {
		return nil
	}
	return t.prose()
}

// prose lists the prose of the tree's paragraphs and headings.
func (t *tree) prose() []Span {
	var out []Span
	_ = ast.Walk(t.doc, func(node ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch node := node.(type) {
		case *ast.Paragraph, *ast.TextBlock:
			out = t.blockProse(out, node, "paragraph", 0)
			return ast.WalkSkipChildren, nil
		case *ast.Heading:
			out = t.blockProse(out, node, "heading", node.Level)
			return ast.WalkSkipChildren, nil
		case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock, *mathBlock:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return out
}

// blockProse appends to out the prose of one paragraph or heading: its
// text nodes outside code, links, math and inline HTML elements, less the
// inline math that goldmark does not know ($...$), bare URLs and tags.
func (t *tree) blockProse(out []Span, block ast.Node, kind string, level int) []Span {
	var texts []byteRange
	open := 0 // inline HTML elements open
	_ = ast.Walk(block, func(node ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch node := node.(type) {
		case *ast.CodeSpan, *ast.AutoLink, *ast.Link, *ast.Image, *wikiNode, *mathInline:
			return ast.WalkSkipChildren, nil
		case *ast.RawHTML:
			open = htmlDepth(open, t.src, node)
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			if s := node.Segment; open == 0 && s.Stop > s.Start {
				texts = append(texts, byteRange{s.Start, s.Stop})
			}
		}
		return ast.WalkContinue, nil
	})
	if len(texts) == 0 {
		return out
	}
	drop := dollarMath(t.src, texts)
	ls := block.Lines()
	for i := 0; i < ls.Len(); i++ {
		line := ls.At(i)
		for _, m := range bareURL().FindAllIndex(t.src[line.Start:line.Stop], -1) {
			drop = append(drop, byteRange{line.Start + m[0], line.Start + m[1]})
		}
	}
	runs := joinAdjacent(texts)
	for _, r := range runs {
		for i := r.start; i < r.end; {
			end, ok := tagAt(t.src, i, r.end)
			if ok {
				drop = append(drop, byteRange{i, end})
			}
			i = end
		}
	}
	sort.Slice(drop, func(i, j int) bool { return drop[i].start < drop[j].start })
	for _, r := range subtract(runs, drop) {
		for _, c := range t.origRanges(r) {
			out = append(out, Span{Kind: kind, Level: level, Start: c.start, End: c.end,
				Line: t.lines.line(c.start), EndLine: t.lines.line(c.end - 1)})
		}
	}
	return out
}

// bareURL matches a URL written out, which Obsidian shows as a link: a
// scheme and "://", "www." or "mailto:", up to white space or '<' or '>'.
var bareURL = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:[a-z][a-z0-9+.\-]*://|www\.|mailto:)[^\s<>]*`)
})

// voidElements are the HTML elements that have no closing tag.
var voidElements = map[string]bool{"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true,
	"img": true, "input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true}

// htmlDepth is the number of inline HTML elements open after the tag n,
// when depth were open before it: an opening tag opens one (unless it is
// void or closes itself), a closing tag closes one; a comment, a
// declaration or a processing instruction changes nothing.
func htmlDepth(depth int, src []byte, n *ast.RawHTML) int {
	if n.Segments == nil || n.Segments.Len() == 0 {
		return depth
	}
	first, last := n.Segments.At(0), n.Segments.At(n.Segments.Len()-1)
	raw := first.Value(src)
	if bytes.HasPrefix(raw, []byte("</")) {
		return max(depth-1, 0)
	}
	if len(raw) < 2 || !isASCIILetter(raw[1]) {
		return depth
	}
	if bytes.HasSuffix(bytes.TrimRight(last.Value(src), " \t\r\n"), []byte("/>")) {
		return depth
	}
	name := raw[1:]
	for i, c := range name {
		if !isASCIILetter(c) && !(c >= '0' && c <= '9') && c != '-' {
			name = name[:i]
			break
		}
	}
	if voidElements[string(bytes.ToLower(name))] {
		return depth
	}
	return depth + 1
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// dollarMath finds Obsidian's inline math "$...$" in the text ranges of
// one block (in order; goldmark reads it as text): an opening '$' with no
// white space or '$' after it, to the next closing '$' with no white space
// before it and no digit after it ("$5 and $10" is no math). An escaped
// "\$" is neither.
func dollarMath(src []byte, texts []byteRange) []byteRange {
	var out []byteRange
	opened := -1
	for _, r := range texts {
		for i := r.start; i < r.end; i++ {
			if src[i] != '$' || i > 0 && src[i-1] == '\\' {
				continue
			}
			if opened >= 0 && i > opened+1 && !isSpace(src[i-1]) && (i+1 >= len(src) || !(src[i+1] >= '0' && src[i+1] <= '9')) {
				out = append(out, byteRange{opened, i + 1})
				opened = -1
				continue
			}
			if opened < 0 && i+1 < len(src) && !isSpace(src[i+1]) && src[i+1] != '$' {
				opened = i
			}
		}
	}
	return out
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// joinAdjacent merges the ranges (in order) that touch.
func joinAdjacent(rs []byteRange) []byteRange {
	var out []byteRange
	for _, r := range rs {
		if n := len(out); n > 0 && out[n-1].end == r.start {
			out[n-1].end = r.end
			continue
		}
		out = append(out, r)
	}
	return out
}

// subtract returns the parts of the ranges rs (in order, disjoint) that no
// range of drop (sorted by start, perhaps overlapping) covers.
func subtract(rs, drop []byteRange) []byteRange {
	var out []byteRange
	for _, r := range rs {
		s := r.start
		for _, d := range drop {
			if d.end <= s || d.start >= r.end {
				continue
			}
			if d.start > s {
				out = append(out, byteRange{s, d.start})
			}
			s = max(s, d.end)
		}
		if s < r.end {
			out = append(out, byteRange{s, r.end})
		}
	}
	return out
}

// origRanges maps the range r of the parsed text to the note's content:
// one range, or several where comments were cut out of it.
func (t *tree) origRanges(r byteRange) []byteRange {
	var out []byteRange
	s := r.start
	for _, c := range t.cuts {
		if c.at > s && c.at < r.end {
			out = append(out, byteRange{t.base + t.cuts.orig(s), t.base + t.cuts.origEnd(c.at)})
			s = c.at
		}
	}
	return append(out, byteRange{t.base + t.cuts.orig(s), t.base + t.cuts.origEnd(r.end)})
}
