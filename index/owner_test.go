package index

import (
	"context"
	"testing"
)

// TestMemoriesOwner: a memory's owner is its frontmatter owner, trimmed,
// "" without one, and follows an edit.
func TestMemoriesOwner(t *testing.T) {
	ctx := context.Background()
	tv := newTestVault(t, "", Options{NoVectors: true})
	tv.write("memory/a.md", "---\nname: A\ntype: user\nowner: \" ann@example.com \"\n---\nA.\n")
	tv.write("memory/b.md", "---\nname: B\ntype: user\n---\nB.\n")
	tv.sync()
	owners := func() map[string]string {
		t.Helper()
		ms, err := tv.ix.Kinds().Memories(ctx)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, m := range ms {
			out[m.Path] = m.Owner
		}
		return out
	}
	if got := owners(); got["memory/a.md"] != "ann@example.com" || got["memory/b.md"] != "" {
		t.Errorf("owners %v", got)
	}
	tv.write("memory/b.md", "---\nname: B\ntype: user\nowner: bob@example.com\n---\nB.\n")
	tv.sync()
	if got := owners(); got["memory/b.md"] != "bob@example.com" {
		t.Errorf("after an edit: %v", got)
	}
}
