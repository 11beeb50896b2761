package markdown

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// SetFrontmatter returns content with the top-level frontmatter key set to
// value, changing nothing else: other keys, comments, order, quoting, blank
// lines and the body stay byte for byte. p names the note in errors.
//
// The key's lines (from the key through the last line of its value, not
// counting blank lines and comments at the key's indentation that follow
// it) are replaced by value rendered as [Format] renders it; a comment beside
// a scalar value is kept when the new value is a one-line scalar. A new key
// goes just before the closing "---". A key present more than once is set at
// its first place and its other entries are removed. A note without
// frontmatter gets one at the top ("---\nkey: value\n---\n", after a byte
// order mark if there is one), followed by the content unchanged. CRLF line
// endings are kept.
//
// The result is checked by parsing it again: every other key must decode as
// before and key to value. SetFrontmatter never rewrites frontmatter it
// cannot edit that way: it returns an error matching ErrBadFrontmatter and
// holding a *ParseError with the file line when the frontmatter does not
// parse, is flow style ({a: 1}), or cannot be changed without touching other
// lines. It returns other errors for an empty or non-UTF-8 key and a value
// YAML cannot encode.
func SetFrontmatter(p string, content []byte, key string, value any) ([]byte, error) {
	if err := checkKey(key); err != nil {
		return nil, fmt.Errorf("set frontmatter in %s: %w", p, err)
	}
	val, err := valueNode(value)
	if err != nil {
		return nil, fmt.Errorf("set frontmatter %q in %s: %w", key, p, err)
	}
	f, ok := findFence(content)
	if !ok {
		return prependFrontmatter(p, content, key, val)
	}
	fm, err := parseFrontmatter(p, content, f)
	if err == nil {
		err = checkBlockStyle(p, fm)
	}
	if err != nil {
		return nil, fmt.Errorf("set frontmatter %q: %w", key, badFrontmatter(err))
	}
	s := splicer{p: p, content: content, f: f, fm: fm, key: key}
	out, err := s.run(val)
	if err != nil {
		return nil, fmt.Errorf("set frontmatter %q: %w", key, err)
	}
	return out, nil
}

// SetFrontmatterKeys is SetFrontmatter for several keys, in order: kv
// holds pairs of a key (a string) and its value.
func SetFrontmatterKeys(p string, content []byte, kv ...any) ([]byte, error) {
	var err error
	for i := 0; i+1 < len(kv); i += 2 {
		if content, err = SetFrontmatter(p, content, kv[i].(string), kv[i+1]); err != nil {
			return nil, err
		}
	}
	return content, nil
}

// DeleteFrontmatter returns content without the top-level frontmatter key
// (every entry of it), changing nothing else; see [SetFrontmatter]. A note
// without frontmatter or without the key is returned unchanged. It returns
// an error matching ErrBadFrontmatter and holding a *ParseError when the
// frontmatter does not parse, or holds the key but is flow style or cannot
// be edited without touching other lines.
func DeleteFrontmatter(p string, content []byte, key string) ([]byte, error) {
	f, ok := findFence(content)
	if !ok {
		return content, nil
	}
	fm, err := parseFrontmatter(p, content, f)
	if err != nil {
		return nil, fmt.Errorf("delete frontmatter %q: %w", key, badFrontmatter(err))
	}
	if fm.Value(key) == nil {
		return content, nil
	}
	if err := checkBlockStyle(p, fm); err != nil {
		return nil, fmt.Errorf("delete frontmatter %q: %w", key, badFrontmatter(err))
	}
	s := splicer{p: p, content: content, f: f, fm: fm, key: key}
	out, err := s.run(nil)
	if err != nil {
		return nil, fmt.Errorf("delete frontmatter %q: %w", key, err)
	}
	return out, nil
}

func checkKey(key string) error {
	switch {
	case key == "":
		return errors.New("empty frontmatter key")
	case !utf8.ValidString(key):
		return fmt.Errorf("frontmatter key %q is not valid UTF-8", key)
	}
	return nil
}

func checkBlockStyle(p string, fm *Frontmatter) error {
	if fm.Node.Style&yaml.FlowStyle == 0 {
		return nil
	}
	return &ParseError{Path: p, Line: fm.Line + fm.Node.Line - 1,
		Err: errors.New("frontmatter is written in flow style ({...}); vaultmem edits only block-style frontmatter, so change it by hand")}
}

// prependFrontmatter adds a frontmatter block holding only key to a note
// that has none.
func prependFrontmatter(p string, content []byte, key string, val *yaml.Node) ([]byte, error) {
	entry, err := renderEntry(key, val, 0, crlfAfter(content, 0))
	if err != nil {
		return nil, fmt.Errorf("set frontmatter %q in %s: %w", key, p, err)
	}
	nl := "\n"
	if crlfAfter(content, 0) {
		nl = "\r\n"
	}
	rest := content
	var out []byte
	if bytes.HasPrefix(content, bom) {
		out, rest = append(out, bom...), content[len(bom):]
	}
	out = append(out, "---"+nl...)
	out = append(out, entry...)
	out = append(out, "---"+nl...)
	return append(out, rest...), nil
}

// crlfAfter reports whether the first line ending at or after pos is CRLF.
func crlfAfter(b []byte, pos int) bool {
	i := bytes.IndexByte(b[pos:], '\n')
	return i > 0 && b[pos+i-1] == '\r'
}

// renderEntry renders "key: value" as YAML lines indented by indent spaces,
// with CRLF line endings if crlf.
func renderEntry(key string, val *yaml.Node, indent int, crlf bool) ([]byte, error) {
	k, err := valueNode(key)
	if err != nil {
		return nil, err
	}
	yml, err := encodeMapping([]*yaml.Node{k, val})
	if err != nil {
		return nil, err
	}
	if indent == 0 && !crlf {
		return yml, nil
	}
	var out []byte
	for len(yml) > 0 {
		line := yml
		if i := bytes.IndexByte(yml, '\n'); i >= 0 {
			line = yml[:i]
		}
		yml = yml[min(len(line)+1, len(yml)):]
		if len(line) > 0 {
			out = append(out, bytes.Repeat([]byte(" "), indent)...)
		}
		out = append(out, line...)
		if crlf {
			out = append(out, '\r')
		}
		out = append(out, '\n')
	}
	return out, nil
}

// splicer edits the entries of one key in one note's frontmatter.
type splicer struct {
	p       string
	content []byte
	f       fence
	fm      *Frontmatter
	key     string
}

// run replaces the key's first entry with val (appending it when the key is
// missing) and removes its other entries; val == nil removes them all. It
// first leaves trailing blank and comment lines of an entry in place, as the
// human's layout, and when the result does not read back as intended, tries
// again replacing each entry through the line before the next key.
func (s *splicer) run(val *yaml.Node) ([]byte, error) {
	var want *yaml.Node
	if val != nil {
		w, err := s.readBack(val)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.p, err)
		}
		want = w
	}
	for _, keepTrailing := range []bool{true, false} {
		out, err := s.splice(val, keepTrailing)
		if err != nil {
			return nil, err
		}
		if s.check(out, want) {
			return out, nil
		}
	}
	line := s.fm.Line
	if i := s.index(); i >= 0 {
		line += s.fm.Node.Content[i].Line - 1
	}
	return nil, badFrontmatter(&ParseError{Path: s.p, Line: line,
		Err: errors.New("cannot change this key without changing other lines or keys of the frontmatter (an alias may refer to it); edit it by hand")})
}

// readBack renders val alone and parses it again: the node the key must
// hold after the splice.
func (s *splicer) readBack(val *yaml.Node) (*yaml.Node, error) {
	yml, err := renderEntry(s.key, val, 0, false)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(yml, &doc); err != nil {
		return nil, fmt.Errorf("render %q: %w", s.key, err)
	}
	return doc.Content[0].Content[1], nil
}

// index returns the position in the mapping's Content of the key's first
// entry, or -1.
func (s *splicer) index() int {
	c := s.fm.Node.Content
	for i := 0; i+1 < len(c); i += 2 {
		if c[i].Kind == yaml.ScalarNode && c[i].Value == s.key {
			return i
		}
	}
	return -1
}

func (s *splicer) splice(val *yaml.Node, keepTrailing bool) ([]byte, error) {
	raw := s.content[s.f.start:s.f.end]
	starts := lineStarts(raw)
	nlines := len(starts) - 1
	m := s.fm.Node
	indent := max(m.Column-1, 0)
	crlf := s.f.start >= 2 && s.content[s.f.start-2] == '\r'

	type edit struct {
		start, end int // bytes of content to replace
		with       []byte
	}
	var edits []edit
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if k.Kind != yaml.ScalarNode || k.Value != s.key {
			continue
		}
		first, next := k.Line, nlines+1
		if i+2 < len(m.Content) {
			next = m.Content[i+2].Line
		}
		if first < 1 || first > nlines || next <= first || next > nlines+1 {
			return nil, badFrontmatter(&ParseError{Path: s.p, Line: s.fm.Line + max(first, 1) - 1,
				Err: errors.New("cannot locate the key's lines")})
		}
		last := next - 1
		if keepTrailing {
			// A quoted string may run onto lines that look like comments.
			floor := max(first, quotedEnd(raw, starts, m.Content[i+1], 0))
			for last > floor && layoutLine(raw[starts[last-1]:starts[last]], indent) {
				last--
			}
		}
		e := edit{start: s.f.start + starts[first-1], end: s.f.start + starts[last]}
		if val != nil && len(edits) == 0 {
			v := val
			if old := m.Content[i+1]; old.Kind == yaml.ScalarNode && old.LineComment != "" && oneLine(val) {
				c := *val
				c.LineComment = old.LineComment
				v = &c
			}
			var err error
			if e.with, err = renderEntry(s.key, v, indent, crlf); err != nil {
				return nil, fmt.Errorf("%s: %w", s.p, err)
			}
		}
		edits = append(edits, e)
	}
	if len(edits) == 0 && val != nil {
		with, err := renderEntry(s.key, val, indent, crlf)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.p, err)
		}
		edits = append(edits, edit{start: s.f.end, end: s.f.end, with: with})
	}
	out := make([]byte, 0, len(s.content)+64)
	pos := 0
	for _, e := range edits {
		out = append(out, s.content[pos:e.start]...)
		out = append(out, e.with...)
		pos = e.end
	}
	return append(out, s.content[pos:]...), nil
}

// oneLine reports whether n is a scalar written on one line.
func oneLine(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) == 0 && !bytes.ContainsAny([]byte(n.Value), "\n\r")
}

// layoutLine reports whether a frontmatter line is blank, or a comment
// indented no deeper than indent: lines that separate entries rather than
// belong to a value.
func layoutLine(line []byte, indent int) bool {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	if i == len(line) || breakLen(line, i) == len(line)-i {
		return true
	}
	return line[i] == '#' && i <= indent
}

// quotedEnd returns the last line of raw that a quoted scalar in n (or
// below it) occupies, 0 if there is none.
func quotedEnd(raw []byte, starts []int, n *yaml.Node, depth int) int {
	if n == nil || depth > maxValueDepth || n.Kind == yaml.AliasNode {
		return 0
	}
	end := 0
	if n.Kind == yaml.ScalarNode && n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 && n.Line >= 1 && n.Line < len(starts) {
		q := byte('\'')
		if n.Style&yaml.DoubleQuotedStyle != 0 {
			q = '"'
		}
		// The node starts at its tag or anchor, if any; the quote follows.
		i := starts[n.Line-1] + runeOffset(raw[starts[n.Line-1]:], n.Column-1)
		if j := bytes.IndexByte(raw[i:], q); j >= 0 {
			i += j + 1
			for i < len(raw) {
				if q == '"' && raw[i] == '\\' {
					i += 2
					continue
				}
				if raw[i] == q {
					if q == '\'' && i+1 < len(raw) && raw[i+1] == q {
						i += 2
						continue
					}
					break
				}
				i++
			}
			end = lineOf(starts, min(i, len(raw)-1))
		}
	}
	for _, c := range n.Content {
		end = max(end, quotedEnd(raw, starts, c, depth+1))
	}
	return end
}

// runeOffset returns the byte offset of the col'th character of b.
func runeOffset(b []byte, col int) int {
	i := 0
	for ; col > 0 && i < len(b); col-- {
		_, size := utf8.DecodeRune(b[i:])
		i += size
	}
	return i
}

// lineOf returns the 1-based line holding byte offset off.
func lineOf(starts []int, off int) int {
	return sort.Search(len(starts), func(i int) bool { return starts[i] > off })
}

// lineStarts returns the byte offset of each line of raw, counting lines as
// the YAML parser does (CRLF, CR, LF, NEL, LS and PS each end a line), and
// len(raw) last.
func lineStarts(raw []byte) []int {
	starts := []int{0}
	for i := 0; i < len(raw); {
		n := breakLen(raw, i)
		if n == 0 {
			i++
			continue
		}
		i += n
		starts = append(starts, i)
	}
	if starts[len(starts)-1] != len(raw) {
		starts = append(starts, len(raw))
	}
	return starts
}

// breakLen returns the length of the YAML line break at b[i], or 0.
func breakLen(b []byte, i int) int {
	switch {
	case b[i] == '\r' && i+1 < len(b) && b[i+1] == '\n':
		return 2
	case b[i] == '\r' || b[i] == '\n':
		return 1
	case b[i] == 0xc2 && i+1 < len(b) && b[i+1] == 0x85: // NEL
		return 2
	case b[i] == 0xe2 && i+2 < len(b) && b[i+1] == 0x80 && (b[i+2] == 0xa8 || b[i+2] == 0xa9): // LS, PS
		return 3
	}
	return 0
}

// check reports whether out holds the frontmatter the edit intends: the
// same entries as before in the same order, with the key's first entry
// holding want (or appended when it was missing), its other entries gone
// (all of them when want is nil), and the body unchanged.
func (s *splicer) check(out []byte, want *yaml.Node) bool {
	f, ok := findFence(out)
	if !ok || !bytes.Equal(out[f.bodyStart:], s.content[s.f.bodyStart:]) {
		return false
	}
	after, err := parseFrontmatter(s.p, out, f)
	if err != nil || after.Node.Style&yaml.FlowStyle != 0 {
		return false
	}
	var exp []*yaml.Node
	done := false
	c := s.fm.Node.Content
	for i := 0; i+1 < len(c); i += 2 {
		switch {
		case c[i].Kind != yaml.ScalarNode || c[i].Value != s.key:
			exp = append(exp, c[i], c[i+1])
		case want != nil && !done:
			exp = append(exp, c[i], want)
			done = true
		}
	}
	if want != nil && !done {
		exp = append(exp, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s.key}, want)
	}
	got := after.Node.Content
	if len(got) != len(exp) {
		return false
	}
	for i := range exp {
		if i%2 == 0 && exp[i].Value == s.key && exp[i].Kind == yaml.ScalarNode {
			if got[i].Kind != yaml.ScalarNode || got[i].Value != s.key {
				return false
			}
			continue
		}
		if !sameNode(exp[i], got[i]) {
			return false
		}
	}
	return true
}

// sameNode reports whether two nodes hold the same data, whatever their
// style, comments and positions. Aliases are compared by name, not
// followed, so a document full of aliases costs no more than its size.
func sameNode(a, b *yaml.Node) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Kind != b.Kind || a.ShortTag() != b.ShortTag() || a.Value != b.Value || a.Anchor != b.Anchor || len(a.Content) != len(b.Content) {
		return false
	}
	for i := range a.Content {
		if !sameNode(a.Content[i], b.Content[i]) {
			return false
		}
	}
	return true
}
