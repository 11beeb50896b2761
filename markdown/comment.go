package markdown

import (
	"bytes"
	"sort"

	"github.com/yuin/goldmark/ast"
)

// Obsidian hides "%%...%%" comments, inline or over several lines, in
// reading view, and reads no links or tags inside them. Parse finds them
// before it parses the markdown, cuts them out of the text it hands to
// goldmark, and maps what goldmark finds back to the note's offsets, so
// that nothing inside a comment becomes a heading, link, tag, block id or
// span, and the comment leaves no gap (Obsidian shows "a %%x%% b" as
// "a  b").
//
// The rules: a "%%" opens a comment and the next "%%" closes it, whatever
// lies between (blank lines, headings, fenced code). A "%%" inside a code
// span or a fenced or indented code block, as goldmark reads the note
// without comments, is text: code wins, as in Obsidian. An opening "%%"
// that is never closed is text too, so that a stray "%%" does not hide the
// rest of a note from search. A note read as plain text (see
// [PlainTextError]) has its comments found by the "%%" pairs alone.

var commentDelim = []byte("%%")

// byteRange is a range [start, end) of offsets.
type byteRange struct{ start, end int }

// codeRanges lists the text of the code spans and code blocks of doc in
// order.
func codeRanges(doc ast.Node) []byteRange {
	var out []byteRange
	_ = ast.Walk(doc, func(node ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch node := node.(type) {
		case *ast.CodeSpan:
			for c := node.FirstChild(); c != nil; c = c.NextSibling() {
				if t, ok := c.(*ast.Text); ok {
					out = append(out, byteRange{t.Segment.Start, t.Segment.Stop})
				}
			}
			return ast.WalkSkipChildren, nil
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			ls := node.Lines()
			for i := 0; i < ls.Len(); i++ {
				out = append(out, byteRange{ls.At(i).Start, ls.At(i).Stop})
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].start < out[j].start })
	return out
}

// mayHoldCode reports whether b may hold a code span or block: a
// backtick, "~~~", a tab or four spaces. Without, finding comments needs
// no parse.
func mayHoldCode(b []byte) bool {
	return bytes.IndexByte(b, '`') >= 0 || bytes.IndexByte(b, '\t') >= 0 ||
		bytes.Contains(b, []byte("~~~")) || bytes.Contains(b, []byte("    "))
}

// findComments returns the comments in src[from:], each from its opening
// "%%" to the end of its closing one, skipping delimiters inside code
// (sorted ranges of src).
func findComments(src []byte, from int, code []byteRange) []byteRange {
	var out []byteRange
	open := -1
	k := 0
	for i := from; i < len(src); {
		j := bytes.Index(src[i:], commentDelim)
		if j < 0 {
			break
		}
		at := i + j
		for k < len(code) && code[k].end <= at {
			k++
		}
		if k < len(code) && code[k].start <= at {
			i = at + 1
			continue
		}
		if open < 0 {
			open = at
		} else {
			out = append(out, byteRange{open, at + len(commentDelim)})
			open = -1
		}
		i = at + len(commentDelim)
	}
	return out
}

// cutMap maps offsets in a text with ranges cut out back to offsets in the
// text they were cut from: from offset at on, add shift. Entries are in
// order of at.
type cutMap []cut

type cut struct{ at, shift int }

// excise returns src without the sorted, disjoint ranges, and the map back;
// src itself when there are none.
func excise(src []byte, ranges []byteRange) ([]byte, cutMap) {
	if len(ranges) == 0 {
		return src, nil
	}
	out := make([]byte, 0, len(src))
	var m cutMap
	prev, removed := 0, 0
	for _, r := range ranges {
		out = append(out, src[prev:r.start]...)
		removed += r.end - r.start
		m = append(m, cut{at: len(out), shift: removed})
		prev = r.end
	}
	return append(out, src[prev:]...), m
}

// orig maps offset p of the cut text to the original text.
func (m cutMap) orig(p int) int {
	i := sort.Search(len(m), func(i int) bool { return m[i].at > p })
	if i == 0 {
		return p
	}
	return p + m[i-1].shift
}

// origEnd maps the end of a range (exclusive) of the cut text, so that a
// range that ends just before a cut does not take in the cut text.
func (m cutMap) origEnd(end int) int {
	if end == 0 {
		return 0
	}
	return m.orig(end-1) + 1
}
