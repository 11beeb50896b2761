package index

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

func TestCheckFindsDrift(t *testing.T) {
	tv := newTestVault(t, "link-forms", Options{NoVectors: true})
	tv.age()
	tv.sync()
	ctx := context.Background()
	fsys := os.DirFS(tv.dir)
	if d, err := tv.ix.Check(ctx, fsys); err != nil || len(d) != 0 {
		t.Fatalf("fresh index: drift %v, err %v", d, err)
	}

	// Changes made behind the index's back, one of each kind.
	p := filepath.Join(tv.dir, "Target.md")
	b := []byte(mustRead(t, p))
	b[len(b)-2] = 'Z' // same size, and the old time put back: a sync cannot see it
	info, _ := os.Stat(p)
	os.WriteFile(p, b, 0o644)
	os.Chtimes(p, info.ModTime(), info.ModTime())
	tv.write("Brand New.md", "new")
	tv.remove("sub")
	if _, err := tv.ix.db.Exec(`UPDATE edges SET resolved = 0, target = raw
		WHERE (source_id, seq) = (SELECT source_id, seq FROM edges WHERE resolved LIMIT 1)`); err != nil {
		t.Fatal(err)
	}

	d, err := tv.ix.Check(ctx, fsys)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, x := range d {
		got[x.Problem] = true
		if x.Path == "" || x.Detail == "" {
			t.Errorf("drift without path or detail: %+v", x)
		}
	}
	for _, want := range []string{"stale", "missing", "extra", "link"} {
		if !got[want] {
			t.Errorf("no %q drift in %+v", want, d)
		}
	}
	var stale bool
	for _, x := range d {
		stale = stale || (x.Problem == "stale" && x.Path == "Target.md")
	}
	if !stale {
		t.Errorf("the same-size, same-time edit of Target.md not found: %+v", d)
	}

	// A rebuild clears it all.
	if err := tv.ix.Close(); err != nil {
		t.Fatal(err)
	}
	if err := Remove(filepath.Join(tv.dir, ".vaultmem", "cache")); err != nil {
		t.Fatal(err)
	}
	tv.ix = tv.open()
	tv.sync()
	if d, err := tv.ix.Check(ctx, fsys); err != nil || len(d) != 0 {
		t.Errorf("after a rebuild: %v %v", d, err)
	}
}
