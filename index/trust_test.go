package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestChunksInPathOrder: chunks are written in path order whatever order
// the parsing workers finish in, so two builds of one vault number their
// chunks alike (ties in ranking are broken by chunk id).
func TestChunksInPathOrder(t *testing.T) {
	tv := newTestVault(t, "", Options{NoVectors: true})
	for i := range 300 {
		// Sizes vary so that workers finish out of order.
		tv.write(fmt.Sprintf("n/%03d.md", i), strings.Repeat(fmt.Sprintf("word%d ", i), 1+(i*7919)%900))
	}
	tv.sync()
	rows, err := tv.ix.db.Query("SELECT n.path FROM chunks c JOIN notes n ON n.id = c.note_id ORDER BY c.id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var paths []string
	for rows.Next() {
		var p string
		rows.Scan(&p)
		paths = append(paths, p)
	}
	if !slices.IsSorted(paths) {
		t.Fatalf("chunk ids do not follow path order")
	}
}

// TestOpenRebuildsOnlyABadCache: a cache of another schema, or one that
// is not a database, is rebuilt and says why. (That a good cache is never
// deleted when the disk fails is tested end to end on a full disk, in
// cmd/vaultmem's TestFullDiskKeepsTheCache.)
func TestOpenRebuildsOnlyABadCache(t *testing.T) {
	tv := newTestVault(t, "memory-folder", Options{NoVectors: true})
	tv.sync()
	tv.ix.Close()
	db := filepath.Join(tv.dir, ".vaultmem", "cache", DBFile)

	// Another schema: rebuilt, and said why.
	ix := tv.open()
	if _, err := ix.db.Exec("PRAGMA user_version = 1"); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	ix = tv.open()
	if !strings.Contains(ix.RebuiltBecause(), "schema") {
		t.Errorf("another schema: rebuilt because %q", ix.RebuiltBecause())
	}
	ix.Close()

	// Not a database: rebuilt.
	os.WriteFile(db, []byte(strings.Repeat("not sqlite ", 1000)), 0o644)
	os.Remove(db + "-wal")
	ix = tv.open()
	if ix.RebuiltBecause() == "" {
		t.Error("garbage: not rebuilt")
	}
	ix.Close()
}

// TestReadOnlyIndex: an index that cannot be written answers from the
// cache as it is and counts what it misses; Sync writes nothing.
func TestReadOnlyIndex(t *testing.T) {
	tv := newTestVault(t, "memory-folder", Options{NoVectors: true})
	st := tv.sync()
	tv.ix.Close()
	ix, err := openFallback(context.Background(), filepath.Join(tv.dir, ".vaultmem", "cache", DBFile), tv.opts, os.ErrPermission)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if ix.ReadOnly() == "" || ix.InMemory() {
		t.Fatalf("read-only %q, in memory %v", ix.ReadOnly(), ix.InMemory())
	}
	tv.write("memory/new.md", "---\nname: New\ntype: user\n---\nnew words\n")
	ro, err := ix.Sync(context.Background(), os.DirFS(tv.dir), nil)
	if err != nil {
		t.Fatal(err)
	}
	if ro.Stale != 1 || ro.ReadOnly == "" || ro.Notes != st.Notes || ro.Parsed != 0 {
		t.Errorf("read-only sync: %+v", ro)
	}
	if res, err := ix.Searcher().Search(context.Background(), Query{Text: "freeze", Mode: Keyword}); err != nil || len(res) == 0 {
		t.Errorf("search: %v, %v", res, err)
	}

	// Without a cache: in memory, filled by Sync.
	mem, err := openFallback(context.Background(), filepath.Join(t.TempDir(), DBFile), tv.opts, os.ErrPermission)
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	full, err := mem.Sync(context.Background(), os.DirFS(tv.dir), nil)
	if err != nil || !mem.InMemory() || full.Notes != st.Notes+1 {
		t.Fatalf("in-memory sync: %+v, %v", full, err)
	}
	if res, err := mem.Searcher().Search(context.Background(), Query{Text: "new words", Mode: Keyword}); err != nil || len(res) == 0 {
		t.Errorf("in-memory search: %v, %v", res, err)
	}
}

// TestSearchBounds: limits and query sizes past the bounds are refused;
// a query without words finds nothing.
func TestSearchBounds(t *testing.T) {
	tv := newTestVault(t, "memory-folder", Options{NoVectors: true})
	tv.sync()
	ctx := context.Background()
	if _, err := tv.ix.Searcher().Search(ctx, Query{Text: "pnpm", Limit: 1_000_000_000}); !errors.Is(err, ErrBadQuery) {
		t.Errorf("huge limit: %v", err)
	}
	if _, err := tv.ix.Searcher().Search(ctx, Query{Text: strings.Repeat("pnpm ", 3000)}); !errors.Is(err, ErrBadQuery) {
		t.Errorf("huge query: %v", err)
	}
	for _, q := range []string{"", "???", " - "} {
		if res, err := tv.ix.Searcher().Search(ctx, Query{Text: q}); err != nil || len(res) != 0 {
			t.Errorf("query %q: %d results, %v", q, len(res), err)
		}
	}
}

// TestSearchManyPaths: a Paths filter longer than SQLite's bound
// parameters allow (a hub note's links) still keeps exactly those notes.
func TestSearchManyPaths(t *testing.T) {
	tv := newTestVault(t, "memory-folder", Options{NoVectors: true})
	tv.sync()
	ctx := context.Background()
	all, err := tv.ix.Searcher().Search(ctx, Query{Text: "freeze", Mode: Keyword})
	if err != nil || len(all) == 0 {
		t.Fatalf("search: %v, %d results", err, len(all))
	}
	paths := make([]string, 0, 40_001)
	for i := range 40_000 {
		paths = append(paths, fmt.Sprintf("missing/%d.md", i))
	}
	paths = append(paths, all[0].Path)
	res, err := tv.ix.Searcher().Search(ctx, Query{Text: "freeze", Mode: Keyword, Paths: paths})
	if err != nil || len(res) == 0 {
		t.Fatalf("40,001 paths: %v, %d results", err, len(res))
	}
	for _, r := range res {
		if r.Path != all[0].Path {
			t.Errorf("result in %s, not among the paths asked for", r.Path)
		}
	}
}

func TestPaginate(t *testing.T) {
	all := []int{0, 1, 2, 3, 4}
	for _, tc := range []struct {
		page    Page
		want    []int
		info    PageInfo
		wantErr bool
	}{
		{Page{}, all, PageInfo{Total: 5}, false},
		{Page{Limit: 2}, []int{0, 1}, PageInfo{Total: 5, More: 3, NextOffset: 2, NextCursor: "2"}, false},
		{Page{Offset: 4, Limit: 2}, []int{4}, PageInfo{Total: 5}, false},
		{Page{Offset: 9, Limit: 2}, []int{}, PageInfo{Total: 5}, false},
		{Page{Offset: -1}, nil, PageInfo{}, true},
		{Page{Limit: MaxLimit + 1}, nil, PageInfo{}, true},
	} {
		got, info, err := Paginate(all, tc.page)
		if (err != nil) != tc.wantErr || !slices.Equal(got, tc.want) && !tc.wantErr || info != tc.info {
			t.Errorf("Paginate(%+v) = %v, %+v, %v; want %v, %+v", tc.page, got, info, err, tc.want, tc.info)
		}
	}
	if _, err := ParseCursor("x"); !errors.Is(err, ErrBadPage) {
		t.Errorf("ParseCursor(x): %v", err)
	}
}

// TestSyncHostileFiles: binary and huge notes, symbolic link loops, links
// to folders and out of the vault are skipped with their reason, never a
// crash or a hang; markdown files not read as notes stay link targets.
func TestSyncHostileFiles(t *testing.T) {
	tv := newTestVault(t, "", Options{NoVectors: true})
	tv.write("ok.md", "[[big]] [[loop/x]]")
	tv.write("binary.md", "\x00\x01\x02\x03")
	tv.write("big.md", strings.Repeat("word [[ok]] ", 12<<20/12)) // 12 MB
	tv.write("image.png", "\x89PNG")
	for _, l := range []struct{ target, name string }{
		{"a.md", "b.md"}, {"b.md", "a.md"}, {".", "loop"}, {"/etc/hostname", "escape.md"},
	} {
		if err := os.Symlink(l.target, filepath.Join(tv.dir, l.name)); err != nil {
			t.Skip(err)
		}
	}
	root, err := os.OpenRoot(tv.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	st, err := tv.ix.Sync(context.Background(), root.FS(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Notes != 1 {
		t.Errorf("notes: %d, want ok.md alone", st.Notes)
	}
	reasons := map[string]string{}
	for _, sk := range st.Skipped {
		reasons[sk.Path] = sk.Error
	}
	for p, want := range map[string]string{
		"binary.md": "binary file",
		"big.md":    "over the 10.0 MiB note size limit",
		"a.md":      "symbolic link loop",
		"b.md":      "symbolic link loop",
		"loop":      "symbolic link to a folder",
		"escape.md": "outside the vault",
	} {
		if _, ok := reasons[p]; !ok || !strings.Contains(reasons[p], want) {
			t.Errorf("%s skipped for %q, want %q (skipped: %v)", p, reasons[p], want, reasons)
		}
	}
	edges, err := tv.ix.Graph().Edges(context.Background(), EdgeFilter{From: "ok.md"})
	if err != nil || len(edges) != 2 || edges[0].Target != "big.md" || !edges[0].Resolved {
		t.Errorf("ok.md's links: %+v, %v", edges, err)
	}
}
