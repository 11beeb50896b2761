package graph_test

import (
	"testing"

	"github.com/vaultmem/vaultmem/graph"
	"github.com/vaultmem/vaultmem/vault"
)

func notes(files map[string]string) []string {
	var ns []string
	for p := range files {
		ns = append(ns, p)
	}
	return ns
}

func TestResolve(t *testing.T) {
	g := graph.New(notes(map[string]string{
		"Note.md":               "",
		"a/Dup.md":              "",
		"b/Dup.md":              "",
		"b/deeper/x/Dup.md":     "",
		"a/b/Deep.md":           "",
		"c/Deep.md":             "",
		"Mixed Case Name.md":    "",
		"sub/Note Name.md":      "",
		"v1.2 release.md":       "",
		"aliased.md":            "---\naliases: [Nickname]\n---\n",
		"folder/page.md":        "",
		"folder/sub/sibling.md": "",
	}), []string{"assets/image.png", "doc.pdf"})
	tests := []struct {
		source string
		link   vault.Link
		want   string
	}{
		{"x.md", vault.Link{Target: "Note"}, "Note.md"},
		{"x.md", vault.Link{Target: "note"}, "Note.md"},
		{"x.md", vault.Link{Target: "NOTE.md"}, "Note.md"},
		{"x.md", vault.Link{Target: "mixed case name"}, "Mixed Case Name.md"},
		{"x.md", vault.Link{Target: "v1.2 release"}, "v1.2 release.md"},
		{"x.md", vault.Link{Target: "image.png"}, "assets/image.png"},
		{"x.md", vault.Link{Target: "assets/image.png"}, "assets/image.png"},
		{"x.md", vault.Link{Target: "Doc.PDF"}, "doc.pdf"},
		{"x.md", vault.Link{Target: "image"}, ""},
		{"x.md", vault.Link{Target: "Nickname"}, ""}, // aliases do not resolve
		{"x.md", vault.Link{Target: "Missing"}, ""},
		{"here.md", vault.Link{Heading: "H"}, "here.md"},
		// Same name: the linking note's folder wins, then the shortest path.
		{"a/x.md", vault.Link{Target: "Dup"}, "a/Dup.md"},
		{"b/x.md", vault.Link{Target: "Dup"}, "b/Dup.md"},
		{"b/deeper/x/y.md", vault.Link{Target: "Dup"}, "b/deeper/x/Dup.md"},
		{"z/x.md", vault.Link{Target: "Dup"}, "a/Dup.md"},
		// Path-qualified links match by path suffix.
		{"x.md", vault.Link{Target: "b/Dup"}, "b/Dup.md"},
		{"x.md", vault.Link{Target: "x/Dup"}, "b/deeper/x/Dup.md"},
		{"x.md", vault.Link{Target: "b/Deep"}, "a/b/Deep.md"},
		{"x.md", vault.Link{Target: "c/Deep.md"}, "c/Deep.md"},
		{"x.md", vault.Link{Target: "q/Dup"}, ""},
		{"x.md", vault.Link{Target: "/c/Deep"}, "c/Deep.md"},
		// Markdown links: relative to the linking note, else by name.
		{"x.md", vault.Link{Target: "Note Name.md", Markdown: true}, "sub/Note Name.md"},
		{"folder/page.md", vault.Link{Target: "sub/sibling.md", Markdown: true}, "folder/sub/sibling.md"},
		{"folder/sub/sibling.md", vault.Link{Target: "../page.md", Markdown: true}, "folder/page.md"},
		{"folder/sub/sibling.md", vault.Link{Target: "../../Note.md", Markdown: true}, "Note.md"},
		{"x.md", vault.Link{Target: "../../etc/passwd", Markdown: true}, ""},
	}
	for _, tt := range tests {
		got, ok := g.Resolve(tt.source, tt.link)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("Resolve(%q, %+v) = %q, %v; want %q", tt.source, tt.link, got, ok, tt.want)
		}
	}
}

func TestLookup(t *testing.T) {
	g := graph.New([]string{"a.md", "memory/f.md"}, []string{"pic.png"})
	if p, ok := g.Lookup("MEMORY/F"); !ok || p != "memory/f.md" {
		t.Errorf("Lookup path: %q %v", p, ok)
	}
	if p, ok := g.Lookup("f"); !ok || p != "memory/f.md" {
		t.Errorf("Lookup name: %q %v", p, ok)
	}
	if _, ok := g.Lookup("pic.png"); ok {
		t.Errorf("Lookup found an attachment as a note")
	}
}

func TestResolveRelativeWikilink(t *testing.T) {
	g := graph.New(notes(map[string]string{"Target.md": "", "sub/Deep.md": "", "sub/x/Target.md": ""}), nil)
	for _, tt := range []struct{ source, target, want string }{
		{"sub/Deep.md", "../Target", "Target.md"},
		{"sub/Deep.md", "./x/Target", "sub/x/Target.md"},
		{"sub/x/Target.md", "../Deep", "sub/Deep.md"},
	} {
		if got, _ := g.Resolve(tt.source, vault.Link{Target: tt.target}); got != tt.want {
			t.Errorf("Resolve(%q, %q) = %q, want %q", tt.source, tt.target, got, tt.want)
		}
	}
}
