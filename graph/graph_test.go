package graph_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/vaultmem/vaultmem/graph"
	"github.com/vaultmem/vaultmem/vault"
)

func notes(files map[string]string) []*vault.Note {
	var ns []*vault.Note
	for p, src := range files {
		ns = append(ns, vault.Parse(p, []byte(src)))
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

func TestQueries(t *testing.T) {
	g := graph.New(notes(map[string]string{
		"a.md":        "[[b]] [[missing]] ![[pic.png]]",
		"b.md":        "[[c]] [[#self]]",
		"c.md":        "",
		"d.md":        "[[d]] lonely, links only to itself",
		"e.md":        "[[nope]]",
		"memory/f.md": "[[c|label]]",
	}), []string{"pic.png"})

	var bl []string
	for _, e := range g.Backlinks("c.md") {
		bl = append(bl, fmt.Sprintf("%s:%d:%s", e.Source, e.Line, e.Label))
	}
	if want := []string{"b.md:1:", "memory/f.md:1:label"}; !reflect.DeepEqual(bl, want) {
		t.Errorf("backlinks: got %v, want %v", bl, want)
	}
	var un []string
	for _, e := range g.Unresolved() {
		un = append(un, e.Source+"->"+e.Target)
	}
	if want := []string{"a.md->missing", "e.md->nope"}; !reflect.DeepEqual(un, want) {
		t.Errorf("unresolved: got %v, want %v", un, want)
	}
	if got, want := g.Orphans(), []string{"d.md", "e.md"}; !reflect.DeepEqual(got, want) {
		t.Errorf("orphans: got %v, want %v", got, want)
	}
	got := g.Neighbours("a.md", 2)
	want := []graph.Neighbour{{Path: "b.md", Depth: 1}, {Path: "c.md", Depth: 2}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("neighbours: got %v, want %v", got, want)
	}
	if got := g.Neighbours("c.md", 1); len(got) != 2 {
		t.Errorf("neighbours of c follow backlinks: got %v", got)
	}
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

// TestIncremental checks that adding and removing notes one by one gives
// the same graph as building it at once.
func TestIncremental(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	names := []string{"A", "B", "C", "a/A", "b/A", "b/C", "x/y/B"}
	files := map[string]string{}
	for i := 0; i < 40; i++ {
		p := names[r.IntN(len(names))] + fmt.Sprint(r.IntN(3)) + ".md"
		src := ""
		for j := 0; j < 3; j++ {
			src += fmt.Sprintf("[[%s%d]] ", names[r.IntN(len(names))], r.IntN(3))
		}
		files[p] = src
	}
	inc := graph.New(nil, nil)
	live := map[string]string{}
	for step := 0; step < 300; step++ {
		keys := make([]string, 0, len(files))
		for k := range files {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		p := keys[r.IntN(len(keys))]
		if _, ok := live[p]; ok && r.IntN(2) == 0 {
			inc.Remove(p)
			delete(live, p)
		} else {
			live[p] = files[p]
			inc.Add(vault.Parse(p, []byte(files[p])))
		}
		full := graph.New(notes(live), nil)
		if !reflect.DeepEqual(dump(inc), dump(full)) {
			t.Fatalf("step %d: incremental graph differs\n inc %v\nfull %v", step, dump(inc), dump(full))
		}
	}
}

func dump(g *graph.Graph) []string {
	var out []string
	for _, e := range g.Edges() {
		out = append(out, fmt.Sprintf("%s->%s %v", e.Source, e.Target, e.Resolved))
	}
	for _, p := range g.Notes() {
		for _, e := range g.Backlinks(p) {
			out = append(out, "bl "+p+"<-"+e.Source)
		}
	}
	return out
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
