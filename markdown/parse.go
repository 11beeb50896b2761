package markdown

import (
	"bytes"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
	"go.abhg.dev/goldmark/frontmatter"
	"go.yaml.in/yaml/v3"
)

// yamlFormat makes the frontmatter extension decode with go.yaml.in/yaml/v3,
// the YAML library whose Node the rest of vault uses. Obsidian only reads
// "---" frontmatter, so TOML "+++" is not registered.
var yamlFormat = frontmatter.Format{Name: "YAML", Delim: '-', Unmarshal: yaml.Unmarshal}

var (
	// withFM parses a note whose frontmatter fence is closed; withoutFM one
	// that has none (an unclosed "---" is a thematic break, as in Obsidian).
	withFM    = newMarkdown(true)
	withoutFM = newMarkdown(false)
)

func newMarkdown(fm bool) goldmark.Markdown {
	inline := []util.PrioritizedValue{
		// Before goldmark's link parser (200), as the wikilink extension does.
		util.Prioritized(&wikilinkParser{}, 199),
		util.Prioritized(&mathInlineParser{}, 150),
	}
	block := []util.PrioritizedValue{util.Prioritized(&mathBlockParser{}, 90)}
	var ext []goldmark.Extender
	if fm {
		ext = append(ext, &frontmatter.Extender{Formats: []frontmatter.Format{yamlFormat}})
	}
	return goldmark.New(goldmark.WithExtensions(ext...), goldmark.WithParserOptions(
		parser.WithInlineParsers(inline...),
		parser.WithBlockParsers(block...),
	))
}

// Parse reads one note. It never fails: problems that leave the note
// readable (frontmatter that does not parse, for example) are recorded in
// Note.Warnings as *ParseError values naming p and the line, and such a note
// is still read as body text and linked. p is the vault-relative slash path.
//
// Obsidian's "%%" comments are left out (see Note.Comments). A body whose
// markdown would take goldmark too long to parse (deep nesting, thousands of
// unpaired emphasis markers or unclosed links) is read as plain text, with a
// warning whose Err is a *PlainTextError; Parse takes time about linear in
// the size of the note.
func Parse(p string, content []byte) *Note { return parse(p, content, true) }

// parse is Parse; with comments false it reads "%%" comments as text, as
// Parse did before it knew them (the tests compare ordinary notes with it).
//
// goldmark parses the note with its frontmatter, through the frontmatter
// extension, when the fence lines are exactly "---"; otherwise (Obsidian
// also takes "--- ") the body alone. Either way offsets and lines are the
// note's: the parts goldmark does not see are cut out (see [cutMap]).
func parse(p string, content []byte, comments bool) *Note {
	n, _ := parseTree(p, content, comments)
	return n
}

// tree is the markdown tree of a note's body as goldmark parsed it, with
// what maps its offsets back to the note's content.
type tree struct {
	doc   ast.Node
	src   []byte // the text parsed: the note without byte order mark or comments
	base  int    // the length of the byte order mark
	cuts  cutMap // where the comments were cut out of src
	lines lineIndex
}

// parseTree is parse, and the tree it read the note from: nil for a note
// read as plain text.
func parseTree(p string, content []byte, comments bool) (*Note, *tree) {
	n := &Note{Path: p, Name: NameOf(p), Content: content, Hash: Hash(content), BodyLine: 1}
	// goldmark does not expect a byte order mark; it has no line break, so
	// line numbers in src and content agree.
	src := bytes.TrimPrefix(content, bom)
	base := len(content) - len(src)
	md := withoutFM
	var hidden []byteRange // what goldmark must not see, in src
	f, fenced := findFence(content)
	if fenced {
		n.BodyStart, n.BodyLine = f.bodyStart, f.bodyLine
		if f.exact(content) {
			md = withFM
		} else {
			// The frontmatter extension knows only exact "---" lines:
			// goldmark gets the body alone.
			hidden = append(hidden, byteRange{0, f.bodyStart - base})
		}
	}
	body := max(n.BodyStart-base, 0) // where the body starts in src
	lines := newLineIndex(content)
	warn := checkBounds(p, src[body:], n.BodyLine)

	// psrc is what goldmark parses: src without what is hidden; cuts maps
	// its offsets back to src. With comments, psrc is parsed once to find
	// the code in which "%%" is text, and again without the comments.
	psrc, cuts := excise(src, hidden)
	pbody := body - (len(src) - len(psrc))
	var doc ast.Node
	var pc parser.Context
	if comments && (warn != nil || bytes.Contains(src[body:], commentDelim)) {
		var code []byteRange
		if warn == nil && mayHoldCode(src[body:]) {
			doc, pc = parseMarkdown(md, psrc)
			code = codeRanges(doc)
		}
		if found := findComments(psrc, pbody, code); len(found) > 0 {
			for i, c := range found {
				c = byteRange{cuts.orig(c.start), cuts.origEnd(c.end)}
				found[i] = c
				n.Comments = append(n.Comments, Span{Kind: "comment", Start: base + c.start, End: base + c.end,
					Line: lines.line(base + c.start), EndLine: lines.line(base + c.end - 1)})
			}
			psrc, cuts = excise(src, append(hidden, found...))
			doc = nil
			if warn == nil {
				warn = checkBounds(p, psrc[pbody:], n.BodyLine)
			}
		}
	}
	if warn != nil {
		if fenced {
			n.readFrontmatter(f, nil)
		}
		n.Warnings = append(n.Warnings, warn)
		n.Spans = plainSpans(psrc, pbody, base, cuts, lines)
		n.Tags = dedupFold(n.Tags)
		return n, nil
	}
	if doc == nil {
		doc, pc = parseMarkdown(md, psrc)
	}
	if fenced {
		var data *frontmatter.Data
		if md == withFM {
			data = frontmatter.Get(pc)
		}
		n.readFrontmatter(f, data)
	}
	w := walker{note: n, src: psrc, base: base, cuts: cuts, lines: lines}
	w.walk(doc)
	n.Spans = spans(doc, psrc, base, cuts, lines)
	n.Tags = dedupFold(n.Tags)
	return n, &tree{doc: doc, src: psrc, base: base, cuts: cuts, lines: lines}
}

func parseMarkdown(md goldmark.Markdown, src []byte) (ast.Node, parser.Context) {
	pc := parser.NewContext()
	return md.Parser().Parse(text.NewReader(src), parser.WithContext(pc)), pc
}

// plainSpans splits the body src[body:] into paragraphs at blank lines,
// for a note read as plain text.
func plainSpans(src []byte, body, base int, cuts cutMap, lines lineIndex) []Span {
	var out []Span
	start := -1 // first non-blank byte of the current paragraph
	end := 0    // end of its last non-blank line, trailing white space cut
	flush := func() {
		if start >= 0 {
			s, e := base+cuts.orig(start), base+cuts.origEnd(end)
			out = append(out, Span{Kind: "paragraph", Start: s, End: e, Line: lines.line(s), EndLine: lines.line(e - 1)})
			start = -1
		}
	}
	for pos := body; pos < len(src); {
		line, next := lineAt(src, pos)
		text := bytes.TrimLeft(line, " \t")
		if trimmed := bytes.TrimRight(text, " \t"); len(trimmed) == 0 {
			flush()
		} else {
			if start < 0 {
				start = pos + len(line) - len(text)
			}
			end = pos + len(line) - len(text) + len(trimmed)
		}
		pos = next
	}
	flush()
	return out
}

// readFrontmatter decodes the fenced YAML and reads tags, aliases and links
// from it.
func (n *Note) readFrontmatter(f fence, data *frontmatter.Data) {
	var fm *Frontmatter
	var err error
	if data != nil {
		var doc yaml.Node
		err = data.Decode(&doc)
		fm, err = newFrontmatter(n.Path, n.Content, f, &doc, err)
	} else {
		fm, err = parseFrontmatter(n.Path, n.Content, f)
	}
	if err != nil {
		n.Warnings = append(n.Warnings, err)
		return
	}
	n.Frontmatter = fm
	for _, key := range []string{"tags", "tag"} {
		for _, t := range fm.Strings(key) {
			for _, t := range strings.Fields(t) {
				if t = strings.TrimPrefix(t, "#"); t != "" {
					n.Tags = append(n.Tags, t)
				}
			}
		}
	}
	for _, key := range []string{"aliases", "alias"} {
		n.Aliases = append(n.Aliases, fm.Strings(key)...)
	}
	n.frontmatterLinks(fm.Node, fm.Line, "")
}

var fmLinkRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(!?)\[\[([^\]\n]+)\]\]`) })

// frontmatterLinks finds [[wikilinks]] in string values, e.g.
// `related: "[[X]]"`. Obsidian counts them as links of the note. field is
// the top-level key the values are under ("" above it).
func (n *Note) frontmatterLinks(node *yaml.Node, firstLine int, field string) {
	if node == nil {
		return
	}
	switch node.Kind {
	case yaml.ScalarNode:
		if !strings.Contains(node.Value, "[[") {
			return
		}
		from := n.lineOffset(firstLine + node.Line - 1)
		for _, m := range fmLinkRe().FindAllStringSubmatchIndex(node.Value, -1) {
			l, ok := parseWikiInner(node.Value[m[4]:m[5]])
			if !ok {
				continue
			}
			l.Embed = m[3] > m[2]
			l.Frontmatter = true
			l.Field = field
			l.Line = firstLine + node.Line - 1
			// Where the link stands in the file: its text from the value's
			// line on (a quoted value escapes nothing in "[[...]]").
			if i := bytes.Index(n.Content[from:], []byte(node.Value[m[0]:m[1]])); from > 0 && i >= 0 {
				l.Start, l.End = from+i, from+i+m[1]-m[0]
			}
			n.Links = append(n.Links, l)
		}
	case yaml.MappingNode:
		for i := 1; i < len(node.Content); i += 2 {
			f := field
			if f == "" {
				f = node.Content[i-1].Value
			}
			n.frontmatterLinks(node.Content[i], firstLine, f)
		}
	case yaml.SequenceNode, yaml.DocumentNode:
		for _, c := range node.Content {
			n.frontmatterLinks(c, firstLine, field)
		}
	}
}

// lineOffset returns the byte offset in the note's content where the
// 1-based line starts; 0 for the first line or one past the end.
func (n *Note) lineOffset(line int) int {
	off := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(n.Content[off:], '\n')
		if i < 0 {
			return 0
		}
		off += i + 1
	}
	return off
}

// walker collects headings, block ids, tags and links from the markdown
// tree, skipping what Obsidian does not read as markup: code, math and
// HTML.
type walker struct {
	note  *Note
	src   []byte // the text parsed: the note without byte order mark or comments
	base  int    // the length of the byte order mark
	cuts  cutMap // where the comments were cut out of src
	lines lineIndex
	// run is the current stretch of adjacent text, scanned for tags.
	runStart, runStop int
}

func (w *walker) walk(doc ast.Node) {
	_ = ast.Walk(doc, func(node ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch node := node.(type) {
		case *ast.CodeSpan, *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock,
			*ast.RawHTML, *ast.AutoLink, *mathBlock, *mathInline:
			return ast.WalkSkipChildren, nil
		case *wikiNode:
			l := node.link
			l.Line = w.line(node.Pos())
			l.Start, l.End = w.base+w.cuts.orig(l.Start), w.base+w.cuts.origEnd(l.End)
			w.note.Links = append(w.note.Links, l)
			return ast.WalkSkipChildren, nil
		case *ast.Link:
			w.markdownLink(node.Destination, node.Pos(), false, node)
			return ast.WalkSkipChildren, nil
		case *ast.Image:
			w.markdownLink(node.Destination, node.Pos(), true, node)
			return ast.WalkSkipChildren, nil
		case *ast.Heading:
			w.note.Headings = append(w.note.Headings, Heading{
				Level: node.Level,
				Text:  strings.TrimSpace(string(linesText(node, w.src))),
				Line:  w.line(startOf(node)),
			})
		case *ast.Paragraph, *ast.TextBlock:
			w.blockID(node)
		case *ast.Text:
			w.text(node.Segment)
		}
		return ast.WalkContinue, nil
	})
	w.flush()
}

// line returns the note line of offset pos of w.src.
func (w *walker) line(pos int) int { return w.lines.line(w.base + w.cuts.orig(pos)) }

// spans lists the top-level blocks of doc; base is the offset of src in
// the note's content (a byte order mark's length), cuts the comments cut
// out of src.
func spans(doc ast.Node, src []byte, base int, cuts cutMap, lines lineIndex) []Span {
	var out []Span
	for c := doc.FirstChild(); c != nil; c = c.NextSibling() {
		end := len(src)
		if next := c.NextSibling(); next != nil {
			end = next.Pos()
		}
		start := c.Pos()
		for end > start && (src[end-1] == '\n' || src[end-1] == '\r' || src[end-1] == ' ' || src[end-1] == '\t') {
			end--
		}
		if end <= start {
			continue
		}
		start, end = base+cuts.orig(start), base+cuts.origEnd(end)
		s := Span{Kind: spanKind(c), Start: start, End: end, Line: lines.line(start), EndLine: lines.line(end - 1)}
		if h, ok := c.(*ast.Heading); ok {
			s.Level = h.Level
		}
		out = append(out, s)
	}
	return out
}

func spanKind(n ast.Node) string {
	switch n.(type) {
	case *ast.Heading:
		return "heading"
	case *ast.Paragraph, *ast.TextBlock:
		return "paragraph"
	case *ast.List:
		return "list"
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		return "code"
	case *ast.Blockquote:
		return "quote"
	case *ast.HTMLBlock:
		return "html"
	case *mathBlock:
		return "math"
	case *ast.ThematicBreak:
		return "rule"
	}
	return "other"
}

// markdownLink records [text](target) and ![alt](target) unless the target
// is external (has a URL scheme).
func (w *walker) markdownLink(dest []byte, pos int, embed bool, node ast.Node) {
	raw := strings.TrimSpace(string(dest))
	if raw == "" || hasScheme(raw) || strings.HasPrefix(raw, "//") {
		return
	}
	l := Link{Embed: embed, Markdown: true, Line: w.line(pos)}
	target, frag, _ := strings.Cut(raw, "#")
	l.Target = unescapeURL(target)
	if frag != "" {
		setFragment(&l, unescapeURL(frag))
	}
	if l.Target == "" && l.Heading == "" && l.Block == "" {
		return
	}
	l.Label = string(inlineText(node, w.src))
	if end := markdownLinkEnd(w.src, pos, dest); end > pos {
		l.Start, l.End = w.base+w.cuts.orig(pos), w.base+w.cuts.origEnd(end)
	}
	w.note.Links = append(w.note.Links, l)
}

// markdownLinkEnd returns the offset after the ")" that closes the inline
// link or image at pos in src whose destination is dest; 0 when it cannot
// be found (a reference link: [text][ref]).
func markdownLinkEnd(src []byte, pos int, dest []byte) int {
	open := bytes.Index(src[pos:], []byte("]("))
	if open < 0 {
		return 0
	}
	at := pos + open + 2
	d := bytes.Index(src[at:], dest)
	if d < 0 {
		return 0
	}
	depth := 0
	for i := at + d + len(dest); i < len(src); i++ {
		switch src[i] {
		case '(':
			depth++
		case ')':
			if depth == 0 {
				return i + 1
			}
			depth--
		case '\n':
			return 0
		}
	}
	return 0
}

// hasScheme reports whether s starts with a URL scheme ("https:",
// "mailto:", "obsidian:"): letters, digits, '+', '.', '-' and a colon.
func hasScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '.' || c == '-'):
		case i > 0 && c == ':':
			return true
		default:
			return false
		}
	}
	return false
}

func unescapeURL(s string) string {
	if u, err := url.PathUnescape(s); err == nil {
		return u
	}
	return s
}

// blockID records "^id" at the end of a paragraph's last line: '^' at the
// start of the line or after white space, then letters, digits and '-'.
func (w *walker) blockID(node ast.Node) {
	ls := node.Lines()
	if ls.Len() == 0 {
		return
	}
	last := ls.At(ls.Len() - 1)
	line := bytes.TrimRight(last.Value(w.src), " \t\r\n")
	caret := bytes.LastIndexByte(line, '^')
	if caret < 0 || caret == len(line)-1 || (caret > 0 && line[caret-1] != ' ' && line[caret-1] != '\t') {
		return
	}
	id := line[caret+1:]
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return
		}
	}
	w.note.Blocks = append(w.note.Blocks, Block{ID: string(id), Line: w.line(last.Start)})
}

// text extends the current text run, or scans it and starts a new one.
func (w *walker) text(seg text.Segment) {
	if seg.Start == w.runStop && w.runStop > w.runStart {
		w.runStop = seg.Stop
		return
	}
	w.flush()
	w.runStart, w.runStop = seg.Start, seg.Stop
}

// flush scans the current text run for inline #tags (see tagAt).
func (w *walker) flush() {
	for i := w.runStart; i < w.runStop; i++ {
		end, ok := tagAt(w.src, i, w.runStop)
		if ok {
			w.note.Tags = append(w.note.Tags, strings.Trim(string(w.src[i+1:end]), "/"))
		}
		i = end - 1
	}
	w.runStart, w.runStop = 0, 0
}

// tagAt reads an inline #tag at src[i], in a run of text that ends at
// stop: a '#' at the start of the text or after white space, followed by
// letters, digits, '_', '-' or '/', with at least one character that is
// not a digit. It returns where the tag ends (the tag is src[i+1:end] less
// its slashes at either end) and whether there is one; without one, end
// is where to look on from (past the '#' and what followed it).
func tagAt(src []byte, i, stop int) (end int, ok bool) {
	if src[i] != '#' {
		return i + 1, false
	}
	if i > 0 {
		prev, _ := utf8.DecodeLastRune(src[:i])
		if !unicode.IsSpace(prev) {
			return i + 1, false
		}
	}
	j := i + 1
	nonDigit := false
	for j < stop {
		r, size := utf8.DecodeRune(src[j:stop])
		if !isTagRune(r) {
			break
		}
		if !unicode.IsDigit(r) {
			nonDigit = true
		}
		j += size
	}
	return j, nonDigit && len(bytes.Trim(src[i+1:j], "/")) > 0
}

func isTagRune(r rune) bool {
	return r == '_' || r == '-' || r == '/' || (r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)))
}

// linesText joins a block's raw lines.
func linesText(node ast.Node, src []byte) []byte {
	var b bytes.Buffer
	ls := node.Lines()
	for i := 0; i < ls.Len(); i++ {
		seg := ls.At(i)
		b.Write(seg.Value(src))
	}
	return b.Bytes()
}

// inlineText returns the source text spanned by an inline node's text
// children (a link's label).
func inlineText(node ast.Node, src []byte) []byte {
	var b bytes.Buffer
	_ = ast.Walk(node, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering {
			b.Write(t.Segment.Value(src))
		}
		return ast.WalkContinue, nil
	})
	return b.Bytes()
}

// startOf returns the byte offset where a block node starts.
func startOf(node ast.Node) int {
	if ls := node.Lines(); ls.Len() > 0 {
		return ls.At(0).Start
	}
	return node.Pos()
}

// lineIndex maps byte offsets to 1-based line numbers.
type lineIndex []int

func newLineIndex(src []byte) lineIndex {
	idx := lineIndex{0}
	for i, c := range src {
		if c == '\n' {
			idx = append(idx, i+1)
		}
	}
	return idx
}

func (idx lineIndex) line(pos int) int {
	return sort.Search(len(idx), func(i int) bool { return idx[i] > pos })
}

// dedupFold removes later case-insensitive duplicates, keeping order.
func dedupFold(ss []string) []string {
	seen := make(map[string]bool, len(ss))
	out := ss[:0]
	for _, s := range ss {
		k := strings.ToLower(s)
		if !seen[k] {
			seen[k] = true
			out = append(out, s)
		}
	}
	return out
}
