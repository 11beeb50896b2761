package markdown_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/markdown"
)

// checkSpans checks what holds for every parsed note: spans and comments
// in order, inside the body, apart from each other, on the lines they
// name.
func checkSpans(t *testing.T, n *markdown.Note) {
	t.Helper()
	lineOf := func(off int) int { return bytes.Count(n.Content[:off], []byte("\n")) + 1 }
	for _, list := range [][]markdown.Span{n.Spans, n.Comments} {
		prev := n.BodyStart
		for _, s := range list {
			if s.Start < prev || s.End <= s.Start || s.End > len(n.Content) {
				t.Fatalf("span %+v after %d in %d bytes", s, prev, len(n.Content))
			}
			if s.Line != lineOf(s.Start) || s.EndLine != lineOf(s.End-1) {
				t.Fatalf("span %+v on lines %d-%d", s, lineOf(s.Start), lineOf(s.End-1))
			}
			prev = s.End
		}
	}
	for _, c := range n.Comments {
		if !bytes.HasPrefix(n.Content[c.Start:], []byte("%%")) || !bytes.HasSuffix(n.Content[:c.End], []byte("%%")) || c.End-c.Start < 4 {
			t.Fatalf("comment %+v is %q", c, n.Content[c.Start:c.End])
		}
		for _, s := range n.Spans {
			if s.Start >= c.Start && s.End <= c.End {
				t.Fatalf("span %+v inside comment %+v", s, c)
			}
		}
	}
}

// FuzzParse parses src as it is, and after 33 levels of list markers that
// make Parse read it as plain text. Either way the spans must be sound; as
// plain text, every word of the body that is not in a comment must be in a
// span, and no heading, link or tag may come from the body.
func FuzzParse(f *testing.F) {
	addFixtureSeeds(f)
	for _, s := range []string{"a %%b%% c", "%%\n# h\n%%\nx", "`%%`%%x%%", "- a\n\n  %%b\n  c%%", "*a_ *a_ [a](b 'c\n" + strings.Repeat("> ", 40), "\xef\xbb\xbf---\na: 1\n---\n%%x"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		n := markdown.Parse("f.md", src)
		checkSpans(t, n)

		deep := append([]byte(strings.Repeat("- ", 33)+"x\n\n"), src...)
		n = markdown.Parse("f.md", deep)
		checkSpans(t, n)
		var plain *markdown.PlainTextError
		found := false
		for _, w := range n.Warnings {
			found = found || errors.As(w, &plain)
		}
		if !found {
			t.Fatalf("33 levels of lists not read as plain text: %v", n.Warnings)
		}
		if len(n.Headings)+len(n.Blocks) != 0 {
			t.Fatalf("plain text gave headings %v, blocks %v", n.Headings, n.Blocks)
		}
		for _, l := range n.Links {
			if !l.Frontmatter {
				t.Fatalf("plain text gave link %+v", l)
			}
		}
		covered := make([]bool, len(deep))
		for _, list := range [][]markdown.Span{n.Spans, n.Comments} {
			for _, s := range list {
				for i := s.Start; i < s.End; i++ {
					covered[i] = true
				}
			}
		}
		for i := n.BodyStart; i < len(deep); i++ {
			if c := deep[i]; !covered[i] && c != ' ' && c != '\t' && c != '\n' && c != '\r' {
				t.Fatalf("byte %d (%q) of the body is in no span", i, c)
			}
		}
	})
}
