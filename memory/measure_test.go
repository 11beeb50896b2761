package memory

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"path"
	"strings"
	"testing"
)

// TestMeasure: the size Render counts to find how many entries fit is the
// size of the file it writes, for every count of entries, whatever the
// text around the region, the reviews and the types present.
func TestMeasure(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	kinds := []Type{User, Feedback, Project, Reference}
	for trial := range 30 {
		var entries []Entry
		for i := range r.IntN(60) {
			entries = append(entries, Entry{Path: fmt.Sprintf("memory/m %d é.md", i), Type: kinds[r.IntN(len(kinds))],
				Title: strings.Repeat("t", 1+r.IntN(90)), Hook: strings.Repeat("wörd ", r.IntN(40)), Date: fmt.Sprintf("2026-01-%02d", 1+r.IntN(28))})
		}
		var reviews []Review
		if len(entries) > 1 && trial%2 == 0 {
			reviews = append(reviews, Review{A: entries[0], B: entries[1], Reason: "always / never"})
		}
		var current []byte
		switch trial % 3 {
		case 1:
			current = []byte("# Mine\n\nBy hand.\n" + Begin + "\nold\n" + End + "\nafter\n")
		case 2:
			current = []byte(Begin + "\n" + End)
		}
		before, after, err := splitRegion("MEMORY.md", current)
		if err != nil {
			t.Fatal(err)
		}
		keep := byPriority(entries)
		lines := map[string]string{}
		for _, e := range keep {
			lines[e.Path] = Line(".", e)
		}
		size := measure(before, after, keep, lines, reviews, path.Dir("MEMORY.md"))
		for n := range len(keep) + 1 {
			in := map[string]bool{}
			for _, e := range keep[:n] {
				in[e.Path] = true
			}
			out := assemble(before, region(byDisplay(entries), in, lines, reviews, ".", omitted(keep[n:])), after)
			if l, b := size(n); l != bytes.Count(out, []byte("\n")) || b != len(out) {
				t.Fatalf("trial %d, %d entries: measured %d lines %d bytes, rendered %d lines %d bytes",
					trial, n, l, b, bytes.Count(out, []byte("\n")), len(out))
			}
		}
	}
}

// TestRegionPaths: the paths of the region's lines, whatever their titles
// (a trailing backslash, brackets) and paths (spaces, parentheses, %, #).
func TestRegionPaths(t *testing.T) {
	entries := []Entry{
		{Path: "memory/a.md", Type: User, Title: `ends in \`},
		{Path: "memory/b (1) 100% #x.md", Type: User, Title: `[x] \[y]`},
		{Path: "other/c.md", Type: Feedback, Title: "C"},
	}
	out, _, err := Render("memory/MEMORY.md", nil, entries, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := regionPaths("memory/MEMORY.md", out)
	want := []string{"memory/b (1) 100% #x.md", "memory/a.md", "other/c.md"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("paths %q, want %q\n%s", got, want, out)
	}
}
