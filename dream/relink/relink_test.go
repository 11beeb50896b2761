package relink

import (
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/markdown"
)

// TestWikilink: a wikilink pointed at another note keeps its fragment,
// whether it embeds, and the text Obsidian showed (its label, else the
// target as written, a heading after " > "); in a table, or where it was
// written so, its pipe is escaped.
func TestWikilink(t *testing.T) {
	for _, tt := range []struct {
		written, target string
		table           bool
		want            string
	}{
		{"[[old]]", "memory/win", false, "[[memory/win|old]]"},
		{"[[old|shown]]", "win", false, "[[win|shown]]"},
		{"![[old#Heading]]", "win", false, "![[win#Heading|old > Heading]]"},
		{"[[old#^abc]]", "win", false, "[[win#^abc|old > ^abc]]"},
		{"[[old|shown]]", "win", true, `[[win\|shown]]`},
		{`[[old\|shown]]`, "win", false, `[[win\|shown]]`},
	} {
		if got := wikilink(tt.written, tt.target, tt.table); got != tt.want {
			t.Errorf("wikilink(%q, %q, %v) = %q, want %q", tt.written, tt.target, tt.table, got, tt.want)
		}
	}
}

// TestMarkdownLink: a markdown link pointed at another note keeps its
// text and fragment, and names the note by a path from the linking note's
// folder, escaped as a URL path.
func TestMarkdownLink(t *testing.T) {
	for _, tt := range []struct {
		written, dir, to, want string
	}{
		{"[text](old.md)", ".", "memory/win.md", "[text](memory/win.md)"},
		{"[text](../memory/old.md#Sec)", "notes", "memory/win.md", "[text](../memory/win.md#Sec)"},
		{"[text](old.md)", "notes/deep", "memory/win.md", "[text](../../memory/win.md)"},
		{"[a b](old.md)", "memory", "memory/my win.md", "[a b](my%20win.md)"},
		{"not a link", "memory", "memory/win.md", "not a link"},
	} {
		if got := markdownLink(tt.written, tt.dir, tt.to); got != tt.want {
			t.Errorf("markdownLink(%q, %q, %q) = %q, want %q", tt.written, tt.dir, tt.to, got, tt.want)
		}
	}
}

// TestNames: a link names a note by its name or a path ending in it (any
// case), or, a markdown link, by a path from the linking note's folder;
// another name or path does not.
func TestNames(t *testing.T) {
	for _, tt := range []struct {
		src    string
		link   markdown.Link
		target string
		want   bool
	}{
		{"notes/n.md", markdown.Link{Target: "old"}, "memory/old.md", true},
		{"notes/n.md", markdown.Link{Target: "Old"}, "memory/old.md", true},
		{"notes/n.md", markdown.Link{Target: "memory/old"}, "memory/old.md", true},
		{"notes/n.md", markdown.Link{Target: "other"}, "memory/old.md", false},
		{"notes/n.md", markdown.Link{Target: "ld"}, "memory/old.md", false},
		{"notes/n.md", markdown.Link{Target: "../memory/old.md", Markdown: true}, "memory/old.md", true},
		{"notes/n.md", markdown.Link{Target: "old.md", Markdown: true}, "memory/old.md", true},
		{"notes/n.md", markdown.Link{Target: "../memory/other.md", Markdown: true}, "memory/old.md", false},
	} {
		if got := names(tt.src, tt.link, tt.target); got != tt.want {
			t.Errorf("names(%q, %q (markdown %v), %q) = %v, want %v", tt.src, tt.link.Target, tt.link.Markdown, tt.target, got, tt.want)
		}
	}
}

// TestInTable: a link on a line that starts with "|" (in a quote too) is
// in a table; elsewhere it is not.
func TestInTable(t *testing.T) {
	for _, tt := range []struct {
		content string
		want    bool
	}{
		{"| a | [[x]] |", true},
		{"> | a | [[x]] |", true},
		{"text\n  | a | [[x]] |", true},
		{"| a |\ntext [[x]]", false},
		{"text [[x]] | b", false},
	} {
		if got := inTable([]byte(tt.content), strings.Index(tt.content, "[[")); got != tt.want {
			t.Errorf("inTable(%q) = %v, want %v", tt.content, got, tt.want)
		}
	}
}

// TestRenamedBlock: a block id renamed by a merge is the id and six hex
// digits of the path it came from: the same for one path, another for
// another.
func TestRenamedBlock(t *testing.T) {
	a, b := RenamedBlock("abc", "memory/a.md"), RenamedBlock("abc", "memory/b.md")
	if !strings.HasPrefix(a, "abc-") || len(a) != len("abc-")+6 || strings.Trim(a[4:], "0123456789abcdef") != "" {
		t.Errorf("RenamedBlock(abc, memory/a.md) = %q, want abc- and six hex digits", a)
	}
	if a == b || a != RenamedBlock("abc", "memory/a.md") {
		t.Errorf("RenamedBlock: %q for a, %q for b, %q for a again", a, b, RenamedBlock("abc", "memory/a.md"))
	}
}
