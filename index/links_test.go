package index

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/vaultmem/vaultmem/vault"
)

func TestLinkQueries(t *testing.T) {
	tv := newTestVault(t, "", Options{NoVectors: true})
	for p, body := range map[string]string{
		"a.md":        "[[b]] [[missing]] ![[pic.png]]",
		"b.md":        "[[c]] [[#self]]",
		"c.md":        "",
		"d.md":        "[[d]] lonely, links only to itself",
		"e.md":        "[[nope]]",
		"memory/f.md": "[[c|label]]",
		"pic.png":     "png",
	} {
		tv.write(p, body)
	}
	tv.sync()
	ctx := context.Background()
	edges := func(f EdgeFilter) []string {
		t.Helper()
		es, err := tv.ix.Graph().Edges(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range es {
			out = append(out, fmt.Sprintf("%s:%d->%s %v %s", e.Source, e.Line, e.Target, e.Resolved, e.Label))
		}
		return out
	}
	if got, want := edges(EdgeFilter{To: "c.md"}), []string{"b.md:1->c.md true ", "memory/f.md:1->c.md true label"}; !reflect.DeepEqual(got, want) {
		t.Errorf("backlinks: got %v, want %v", got, want)
	}
	if got, want := edges(EdgeFilter{Unresolved: true}), []string{"a.md:1->missing false ", "e.md:1->nope false "}; !reflect.DeepEqual(got, want) {
		t.Errorf("unresolved: got %v, want %v", got, want)
	}
	if got, want := edges(EdgeFilter{From: "a.md"}), []string{"a.md:1->b.md true ", "a.md:1->missing false ", "a.md:1->pic.png true "}; !reflect.DeepEqual(got, want) {
		t.Errorf("outgoing: got %v, want %v", got, want)
	}
	if got := edges(EdgeFilter{}); len(got) != 8 {
		t.Errorf("all edges: %v", got)
	}
	if got, err := tv.ix.Graph().Orphans(ctx); err != nil || !reflect.DeepEqual(got, []string{"d.md", "e.md"}) {
		t.Errorf("orphans: %v %v", got, err)
	}
	for arg, want := range map[string]string{"MEMORY/F": "memory/f.md", "f": "memory/f.md", "A.md": "a.md"} {
		if p, err := tv.ix.Graph().Lookup(ctx, arg); err != nil || p != want {
			t.Errorf("Lookup(%q) = %q, %v", arg, p, err)
		}
	}
	if _, err := tv.ix.Graph().Lookup(ctx, "pic.png"); !errors.Is(err, vault.ErrNotFound) {
		t.Errorf("Lookup found an attachment as a note: %v", err)
	}
	hops, err := tv.ix.Graph().Walk(ctx, "a.md", Both, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := []Hop{{"a.md", "b.md", 1}, {"a.md", "pic.png", 1}, {"b.md", "c.md", 2}}
	if !reflect.DeepEqual(hops, want) {
		t.Errorf("walk: got %v, want %v", hops, want)
	}
	if hops, _ := tv.ix.Graph().Walk(ctx, "c.md", In, 1); len(hops) != 2 {
		t.Errorf("walk in from c: %v", hops)
	}
	if _, err := tv.ix.Graph().Walk(ctx, "a.md", Both, 9); !errors.Is(err, ErrBadQuery) {
		t.Errorf("depth 9: %v", err)
	}
}
