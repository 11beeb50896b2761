package markdown

import (
	"bytes"
	"encoding"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Field is one frontmatter key and its value, for [Format].
type Field struct {
	Key string
	// Value is any value the YAML encoder takes: string, []string, int,
	// float64, bool, time.Time, nil, maps, structs, or a *yaml.Node to
	// control the style.
	Value any
}

// Format returns a note in vaultmem's canonical layout: "---\n", the fields
// as block-style YAML (indent 2) in the given order, "---\n", then a blank
// line and the body with leading blank lines removed and trailing white
// space trimmed to a single "\n". An empty body leaves the note ending at the
// closing "---\n"; no fields give "---\n---\n".
//
// Strings are quoted whenever YAML would read them as something else ("yes",
// "1.0", "[[X]]", ": x", "#tag"). Multi-line strings become literal block
// scalars ("|"), except those a block would not give back exactly (a
// leading space or newline, more than one final newline, white space before
// a line break, CR), which are double-quoted.
// Keys that are not valid UTF-8 have the bad bytes replaced by U+FFFD, and a
// key given twice keeps its first position and its last value, so the
// frontmatter always decodes.
//
// Format is idempotent: parsing its result back (the keys in order, each
// value decoded to a plain Go value, and the body after the closing
// delimiter) and formatting that again gives the same bytes.
//
// Format panics if a value cannot be encoded as YAML (a func or a channel);
// that is a programming error.
func Format(fields []Field, body string) []byte {
	var b bytes.Buffer
	b.WriteString("---\n")
	if len(fields) > 0 {
		pairs, err := fieldNodes(fields)
		if err == nil {
			var yml []byte
			yml, err = encodeMapping(pairs)
			b.Write(yml)
		}
		if err != nil {
			panic("markdown.Format: " + err.Error())
		}
	}
	b.WriteString("---\n")
	if body = trimBody(body); body != "" {
		b.WriteString("\n")
		b.WriteString(body)
		b.WriteString("\n")
	}
	return b.Bytes()
}

// fieldNodes turns fields into the key and value nodes of a mapping.
func fieldNodes(fields []Field) ([]*yaml.Node, error) {
	pairs := make([]*yaml.Node, 0, 2*len(fields))
	at := make(map[string]int, len(fields))
	for _, f := range fields {
		key := strings.ToValidUTF8(f.Key, "\uFFFD")
		k, err := valueNode(key)
		if err != nil {
			return nil, err
		}
		v, err := valueNode(f.Value)
		if err != nil {
			return nil, fmt.Errorf("field %q: %w", key, err)
		}
		if i, ok := at[key]; ok {
			pairs[i+1] = v
			continue
		}
		at[key] = len(pairs)
		pairs = append(pairs, k, v)
	}
	return pairs, nil
}

// trimBody drops the body's leading blank lines (keeping the indentation of
// its first text line) and its trailing white space.
func trimBody(s string) string {
	start := 0
	for {
		j := strings.IndexByte(s[start:], '\n')
		if j < 0 || strings.Trim(s[start:start+j], " \t\r") != "" {
			break
		}
		start += j + 1
	}
	return strings.TrimRight(s[start:], " \t\r\n")
}

// valueNode turns v into the YAML node [Format] and [SetFrontmatter] write.
//
// It builds the node itself for the usual frontmatter values (strings,
// numbers, bools, times, nil, slices, maps, pointers, *yaml.Node) rather than
// through yaml.Node.Encode, which prints the value and parses it again: the
// YAML library's printer indents some block scalars wrongly (a string
// starting with a newline and spaces, inside a list, reads back changed), so
// the printed text cannot be trusted to mean the value. Here every string
// gets a style that reads back as itself. Structs and types with their own
// MarshalYAML go through the library's encoder.
func valueNode(v any) (*yaml.Node, error) {
	return toNode(reflect.ValueOf(v), 0)
}

const maxValueDepth = 1000

func toNode(rv reflect.Value, depth int) (n *yaml.Node, err error) {
	if depth > maxValueDepth {
		return nil, fmt.Errorf("value nested more than %d deep (a cycle?)", maxValueDepth)
	}
	if !rv.IsValid() || (rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface) && rv.IsNil() {
		return nullNode(), nil
	}
	switch x := rv.Interface().(type) {
	case *yaml.Node:
		return copyNode(x, 0)
	case yaml.Node:
		return copyNode(&x, 0)
	case time.Time:
		return scalar("!!timestamp", x.Format(time.RFC3339Nano)), nil
	case time.Duration:
		return stringNode(x.String()), nil
	case yaml.Marshaler:
		return encodeNode(x)
	case encoding.TextMarshaler:
		text, err := x.MarshalText()
		if err != nil {
			return nil, fmt.Errorf("encode %s as YAML: %w", rv.Type(), err)
		}
		return stringNode(string(text)), nil
	}
	switch rv.Kind() {
	case reflect.Pointer, reflect.Interface:
		return toNode(rv.Elem(), depth+1)
	case reflect.String:
		return stringNode(rv.String()), nil
	case reflect.Bool:
		return scalar("", strconv.FormatBool(rv.Bool())), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return scalar("", strconv.FormatInt(rv.Int(), 10)), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return scalar("", strconv.FormatUint(rv.Uint(), 10)), nil
	case reflect.Float32, reflect.Float64:
		return floatNode(rv), nil
	case reflect.Slice, reflect.Array:
		seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for i := 0; i < rv.Len(); i++ {
			c, err := toNode(rv.Index(i), depth+1)
			if err != nil {
				return nil, err
			}
			seq.Content = append(seq.Content, c)
		}
		return seq, nil
	case reflect.Map:
		m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		keys := rv.MapKeys()
		knodes := make([]*yaml.Node, len(keys))
		for i, k := range keys {
			if knodes[i], err = toNode(k, depth+1); err != nil {
				return nil, err
			}
		}
		order := make([]int, len(keys))
		for i := range order {
			order[i] = i
		}
		// Sorted, as the YAML library sorts map keys, so output is stable.
		sort.Slice(order, func(a, b int) bool { return knodes[order[a]].Value < knodes[order[b]].Value })
		for _, i := range order {
			v, err := toNode(rv.MapIndex(keys[i]), depth+1)
			if err != nil {
				return nil, err
			}
			m.Content = append(m.Content, knodes[i], v)
		}
		return m, nil
	}
	return encodeNode(rv.Interface())
}

func nullNode() *yaml.Node { return scalar("!!null", "null") }

func scalar(tag, value string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: value}
}

// stringNode returns s as a scalar that reads back as the string s: plain
// when YAML would read it so, quoted when it would read as something else
// (the printer picks the quotes; a wikilink gets double quotes, as
// Obsidian writes it), a literal block when it spans lines and a
// block reads back exactly, else double-quoted.
func stringNode(s string) *yaml.Node {
	n := scalar("!!str", s)
	switch {
	case !utf8.ValidString(s):
		n.Tag = "" // the printer writes it as !!binary base64
	case strings.ContainsAny(s, "\n\r\u0085\u2028\u2029"):
		n.Style = yaml.DoubleQuotedStyle
		if blockSafe(s) {
			n.Style = yaml.LiteralStyle
		}
	case isOldBool(s) || isBase60Float(s):
		// YAML 1.1 readers (Obsidian's among them) take these for booleans
		// and numbers; the YAML 1.2 resolver would leave them plain.
		n.Style = yaml.DoubleQuotedStyle
	case strings.HasPrefix(s, "[["):
		n.Style = yaml.DoubleQuotedStyle // a link property, as Obsidian writes it: "[[Note]]"
	}
	return n
}

// blockSafe reports whether a multi-line string reads back unchanged from a
// literal block scalar: lines broken by "\n" only, no leading blank (that
// would need an indentation indicator, which the printer gets wrong in
// lists), at most one final newline (a "|+" block would take in the blank
// lines after it), no white space before a line break.
func blockSafe(s string) bool {
	switch {
	case s == "" || s[0] == ' ' || s[0] == '\t' || s[0] == '\n':
		return false
	case strings.HasSuffix(s, "\n\n"), strings.ContainsAny(s, "\r\u0085\u2028\u2029\ufeff"):
		return false
	case strings.Contains(s, " \n"), strings.Contains(s, "\t\n"), strings.HasSuffix(s, " "), strings.HasSuffix(s, "\t"):
		return false
	}
	for _, r := range s {
		if r != '\n' && r != '\t' && !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

// isOldBool reports whether YAML 1.1 reads s as a boolean.
func isOldBool(s string) bool {
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "on", "On", "ON",
		"n", "N", "no", "No", "NO", "off", "Off", "OFF":
		return true
	}
	return false
}

var base60Float = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`) })

// isBase60Float reports whether YAML 1.1 reads s as a sexagesimal number
// ("1:20").
func isBase60Float(s string) bool { return base60Float().MatchString(s) }

func floatNode(rv reflect.Value) *yaml.Node {
	f := rv.Float()
	bits := 64
	if rv.Kind() == reflect.Float32 {
		bits = 32
	}
	var s string
	switch {
	case math.IsInf(f, 1):
		s = ".inf"
	case math.IsInf(f, -1):
		s = "-.inf"
	case math.IsNaN(f):
		s = ".nan"
	case f == 0 && math.Signbit(f):
		s = "-0.0" // "-0" would read back as the integer 0
	default:
		s = strconv.FormatFloat(f, 'g', -1, bits)
	}
	// No tag: "1" is written for 1.0 and reads back as an int, as the YAML
	// library's own encoder does.
	return scalar("", s)
}

// copyNode copies a caller's node, so that fixing a style does not change
// it, and gives multi-line strings a style that reads back (see
// stringNode).
func copyNode(n *yaml.Node, depth int) (*yaml.Node, error) {
	if n == nil {
		return nullNode(), nil
	}
	if depth > maxValueDepth {
		return nil, fmt.Errorf("YAML node nested more than %d deep (a cycle?)", maxValueDepth)
	}
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		return copyNode(n.Content[0], depth+1)
	}
	c := *n
	c.Content = nil
	c.Alias = nil
	if c.Kind == yaml.ScalarNode && strings.ContainsAny(c.Value, "\n\r\u0085\u2028\u2029") &&
		c.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) == 0 && !blockSafe(c.Value) {
		c.Style = c.Style&^(yaml.LiteralStyle|yaml.FoldedStyle) | yaml.DoubleQuotedStyle
	}
	for _, k := range n.Content {
		kc, err := copyNode(k, depth+1)
		if err != nil {
			return nil, err
		}
		c.Content = append(c.Content, kc)
	}
	return &c, nil
}

// encodeNode encodes v with the YAML library, for structs and custom
// marshalers. The library panics on values it cannot encode (channels,
// funcs); that becomes an error.
func encodeNode(v any) (n *yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			n, err = nil, fmt.Errorf("encode %T as YAML: %v", v, r)
		}
	}()
	n = new(yaml.Node)
	if err := n.Encode(v); err != nil {
		return nil, fmt.Errorf("encode %T as YAML: %w", v, err)
	}
	return copyNode(n, 0)
}

// encodeMapping writes key and value nodes as a block mapping, indent 2.
func encodeMapping(pairs []*yaml.Node) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("encode YAML: %v", r)
		}
	}()
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: pairs}
	if err := enc.Encode(m); err != nil {
		return nil, fmt.Errorf("encode YAML: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("encode YAML: %w", err)
	}
	return b.Bytes(), nil
}

// SetBody returns content with its body replaced by body, in the layout of
// [Format] (a blank line after the frontmatter, leading blank lines
// dropped, one final newline); the frontmatter block, if any, is kept byte
// for byte, even when its YAML does not parse.
func SetBody(content []byte, body string) []byte {
	var head []byte
	if f, ok := findFence(content); ok {
		head = content[:f.bodyStart]
	}
	out := append([]byte{}, head...)
	body = trimBody(body)
	switch {
	case body == "":
	case len(head) > 0:
		out = append(out, '\n')
		fallthrough
	default:
		out = append(out, body...)
		out = append(out, '\n')
	}
	return out
}
