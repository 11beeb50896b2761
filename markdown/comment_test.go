package markdown_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/markdown"
)

func TestParseComments(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		links    []string // targets
		tags     []string
		headings []string
		comments []string // "line-endline text"
		spans    []string // "kind line-endline"
	}{
		{name: "inline",
			src:      "a %%[[Hidden]] #hidden%% b [[Shown]] #shown",
			links:    []string{"Shown"},
			tags:     []string{"shown"},
			comments: []string{"1-1 %%[[Hidden]] #hidden%%"},
			spans:    []string{"paragraph 1-1"}},
		{name: "block with a heading, a list and blank lines",
			src:      "# Top\n\n%%\n## Hidden\n\n- [[Hidden]] #hidden\n\n%%\n\nafter [[Shown]]",
			links:    []string{"Shown"},
			headings: []string{"Top"},
			comments: []string{"3-8 %%\n## Hidden\n\n- [[Hidden]] #hidden\n\n%%"},
			spans:    []string{"heading 1-1", "paragraph 10-10"}},
		{name: "across a paragraph",
			src:      "one %%start\n[[Hidden]]\nend%% two [[Shown]]\nthree",
			links:    []string{"Shown"},
			comments: []string{"1-3 %%start\n[[Hidden]]\nend%%"},
			spans:    []string{"paragraph 1-4"}},
		{name: "code wins",
			src:      "`%%` [[A]] `%%`\n\n```\n%%\n```\n[[B]] %%[[C]]%%",
			links:    []string{"A", "B"},
			comments: []string{"6-6 %%[[C]]%%"},
			spans:    []string{"paragraph 1-1", "code 3-5", "paragraph 6-6"}},
		{name: "a comment around code",
			src:      "%%\n```\n%% in code\n```\n%% [[A]]",
			links:    []string{"A"},
			comments: []string{"1-5 %%\n```\n%% in code\n```\n%%"},
			spans:    []string{"paragraph 5-5"}},
		{name: "unclosed is text",
			src:   "50%% off [[A]] #sale",
			links: []string{"A"}, tags: []string{"sale"},
			spans: []string{"paragraph 1-1"}},
		{name: "three delimiters: the last is text",
			src:      "%%a%% b %% [[C]]",
			links:    []string{"C"},
			comments: []string{"1-1 %%a%%"},
			spans:    []string{"paragraph 1-1"}},
		{name: "whole body",
			src:      "---\ntags: [kept]\n---\n%%\n[[Hidden]] #hidden\n%%\n",
			tags:     []string{"kept"},
			comments: []string{"4-6 %%\n[[Hidden]] #hidden\n%%"}},
		{name: "frontmatter is not body",
			src:   "---\nnote: \"%%\"\n---\ntext %%c%% [[A]]",
			links: []string{"A"}, comments: []string{"4-4 %%c%%"},
			spans: []string{"paragraph 4-4"}},
		{name: "byte order mark and CRLF",
			src:      "\xef\xbb\xbf# H\r\n\r\n%%\r\n[[Hidden]]\r\n%%\r\n[[Shown]] ^b1\r\n",
			links:    []string{"Shown"},
			headings: []string{"H"},
			comments: []string{"3-5 %%\r\n[[Hidden]]\r\n%%"},
			spans:    []string{"heading 1-1", "paragraph 6-6"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := markdown.Parse("n.md", []byte(tt.src))
			var links, headings, comments, spans []string
			for _, l := range n.Links {
				links = append(links, l.Target)
			}
			for _, h := range n.Headings {
				headings = append(headings, h.Text)
			}
			for _, c := range n.Comments {
				comments = append(comments, fmt.Sprintf("%d-%d %s", c.Line, c.EndLine, c.Text(n)))
			}
			for _, s := range n.Spans {
				spans = append(spans, fmt.Sprintf("%s %d-%d", s.Kind, s.Line, s.EndLine))
			}
			for _, c := range []struct {
				what      string
				got, want []string
			}{{"links", links, tt.links}, {"tags", n.Tags, tt.tags}, {"headings", headings, tt.headings},
				{"comments", comments, tt.comments}, {"spans", spans, tt.spans}} {
				if !reflect.DeepEqual(c.got, c.want) {
					t.Errorf("%s: got %q, want %q", c.what, c.got, c.want)
				}
			}
			if len(n.Warnings) != 0 {
				t.Errorf("warnings %v", n.Warnings)
			}
		})
	}
}

// TestParseCommentLines checks that the lines of what follows a comment
// are the note's lines.
func TestParseCommentLines(t *testing.T) {
	src := "a\n%%\nb\nc\n%%\n# H\n\ntext [[L]] ^id %%x\ny%% #t"
	n := markdown.Parse("n.md", []byte(src))
	if len(n.Headings) != 1 || n.Headings[0].Line != 6 {
		t.Errorf("headings %+v", n.Headings)
	}
	if len(n.Links) != 1 || n.Links[0].Line != 8 || !reflect.DeepEqual(n.Tags, []string{"t"}) {
		t.Errorf("links %+v tags %q", n.Links, n.Tags)
	}
	last := n.Spans[len(n.Spans)-1]
	if last.Line != 8 || last.EndLine != 9 || !strings.HasPrefix(last.Text(n), "text [[L]]") || !strings.HasSuffix(last.Text(n), "#t") {
		t.Errorf("last span %+v %q", last, last.Text(n))
	}
}

// TestParseInexactFence checks a frontmatter whose fence lines have
// trailing spaces, which goldmark's frontmatter extension does not take.
func TestParseInexactFence(t *testing.T) {
	for _, src := range []string{"--- \ntitle: T\n--- \n# H [[X]]", "---\ntitle: T\n---\t\n# H [[X]]", "--- \ntitle: T\n---\n# H [[X]]"} {
		n := markdown.Parse("n.md", []byte(src))
		if n.Frontmatter == nil || n.Title() != "T" || n.BodyLine != 4 {
			t.Errorf("%q: frontmatter %v, body line %d, warnings %v", src, n.Frontmatter, n.BodyLine, n.Warnings)
		}
		if len(n.Headings) != 1 || n.Headings[0].Line != 4 || len(n.Links) != 1 || n.Links[0].Line != 4 {
			t.Errorf("%q: headings %+v, links %+v", src, n.Headings, n.Links)
		}
		if len(n.Spans) != 1 || n.Spans[0].Start != n.BodyStart || n.Spans[0].Kind != "heading" {
			t.Errorf("%q: spans %+v", src, n.Spans)
		}
	}
}
