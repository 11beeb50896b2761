package index

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// age sets every file of the vault an hour back (and each a distinct
// second), so that no time is racily new and the walk signature is kept.
func (tv *testVault) age() {
	tv.t.Helper()
	base := time.Now().Add(-time.Hour)
	i := 0
	err := filepath.WalkDir(tv.dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		i++
		when := base.Add(time.Duration(i) * time.Second)
		return os.Chtimes(p, when, when)
	})
	if err != nil {
		tv.t.Fatal(err)
	}
}

func TestWalkSignatureSkipsOnlyUnchangedVaults(t *testing.T) {
	tv := newTestVault(t, "link-forms", Options{NoVectors: true})
	tv.age()
	tv.sync()
	sig, err := tv.ix.meta(context.Background(), tv.ix.db, metaWalkSignature)
	if err != nil || sig == "" {
		t.Fatalf("no walk signature kept after a sync of old files: %q %v", sig, err)
	}
	if st := tv.sync(); st.Parsed != 0 {
		t.Errorf("unchanged vault: parsed %d", st.Parsed)
	}

	// Same size, another time: the signature differs and the change is seen.
	p := filepath.Join(tv.dir, "Target.md")
	b := []byte(mustRead(t, p))
	b[len(b)-2] = 'X'
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-30 * time.Minute)
	os.Chtimes(p, old, old)
	if st := tv.sync(); st.Parsed != 1 {
		t.Errorf("changed note behind an old signature: parsed %d, want 1", st.Parsed)
	}
	tv.assertFresh()

	// A note written just now makes the walk untrustworthy: no signature
	// is kept for it, and the old one, which no longer describes the
	// index, goes.
	sig2, _ := tv.ix.meta(context.Background(), tv.ix.db, metaWalkSignature)
	if sig2 == sig {
		t.Error("signature not renewed after a change")
	}
	tv.write("New.md", "fresh")
	soon := time.Now().Add(time.Hour) // racy, however slow the machine
	os.Chtimes(filepath.Join(tv.dir, "New.md"), soon, soon)
	if st := tv.sync(); st.Parsed != 1 {
		t.Errorf("new racy note: parsed %d, want 1", st.Parsed)
	}
	if got, _ := tv.ix.meta(context.Background(), tv.ix.db, metaWalkSignature); got != "" {
		t.Errorf("signature %q after a racy walk that changed the index, want none", got)
	}
	tv.write("New.md", "fresh, longer")
	os.Chtimes(filepath.Join(tv.dir, "New.md"), soon, soon)
	if st := tv.sync(); st.Parsed != 1 {
		t.Errorf("rewritten racy note: parsed %d, want 1", st.Parsed)
	}
	// Deleting it makes the vault look as it did when sig2 was taken: the
	// sync must still remove it.
	if err := os.Remove(filepath.Join(tv.dir, "New.md")); err != nil {
		t.Fatal(err)
	}
	if st := tv.sync(); st.Removed != 1 {
		t.Errorf("note added and deleted again: removed %d, want 1", st.Removed)
	}
	tv.assertFresh()
}

func TestVectorPack(t *testing.T) {
	tv := newTestVault(t, "memory-folder", Options{})
	tv.write("memory/extra.md", "---\nname: extra\ndescription: deploys\ntype: project\n---\nDeploys go out on Tuesdays after the freeze.\n")
	tv.sync()
	ctx := context.Background()
	q := Query{Text: "when do deploys go out", Mode: Vector, Limit: 3}
	want, err := tv.ix.Searcher().Search(ctx, q)
	if err != nil || len(want) == 0 {
		t.Fatalf("vector search: %v %v", want, err)
	}
	if err := tv.ix.Pack(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tv.ix.vstore.packPath()); err != nil {
		t.Fatalf("no pack written: %v", err)
	}

	// A new process reads the pack and finds the same.
	ix2 := tv.open()
	defer ix2.Close()
	got, err := ix2.Searcher().Search(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if !ix2.vec.FromPack() {
		t.Error("second index did not load the pack")
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("from the pack:\n%v\nwant\n%v", got, want)
	}
	// It maps the pack until it closes; a resident process reads it and
	// finds the same.
	if len(ix2.unmaps) != 1 {
		t.Errorf("%d packs mapped, want 1", len(ix2.unmaps))
	}
	resident, err := Open(ctx, filepath.Join(tv.dir, ".vaultmem", "cache"), Options{Resident: true})
	if err != nil {
		t.Fatal(err)
	}
	defer resident.Close()
	if got, err := resident.Searcher().Search(ctx, q); err != nil || !reflect.DeepEqual(got, want) || !resident.vec.FromPack() || len(resident.unmaps) != 0 {
		t.Errorf("resident: %v, %v; from the pack %v, %d mapped", got, err, resident.vec.FromPack(), len(resident.unmaps))
	}

	// After a change the pack is stale and not used; Pack renews it.
	tv.write("memory/extra.md", "---\nname: extra\ndescription: deploys\ntype: project\n---\nDeploys now go out on Thursdays.\n")
	tv.sync()
	ix3 := tv.open()
	defer ix3.Close()
	if _, err := ix3.Searcher().Search(ctx, q); err != nil {
		t.Fatal(err)
	}
	if ix3.vec.FromPack() {
		t.Error("a stale pack was used")
	}
	if err := tv.ix.Pack(ctx); err != nil {
		t.Fatal(err)
	}
	if v, _ := tv.ix.meta(ctx, tv.ix.db, metaVectorsVersion); tv.ix.vstore.packVersion() != v {
		t.Errorf("pack version %q, index at %q", tv.ix.vstore.packVersion(), v)
	}

	// A damaged pack is ignored.
	if err := os.WriteFile(tv.ix.vstore.packPath(), []byte("vaultmem-vectors\x02garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	ix4 := tv.open()
	defer ix4.Close()
	if _, err := ix4.Searcher().Search(ctx, q); err != nil || ix4.vec.FromPack() {
		t.Errorf("damaged pack: err %v, used %v", err, ix4.vec != nil && ix4.vec.FromPack())
	}
}

func TestSnippet(t *testing.T) {
	for _, tc := range []struct {
		text, query, want string
	}{
		{"Deploys go out on Tuesdays.", "tuesdays", "Deploys go out on **Tuesdays.**"},
		{"No match here at all", "absent", "No match here at all"},
		{"one two three four five six seven eight nine ten eleven twelve", "twelve", "… four five six seven eight nine ten eleven **twelve**"},
		{"会议在东京举行", "东京", "**会议在东京举行**"},
		{"She painted the fence, then went to the café.", "painting cafe", "She **painted** the fence, then went to the **café.**"},
	} {
		if got := snippet(tc.text, queryWords(tc.query)); got != tc.want {
			t.Errorf("snippet(%q, %q) = %q, want %q", tc.text, tc.query, got, tc.want)
		}
	}
}

// TestReadersWorkWhileAWriterHoldsTheCache searches from a second
// connection while the first holds a write transaction open, as a CLI
// search does while a watcher or server is in the middle of a sync.
func TestReadersWorkWhileAWriterHoldsTheCache(t *testing.T) {
	tv := newTestVault(t, "memory-folder", Options{NoVectors: true})
	tv.sync()
	ctx := context.Background()
	tx, err := tv.ix.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "DELETE FROM chunks"); err != nil {
		t.Fatal(err)
	}
	reader := tv.open()
	defer reader.Close()
	res, err := reader.Searcher().Search(ctx, Query{Text: "freeze", Mode: Keyword})
	if err != nil {
		t.Fatalf("search while a writer holds the cache: %v", err)
	}
	if len(res) == 0 || res[0].Path != "memory/project_freeze.md" {
		t.Errorf("reader saw %v, want the committed state", res)
	}
}

// TestTwoHandlesKeepTheFileListRight: a process's in-memory file list
// must give way when another process synced in between.
func TestTwoHandlesKeepTheFileListRight(t *testing.T) {
	tv := newTestVault(t, "link-forms", Options{NoVectors: true})
	tv.sync()
	other := tv.open()
	defer other.Close()
	fsys := os.DirFS(tv.dir)
	ctx := context.Background()

	tv.write("From Other.md", "written, then synced by the other process [[Target]]")
	if st, err := other.Sync(ctx, fsys, nil); err != nil || st.Parsed != 1 {
		t.Fatalf("other sync: %+v %v", st, err)
	}
	tv.remove("Target.md")
	st := tv.sync()
	if st.Parsed != 0 || st.Removed != 1 {
		t.Errorf("first handle after the other's sync: parsed %d removed %d, want 0 and 1", st.Parsed, st.Removed)
	}
	tv.assertFresh()
	tv.write("From Other.md", "changed again")
	if st, err := other.Sync(ctx, fsys, nil); err != nil || st.Parsed != 1 || st.Removed != 0 {
		t.Errorf("other handle again: %+v %v", st, err)
	}
	tv.assertFresh()
}

func TestRacy(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 10, 0, time.UTC)
	for _, tt := range []struct {
		mtime time.Time
		want  bool
	}{
		{now.Add(-50 * time.Millisecond), true},   // fine times: within the tick-sized window
		{now.Add(-150 * time.Millisecond), false}, // past it
		{now.Add(-time.Second), true},             // a whole second: maybe a seconds-only file system
		{now.Add(-3 * time.Second), false},
		{now.Add(-1500 * time.Millisecond), false},
	} {
		if got := Racy(tt.mtime.UnixNano(), now); got != tt.want {
			t.Errorf("Racy(%v before now) = %v, want %v", now.Sub(tt.mtime), got, tt.want)
		}
	}
}

// TestVersion: the version changes with a sync that changed what searches
// find, and with nothing else.
func TestVersion(t *testing.T) {
	tv := newTestVault(t, "memory-folder", Options{})
	ctx := context.Background()
	tv.age()
	tv.sync()
	v1, err := tv.ix.Version(ctx)
	if err != nil || v1 == "/" {
		t.Fatalf("version after a sync: %q %v", v1, err)
	}
	tv.sync()
	if v, _ := tv.ix.Version(ctx); v != v1 {
		t.Errorf("a sync that changed nothing: %q, was %q", v, v1)
	}
	if _, err := tv.ix.Searcher().Search(ctx, Query{Text: "freeze"}); err != nil {
		t.Fatal(err)
	}
	if v, _ := tv.ix.Version(ctx); v != v1 {
		t.Errorf("a search: %q, was %q", v, v1)
	}
	tv.write("memory/new.md", "---\nname: Okapi\ntype: user\n---\nStripes.\n")
	tv.sync()
	v2, _ := tv.ix.Version(ctx)
	if v2 == v1 {
		t.Errorf("a note added: version still %q", v2)
	}
	if err := os.Remove(filepath.Join(tv.dir, "memory", "new.md")); err != nil {
		t.Fatal(err)
	}
	tv.sync()
	if v, _ := tv.ix.Version(ctx); v == v2 || v == v1 {
		t.Errorf("a note removed: version %q (before %q, at first %q)", v, v2, v1)
	}
}

// TestVectorsFollowSyncs: a long-running index's vectors follow its own
// syncs without a read of every vector (the set is moved along, not
// loaded again), and load again after another process's change; either
// way vector search answers as a newly opened index does.
func TestVectorsFollowSyncs(t *testing.T) {
	tv := newTestVault(t, "memory-folder", Options{Resident: true})
	tv.sync()
	ctx := context.Background()
	q := Query{Text: "ferry timetable harbour", Mode: Vector, Limit: 5}
	same := func(step string) {
		t.Helper()
		got, err := tv.ix.Searcher().Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		fresh := tv.open()
		defer fresh.Close()
		want, err := fresh.Searcher().Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: vector search\n%v\na new index finds\n%v", step, got, want)
		}
	}
	same("at start") // loads the vectors
	loaded := tv.ix.vec
	tv.write("memory/ferry.md", "---\nname: ferry\ndescription: the ferry\ntype: reference\n---\nThe ferry timetable changes at the harbour in winter.\n")
	tv.sync()
	same("a note added")
	tv.write("memory/ferry.md", "---\nname: ferry\ndescription: the ferry\ntype: reference\n---\nNo more ferries: the harbour closed.\n")
	tv.sync()
	same("the note rewritten")
	if tv.ix.vec == nil || tv.ix.vec == loaded || tv.ix.vec.FromPack() || tv.ix.vec.Len() <= loaded.Len() {
		t.Errorf("the vectors were not moved along by this process's syncs: %+v", tv.ix.vec)
	}
	moved := tv.ix.vec

	// Another process changes the index: the set is read again.
	other := tv.open()
	defer other.Close()
	tv.write("memory/harbour.md", "---\nname: harbour\ndescription: the harbour\ntype: reference\n---\nThe harbour ferry timetable is online.\n")
	if _, err := other.Sync(ctx, os.DirFS(tv.dir), nil); err != nil {
		t.Fatal(err)
	}
	same("another process's change")
	if tv.ix.vec == moved {
		t.Error("the vectors were not read again after another process's change")
	}
	tv.remove("memory/harbour.md")
	tv.sync()
	same("a note removed")
}

// TestCountsRecordedWithTheirVersion: a sync reports the notes and chunks
// the index holds, from the counts the last change recorded with its
// files version; counts recorded at another version are not believed.
func TestCountsRecordedWithTheirVersion(t *testing.T) {
	ctx := context.Background()
	tv := newTestVault(t, "memory-folder", Options{NoVectors: true})
	counted := func() (int, int) {
		t.Helper()
		var notes, chunks int
		if err := tv.ix.db.QueryRow("SELECT "+countNotesAndChunks).Scan(&notes, &chunks); err != nil {
			t.Fatal(err)
		}
		return notes, chunks
	}
	check := func(what string, st Stats) {
		t.Helper()
		if notes, chunks := counted(); st.Notes != notes || st.Chunks != chunks || notes == 0 {
			t.Errorf("%s: %d notes, %d chunks; the index holds %d, %d", what, st.Notes, st.Chunks, notes, chunks)
		}
	}
	check("first sync", tv.sync())
	tv.write("new.md", "# New\n\nOne paragraph.\n\n## Two\n\nAnother.\n")
	check("a note added", tv.sync())
	tv.remove("new.md")
	check("a note removed", tv.sync())
	tv.age() // no time too recent to trust: the syncs below change nothing
	check("times only", tv.sync())
	check("no change", tv.sync())

	version, err := tv.ix.meta(ctx, tv.ix.db, metaFilesVersion)
	if err != nil {
		t.Fatal(err)
	}
	set := func(v string) {
		t.Helper()
		if _, err := tv.ix.db.Exec("UPDATE meta SET value = ? WHERE key = ?", v, metaCounts); err != nil {
			t.Fatal(err)
		}
	}
	set("elsewhere 1 1") // recorded at another version (an older vaultmem changed the index since)
	check("counts of another version", tv.sync())
	set(version + " 7 70") // the counts of this version are taken as they are, not counted again
	if st := tv.sync(); st.Notes != 7 || st.Chunks != 70 {
		t.Errorf("with counts recorded for the current version: %d notes, %d chunks, want the recorded 7, 70", st.Notes, st.Chunks)
	}
}
