package index

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/memory"
)

// TestMemories: the live memories, with their names, pinned flags and
// latest dates; archived and merged memories, other notes and MEMORY.md
// are not among them, and an edit moves a memory in or out.
func TestMemories(t *testing.T) {
	ctx := context.Background()
	tv := newTestVault(t, "", Options{NoVectors: true})
	tv.write("memory/a.md", "---\nname: Testing feedback\ntype: feedback\ndescription: real DB\ncreated: 2026-01-02\nupdated: 2026-03-04\npinned: true\n---\nBody.\n")
	tv.write("memory/b.md", "---\nname: 2024\ntype: user\ncreated: 2026-05-06T10:00:00\n---\nA number for a name.\n")
	tv.write("memory/c.md", "---\nname: Old\ntype: project\narchived: 2026-01-01\n---\nGone.\n")
	tv.write("memory/d.md", "---\nname: Merged\ntype: project\nmerged_into: \"[[a]]\"\n---\nGone.\n")
	tv.write("memory/e.md", "---\ntype: reference\npinned: \"yes\"\n---\n# Bug tracker\n")
	tv.write("notes/plain.md", "---\nname: Not a memory\n---\nText.\n")
	tv.write("MEMORY.md", "# Memory\n")
	tv.sync()

	got, err := tv.ix.Kinds().Memories(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		got[i].Hash = ""
	}
	want := []memory.Live{
		{Path: "memory/a.md", Type: "feedback", Name: "Testing feedback", Title: "Testing feedback", Description: "real DB", Pinned: true, Date: "2026-03-04"},
		{Path: "memory/b.md", Type: "user", Name: "2024", Title: "2024", Date: "2026-05-06"},
		{Path: "memory/e.md", Type: "reference", Title: "e", Pinned: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("memories:\n got %+v\nwant %+v", got, want)
	}

	tv.write("memory/a.md", "---\nname: Testing feedback\ntype: feedback\narchived: 2026-04-01\n---\nBody.\n")
	tv.write("memory/c.md", "---\nname: Old\ntype: project\n---\nBack.\n")
	tv.sync()
	got, err = tv.ix.Kinds().Memories(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, m := range got {
		paths = append(paths, m.Path)
	}
	if want := []string{"memory/b.md", "memory/c.md", "memory/e.md"}; !reflect.DeepEqual(paths, want) {
		t.Fatalf("after edits: %v, want %v", paths, want)
	}
}

func TestBadFrontmatter(t *testing.T) {
	tv := newTestVault(t, "", Options{NoVectors: true})
	tv.write("memory/bad.md", "---\nname: [unclosed\ntype: feedback\n---\nBody.\n")
	tv.write("memory/good.md", "---\nname: Good\ntype: feedback\n---\nBody.\n")
	tv.write("notes/bad.md", "---\n: :\n---\nBody.\n")
	tv.sync()
	got, err := tv.ix.Kinds().BadFrontmatter(context.Background(), "memory")
	if err != nil || len(got) != 1 || got[0].Path != "memory/bad.md" || got[0].Line == 0 || !strings.HasPrefix(got[0].Message, "memory/bad.md:") {
		t.Fatalf("%+v %v", got, err)
	}
	if all, _ := tv.ix.Kinds().BadFrontmatter(context.Background(), "."); len(all) != 2 {
		t.Errorf("whole vault: %+v", all)
	}
}
