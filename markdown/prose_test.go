package markdown_test

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/vaultmem/vaultmem/markdown"
)

// prose lists a note's prose as "kind:text", a heading's kind with its
// level ("h2").
func prose(n *markdown.Note) []string {
	var out []string
	for _, s := range n.Prose() {
		kind := "p"
		if s.Kind == "heading" {
			kind = "h" + string(rune('0'+s.Level))
		}
		out = append(out, kind+":"+string(n.Content[s.Start:s.End]))
	}
	return out
}

func TestProse(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		want      []string
	}{
		{"paragraph", "Ship it tomorrow.\n", []string{"p:Ship it tomorrow."}},
		{"frontmatter", "---\nplan: tomorrow\n---\nShip it.\n", []string{"p:Ship it."}},
		{"frontmatter Obsidian allows", "--- \nplan: tomorrow\n---\nShip it.\n", []string{"p:Ship it."}},
		{"byte order mark", "\ufeffShip it.\n", []string{"p:Ship it."}},
		{"lines", "one\ntwo\n", []string{"p:one", "p:two"}},
		{"heading", "# Title here\n\nText\n===\n", []string{"h1:Title here", "h1:Text"}},
		{"list and quote", "- a item\n  > quoted\n", []string{"p:a item", "p:quoted"}},
		{"callout", "> [!note] Title\n> body\n", []string{"p:[!note] Title", "p:body"}},
		{"table", "| a | b |\n|---|---|\n", []string{"p:| a | b |", "p:|---|---|"}},
		{"emphasis", "a **b** c\n", []string{"p:a ", "p:b", "p: c"}},
		{"code spans", "a `x` b ``y ` z`` c\n", []string{"p:a ", "p: b ", "p: c"}},
		{"escaped backtick", "a \\` b `code` c\n", []string{"p:a \\` b ", "p: c"}},
		{"fenced code in a list", "- a\n\n  ```\n  code\n  ```\n", []string{"p:a"}},
		{"fenced code in a quote", "> ```\n> code\n> ```\n", nil},
		{"indented code", "    code\n", nil},
		{"bare URL", "see https://x.org/a_b?c=d and www.y.org/z, mailto:a@b.c end\n", []string{"p:see ", "p: and ", "p: ", "p: end"}},
		{"autolink", "a <https://x.org/t> b\n", []string{"p:a ", "p: b"}},
		{"markdown link", "a [text](https://x.org/t \"title\") b [t2](n.md) c\n", []string{"p:a ", "p: b ", "p: c"}},
		{"reference link", "a [text][r] b\n\n[r]: https://x.org\n", []string{"p:a ", "p: b"}},
		{"image", "a ![alt](i.png) b\n", []string{"p:a ", "p: b"}},
		{"wikilinks", "a [[Note x]] b [[n|label]] c ![[img.png]] d\n", []string{"p:a ", "p: b ", "p: c ", "p: d"}},
		{"tags", "#start a #tag/sub b #123 c#no\n", []string{"p: a ", "p: b #123 c#no"}},
		{"inline HTML", "a <b>bold</b> c<br>d <span title=\"x\">e</span> f\n", []string{"p:a ", "p: c", "p:d ", "p: f"}},
		{"self-closing and unclosed HTML", "a <x/> b <i>c\n", []string{"p:a ", "p: b "}},
		{"HTML block", "<div>\ntext\n</div>\n\nafter\n", []string{"p:after"}},
		{"HTML comment", "a <!-- c --> b\n", []string{"p:a ", "p: b"}},
		{"comments", "a %%c%% b\n%%\nhidden\n%%\nc\n", []string{"p:a ", "p: b", "p:c"}},
		{"dollar math", "a $x+y$ b $5 and $10 c\n", []string{"p:a ", "p: b $5 and $10 c"}},
		{"escaped dollar", "a \\$x$ b\n", []string{"p:a \\$x$ b"}},
		{"double dollar math", "a $$x$$ b\n\n$$\nblock\n$$\n", []string{"p:a ", "p: b"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			n := markdown.Parse("n.md", []byte(tt.src))
			if got := prose(n); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%q:\n got %q\nwant %q", tt.src, got, tt.want)
			}
			checkProse(t, n)
		})
	}
}

// TestProsePlainText: a note read as plain text has no prose.
func TestProsePlainText(t *testing.T) {
	n := markdown.Parse("n.md", bytes.Repeat([]byte(">"), 40))
	if len(n.Warnings) == 0 {
		t.Fatal("the note was not read as plain text")
	}
	if got := n.Prose(); got != nil {
		t.Errorf("prose %+v", got)
	}
}

// checkProse checks what holds for the prose of every note: in the body,
// in order, apart, on the lines it names, outside comments, links, code,
// math and HTML.
func checkProse(t *testing.T, n *markdown.Note) {
	t.Helper()
	lineOf := func(off int) int { return bytes.Count(n.Content[:off], []byte("\n")) + 1 }
	prev := n.BodyStart
	for _, s := range n.Prose() {
		if s.Start < prev || s.End <= s.Start || s.End > len(n.Content) {
			t.Fatalf("prose %+v after %d in %d bytes", s, prev, len(n.Content))
		}
		if s.Line != lineOf(s.Start) || s.EndLine != lineOf(s.End-1) {
			t.Fatalf("prose %+v on lines %d-%d", s, lineOf(s.Start), lineOf(s.End-1))
		}
		if s.Kind != "paragraph" && s.Kind != "heading" {
			t.Fatalf("prose %+v of kind %q", s, s.Kind)
		}
		prev = s.End
		overlaps := func(start, end int) bool { return s.Start < end && start < s.End }
		for _, c := range n.Comments {
			if overlaps(c.Start, c.End) {
				t.Fatalf("prose %+v in comment %+v", s, c)
			}
		}
		for _, l := range n.Links {
			if !l.Frontmatter && l.End > 0 && overlaps(l.Start, l.End) {
				t.Fatalf("prose %+v in link %+v", s, l)
			}
		}
		for _, sp := range n.Spans {
			if (sp.Kind == "code" || sp.Kind == "math" || sp.Kind == "html") && overlaps(sp.Start, sp.End) {
				t.Fatalf("prose %+v in %s span %+v", s, sp.Kind, sp)
			}
		}
	}
}

// FuzzProse: prose never panics, and holds checkProse's rules.
func FuzzProse(f *testing.F) {
	addFixtureSeeds(f)
	for _, s := range []string{"a `b` c", "``a ` b``", "- x\n\n  ```\n  y\n  ```", "> [!note]\n> ~~~\n> x\n> ~~~",
		"a %%b%% c <!-- d --> e", "$a$ $$b$$ $5 $6", "<b>x</b> <br> y", "[[a|b]] [c](d) <https://e> www.f.g #h",
		"---\na: b\n---\n# h\n\n| x | y |", "\ufeff%%a%%b"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		checkProse(t, markdown.Parse("f.md", src))
	})
}
