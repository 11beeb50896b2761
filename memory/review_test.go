package memory_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/memory"
)

// TestPossibleDuplicatesListed: possible duplicates are listed under Needs
// review after the contradictions, the newest first, at most
// MaxDuplicateLines of them (a line says how many more); a pair a person
// settled with same_as or not_same_as leaves the list at the next listing;
// a pair settled apart (Distinct) is never listed; the lines survive the
// merge driver's reading of MEMORY.md.
func TestPossibleDuplicatesListed(t *testing.T) {
	ctx := context.Background()
	ts := newTestStore(t, "memory")
	var flags []memory.Flag
	for i := range memory.MaxDuplicateLines + 2 {
		a, b := fmt.Sprintf("memory/a%02d.md", i), fmt.Sprintf("memory/b%02d.md", i)
		ts.write(a, fmt.Sprintf("---\nname: A%02d\ndescription: a\ntype: project\n---\nDeploys go out on Tuesdays, %d.\n", i, i))
		ts.write(b, fmt.Sprintf("---\nname: B%02d\ndescription: b\ntype: project\n---\nDeploys ship on Tuesdays, %d.\n", i, i))
		flags = append(flags, memory.Flag{A: a, B: b, Reason: "worded differently", Kind: memory.Duplicate, Found: fmt.Sprintf("2026-02-%02d", i+1)})
	}
	ts.write("memory/c.md", "---\nname: C\ndescription: c\ntype: project\n---\nAlways deploy.\n")
	ts.write("memory/d.md", "---\nname: D\ndescription: d\ntype: project\n---\nNever deploy.\n")
	flags = append(flags, memory.Flag{A: "memory/c.md", B: "memory/d.md", Reason: "always vs never"},
		memory.Flag{A: "memory/a00.md", B: "memory/c.md", Reason: "the LLM: different", Kind: memory.Distinct})
	ts.sync()
	if err := ts.s.SetFlags(ctx, flags, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := ts.s.Relist(ctx); err != nil {
		t.Fatal(err)
	}
	list := ts.read("MEMORY.md")
	review := list[strings.Index(list, "## Needs review"):]
	lines := strings.Split(strings.TrimSpace(review), "\n")
	if !strings.Contains(lines[2], "[C](memory/c.md) and [D](memory/d.md) may contradict each other") {
		t.Errorf("the contradiction is not first:\n%s", review)
	}
	if !strings.Contains(lines[3], "[A11](memory/a11.md) and [B11](memory/b11.md) may be duplicates: worded differently") {
		t.Errorf("the newest possible duplicate is not first:\n%s", review)
	}
	if n := strings.Count(review, "may be duplicates"); n != memory.MaxDuplicateLines || !strings.Contains(review, "_2 more possible duplicates not listed") {
		t.Errorf("%d possible duplicates listed:\n%s", n, review)
	}
	if strings.Contains(review, "the LLM: different") {
		t.Errorf("a pair settled apart is listed:\n%s", review)
	}
	// The merge driver reads the lines back as vaultmem wrote them: one
	// side settled a pair (its line gone), the other added a line of its
	// own below the list.
	a09 := "- [A09](memory/a09.md) and [B09](memory/b09.md) may be duplicates: worded differently\n"
	theirs := strings.Replace(list, a09, "", 1)
	merged, err := memory.MergeList("MEMORY.md", []byte(list), []byte(list+"\nA line a person added.\n"), []byte(theirs), nil)
	if err != nil || strings.Contains(string(merged), a09) || strings.Count(string(merged), "may be duplicates") != memory.MaxDuplicateLines-1 ||
		!strings.HasSuffix(string(merged), "A line a person added.\n") {
		t.Errorf("merged: %v\n%s", err, merged)
	}

	// A person settles the newest: not the same.
	ts.write("memory/a11.md", "---\nname: A11\ndescription: a\ntype: project\nnot_same_as: \"[[b11]]\"\n---\nDeploys go out on Tuesdays, 11.\n")
	// And another: the same.
	ts.write("memory/b10.md", "---\nname: B10\ndescription: b\ntype: project\nsame_as: \"[[A10]]\"\n---\nDeploys ship on Tuesdays, 10.\n")
	ts.sync()
	if _, err := ts.s.Relist(ctx); err != nil {
		t.Fatal(err)
	}
	review = ts.read("MEMORY.md")
	if strings.Contains(review, "[A11](memory/a11.md) and") || strings.Contains(review, "[A10](memory/a10.md) and") {
		t.Errorf("a settled pair is still listed:\n%s", review)
	}
	if !strings.Contains(review, "[A09](memory/a09.md) and [B09](memory/b09.md) may be duplicates") {
		t.Errorf("an unsettled pair is no longer listed:\n%s", review)
	}
}

// TestFlagsReadThroughConflictMarkers: a review list two machines' Dreams
// rewrote, merged by a clone without the union attribute, holds both
// sides' lines between git's markers; it is read as both lists, not
// refused (which stopped Dream and MEMORY.md).
func TestFlagsReadThroughConflictMarkers(t *testing.T) {
	ts := newTestStore(t, "memory")
	line := func(a, b string) string {
		return `- {"a":"memory/` + a + `.md","b":"memory/` + b + `.md","reason":"r","kind":"duplicate","found":"2026-03-01"}` + "\n"
	}
	ts.write(".vaultmem/state/reviews.yaml", "# Pairs of memories Dream listed for review, one a line (vaultmem dream writes it).\n"+
		line("a", "b")+"<<<<<<< ours\n"+line("c", "d")+"=======\n"+line("e", "f")+line("c", "d")+">>>>>>> theirs\n")
	flags, _, err := ts.s.Flags()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range flags {
		got = append(got, f.A+" "+f.B)
	}
	if want := []string{"memory/a.md memory/b.md", "memory/c.md memory/d.md", "memory/e.md memory/f.md"}; !slices.Equal(got, want) {
		t.Errorf("flags %q, want %q", got, want)
	}
}
