package markdown_test

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/markdown"
	"go.yaml.in/yaml/v3"
)

type spliceCase struct {
	name  string
	in    string
	key   string
	value any
	want  string
}

const commented = `---
# head comment
title: Old # beside title
# above status
status: todo # beside status
# below status

tags:
  - a
  - b # beside b
# after tags
---
Body with status: todo
`

var setCases = []spliceCase{
	{
		name: "comments above, beside and below stay", in: commented, key: "status", value: "done",
		want: strings.Replace(commented, "status: todo # beside status", "status: done # beside status", 1),
	},
	{
		name: "first key", in: commented, key: "title", value: "New title",
		want: strings.Replace(commented, "title: Old # beside title", "title: New title # beside title", 1),
	},
	{
		name: "last key, a list", in: commented, key: "tags", value: []string{"x", "y z"},
		want: strings.Replace(commented, "tags:\n  - a\n  - b # beside b\n", "tags:\n  - x\n  - y z\n", 1),
	},
	{
		name: "new key goes before the closing line", in: commented, key: "priority", value: 2,
		want: strings.Replace(commented, "# after tags\n---\n", "# after tags\npriority: 2\n---\n", 1),
	},
	{
		name: "scalar becomes a list",
		in:   "---\na: 1\nb: 2\n---\n", key: "a", value: []any{"[[X]]", 3},
		want: "---\na:\n  - \"[[X]]\"\n  - 3\nb: 2\n---\n",
	},
	{
		name: "block scalar with lines starting with #",
		in:   "---\nscript: |\n  # not a comment\n  echo hi\n  # still content\n# a real comment\nafter: 1\n---\n",
		key:  "script", value: "new",
		want: "---\nscript: new\n# a real comment\nafter: 1\n---\n",
	},
	{
		name: "key after a block scalar",
		in:   "---\nscript: |\n  # not a comment\n  echo hi\n\nafter: 1\n---\n",
		key:  "after", value: true,
		want: "---\nscript: |\n  # not a comment\n  echo hi\n\nafter: true\n---\n",
	},
	{
		name: "keep-chomped block scalar keeps its blank lines",
		in:   "---\nkeep: |+\n  text\n\n\nnext: 1\n---\n",
		key:  "next", value: 2,
		want: "---\nkeep: |+\n  text\n\n\nnext: 2\n---\n",
	},
	{
		name: "replacing a keep-chomped block scalar",
		in:   "---\nkeep: |+\n  text\n\n\nnext: 1\n---\n",
		key:  "keep", value: "short",
		want: "---\nkeep: short\n\n\nnext: 1\n---\n",
	},
	{
		name: "nested map",
		in:   "---\nmeta:\n  a: 1\n  b:\n    - x\n    - y\n  # inner comment\nother: 2\n---\nbody\n",
		key:  "meta", value: map[string]any{"c": 3},
		want: "---\nmeta:\n  c: 3\nother: 2\n---\nbody\n",
	},
	{
		name: "multi-line value into the middle",
		in:   "---\na: 1\nb: 2\n---\n", key: "a", value: "line 1\nline 2\n",
		want: "---\na: |\n  line 1\n  line 2\nb: 2\n---\n",
	},
	{
		name: "quoted keys",
		in:   "---\n\"my key\": 1\n'x y': 2\n\"yes\": 3\n---\n", key: "x y", value: 5,
		want: "---\n\"my key\": 1\nx y: 5\n\"yes\": 3\n---\n",
	},
	{
		name: "key that needs quoting",
		in:   "---\n\"yes\": 3\n---\n", key: "yes", value: 4,
		want: "---\n\"yes\": 4\n---\n",
	},
	{
		name: "CRLF line endings",
		in:   "---\r\na: 1\r\nb: 2\r\n---\r\nbody\r\n", key: "a", value: "x\ny\n",
		want: "---\r\na: |\r\n  x\r\n  y\r\nb: 2\r\n---\r\nbody\r\n",
	},
	{
		name: "CRLF new key",
		in:   "---\r\na: 1\r\n---\r\nbody\r\n", key: "c", value: "z",
		want: "---\r\na: 1\r\nc: z\r\n---\r\nbody\r\n",
	},
	{
		name: "indented mapping",
		in:   "---\n  a: 1\n  b: 2\n---\n", key: "a", value: []string{"x"},
		want: "---\n  a:\n    - x\n  b: 2\n---\n",
	},
	{
		name: "duplicate key: first set, others removed",
		in:   "---\na: 1\nb: 2\na: 3\n---\n", key: "a", value: 9,
		want: "---\na: 9\nb: 2\n---\n",
	},
	{
		name: "empty frontmatter",
		in:   "---\n---\nbody\n", key: "type", value: "user",
		want: "---\ntype: user\n---\nbody\n",
	},
	{
		name: "frontmatter with only a comment",
		in:   "---\n# nothing yet\n---\nbody\n", key: "type", value: "user",
		want: "---\n# nothing yet\ntype: user\n---\nbody\n",
	},
	{
		name: "no frontmatter",
		in:   "# Title\n\nBody\n", key: "type", value: "user",
		want: "---\ntype: user\n---\n# Title\n\nBody\n",
	},
	{
		name: "no frontmatter, CRLF",
		in:   "Body\r\nmore", key: "n", value: 1,
		want: "---\r\n\"n\": 1\r\n---\r\nBody\r\nmore",
	},
	{
		name: "no frontmatter, byte order mark",
		in:   "\ufeffBody\n", key: "a", value: "b",
		want: "\ufeff---\na: b\n---\nBody\n",
	},
	{
		name: "empty note", in: "", key: "a", value: nil,
		want: "---\na: null\n---\n",
	},
	{
		name: "unclosed fence is body",
		in:   "---\nnot: closed\n", key: "a", value: 1,
		want: "---\na: 1\n---\n---\nnot: closed\n",
	},
	{
		name: "time and float",
		in:   "---\nwhen: 2020-01-01\nf: 1\n---\n", key: "when", value: time.Date(2024, 2, 3, 4, 5, 6, 0, time.UTC),
		want: "---\nwhen: 2024-02-03T04:05:06Z\nf: 1\n---\n",
	},
	{
		name: "alias to another key's anchor",
		in:   "---\nbase: &b x\nref: *b\n---\n", key: "ref", value: "z",
		want: "---\nbase: &b x\nref: z\n---\n",
	},
	{
		name: "quoted value running onto a line that looks like a comment",
		in:   "---\na: \"x\n#y\"\nb: 1\n---\n", key: "a", value: "new",
		want: "---\na: new\nb: 1\n---\n",
	},
}

func TestSetFrontmatter(t *testing.T) {
	for _, tt := range setCases {
		t.Run(tt.name, func(t *testing.T) {
			got, err := markdown.SetFrontmatter("n.md", []byte(tt.in), tt.key, tt.value)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Fatalf("got\n%q\nwant\n%q", got, tt.want)
			}
			checkSpliced(t, []byte(tt.in), got, tt.key, tt.value, true)
		})
	}
}

func TestSetFrontmatterRefuses(t *testing.T) {
	tests := []struct {
		name, in, key string
		line          int // file line the *ParseError names; -1 any, 0 none
	}{
		{"broken YAML", "---\ntitle: ok\ntags: [a\nb: 2\n---\nbody\n", "title", -1},
		{"bad indentation", "---\na: 1\n  b: 2\n---\n", "a", -1},
		{"flow style", "---\n{a: 1, b: 2}\n---\n", "a", 2},
		{"not a mapping", "---\n- a\n- b\n---\n", "a", 2},
		{"would break an alias", "---\nbase: &b x\nref: *b\n---\n", "base", 2},
		{"document end marker", "---\na: 1\n...\n---\n", "b", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := markdown.SetFrontmatter("n.md", []byte(tt.in), tt.key, "v")
			if !errors.Is(err, markdown.ErrBadFrontmatter) {
				t.Fatalf("got %q, %v; want ErrBadFrontmatter", got, err)
			}
			var pe *markdown.ParseError
			if !errors.As(err, &pe) || pe.Path != "n.md" || (tt.line > 0 && pe.Line != tt.line) || (tt.line < 0 && pe.Line < 2) {
				t.Fatalf("error %v: want a *ParseError for n.md line %d", err, tt.line)
			}
		})
	}
	for _, key := range []string{"", "\xff"} {
		if _, err := markdown.SetFrontmatter("n.md", []byte("x"), key, 1); err == nil {
			t.Errorf("SetFrontmatter with key %q: no error", key)
		}
	}
	if _, err := markdown.SetFrontmatter("n.md", []byte("x"), "k", func() {}); err == nil {
		t.Error("SetFrontmatter with a func value: no error")
	}
}

func TestDeleteFrontmatter(t *testing.T) {
	tests := []spliceCase{
		{name: "middle key", in: commented, key: "status",
			want: strings.Replace(commented, "status: todo # beside status\n", "", 1)},
		{name: "first key", in: "---\na: 1\nb: 2\n---\n", key: "a", want: "---\nb: 2\n---\n"},
		{name: "last key with list", in: commented, key: "tags",
			want: strings.Replace(commented, "tags:\n  - a\n  - b # beside b\n", "", 1)},
		{name: "only key", in: "---\na: 1\n---\nbody", key: "a", want: "---\n---\nbody"},
		{name: "duplicates", in: "---\na: 1\nb: 2\na: 3\n---\n", key: "a", want: "---\nb: 2\n---\n"},
		{name: "missing key", in: commented, key: "nope", want: commented},
		{name: "no frontmatter", in: "body", key: "a", want: "body"},
		{name: "missing key, flow style", in: "---\n{a: 1}\n---\n", key: "b", want: "---\n{a: 1}\n---\n"},
		{name: "CRLF", in: "---\r\na: 1\r\nb: |\r\n  x\r\nc: 3\r\n---\r\n", key: "b", want: "---\r\na: 1\r\nc: 3\r\n---\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := markdown.DeleteFrontmatter("n.md", []byte(tt.in), tt.key)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Fatalf("got\n%q\nwant\n%q", got, tt.want)
			}
			checkSpliced(t, []byte(tt.in), got, tt.key, nil, false)
		})
	}
	for _, in := range []string{"---\na: [\n---\n", "---\n{a: 1}\n---\n"} {
		if got, err := markdown.DeleteFrontmatter("n.md", []byte(in), "a"); !errors.Is(err, markdown.ErrBadFrontmatter) {
			t.Errorf("DeleteFrontmatter(%q) = %q, %v; want ErrBadFrontmatter", in, got, err)
		}
	}
}

// fmValues decodes every top-level frontmatter value of a note, by key; ok
// is false when the note has no frontmatter that parses.
func fmValues(t *testing.T, content []byte) (vals map[string]any, body []byte, ok bool) {
	t.Helper()
	n := markdown.Parse("n.md", content)
	if n.BodyStart == 0 || n.Frontmatter == nil {
		return nil, n.Body(), false
	}
	vals = map[string]any{}
	c := n.Frontmatter.Node.Content
	for i := 0; i+1 < len(c); i += 2 {
		if _, dup := vals[c[i].Value]; dup {
			continue // the first entry is the one readers see
		}
		var v any
		if err := c[i+1].Decode(&v); err != nil {
			v = err.Error()
		}
		vals[c[i].Value] = v
	}
	return vals, n.Body(), true
}

// checkSpliced is the property of SetFrontmatter and DeleteFrontmatter:
// every key but key decodes as before, key holds value (or is gone), and
// the body is byte for byte the same.
func checkSpliced(t *testing.T, before, after []byte, key string, value any, set bool) {
	t.Helper()
	old, oldBody, hadFM := fmValues(t, before)
	got, body, ok := fmValues(t, after)
	if !ok {
		if !set && bytes.Equal(before, after) {
			return
		}
		t.Fatalf("result has no frontmatter that parses:\n%s", after)
	}
	if !hadFM {
		oldBody = bytes.TrimPrefix(before, []byte("\ufeff"))
	}
	if !bytes.Equal(body, oldBody) {
		t.Fatalf("body changed:\nbefore %q\nafter  %q", oldBody, body)
	}
	for k, v := range old {
		if k == key {
			continue
		}
		if !reflect.DeepEqual(got[k], v) {
			t.Errorf("key %q changed from %#v to %#v", k, v, got[k])
		}
	}
	if set {
		var want any
		b, _ := yaml.Marshal(map[string]any{"v": value})
		var m map[string]any
		_ = yaml.Unmarshal(b, &m)
		want = m["v"]
		if !reflect.DeepEqual(got[key], want) {
			t.Errorf("key %q = %#v, want %#v", key, got[key], want)
		}
		if len(got) != len(old)+btoi(!hasKey(old, key)) {
			t.Errorf("keys %v after setting %q in %v", got, key, old)
		}
	} else if hasKey(got, key) {
		t.Errorf("key %q still there: %#v", key, got[key])
	}
}

func hasKey(m map[string]any, k string) bool { _, ok := m[k]; return ok }

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func FuzzSetFrontmatter(f *testing.F) {
	for _, c := range setCases {
		if s, ok := c.value.(string); ok {
			f.Add([]byte(c.in), c.key, s)
		} else {
			f.Add([]byte(c.in), c.key, "value")
		}
	}
	f.Add([]byte("---\na: [\n---\n"), "a", "x")
	f.Add([]byte("---\n{a: 1}\n---\n"), "a", "x")
	f.Add([]byte("---\r\na: |\r\n  x\r\n---\r\n"), "a", "yes\n\n")
	f.Fuzz(func(t *testing.T, content []byte, key, value string) {
		out, err := markdown.SetFrontmatter("f.md", content, key, value)
		if err != nil {
			if key != "" && strings.ToValidUTF8(key, "") == key && !errors.Is(err, markdown.ErrBadFrontmatter) {
				t.Fatalf("SetFrontmatter(%q, %q, %q): unexpected error %v", content, key, value, err)
			}
			return
		}
		vals, body, ok := fmValues(t, out)
		if !ok {
			t.Fatalf("SetFrontmatter(%q, %q, %q) = %q: frontmatter does not parse", content, key, value, out)
		}
		if got, ok := vals[key].(string); !ok || got != value {
			t.Fatalf("SetFrontmatter(%q, %q, %q) = %q: key reads back as %#v", content, key, value, out, vals[key])
		}
		_, oldBody, hadFM := fmValues(t, content)
		if !hadFM {
			oldBody = bytes.TrimPrefix(content, []byte("\ufeff"))
		}
		if !bytes.Equal(body, oldBody) {
			t.Fatalf("SetFrontmatter(%q, %q, %q) = %q: body changed", content, key, value, out)
		}
		del, err := markdown.DeleteFrontmatter("f.md", out, key)
		if err != nil {
			t.Fatalf("DeleteFrontmatter(%q, %q): %v", out, key, err)
		}
		if vals, _, ok := fmValues(t, del); !ok || hasKey(vals, key) {
			t.Fatalf("DeleteFrontmatter(%q, %q) = %q", out, key, del)
		}
	})
}
