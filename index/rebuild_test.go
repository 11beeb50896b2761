package index

import (
	"context"
	"os"
	"testing"
)

// TestQueriesAfterRebuild: a rebuild (doctor --fix) opens the database
// again; the statements prepared on the old one are not used on it, and
// every reader answers from the new one.
func TestQueriesAfterRebuild(t *testing.T) {
	ctx := context.Background()
	tv := newTestVault(t, "", Options{})
	tv.write("a.md", "# A\n\nAlpha links to [[b]].\n")
	tv.write("b.md", "# B\n\nBeta.\n")
	tv.sync()
	ask := func(when string) {
		t.Helper()
		if _, err := tv.ix.Version(ctx); err != nil { // meta, a prepared statement
			t.Errorf("%s: version: %v", when, err)
		}
		if p, err := tv.ix.Graph().Lookup(ctx, "b"); err != nil || p != "b.md" {
			t.Errorf("%s: lookup: %q, %v", when, p, err)
		}
		if ls, err := tv.ix.Graph().Linked(ctx, "a.md"); err != nil || len(ls) == 0 {
			t.Errorf("%s: linked: %v, %v", when, ls, err)
		}
	}
	ask("before")
	if err := tv.ix.rebuild(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := tv.ix.Sync(ctx, os.DirFS(tv.dir), nil); err != nil {
		t.Fatal(err)
	}
	ask("after the rebuild")
}
