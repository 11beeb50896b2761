package graph_test

import (
	"math/rand/v2"
	"testing"

	"github.com/vaultmem/vaultmem/graph"
	"github.com/vaultmem/vaultmem/markdown"
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
		link   markdown.Link
		want   string
	}{
		{"x.md", markdown.Link{Target: "Note"}, "Note.md"},
		{"x.md", markdown.Link{Target: "note"}, "Note.md"},
		{"x.md", markdown.Link{Target: "NOTE.md"}, "Note.md"},
		{"x.md", markdown.Link{Target: "mixed case name"}, "Mixed Case Name.md"},
		{"x.md", markdown.Link{Target: "v1.2 release"}, "v1.2 release.md"},
		{"x.md", markdown.Link{Target: "image.png"}, "assets/image.png"},
		{"x.md", markdown.Link{Target: "assets/image.png"}, "assets/image.png"},
		{"x.md", markdown.Link{Target: "Doc.PDF"}, "doc.pdf"},
		{"x.md", markdown.Link{Target: "image"}, ""},
		{"x.md", markdown.Link{Target: "Nickname"}, ""}, // aliases do not resolve
		{"x.md", markdown.Link{Target: "Missing"}, ""},
		{"here.md", markdown.Link{Heading: "H"}, "here.md"},
		// Same name: the linking note's folder wins, then the shortest path.
		{"a/x.md", markdown.Link{Target: "Dup"}, "a/Dup.md"},
		{"b/x.md", markdown.Link{Target: "Dup"}, "b/Dup.md"},
		{"b/deeper/x/y.md", markdown.Link{Target: "Dup"}, "b/deeper/x/Dup.md"},
		{"z/x.md", markdown.Link{Target: "Dup"}, "a/Dup.md"},
		// Path-qualified links match by path suffix.
		{"x.md", markdown.Link{Target: "b/Dup"}, "b/Dup.md"},
		{"x.md", markdown.Link{Target: "x/Dup"}, "b/deeper/x/Dup.md"},
		{"x.md", markdown.Link{Target: "b/Deep"}, "a/b/Deep.md"},
		{"x.md", markdown.Link{Target: "c/Deep.md"}, "c/Deep.md"},
		{"x.md", markdown.Link{Target: "q/Dup"}, ""},
		{"x.md", markdown.Link{Target: "/c/Deep"}, "c/Deep.md"},
		// Markdown links: relative to the linking note, else by name.
		{"x.md", markdown.Link{Target: "Note Name.md", Markdown: true}, "sub/Note Name.md"},
		{"folder/page.md", markdown.Link{Target: "sub/sibling.md", Markdown: true}, "folder/sub/sibling.md"},
		{"folder/sub/sibling.md", markdown.Link{Target: "../page.md", Markdown: true}, "folder/page.md"},
		{"folder/sub/sibling.md", markdown.Link{Target: "../../Note.md", Markdown: true}, "Note.md"},
		{"x.md", markdown.Link{Target: "../../etc/passwd", Markdown: true}, ""},
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
		if got, _ := g.Resolve(tt.source, markdown.Link{Target: tt.target}); got != tt.want {
			t.Errorf("Resolve(%q, %q) = %q, want %q", tt.source, tt.target, got, tt.want)
		}
	}
}

// TestAddRemove checks that a resolver kept up to date with Add and Remove
// answers every link as one built by New from the files present.
func TestAddRemove(t *testing.T) {
	pool := []string{"Note.md", "note.md", "NOTE.md", "a/Note.md", "a/b/note.md", "Dup.md", "x/Dup.md",
		"img.png", "a/img.png", "IMG.png", "Deep.md", "c/Deep.md", "c/deep.md", "n.md.md"}
	targets := []string{"Note", "note", "a/Note", "b/note", "Dup", "x/Dup", "img.png", "IMG.png", "a/img.png",
		"Deep", "c/deep", "n.md", "Note.md", "missing"}
	sources := []string{"", "a/src.md", "c/src.md", "x/src.md"}
	r := rand.New(rand.NewPCG(1, 2))
	g := graph.New(nil, nil)
	present := map[string]bool{}
	for step := range 2000 {
		p := pool[r.IntN(len(pool))]
		if present[p] {
			g.Remove(p)
			delete(present, p)
		} else {
			g.Add(p, markdown.IsNotePath(p))
			present[p] = true
		}
		var ns, others []string
		for q := range present {
			if markdown.IsNotePath(q) {
				ns = append(ns, q)
			} else {
				others = append(others, q)
			}
		}
		want := graph.New(ns, others)
		for _, src := range sources {
			for _, tg := range targets {
				l := markdown.Link{Target: tg}
				gt, gok := g.Resolve(src, l)
				wt, wok := want.Resolve(src, l)
				if gt != wt || gok != wok {
					t.Fatalf("step %d (%v): link [[%s]] from %q: kept up to date %q %v, built anew %q %v", step, present, tg, src, gt, gok, wt, wok)
				}
			}
		}
		for _, tg := range targets {
			gt, gok := g.Lookup(tg)
			wt, wok := want.Lookup(tg)
			if gt != wt || gok != wok {
				t.Fatalf("step %d: Lookup(%q): kept up to date %q %v, built anew %q %v", step, tg, gt, gok, wt, wok)
			}
		}
	}
}
