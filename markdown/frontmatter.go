package markdown

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// Frontmatter is a note's YAML frontmatter: the parsed node tree, kept so
// that a write can change one key and leave every other byte (comments,
// order, quoting) as the human wrote it, and typed views over it.
type Frontmatter struct {
	// Node is the top-level mapping. Its positions count from the first
	// YAML line: node line 1 is file line [Frontmatter.Line].
	Node *yaml.Node
	// Raw is the YAML text between the two "---" lines.
	Raw []byte
	// Start and End are the byte offsets of Raw in the note's content.
	Start, End int
	// Line is the 1-based file line of the first YAML line.
	Line int
}

// fence locates a frontmatter block the way Obsidian does: a "---" line at
// the very start of the file (a UTF-8 byte order mark aside) and a closing
// "---" line. An unclosed block is not frontmatter.
type fence struct {
	start, end int // YAML text [start, end)
	bodyStart  int // first byte after the closing line
	bodyLine   int // 1-based line of bodyStart
}

var bom = []byte("\xef\xbb\xbf")

func findFence(content []byte) (fence, bool) {
	i := 0
	if bytes.HasPrefix(content, bom) {
		i = len(bom)
	}
	first, next := lineAt(content, i)
	if !isDelimLine(first) {
		return fence{}, false
	}
	start := next
	line := 2
	for pos := start; pos < len(content); line++ {
		l, nxt := lineAt(content, pos)
		if isDelimLine(l) {
			return fence{start: start, end: pos, bodyStart: nxt, bodyLine: line + 1}, true
		}
		pos = nxt
	}
	return fence{}, false
}

// exact reports whether the fence lines are exactly "---", the only ones
// goldmark's frontmatter extension takes.
func (f fence) exact(content []byte) bool {
	open := bytes.TrimSuffix(bytes.TrimSuffix(content[:f.start], []byte("\n")), []byte("\r"))
	closing, _ := lineAt(content, f.end)
	return bytes.Equal(bytes.TrimPrefix(open, bom), []byte("---")) && string(closing) == "---"
}

// lineAt returns the line starting at pos without its line ending, and the
// offset of the next line.
func lineAt(b []byte, pos int) ([]byte, int) {
	j := bytes.IndexByte(b[pos:], '\n')
	if j < 0 {
		return bytes.TrimSuffix(b[pos:], []byte("\r")), len(b)
	}
	return bytes.TrimSuffix(b[pos:pos+j], []byte("\r")), pos + j + 1
}

func isDelimLine(l []byte) bool {
	return string(bytes.TrimRight(l, " \t")) == "---"
}

var yamlLineRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): `) })

// parseFrontmatter parses the fenced YAML. It returns a *ParseError naming
// the file line when the YAML does not parse or is not a mapping.
func parseFrontmatter(p string, content []byte, f fence) (*Frontmatter, error) {
	var doc yaml.Node
	err := yaml.Unmarshal(content[f.start:f.end], &doc)
	return newFrontmatter(p, content, f, &doc, err)
}

// newFrontmatter checks a decoded frontmatter document: err is the YAML
// library's decoding error, if any.
func newFrontmatter(p string, content []byte, f fence, doc *yaml.Node, err error) (*Frontmatter, error) {
	fm := &Frontmatter{Raw: content[f.start:f.end], Start: f.start, End: f.end, Line: 2}
	if err != nil {
		return nil, yamlError(p, fm.Line, fixErrorLine(fm.Raw, err))
	}
	switch {
	case doc.Kind == 0: // empty frontmatter
		fm.Node = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	case len(doc.Content) == 1 && doc.Content[0].Kind == yaml.MappingNode:
		fm.Node = doc.Content[0]
	case len(doc.Content) == 1 && doc.Content[0].Tag == "!!null":
		fm.Node = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	default:
		line := fm.Line
		if len(doc.Content) == 1 {
			line += doc.Content[0].Line - 1
		}
		return nil, &ParseError{Path: p, Line: line, Err: errors.New("invalid frontmatter: not a mapping of keys to values")}
	}
	return fm, nil
}

// fixErrorLine corrects the line of a YAML syntax error. The YAML library
// reports scanner errors with 1-based lines but parser errors with the
// 0-based line where the enclosing structure began, so a reported line L
// is really L+1 when the first L lines parse and the first L+1 do not.
func fixErrorLine(raw []byte, err error) error {
	m := yamlLineRe().FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	l, _ := strconv.Atoi(m[1])
	var probe yaml.Node
	if yaml.Unmarshal(firstLines(raw, l), &probe) == nil && yaml.Unmarshal(firstLines(raw, l+1), &probe) != nil {
		return fmt.Errorf("yaml: line %d: %s", l+1, err.Error()[len(m[0]):])
	}
	return err
}

// firstLines returns the first n lines of b.
func firstLines(b []byte, n int) []byte {
	end := 0
	for i := 0; i < n && end < len(b); i++ {
		j := bytes.IndexByte(b[end:], '\n')
		if j < 0 {
			return b
		}
		end += j + 1
	}
	return b[:end]
}

// yamlError turns a YAML library error into a *ParseError with a file line.
func yamlError(p string, firstLine int, err error) error {
	msg := err.Error()
	line := firstLine
	if m := yamlLineRe().FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		line = firstLine + n - 1
		msg = msg[len(m[0]):]
	} else {
		msg = strings.TrimPrefix(msg, "yaml: ")
	}
	return &ParseError{Path: p, Line: line, Err: fmt.Errorf("invalid frontmatter: %s", msg)}
}

// Value returns the value node of key (matched exactly), or nil.
func (f *Frontmatter) Value(key string) *yaml.Node {
	if f == nil || f.Node == nil {
		return nil
	}
	c := f.Node.Content
	for i := 0; i+1 < len(c); i += 2 {
		if c[i].Value == key {
			return c[i+1]
		}
	}
	return nil
}

// Keys returns the top-level keys in file order.
func (f *Frontmatter) Keys() []string {
	if f == nil || f.Node == nil {
		return nil
	}
	var keys []string
	for i := 0; i+1 < len(f.Node.Content); i += 2 {
		keys = append(keys, f.Node.Content[i].Value)
	}
	return keys
}

// String returns the scalar value of key; ok is false when the key is
// missing, null or not a scalar.
func (f *Frontmatter) String(key string) (s string, ok bool) {
	v := resolveAlias(f.Value(key))
	if v == nil || v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		return "", false
	}
	return v.Value, true
}

// Strings returns the values of key as a list: each scalar of a sequence,
// or a single scalar split on commas (Obsidian accepts "tags: a, b").
func (f *Frontmatter) Strings(key string) []string {
	v := resolveAlias(f.Value(key))
	if v == nil {
		return nil
	}
	var out []string
	switch v.Kind {
	case yaml.ScalarNode:
		if v.Tag == "!!null" {
			return nil
		}
		for _, s := range strings.Split(v.Value, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	case yaml.SequenceNode:
		for _, c := range v.Content {
			c = resolveAlias(c)
			if c != nil && c.Kind == yaml.ScalarNode && c.Tag != "!!null" {
				if s := strings.TrimSpace(c.Value); s != "" {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

func resolveAlias(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 8; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.AliasNode {
		return nil
	}
	return n
}

// Decode decodes the frontmatter into v (a pointer to a struct with yaml
// tags). A type mismatch or a duplicate key is a *ParseError naming the file
// line.
func (f *Frontmatter) Decode(p string, v any) error {
	if f == nil || f.Node == nil {
		return nil
	}
	if err := f.decode(v); err != nil {
		var te *yaml.TypeError
		if errors.As(err, &te) && len(te.Errors) > 0 {
			return yamlError(p, f.Line, errors.New("yaml: "+te.Errors[0]))
		}
		return yamlError(p, f.Line, err)
	}
	return nil
}

// decodeRun is how many key/value pairs of a large mapping Decode hands to
// yaml.v3 at a time.
const decodeRun = 256

// decode decodes the top-level mapping into v. yaml.v3 compares every key
// of a mapping with every other, looking for duplicates, which takes
// seconds for a frontmatter of tens of thousands of keys; so decode checks
// for duplicates itself and decodes a large mapping in runs of decodeRun
// pairs into the same v, each run adding its fields. A mapping with a merge
// key ("<<") is decoded whole: an explicit key must win over a merged one
// wherever it stands.
func (f *Frontmatter) decode(v any) error {
	c := f.Node.Content
	if len(c) <= 2*decodeRun || hasMergeKey(f.Node) {
		return f.Node.Decode(v)
	}
	if err := duplicateKeys(f.Node); err != nil {
		return err
	}
	for i := 0; i < len(c); i += 2 * decodeRun {
		run := *f.Node
		run.Content = c[i:min(i+2*decodeRun, len(c))]
		if err := run.Decode(v); err != nil {
			return err
		}
	}
	return nil
}

// duplicateKeys reports keys written twice in mapping n, in yaml.v3's
// words; keys are compared by kind and text, as yaml.v3 does.
func duplicateKeys(n *yaml.Node) error {
	type keyID struct {
		kind  yaml.Kind
		value string
	}
	first := make(map[keyID]int, len(n.Content)/2)
	var errs []string
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		id := keyID{k.Kind, k.Value}
		if line, ok := first[id]; ok {
			errs = append(errs, fmt.Sprintf("line %d: mapping key %#v already defined at line %d", k.Line, k.Value, line))
			continue
		}
		first[id] = k.Line
	}
	if errs != nil {
		return &yaml.TypeError{Errors: errs}
	}
	return nil
}

// hasMergeKey reports whether mapping n has a "<<" merge key.
func hasMergeKey(n *yaml.Node) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if k.Kind == yaml.ScalarNode && k.Value == "<<" && (k.Tag == "" || k.Tag == "!" || k.ShortTag() == "!!merge") {
			return true
		}
	}
	return false
}
