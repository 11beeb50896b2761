package markdown_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/markdown"
)

func TestParseLinks(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []markdown.Link
	}{
		{"plain", "see [[Note]]", []markdown.Link{{Target: "Note", Line: 1}}},
		{"label", "[[Note|the label]]", []markdown.Link{{Target: "Note", Label: "the label", Line: 1}}},
		{"heading", "[[Note#Heading]]", []markdown.Link{{Target: "Note", Heading: "Heading", Line: 1}}},
		{"nested heading splits at first #", "[[Note#H1#H2]]", []markdown.Link{{Target: "Note", Heading: "H1#H2", Line: 1}}},
		{"block", "[[Note#^abc-1]]", []markdown.Link{{Target: "Note", Block: "abc-1", Line: 1}}},
		{"same note heading", "[[#Heading]]", []markdown.Link{{Heading: "Heading", Line: 1}}},
		{"same note block", "[[#^b1]]", []markdown.Link{{Block: "b1", Line: 1}}},
		{"embed", "![[Note]]", []markdown.Link{{Target: "Note", Embed: true, Line: 1}}},
		{"embed image", "![[image.png]]", []markdown.Link{{Target: "image.png", Embed: true, Line: 1}}},
		{"folder", "[[folder/Note]]", []markdown.Link{{Target: "folder/Note", Line: 1}}},
		{"with extension", "[[Note.md]]", []markdown.Link{{Target: "Note.md", Line: 1}}},
		{"heading and label", "[[Note#H|lab]]", []markdown.Link{{Target: "Note", Heading: "H", Label: "lab", Line: 1}}},
		{"spaces trimmed", "[[ Note ]]", []markdown.Link{{Target: "Note", Line: 1}}},
		{"markdown", "[text](Note%20Name.md)", []markdown.Link{{Target: "Note Name.md", Label: "text", Markdown: true, Line: 1}}},
		{"markdown heading", "[t](sub/Note.md#My%20Heading)", []markdown.Link{{Target: "sub/Note.md", Heading: "My Heading", Label: "t", Markdown: true, Line: 1}}},
		{"markdown angle", "[t](<Note Name.md>)", []markdown.Link{{Target: "Note Name.md", Label: "t", Markdown: true, Line: 1}}},
		{"markdown same note", "[t](#Heading)", []markdown.Link{{Heading: "Heading", Label: "t", Markdown: true, Line: 1}}},
		{"markdown image", "![alt](pic.png)", []markdown.Link{{Target: "pic.png", Label: "alt", Embed: true, Markdown: true, Line: 1}}},
		{"external is not a link", "[x](https://example.com/a.md) <https://x.org> mailto:[m](mailto:a@b.c) [o](obsidian://open?x=1) [p](//host/x)", nil},
		{"table escaped pipe", "| a | b |\n|---|---|\n| [[A\\|label]] | x |", []markdown.Link{{Target: "A", Label: "label", Line: 3}}},
		{"line numbers", "one\n\ntwo [[A]]\nthree [[B]]", []markdown.Link{{Target: "A", Line: 3}, {Target: "B", Line: 4}}},
		{"code span", "`[[A]]` [[B]]", []markdown.Link{{Target: "B", Line: 1}}},
		{"fenced code", "```\n[[A]]\n```\n[[B]]", []markdown.Link{{Target: "B", Line: 4}}},
		{"tilde fence", "~~~md\n[[A]]\n~~~", nil},
		{"indented code", "para\n\n    [[A]]\n", nil},
		{"math block", "$$\nx = [[A]]\n$$\n[[B]]", []markdown.Link{{Target: "B", Line: 4}}},
		{"math one line", "$$ [[A]] $$\n\n[[B]]", []markdown.Link{{Target: "B", Line: 3}}},
		{"inline math", "text $$[[A]]$$ and [[B]]", []markdown.Link{{Target: "B", Line: 1}}},
		{"math interrupts paragraph", "text\n$$\n[[A]]\n$$", nil},
		{"html block", "<div>\n[[A]]\n</div>\n\n[[B]]", []markdown.Link{{Target: "B", Line: 5}}},
		{"escaped", `\[[A]] [[B]]`, []markdown.Link{{Target: "B", Line: 1}}},
		{"empty", "[[]] [[|x]]", nil},
		{"unclosed", "[[A", nil},
		{"list item", "- [[A]]\n  - [[B]]", []markdown.Link{{Target: "A", Line: 1}, {Target: "B", Line: 2}}},
		{"quote", "> [[A]]", []markdown.Link{{Target: "A", Line: 1}}},
		{"heading line", "# About [[A]]", []markdown.Link{{Target: "A", Line: 1}}},
		{"frontmatter link", "---\nrelated: \"[[X]]\"\nlist:\n  - \"[[Y|why]]\"\n---\n[[Z]]", []markdown.Link{
			{Target: "X", Frontmatter: true, Field: "related", Line: 2}, {Target: "Y", Label: "why", Frontmatter: true, Field: "list", Line: 4}, {Target: "Z", Line: 6}}},
		{"unquoted frontmatter brackets are a YAML list, not a link", "---\nrelated: [[X]]\n---\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := markdown.Parse("note.md", []byte(tt.src))
			for i := range n.Links { // offsets: see TestLinkOffsets
				n.Links[i].Start, n.Links[i].End = 0, 0
			}
			if !reflect.DeepEqual(n.Links, tt.want) {
				t.Errorf("links of %q\n got %+v\nwant %+v", tt.src, n.Links, tt.want)
			}
		})
	}
}

func TestParseTags(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{"#tag and #nested/tag", []string{"tag", "nested/tag"}},
		{"#1984 is not a tag but #y1984 is", []string{"y1984"}},
		{"# Heading\n\n## Sub #intitle", []string{"intitle"}},
		{"`#code` and\n```\n#fenced\n```", nil},
		{"https://example.com/page#frag and a#b", nil},
		{"#Tag #tag #TAG", []string{"Tag"}},
		{"---\ntags: [alpha, \"#beta\"]\n---\n#gamma", []string{"alpha", "beta", "gamma"}},
		{"---\ntags: one, two\n---\n", []string{"one", "two"}},
		{"---\ntags: single\n---\n", []string{"single"}},
		{"---\ntag: old-style\n---\n", []string{"old-style"}},
		{"#日本語 #café", []string{"日本語", "café"}},
		{"#under_score #dash-ed #trail/", []string{"under_score", "dash-ed", "trail"}},
		{"[[Note#notatag]] and [#label](x.md)", nil},
		{`\#escaped`, nil},
		{"$$ #math $$", nil},
	}
	for _, tt := range tests {
		n := markdown.Parse("n.md", []byte(tt.src))
		if !reflect.DeepEqual(n.Tags, tt.want) {
			t.Errorf("tags of %q: got %q, want %q", tt.src, n.Tags, tt.want)
		}
	}
}

func TestParseHeadingsAndBlocks(t *testing.T) {
	src := "---\ntitle: T\n---\n# One\n\ntext ^blk1\n\nSetext\n------\n\n- item ^item-2\n\n```\n# not a heading ^no\n```\n### Three ###\n"
	n := markdown.Parse("n.md", []byte(src))
	wantH := []markdown.Heading{{Level: 1, Text: "One", Line: 4}, {Level: 2, Text: "Setext", Line: 8}, {Level: 3, Text: "Three", Line: 16}}
	if !reflect.DeepEqual(n.Headings, wantH) {
		t.Errorf("headings: got %+v, want %+v", n.Headings, wantH)
	}
	wantB := []markdown.Block{{ID: "blk1", Line: 6}, {ID: "item-2", Line: 11}}
	if !reflect.DeepEqual(n.Blocks, wantB) {
		t.Errorf("blocks: got %+v, want %+v", n.Blocks, wantB)
	}
	if n.BodyLine != 4 || string(n.Body()[:5]) != "# One" {
		t.Errorf("body starts at line %d with %q", n.BodyLine, n.Body()[:5])
	}
}

func TestParseFrontmatter(t *testing.T) {
	src := "---\nname: pnpm\ndescription: User prefers pnpm\ntype: Feedback\naliases: [pn, \"p n\"]\n---\nbody"
	n := markdown.Parse("memory/pnpm.md", []byte(src))
	if len(n.Warnings) != 0 {
		t.Fatalf("warnings: %v", n.Warnings)
	}
	if got := n.Type(); got != "feedback" {
		t.Errorf("kind: got %q", got)
	}
	if got := n.Title(); got != "pnpm" {
		t.Errorf("title: got %q", got)
	}
	if !reflect.DeepEqual(n.Aliases, []string{"pn", "p n"}) {
		t.Errorf("aliases: got %q", n.Aliases)
	}
	if got := n.Frontmatter.Keys(); !reflect.DeepEqual(got, []string{"name", "description", "type", "aliases"}) {
		t.Errorf("keys: got %q", got)
	}
}

func TestParseBadFrontmatter(t *testing.T) {
	tests := []struct {
		name string
		src  string
		line int
	}{
		{"unclosed flow", "---\na: 1\nb: [x\nc: 2\n---\n[[Link]] #tag", 3},
		{"tab indent", "---\na: 1\n\tb: 2\n---\n[[Link]] #tag", 3},
		{"not a mapping", "---\n- a\n- b\n---\n[[Link]] #tag", 2},
		{"unknown anchor", "---\na: *x\n---\n[[Link]] #tag", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := markdown.Parse("bad.md", []byte(tt.src))
			if n.Frontmatter != nil {
				t.Errorf("frontmatter should be nil")
			}
			if len(n.Warnings) != 1 {
				t.Fatalf("want one warning, got %v", n.Warnings)
			}
			var pe *markdown.ParseError
			if !errors.As(n.Warnings[0], &pe) || pe.Path != "bad.md" {
				t.Fatalf("warning %v is not a ParseError naming the file", n.Warnings[0])
			}
			if tt.line != 0 && pe.Line != tt.line {
				t.Errorf("line: got %d, want %d (%v)", pe.Line, tt.line, pe)
			}
			if pe.Line < 2 || !strings.Contains(pe.Error(), "bad.md:") {
				t.Errorf("error %q does not name file and line", pe)
			}
			if len(n.Links) != 1 || n.Links[0].Target != "Link" || len(n.Tags) != 1 {
				t.Errorf("body not read: links %v tags %v", n.Links, n.Tags)
			}
		})
	}
}

func TestParseUnclosedFenceIsBody(t *testing.T) {
	n := markdown.Parse("n.md", []byte("---\nnot: frontmatter\n[[A]]"))
	if n.Frontmatter != nil || len(n.Warnings) != 0 || n.BodyStart != 0 {
		t.Errorf("unclosed fence read as frontmatter: %+v", n)
	}
	if len(n.Links) != 1 {
		t.Errorf("links: %v", n.Links)
	}
}

func TestParseBOMAndCRLF(t *testing.T) {
	src := "\xef\xbb\xbf---\r\ntags: [a]\r\n---\r\n# H\r\n\r\n[[X]] #b ^id1\r\n"
	n := markdown.Parse("n.md", []byte(src))
	if n.Frontmatter == nil {
		t.Fatalf("frontmatter not read: %v", n.Warnings)
	}
	if !reflect.DeepEqual(n.Tags, []string{"a", "b"}) {
		t.Errorf("tags %q", n.Tags)
	}
	if len(n.Links) != 1 || n.Links[0].Line != 6 {
		t.Errorf("links %+v", n.Links)
	}
	if len(n.Blocks) != 1 || n.Blocks[0].ID != "id1" {
		t.Errorf("blocks %+v", n.Blocks)
	}
	if len(n.Headings) != 1 || n.Headings[0].Text != "H" || n.Headings[0].Line != 4 {
		t.Errorf("headings %+v", n.Headings)
	}
}

func TestParseSpans(t *testing.T) {
	src := "\xef\xbb\xbf---\na: 1\n---\n# H\n\npara one\nline two\n\n- a\n- b\n\n```go\ncode\n```\n\n$$\nx\n$$\n\n---\n\n> quote\n"
	n := markdown.Parse("n.md", []byte(src))
	var got []string
	for _, s := range n.Spans {
		got = append(got, fmt.Sprintf("%s%d %d-%d %q", s.Kind, s.Level, s.Line, s.EndLine, s.Text(n)))
	}
	want := []string{
		`heading1 4-4 "# H"`,
		`paragraph0 6-7 "para one\nline two"`,
		`list0 9-10 "- a\n- b"`,
		"code0 12-14 \"```go\\ncode\\n```\"",
		`math0 16-18 "$$\nx\n$$"`,
		`rule0 20-20 "---"`,
		`quote0 22-22 "> quote"`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("spans:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestLinkOffsets: every link knows where it stands in the note, so that
// Dream can rewrite it in place.
func TestLinkOffsets(t *testing.T) {
	src := "---\nrelated: \"[[Fm Link]]\"\n---\n%% [[Hidden]] %%\nSee [[Note|the note]] and ![[img.png]], [md](Other%20Note.md#H) and `[[code]]`.\n"
	n := markdown.Parse("a.md", []byte(src))
	want := map[string]string{
		"Fm Link":       "[[Fm Link]]",
		"Note":          "[[Note|the note]]",
		"img.png":       "![[img.png]]",
		"Other Note.md": "[md](Other%20Note.md#H)",
	}
	if len(n.Links) != len(want) {
		t.Fatalf("links %+v", n.Links)
	}
	for _, l := range n.Links {
		if got := src[l.Start:l.End]; got != want[l.Target] {
			t.Errorf("%s at %d-%d is %q, want %q", l.Target, l.Start, l.End, got, want[l.Target])
		}
	}
}
