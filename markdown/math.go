package markdown

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Obsidian renders "$$ ... $$" as math and finds no links or tags inside.
// goldmark does not know math, so these parsers turn such spans into nodes
// the note walker skips.

var (
	kindMathBlock  = ast.NewNodeKind("VaultMathBlock")
	kindMathInline = ast.NewNodeKind("VaultMathInline")
	mathDelim      = []byte("$$")
)

type mathBlock struct {
	ast.BaseBlock
	closed bool // the closing "$$" was on the opening line
}

func (n *mathBlock) Kind() ast.NodeKind                                { return kindMathBlock }
func (n *mathBlock) IsRaw() bool                                       { return true }
func (n *mathBlock) Dump(src []byte, level int)                        { ast.DumpHelper(n, src, level, nil, nil) }
func (n *mathInline) Kind() ast.NodeKind                               { return kindMathInline }
func (n *mathInline) Dump(src []byte, level int)                       { ast.DumpHelper(n, src, level, nil, nil) }
func (p *mathBlockParser) Trigger() []byte                             { return []byte{'$'} }
func (p *mathBlockParser) CanInterruptParagraph() bool                 { return true }
func (p *mathBlockParser) CanAcceptIndentedLine() bool                 { return false }
func (p *mathBlockParser) Close(ast.Node, text.Reader, parser.Context) {}

type mathInline struct{ ast.BaseInline }

// mathBlockParser parses a block that starts with "$$" at the start of a
// line and ends at the next "$$" (on the same line or a later one).
type mathBlockParser struct{}

func (p *mathBlockParser) Open(_ ast.Node, reader text.Reader, _ parser.Context) (ast.Node, parser.State) {
	line, _ := reader.PeekLine()
	pos := parserIndent(line)
	if !bytes.HasPrefix(line[pos:], mathDelim) {
		return nil, parser.NoChildren
	}
	rest := line[pos+2:]
	reader.AdvanceLine()
	return &mathBlock{closed: bytes.Contains(rest, mathDelim)}, parser.NoChildren
}

func (p *mathBlockParser) Continue(node ast.Node, reader text.Reader, _ parser.Context) parser.State {
	line, _ := reader.PeekLine()
	if line == nil || node.(*mathBlock).closed {
		return parser.Close
	}
	reader.AdvanceLine()
	if bytes.Contains(line, mathDelim) {
		return parser.Close
	}
	return parser.Continue | parser.NoChildren
}

// parserIndent returns the number of leading spaces (at most 3, as
// CommonMark allows before a block marker).
func parserIndent(line []byte) int {
	i := 0
	for i < len(line) && i < 3 && line[i] == ' ' {
		i++
	}
	return i
}

// mathInlineParser parses "$$ ... $$" inside a line.
type mathInlineParser struct{}

func (p *mathInlineParser) Trigger() []byte { return []byte{'$'} }

func (p *mathInlineParser) Parse(_ ast.Node, block text.Reader, _ parser.Context) ast.Node {
	line, _ := block.PeekLine()
	if !bytes.HasPrefix(line, mathDelim) {
		return nil
	}
	end := bytes.Index(line[2:], mathDelim)
	if end < 0 {
		return nil
	}
	block.Advance(end + 4)
	return &mathInline{}
}
