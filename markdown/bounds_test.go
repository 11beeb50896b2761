package markdown_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/markdown"
)

// pathological is a shape of markdown that some parser takes more than
// linear time on (most from cmark's pathological tests), written with the
// word "zebra" in it. plain marks the shapes Parse must read as plain text
// at 1 MB: those goldmark (with vaultmem's wikilink and math parsers) is
// super-linear on, and those nested deeper than the limit. The others are
// linear here (some were only through vaultmem's wikilink parser) and must
// parse as markdown.
type pathological struct {
	name  string
	plain bool
	gen   func(size int) string
}

// rep repeats unit to about size bytes.
func rep(unit string, size int) string { return strings.Repeat(unit, max(1, size/len(unit))) }

var pathologicalShapes = []pathological{
	// Containers nested on one line or by indentation.
	{"list-dash-line", true, func(n int) string { return rep("- ", n) + "zebra" }},
	{"list-star-line", true, func(n int) string { return rep("* ", n) + "zebra" }},
	{"list-plus-line", true, func(n int) string { return rep("+ ", n) + "zebra" }},
	{"list-ordered-line", true, func(n int) string { return rep("1. ", n) + "zebra" }},
	{"list-paren-line", true, func(n int) string { return rep("1) ", n) + "zebra" }},
	{"quote-space", true, func(n int) string { return rep("> ", n) + "zebra" }},
	{"quote-nospace", true, func(n int) string { return rep(">", n) + "*zebra*" }},
	{"quote-list-mix", true, func(n int) string { return rep("> - ", n) + "zebra" }},
	{"indented-list", true, func(n int) string {
		var b strings.Builder
		for i := 0; b.Len() < n; i++ {
			b.WriteString(strings.Repeat("  ", i) + "- zebra\n")
		}
		return b.String()
	}},
	{"indented-list-tabs", true, func(n int) string {
		var b strings.Builder
		for i := 0; b.Len() < n; i++ {
			b.WriteString(strings.Repeat("\t", i) + "- zebra\n")
		}
		return b.String()
	}},
	{"list-blank-lines", true, func(n int) string { return "- - - - zebra" + strings.Repeat("\n", n) }},
	{"deep-list-blank-lines", true, func(n int) string { return rep("- ", 60) + "zebra" + strings.Repeat("\n", n) }},
	{"deep-quote-lazy-lines", true, func(n int) string { return rep("> ", 200) + "zebra\n" + rep("b\n", n) }},
	{"lines-of-deep-lists", true, func(n int) string { return rep(rep("- ", 40)+"zebra\n", n) }},
	// Inline markup.
	{"nested-strong-emph", false, func(n int) string { return rep("*a **a ", n/2) + "zebra" + rep(" a** a*", n/2) }},
	{"emph-closers", false, func(n int) string { return rep("zebra_ ", n) }},
	{"emph-openers", false, func(n int) string { return rep("_zebra ", n) }},
	{"mismatched-emph", true, func(n int) string { return rep("*zebra_ ", n) }},
	{"mismatched-emph-lines", true, func(n int) string { return rep("*zebra_\n", n) }},
	{"mismatched-emph-unicode", true, func(n int) string { return rep("*zebra_“ ", n) }},
	{"fence-left-by-its-list", true, func(n int) string { return "- ```\n" + rep("*zebra_ ", n) }},
	{"unclosed-fence", false, func(n int) string { return "```\n" + rep("*zebra_ ", n) }},
	{"emph-rule-of-3", true, func(n int) string { return "a**b" + rep("zebra* ", n) }},
	{"nested-inlines", false, func(n int) string { return rep("*", n/2) + "zebra" + rep("*", n/2) }},
	{"link-closers", false, func(n int) string { return rep("zebra]", n) }},
	{"link-openers", false, func(n int) string { return rep("[zebra", n) }},
	{"link-open-emph-close", false, func(n int) string { return rep("[ zebra_", n) }},
	{"bracket-paren", false, func(n int) string { return rep("[ (](", n) + "zebra" }},
	{"image-brackets", false, func(n int) string { return rep("![[]()", n) + "zebra" }},
	{"nested-brackets", false, func(n int) string { return rep("[", n/2) + "zebra" + rep("]", n/2) }},
	{"nested-links", false, func(n int) string { return rep("[", n/5) + "zebra" + rep("](b)", n*4/5) }},
	{"nested-images", false, func(n int) string { return rep("![", n/6) + "zebra" + rep("](b)", n*4/6) }},
	{"unclosed-link-angle", true, func(n int) string { return rep("[zebra](<b", n) }},
	{"unclosed-link", true, func(n int) string { return rep("[zebra](b", n) }},
	{"unclosed-title-paren", true, func(n int) string { return rep("[zebra](b (\n", n) }},
	{"unclosed-title-quote", true, func(n int) string { return rep("[zebra](b 'x\n", n) }},
	{"link-labels-lines", true, func(n int) string { return rep("[zebra]\n", n) }},
	{"backticks", true, func(n int) string {
		var b strings.Builder
		for i := 1; b.Len() < n; i++ {
			b.WriteString("zebra" + strings.Repeat("`", i))
		}
		return b.String()
	}},
	{"backtick-lines", true, func(n int) string {
		var b strings.Builder
		for i := 1; b.Len() < n; i++ {
			b.WriteString("zebra" + strings.Repeat("`", i) + "\n")
		}
		return b.String()
	}},
	{"unclosed-html-comment", false, func(n int) string { return "</" + rep("<!--", n) + "zebra" }},
	{"unclosed-html-comment-lines", false, func(n int) string { return rep("zebra <!--\n", n) }},
	{"unclosed-pi", false, func(n int) string { return rep("<?", n) + "zebra" }},
	{"unclosed-decl", false, func(n int) string { return rep("<!A ", n) + "zebra" }},
	{"unclosed-cdata", false, func(n int) string { return rep("<![CDATA[", n) + "zebra" }},
	{"unclosed-attribute", false, func(n int) string { return rep("<a b='", n) + "zebra" }},
	{"entities", false, func(n int) string { return rep("&#", n) + "zebra" }},
	{"table", false, func(n int) string {
		row := rep("| zebra ", 3200) + "|\n"
		return row + rep("|-", 400) + "|\n" + rep(row, n)
	}},
	{"many-references", true, func(n int) string {
		var b strings.Builder
		for i := 0; b.Len() < n*3/4; i++ {
			fmt.Fprintf(&b, "[%d]: zebra\n", i)
		}
		return b.String() + rep("[0] ", n/4)
	}},
	{"bad-references", true, func(n int) string { return rep("[zebra]: <b\n", n) }},
	// vaultmem's own parsers: wikilinks, embeds and math.
	{"wikilink-openers", false, func(n int) string { return rep("[[zebra", n) }},
	{"wikilink-empty-targets", false, func(n int) string { return rep("[[|zebra", n) + "]]" }},
	{"wikilink-empty-labels", false, func(n int) string { return rep("[[zebra", n) + "|]]" }},
	{"wikilink-blank-targets", false, func(n int) string { return rep("[[ |", n) + "zebra]]" }},
	{"embed-openers", false, func(n int) string { return rep("![[zebra", n) }},
	{"bangs", false, func(n int) string { return rep("zebra!", n) }},
	{"nested-wikilinks", false, func(n int) string { return rep("[[", n/2) + "zebra" + rep("]]", n/2) }},
	{"math-openers", false, func(n int) string { return rep("$$zebra ", n) }},
	{"comments", false, func(n int) string { return rep("zebra %%c%% ", n) }},
	{"unclosed-comment-lines", false, func(n int) string { return "%%\n" + rep("zebra\n", n) }},
	{"hashes", false, func(n int) string { return rep("#zebra ", n) }},
	{"frontmatter-many-keys", false, func(n int) string {
		var b strings.Builder
		b.WriteString("---\n")
		for i := 0; b.Len() < n; i++ {
			fmt.Fprintf(&b, "k%d: zebra\n", i)
		}
		return b.String() + "---\nzebra"
	}},
	{"frontmatter-deep-flow", false, func(n int) string {
		var b strings.Builder
		b.WriteString("---\na: " + strings.Repeat("[", 9000) + strings.Repeat("]", 9000) + "\n") // yaml.v3 refuses 10,000
		for i := 0; b.Len() < n; i++ {
			fmt.Fprintf(&b, "k%d: {a: [b, {c: d}]}\n", i)
		}
		return b.String() + "---\nzebra"
	}},
	{"frontmatter-deep-block", false, func(n int) string {
		var b strings.Builder
		b.WriteString("---\n")
		for i := 0; b.Len() < n && i < 5000; i++ {
			b.WriteString(strings.Repeat(" ", i) + "k:\n")
		}
		return b.String() + "---\nzebra"
	}},
	{"frontmatter-aliases", false, func(n int) string {
		var b strings.Builder
		b.WriteString("---\na: &a [zebra]\n")
		for i := 0; b.Len() < n; i++ {
			fmt.Fprintf(&b, "k%d: [*a, *a, *a, *a]\n", i)
		}
		return b.String() + "---\nzebra"
	}},
	{"prose", false, func(n int) string { return rep("some zebra words [[link]] #tag\n\n", n) }},
}

// spanText joins the text of a note's spans.
func spanText(n *markdown.Note) string {
	var b strings.Builder
	for _, s := range n.Spans {
		b.WriteString(s.Text(n))
		b.WriteByte('\n')
	}
	return b.String()
}

func TestParsePathological(t *testing.T) {
	for _, s := range pathologicalShapes {
		t.Run(s.name, func(t *testing.T) {
			size := 1 << 20
			if !s.plain {
				size = 256 << 10 // linear: a smaller note keeps the test quick
			}
			own := strings.HasPrefix(s.name, "frontmatter-") // the shape has its own
			src := []byte(s.gen(size))
			if !own {
				src = append([]byte("---\ntags: [kept]\n---\n"), src...)
			}
			n := markdown.Parse("p.md", src)
			var plain *markdown.PlainTextError
			var pe *markdown.ParseError
			read := false
			for _, w := range n.Warnings {
				if errors.As(w, &plain) {
					read = errors.As(w, &pe)
				}
			}
			switch {
			case s.plain && !read:
				t.Fatalf("not read as plain text: warnings %v", n.Warnings)
			case !s.plain && read:
				t.Fatalf("read as plain text: %v", pe)
			}
			if s.plain {
				if pe.Path != "p.md" || pe.Line < 4 || !strings.HasSuffix(pe.Error(), "; read as plain text") {
					t.Errorf("warning %q does not name the file, the line and what was done", pe)
				}
				if len(n.Headings)+len(n.Blocks)+len(n.Links) != 0 || len(n.Tags) != 1 {
					t.Errorf("plain text gave headings %v, blocks %v, links %v, tags %v", n.Headings, n.Blocks, n.Links, n.Tags)
				}
				for _, sp := range n.Spans {
					if sp.Kind != "paragraph" || sp.Start < n.BodyStart || sp.End > len(src) || sp.Line > sp.EndLine {
						t.Fatalf("span %+v", sp)
					}
				}
			}
			if n.Frontmatter == nil || !own && !n.HasTag("kept") {
				t.Errorf("frontmatter not read: %v", n.Warnings)
			}
			if !strings.Contains(spanText(n), "zebra") {
				t.Errorf("the note's words are not in its spans")
			}
		})
	}
}

// TestParsePlainTextSpans checks the paragraphs of a note read as plain
// text, and that its comments are still left out.
func TestParsePlainTextSpans(t *testing.T) {
	src := "---\na: 1\n---\nfirst para\nsame para\n\n\n  second %%hidden [[L]] #t%% para  \n\t\n" + rep("- ", 80) + "x\n"
	n := markdown.Parse("p.md", []byte(src))
	var got []string
	for _, s := range n.Spans {
		got = append(got, fmt.Sprintf("%s %d-%d %q", s.Kind, s.Line, s.EndLine, s.Text(n)))
	}
	want := []string{
		`paragraph 4-5 "first para\nsame para"`,
		`paragraph 8-8 "second %%hidden [[L]] #t%% para"`,
		fmt.Sprintf("paragraph 10-10 %q", rep("- ", 80)+"x"),
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("spans:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(n.Comments) != 1 || n.Comments[0].Line != 8 || n.Comments[0].Text(n) != "%%hidden [[L]] #t%%" {
		t.Errorf("comments %+v", n.Comments)
	}
	if len(n.Warnings) != 1 || n.Warnings[0].Error() != "p.md:10: nesting deeper than 32 levels; read as plain text" {
		t.Errorf("warnings %v", n.Warnings)
	}
}

// TestParseNestingLimit pins the nesting limit: 32 levels are markdown, 33
// are plain text.
func TestParseNestingLimit(t *testing.T) {
	for depth, plain := range map[int]bool{32: false, 33: true} {
		for _, unit := range []string{"- ", "> ", "1. ", "> - "} {
			src := rep(unit, depth*len(unit)) + "[[x]]"
			if unit == "> - " {
				src = rep(unit, depth/2*len(unit)) + "[[x]]"
				if depth%2 == 1 {
					src = "> " + src
				}
			}
			n := markdown.Parse("n.md", []byte(src))
			if got := len(n.Warnings) == 1; got != plain {
				t.Errorf("%d levels of %q: read as plain text %v (%v)", depth, unit, got, n.Warnings)
			}
			if !plain && len(n.Links) != 1 {
				t.Errorf("%d levels of %q: links %v", depth, unit, n.Links)
			}
		}
	}
}

// BenchmarkParsePathological parses each pathological shape at 1 MB:
// go test -run '^$' -bench ParsePathological -benchtime 3x ./vault
func BenchmarkParsePathological(b *testing.B) {
	for _, s := range pathologicalShapes {
		src := []byte(s.gen(1 << 20))
		b.Run(s.name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				markdown.Parse("p.md", src)
			}
		})
	}
}
