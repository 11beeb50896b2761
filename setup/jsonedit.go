package setup

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// A JSON document edited in place: every edit replaces the bytes of one
// value, member or element and leaves the rest of the file as it was,
// comments and layout included. What it inserts follows the file's
// indentation and line endings, and it inserts where a removal can take
// exactly those bytes out again: a new member or element goes after the
// last one, and removing it deletes from the end of the one before.
//
// Comments (// and /* */, which Gemini CLI's settings allow) are kept:
// they count as white space.

// jnode is one value of the document: its span in the text and, for an
// object or an array, its members or elements.
type jnode struct {
	kind       byte // '{', '[', or 0 for a string, number, true, false or null
	start, end int
	members    []jmember
	elems      []*jnode
}

// jmember is one member of an object.
type jmember struct {
	key      string
	keyStart int
	val      *jnode
}

// member is the object's member named key (the last, if the key is
// repeated, as JSON.parse reads it), or -1.
func (n *jnode) member(key string) int {
	for i := len(n.members) - 1; i >= 0; i-- {
		if n.members[i].key == key {
			return i
		}
	}
	return -1
}

// jdoc is a JSON document whose root is an object.
type jdoc struct {
	file  string // for errors
	text  []byte // the document
	clean []byte // the same, comments blanked out (same offsets)
	root  *jnode
	nl    string // the file's line ending
	unit  string // one level of its indentation
}

// parseDoc reads text as a JSON object. An empty text is the empty
// object. Errors name the file, the line and the column.
func parseDoc(file string, text []byte) (*jdoc, error) {
	if len(bytes.TrimSpace(text)) == 0 {
		text = []byte("{}\n")
	}
	d := &jdoc{file: file, nl: "\n", unit: "  "}
	if bytes.Contains(text, []byte("\r\n")) {
		d.nl = "\r\n"
	}
	if err := d.load(text); err != nil {
		return nil, err
	}
	// The indentation unit is that of the root's first member, when it
	// starts a line.
	if len(d.root.members) > 0 {
		if ind, ok := d.lineIndent(d.root.members[0].keyStart); ok && ind != "" {
			d.unit = ind
		}
	}
	return d, nil
}

// load parses text as the document's new content.
func (d *jdoc) load(text []byte) error {
	clean, err := blankComments(text)
	if err != nil {
		return fmt.Errorf("%s: %w", d.file, err)
	}
	var v any
	if err := json.Unmarshal(clean, &v); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line, col := position(clean, int(se.Offset)-1) // Offset is past the byte at fault
			return fmt.Errorf("%s:%d:%d: not valid JSON: %v", d.file, line, col, se)
		}
		return fmt.Errorf("%s: not valid JSON: %v", d.file, err)
	}
	if _, ok := v.(map[string]any); !ok {
		return fmt.Errorf("%s: not a JSON object", d.file)
	}
	p := &jparser{s: clean}
	d.text, d.clean, d.root = text, clean, p.value()
	return nil
}

// position is the line and column (1-based) of the byte at offset off in
// text.
func position(text []byte, off int) (line, col int) {
	off = min(max(off, 0), len(text))
	before := text[:off]
	return bytes.Count(before, []byte("\n")) + 1, off - bytes.LastIndexByte(before, '\n')
}

// blankComments returns text with its // and /* */ comments (outside
// strings) replaced by spaces, line breaks kept, so that offsets and lines
// are those of text. A leading byte order mark is blanked too.
func blankComments(text []byte) ([]byte, error) {
	out := bytes.Clone(text)
	if bytes.HasPrefix(out, []byte("\xef\xbb\xbf")) {
		copy(out, "   ")
	}
	blank := func(from, to int) {
		for k := from; k < to; k++ {
			if out[k] != '\n' && out[k] != '\r' {
				out[k] = ' '
			}
		}
	}
	for i := 0; i < len(out); i++ {
		switch {
		case out[i] == '"':
			for i++; i < len(out) && out[i] != '"'; i++ {
				if out[i] == '\\' {
					i++
				}
			}
		case out[i] == '/' && i+1 < len(out) && out[i+1] == '/':
			end := bytes.IndexByte(out[i:], '\n')
			if end < 0 {
				end = len(out) - i
			}
			blank(i, i+end)
			i += end
		case out[i] == '/' && i+1 < len(out) && out[i+1] == '*':
			end := bytes.Index(out[i+2:], []byte("*/"))
			if end < 0 {
				line, col := position(text, i)
				return nil, fmt.Errorf("%d:%d: a /* comment is not closed", line, col)
			}
			blank(i, i+2+end+2)
			i += 2 + end + 1
		}
	}
	return out, nil
}

// jparser reads the spans of a JSON text that encoding/json has accepted.
type jparser struct {
	s []byte
	i int
}

func (p *jparser) ws() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

func (p *jparser) value() *jnode {
	p.ws()
	n := &jnode{start: p.i}
	switch p.s[p.i] {
	case '{':
		n.kind = '{'
		p.i++
		for p.ws(); p.s[p.i] != '}'; p.ws() {
			if p.s[p.i] == ',' {
				p.i++
				p.ws()
			}
			keyStart := p.i
			p.str()
			var key string
			_ = json.Unmarshal(p.s[keyStart:p.i], &key) // valid: checked by encoding/json
			p.ws()
			p.i++ // ':'
			n.members = append(n.members, jmember{key: key, keyStart: keyStart, val: p.value()})
		}
		p.i++
	case '[':
		n.kind = '['
		p.i++
		for p.ws(); p.s[p.i] != ']'; p.ws() {
			if p.s[p.i] == ',' {
				p.i++
			}
			n.elems = append(n.elems, p.value())
		}
		p.i++
	case '"':
		p.str()
	default:
		for p.i < len(p.s) && !strings.ContainsRune(",]} \t\r\n", rune(p.s[p.i])) {
			p.i++
		}
	}
	n.end = p.i
	return n
}

func (p *jparser) str() {
	for p.i++; p.s[p.i] != '"'; p.i++ {
		if p.s[p.i] == '\\' {
			p.i++
		}
	}
	p.i++
}

// decode is the value of n.
func (d *jdoc) decode(n *jnode) any {
	var v any
	_ = json.Unmarshal(d.clean[n.start:n.end], &v) // valid: the document parsed
	return v
}

// equal reports whether n holds the value v (as JSON).
func (d *jdoc) equal(n *jnode, v any) bool {
	var want any
	_ = json.Unmarshal(compact(v), &want)
	return reflect.DeepEqual(d.decode(n), want)
}

// lookup is the value at path (member names from the root), nil when a
// member is missing. Errors: a value on the way that is not an object.
func (d *jdoc) lookup(path ...string) (*jnode, error) {
	n := d.root
	for i, key := range path {
		if n.kind != '{' {
			return nil, fmt.Errorf("%s: %s is not an object", d.file, strings.Join(path[:i], "."))
		}
		m := n.member(key)
		if m < 0 {
			return nil, nil
		}
		n = n.members[m].val
	}
	return n, nil
}

// splice replaces text[from:to] with s and parses the result.
func (d *jdoc) splice(from, to int, s string) error {
	text := make([]byte, 0, len(d.text)-(to-from)+len(s))
	text = append(append(append(text, d.text[:from]...), s...), d.text[to:]...)
	if err := d.load(text); err != nil {
		return fmt.Errorf("internal error editing %w", err)
	}
	return nil
}

// lineIndent is the white space that begins the line holding offset off,
// and whether only white space comes before off on that line.
func (d *jdoc) lineIndent(off int) (string, bool) {
	start := bytes.LastIndexByte(d.text[:off], '\n') + 1
	prefix := string(d.text[start:off])
	ind := prefix[:len(prefix)-len(strings.TrimLeft(prefix, " \t"))]
	return ind, ind == prefix
}

// spaced reports whether the document writes a space after its colons,
// as what is added on one line then does.
func (d *jdoc) spaced() bool {
	return bytes.Contains(d.clean, []byte("\": "))
}

// inline reports whether the container n has members or elements and
// lies on one line: what is added to it is then written on that line too.
func (d *jdoc) inline(n *jnode) bool {
	return (len(n.members) > 0 || len(n.elems) > 0) && !bytes.ContainsRune(d.text[n.start:n.end], '\n')
}

// format is v as JSON text to be placed at indentation ind: on several
// lines indented by the file's unit, or on one line when oneLine.
func (d *jdoc) format(v any, ind string, oneLine bool) string {
	c := compact(v)
	if oneLine {
		return string(c)
	}
	var b bytes.Buffer
	_ = json.Indent(&b, c, ind, d.unit) // valid: it was just marshalled
	return strings.ReplaceAll(b.String(), "\n", d.nl)
}

// compact is v marshalled without HTML escapes.
func compact(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic("setup: marshal: " + err.Error()) // only values of this package
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}

// childIndent is the indentation of a member or element of container n:
// that of its last one when it starts a line, else one unit more than the
// container's line.
func (d *jdoc) childIndent(n *jnode) string {
	last := -1
	switch {
	case len(n.members) > 0:
		last = n.members[len(n.members)-1].keyStart
	case len(n.elems) > 0:
		last = n.elems[len(n.elems)-1].start
	}
	if last >= 0 {
		if ind, ok := d.lineIndent(last); ok {
			return ind
		}
	}
	ind, _ := d.lineIndent(n.start)
	return ind + d.unit
}

// add inserts item (a member's `"key": value` or an element's value, made
// by text for an indentation and a one-line flag) at the end of the
// container n.
func (d *jdoc) add(n *jnode, item func(ind string, oneLine bool) string) error {
	var lastEnd int
	switch {
	case len(n.members) > 0:
		lastEnd = n.members[len(n.members)-1].val.end
	case len(n.elems) > 0:
		lastEnd = n.elems[len(n.elems)-1].end
	default: // empty: rewrite the brackets
		if d.inline(d.root) {
			return d.splice(n.start, n.end, string(d.text[n.start])+item("", true)+string(d.text[n.end-1]))
		}
		outer, _ := d.lineIndent(n.start)
		ind := outer + d.unit
		return d.splice(n.start, n.end, string(d.text[n.start])+d.nl+ind+item(ind, false)+d.nl+outer+string(d.text[n.end-1]))
	}
	if d.inline(n) {
		sep := ","
		if d.spaced() {
			sep = ", "
		}
		return d.splice(lastEnd, lastEnd, sep+item("", true))
	}
	// The comma after the last value; the new line after what follows it
	// on its line (a comment), which so stays with it.
	ind := d.childIndent(n)
	eol := d.restOfLine(lastEnd)
	return d.splice(lastEnd, eol, ","+string(d.text[lastEnd:eol])+d.nl+ind+item(ind, false))
}

// restOfLine is where the line ends that goes on at off, when only white
// space and comments come before its end; else off.
func (d *jdoc) restOfLine(off int) int {
	i := off
	for i < len(d.clean) && (d.clean[i] == ' ' || d.clean[i] == '\t') {
		i++
	}
	if i < len(d.clean) && (d.clean[i] == '\n' || d.clean[i] == '\r') {
		return i
	}
	return off
}

// cut deletes the member or element from start to end that follows the
// one ending at prevEnd: the comma after that one, and from the end of its
// line (see restOfLine) to end; what add inserted.
func (d *jdoc) cut(prevEnd, end int) error {
	comma := prevEnd + bytes.IndexByte(d.clean[prevEnd:end], ',')
	eol := d.restOfLine(comma + 1)
	return d.splice(comma, end, string(d.text[comma+1:eol]))
}

// addMember adds the member key: v at the end of object n.
func (d *jdoc) addMember(n *jnode, key string, v any) error {
	return d.add(n, func(ind string, oneLine bool) string {
		colon := ": "
		if oneLine && !d.spaced() {
			colon = ":"
		}
		return string(compact(key)) + colon + d.format(v, ind, oneLine)
	})
}

// addElem adds v at the end of array n.
func (d *jdoc) addElem(n *jnode, v any) error {
	return d.add(n, func(ind string, oneLine bool) string { return d.format(v, ind, oneLine) })
}

// replace puts v in place of the value n, which starts at indentation
// ind (its member's or its own line).
func (d *jdoc) replace(n *jnode, v any) error {
	ind, _ := d.lineIndent(n.start)
	return d.splice(n.start, n.end, d.format(v, ind, !bytes.ContainsRune(d.text[n.start:n.end], '\n') && d.inline(d.root)))
}

// set makes the value at path v: replacing it, or adding the missing
// member, the objects on the way created as needed.
func (d *jdoc) set(path []string, v any) error {
	n := d.root
	for i, key := range path {
		if n.kind != '{' {
			return fmt.Errorf("%s: %s is not an object", d.file, strings.Join(path[:i], "."))
		}
		m := n.member(key)
		if m < 0 {
			for j := len(path) - 1; j > i; j-- {
				v = obj{{path[j], v}}
			}
			return d.addMember(n, key, v)
		}
		if i == len(path)-1 {
			if d.equal(n.members[m].val, v) {
				return nil
			}
			return d.replace(n.members[m].val, v)
		}
		n = n.members[m].val
	}
	return nil
}

// removeMember deletes member i of object n: after the member before it
// (what addMember inserted, see cut), or up to the next one when it is
// the first; the only member leaves {}.
func (d *jdoc) removeMember(n *jnode, i int) error {
	switch {
	case len(n.members) == 1:
		return d.splice(n.start, n.end, "{}")
	case i > 0:
		return d.cut(n.members[i-1].val.end, n.members[i].val.end)
	default:
		return d.splice(n.members[0].keyStart, n.members[1].keyStart, "")
	}
}

// removeElem deletes element i of array n, as removeMember does.
func (d *jdoc) removeElem(n *jnode, i int) error {
	switch {
	case len(n.elems) == 1:
		return d.splice(n.start, n.end, "[]")
	case i > 0:
		return d.cut(n.elems[i-1].end, n.elems[i].end)
	default:
		return d.splice(n.elems[0].start, n.elems[1].start, "")
	}
}

// removePath deletes the member at path, when there is one, and then each
// object on the way that it left empty.
func (d *jdoc) removePath(path ...string) error {
	for len(path) > 0 {
		parent, err := d.lookup(path[:len(path)-1]...)
		if err != nil || parent == nil || parent.kind != '{' {
			return err
		}
		m := parent.member(path[len(path)-1])
		if m < 0 {
			return nil
		}
		if err := d.removeMember(parent, m); err != nil {
			return err
		}
		path = path[:len(path)-1]
		if n, _ := d.lookup(path...); n == nil || len(n.members) > 0 || len(path) == 0 {
			return nil
		}
	}
	return nil
}

// obj is a JSON object whose members keep their order.
type obj []kv

// kv is one member of an obj.
type kv struct {
	k string
	v any
}

// MarshalJSON writes the members in order.
func (o obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(compact(m.k))
		b.WriteByte(':')
		b.Write(compact(m.v))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
