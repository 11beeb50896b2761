package index

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/vaultmem/vaultmem/fixtures"
	"github.com/vaultmem/vaultmem/index/internal/vectors"
	"github.com/vaultmem/vaultmem/text"
)

// testVault is a vault on disk with its index.
type testVault struct {
	t    *testing.T
	dir  string
	ix   *Index
	opts Options
}

func newTestVault(t *testing.T, fixture string, opts Options) *testVault {
	t.Helper()
	dir := t.TempDir()
	if fixture != "" {
		if err := fixtures.CopyTo(dir, fixture); err != nil {
			t.Fatal(err)
		}
	}
	tv := &testVault{t: t, dir: dir, opts: opts}
	tv.ix = tv.open()
	t.Cleanup(func() { tv.ix.Close() })
	return tv
}

func (tv *testVault) open() *Index {
	tv.t.Helper()
	ix, err := Open(context.Background(), filepath.Join(tv.dir, ".vaultmem", "cache"), tv.opts)
	if err != nil {
		tv.t.Fatal(err)
	}
	return ix
}

func (tv *testVault) write(p, content string) {
	tv.t.Helper()
	full := filepath.Join(tv.dir, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		tv.t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		tv.t.Fatal(err)
	}
}

func (tv *testVault) remove(p string) {
	tv.t.Helper()
	if err := os.RemoveAll(filepath.Join(tv.dir, filepath.FromSlash(p))); err != nil {
		tv.t.Fatal(err)
	}
}

func (tv *testVault) sync() Stats {
	tv.t.Helper()
	st, err := tv.ix.Sync(context.Background(), os.DirFS(tv.dir), nil)
	if err != nil {
		tv.t.Fatal(err)
	}
	return st
}

// dump is the index's digest.
func dump(t *testing.T, ix *Index) string {
	t.Helper()
	d, err := ix.Digest(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// assertFresh checks that the index equals a rebuild from scratch.
func (tv *testVault) assertFresh() {
	tv.t.Helper()
	fresh := newTestVault(tv.t, "", tv.opts)
	fresh.dir = tv.dir
	fresh.sync()
	if got, want := dump(tv.t, tv.ix), dump(tv.t, fresh.ix); got != want {
		tv.t.Fatalf("incremental index differs from a rebuild:\n--- incremental\n%s\n--- rebuild\n%s", got, want)
	}
}

func TestSyncFixtures(t *testing.T) {
	for _, name := range fixtures.Names() {
		t.Run(name, func(t *testing.T) {
			tv := newTestVault(t, name, Options{NoVectors: true})
			st := tv.sync()
			if st.Parsed != st.Notes || st.Notes == 0 {
				t.Errorf("first sync: %+v", st)
			}
			again := tv.sync()
			if again.Parsed != 0 || again.Removed != 0 || again.Notes != st.Notes || again.Chunks != st.Chunks {
				t.Errorf("second sync changed something: %+v", again)
			}
		})
	}
}

func TestSyncSkipsAndWarns(t *testing.T) {
	tv := newTestVault(t, "bad-input", Options{NoVectors: true})
	tv.write("huge.md", strings.Repeat("x", 2<<20))
	tv.opts.MaxNoteSize = 1 << 20
	tv.ix.opts.MaxNoteSize = 1 << 20
	st := tv.sync()
	skipped := map[string]string{}
	for _, s := range st.Skipped {
		skipped[s.Path] = s.Error
	}
	if !strings.Contains(skipped["Binary.md"], "binary") || !strings.Contains(skipped["huge.md"], "over the 1.0 MiB note size limit") {
		t.Errorf("skipped: %v", st.Skipped)
	}
	warned := map[string]bool{}
	for _, w := range st.Warnings {
		warned[w.Path] = strings.Contains(w.Error, w.Path+":")
	}
	for _, p := range []string{"Broken YAML.md", "Tab Indent.md", "Not A Mapping.md"} {
		if !warned[p] {
			t.Errorf("no warning naming %s: %v", p, st.Warnings)
		}
	}
	// A skipped note is still a link target: nothing links to it here, but
	// it is a file of the vault.
	var n int
	if err := tv.ix.db.QueryRow("SELECT count(*) FROM files WHERE path = 'huge.md'").Scan(&n); err != nil || n != 1 {
		t.Errorf("huge.md not recorded as a file: %v %d", err, n)
	}
}

func TestSyncIncremental(t *testing.T) {
	tv := newTestVault(t, "link-forms", Options{NoVectors: true})
	tv.sync()

	// A new note resolves another note's dangling link.
	tv.write("Missing Note.md", "# Now here\n\nFound [[Target]].")
	if st := tv.sync(); st.Parsed != 1 {
		t.Errorf("new note: parsed %d", st.Parsed)
	}
	tv.assertFresh()
	var resolved bool
	if err := tv.ix.db.QueryRow("SELECT resolved FROM edges WHERE raw = 'Missing Note'").Scan(&resolved); err != nil || !resolved {
		t.Errorf("link to the new note not resolved: %v", err)
	}

	// Deleting it un-resolves the link again.
	tv.remove("Missing Note.md")
	if st := tv.sync(); st.Removed != 1 {
		t.Errorf("removed %d", st.Removed)
	}
	tv.assertFresh()

	// A changed note is parsed again; a touched but identical one is not.
	tv.write("Target.md", "# Target\n\n## Section One\n\nRewritten. ^para-1\n")
	tv.write("sub/Deep Note.md", mustRead(t, filepath.Join(tv.dir, "sub", "Deep Note.md")))
	st := tv.sync()
	if st.Parsed != 1 {
		t.Errorf("changed note: parsed %d, want 1 (touching without change must not re-parse)", st.Parsed)
	}
	tv.assertFresh()

	// A rename: links to the old name go unresolved, to the new one resolve.
	if err := os.Rename(filepath.Join(tv.dir, "Target.md"), filepath.Join(tv.dir, "Renamed.md")); err != nil {
		t.Fatal(err)
	}
	tv.write("Linker2.md", "[[Renamed]] [[Target]]")
	tv.sync()
	tv.assertFresh()
	rows, err := tv.ix.db.Query("SELECT e.raw, e.resolved FROM edges e JOIN notes n ON n.id = e.source_id WHERE n.path = 'Linker2.md' ORDER BY seq")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rows.Next() {
		var raw string
		var ok bool
		rows.Scan(&raw, &ok)
		got = append(got, fmt.Sprintf("%s %v", raw, ok))
	}
	rows.Close()
	if strings.Join(got, ",") != "Renamed true,Target false" {
		t.Errorf("after rename: %v", got)
	}

	// An attachment appearing resolves an embed; a folder removed takes its notes.
	tv.remove("attachments")
	tv.remove("sub")
	tv.sync()
	tv.assertFresh()
	tv.write("attachments/diagram.png", "png")
	tv.sync()
	tv.assertFresh()
}

func mustRead(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestOpenRebuildsCorruptCache(t *testing.T) {
	tv := newTestVault(t, "memory-folder", Options{NoVectors: true})
	tv.sync()
	tv.ix.Close()
	db := filepath.Join(tv.dir, ".vaultmem", "cache", DBFile)
	for _, suffix := range []string{"-wal", "-shm"} {
		os.Remove(db + suffix)
	}
	if err := os.WriteFile(db, []byte("this is not a database, it is garbage of some length"), 0o644); err != nil {
		t.Fatal(err)
	}
	tv.ix = tv.open()
	if tv.ix.RebuiltBecause() == "" {
		t.Errorf("corrupt cache not reported")
	}
	if st := tv.sync(); st.Notes != 5 || st.Parsed != 5 {
		t.Errorf("after rebuild: %+v", st)
	}
	tv.assertFresh()
}

func TestOpenRebuildsOtherSchemaVersion(t *testing.T) {
	tv := newTestVault(t, "memory-folder", Options{NoVectors: true})
	tv.sync()
	if _, err := tv.ix.db.Exec("PRAGMA user_version = 999"); err != nil {
		t.Fatal(err)
	}
	tv.ix.Close()
	tv.ix = tv.open()
	if !strings.Contains(tv.ix.RebuiltBecause(), "version 999") {
		t.Errorf("rebuilt because %q", tv.ix.RebuiltBecause())
	}
	if st := tv.sync(); st.Parsed != 5 {
		t.Errorf("after rebuild: %+v", st)
	}
}

// TestOpenTogether: processes opening a fresh cache, or one of another
// schema version, at the same moment all get a working cache; none
// deletes the cache another one has just made.
func TestOpenTogether(t *testing.T) {
	for _, old := range []bool{false, true} {
		tv := newTestVault(t, "memory-folder", Options{NoVectors: true})
		if old {
			tv.sync()
			if _, err := tv.ix.db.Exec("PRAGMA user_version = 999"); err != nil {
				t.Fatal(err)
			}
		}
		tv.ix.Close()
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for range 8 {
			wg.Go(func() {
				ix, err := Open(context.Background(), filepath.Join(tv.dir, ".vaultmem", "cache"), tv.opts)
				if err == nil {
					_, err = ix.Sync(context.Background(), os.DirFS(tv.dir), nil)
					ix.Close()
				}
				errs <- err
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Errorf("old cache %v: %v", old, err)
			}
		}
		tv.ix = tv.open()
		if n, err := tv.ix.Kinds().Memories(context.Background()); err != nil || len(n) != 4 {
			t.Errorf("old cache %v: %d memories after, %v", old, len(n), err)
		}
	}
}

// TestRefreshAndSyncMatchRebuild changes a vault at random (notes linking
// each other by name and path, case variants, attachments, binary notes,
// deletions) and brings the index up to date after each change by a sync
// or by refreshing the changed paths, in turns: the index must equal one
// rebuilt from scratch every time, whatever this process kept in memory,
// and its links must resolve as a resolver built from the walk says.
func TestRefreshAndSyncMatchRebuild(t *testing.T) {
	t.Run("default", func(t *testing.T) { refreshAndSyncMatchRebuild(t, false, 2) })
	// Full-text rows inserted one at a time, between the other rows of
	// their note and of the notes removed in the same sync.
	t.Run("unbatched", func(t *testing.T) {
		defer func(n int) { ftsBatchBytes = n }(ftsBatchBytes)
		ftsBatchBytes = 1
		refreshAndSyncMatchRebuild(t, false, 2)
	})
	// Each refresh in a new process, which holds no file list: it reads
	// the rows of the changed paths alone and resolves links by key
	// (keyedResolver).
	t.Run("fresh process", func(t *testing.T) { refreshAndSyncMatchRebuild(t, true, 2) })
	// Runs of refreshes in one process that began with none: the partial
	// file list it keeps between them.
	t.Run("partial list", func(t *testing.T) { refreshAndSyncMatchRebuild(t, false, 7) })
}

// refreshAndSyncMatchRebuild syncs at every syncEvery-th step and
// refreshes the changed paths at the others; with reopen, each refresh
// is by a newly opened index.
func refreshAndSyncMatchRebuild(t *testing.T, reopen bool, syncEvery int) {
	tv := newTestVault(t, "", Options{NoVectors: true})
	// "\u212Aey.md" (a Kelvin sign) and "d/key.MD" have the key "key" that
	// SQLite's lower() does not give their names; "Über" is no ASCII.
	pool := []string{"Note.md", "note.md", "a/Note.md", "a/b/Other.md", "Other.md", "c/Third.md", "img.png", "a/img.png", "Bin.md",
		"\u212Aey.md", "d/key.MD", "Über.md", "e/über.md"}
	targets := []string{"Note", "note", "a/Note", "Other", "b/Other", "Third", "img.png", "a/img.png", "Bin", "Missing",
		"key", "KEY", "d/key", "Über", "über", "e/Über"}
	if reopen || syncEvery != 2 {
		tv.ix.Close()
		tv.ix = tv.open() // no file list yet
	}
	r := rand.New(rand.NewPCG(3, 4))
	present := map[string]bool{}
	ctx := context.Background()
	for step := range 150 {
		var changed []string
		for range 1 + r.IntN(3) {
			p := pool[r.IntN(len(pool))]
			changed = append(changed, p)
			switch {
			case present[p] && r.IntN(3) == 0:
				tv.remove(p)
				delete(present, p)
			case p == "Bin.md" && r.IntN(2) == 0:
				tv.write(p, "\x00\x01binary")
				present[p] = true
			case strings.HasSuffix(p, ".png"):
				tv.write(p, fmt.Sprintf("png %d", step))
				present[p] = true
			default:
				tv.write(p, fmt.Sprintf("# Step %d\n\n[[%s]] and [[%s]]\n", step, targets[r.IntN(len(targets))], targets[r.IntN(len(targets))]))
				present[p] = true
			}
		}
		if step%syncEvery == 0 {
			tv.sync()
			if syncEvery != 2 {
				tv.ix.Close()
				tv.ix = tv.open() // the next refreshes begin without a file list
			}
		} else {
			if reopen {
				tv.ix.Close()
				tv.ix = tv.open()
			}
			if err := tv.ix.Refresh(ctx, os.DirFS(tv.dir), changed...); err != nil {
				t.Fatal(err)
			}
		}
		tv.assertFresh()
		if drift, err := tv.ix.Check(ctx, os.DirFS(tv.dir)); err != nil || len(drift) > 0 {
			t.Fatalf("step %d: drift %+v, %v", step, drift, err)
		}
		if _, err := tv.ix.db.ExecContext(ctx, `INSERT INTO chunks_fts(chunks_fts) VALUES('integrity-check')`); err != nil {
			t.Fatalf("step %d: full-text index: %v", step, err)
		}
	}
}

// TestRefreshOfIndexedPathsTakesNoLock: refreshing notes the index holds
// as they are (a watcher's sync of what a command just indexed) does not
// wait for the write lock another process holds.
func TestRefreshOfIndexedPathsTakesNoLock(t *testing.T) {
	tv := newTestVault(t, "", Options{NoVectors: true})
	tv.write("a.md", "# A\n\nJust written.\n")
	ctx := context.Background()
	fsys := os.DirFS(tv.dir)
	if err := tv.ix.Refresh(ctx, fsys, "a.md", "gone.md"); err != nil {
		t.Fatal(err)
	}
	other := tv.open()
	defer other.Close()
	tx, err := other.db.BeginTx(ctx, nil) // BEGIN IMMEDIATE: the write lock
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if !tv.ix.indexedAlready(ctx, fsys, []string{"a.md", "gone.md"}) {
		t.Fatal("a note just indexed (its time too recent to trust) is not seen as indexed")
	}
	if err := tv.ix.Refresh(ctx, fsys, "a.md", "gone.md"); err != nil {
		t.Fatalf("refresh of indexed notes while another holds the lock: %v", err)
	}
	tv.write("a.md", "# A\n\nChanged.\n")
	if tv.ix.indexedAlready(ctx, fsys, []string{"a.md"}) {
		t.Error("a changed note is seen as indexed")
	}
}

// TestSearchTakesLoadedChunks: a search given the chunks a caller holds
// takes those from it, with its own scores and snippets, and reads the
// rest: the same results as without, in the same order, but for what the
// caller's copy says.
func TestSearchTakesLoadedChunks(t *testing.T) {
	tv := newTestVault(t, "memory-folder", Options{NoVectors: true})
	tv.sync()
	ctx := context.Background()
	q := Query{Text: "tests freeze release pipeline mobile senior project", Mode: Keyword, Limit: 20, AnyWord: true}
	want, err := tv.ix.Searcher().Search(ctx, q)
	if err != nil || len(want) < 3 {
		t.Fatalf("%d results, %v: too few to test", len(want), err)
	}
	held := map[int64]Result{}
	for i, r := range want {
		if i%2 == 1 {
			r.Text, r.Score = "the caller's copy", -1
			held[r.Chunk] = r
		}
	}
	asked := 0
	q.Loaded = func(id int64) (Result, bool) {
		asked++
		r, ok := held[id]
		return r, ok
	}
	got, err := tv.ix.Searcher().Search(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) || asked != len(want) {
		t.Fatalf("%d results (%d asked of Loaded), want %d", len(got), asked, len(want))
	}
	for i := range want {
		w := want[i]
		if i%2 == 1 {
			w.Text = "the caller's copy"
			w.Snippet = snippet(w.Text, queryWords(q.Text))
		}
		if got[i] != w {
			t.Errorf("result %d: %+v\nwant %+v", i, got[i], w)
		}
	}
}

// TestNewChunksWaitForVectors checks that the chunks a sync inserts, and
// only those, wait for a vector, also when the note holding the largest
// chunk ids is replaced or removed first (new chunks then take ids below
// the old largest).
func TestNewChunksWaitForVectors(t *testing.T) {
	tv := newTestVault(t, "", Options{})
	body := func(words string) string {
		return "# Top\n\n" + words + "\n\n## One\n\n" + words + " one\n\n## Two\n\n" + words + " two\n"
	}
	tv.write("a.md", body("alpha apples"))
	tv.write("b.md", body("beta bananas"))
	tv.write("z.md", body("zeta zucchini")) // written last: the largest chunk ids
	tv.sync()
	ctx := context.Background()
	waiting := func() (pending, without int) {
		t.Helper()
		if err := tv.ix.db.QueryRowContext(ctx, `SELECT count(*) FROM pending`).Scan(&pending); err != nil {
			t.Fatal(err)
		}
		if err := tv.ix.db.QueryRowContext(ctx, `SELECT count(*) FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM vectors v WHERE v.chunk_id = c.id)`).Scan(&without); err != nil {
			t.Fatal(err)
		}
		return pending, without
	}
	if p, w := waiting(); p != 0 || w != 0 {
		t.Fatalf("after a full sync: %d chunks pending, %d without a vector; want none", p, w)
	}
	for _, step := range []struct {
		name   string
		change func()
	}{
		{"the last note replaced", func() { tv.write("z.md", body("zeta zest")) }},
		{"the last note removed, another added", func() { tv.remove("z.md"); tv.write("c.md", body("gamma grapes")) }},
		{"a note in the middle replaced", func() { tv.write("b.md", body("beta berries")) }},
	} {
		step.change()
		if _, err := tv.ix.SyncWithoutVectors(ctx, os.DirFS(tv.dir), nil); err != nil {
			t.Fatal(err)
		}
		var stale int
		if err := tv.ix.db.QueryRowContext(ctx, `SELECT count(*) FROM pending p WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = p.chunk_id)
			OR EXISTS (SELECT 1 FROM vectors v WHERE v.chunk_id = p.chunk_id)`).Scan(&stale); err != nil {
			t.Fatal(err)
		}
		if p, w := waiting(); p != w || p == 0 || stale != 0 {
			t.Fatalf("%s: %d chunks pending, %d without a vector, %d pending that are gone or have one", step.name, p, w, stale)
		}
		tv.sync()
		if p, w := waiting(); p != 0 || w != 0 {
			t.Fatalf("%s, then a full sync: %d chunks pending, %d without a vector; want none", step.name, p, w)
		}
	}
	tv.assertFresh()
}

// TestFullTextRowsAreTheirChunks checks that every chunk's full-text row
// has the chunk's id and holds that chunk's words, for notes of no chunk,
// one, a few and hundreds.
func TestFullTextRowsAreTheirChunks(t *testing.T) {
	tv := newTestVault(t, "", Options{})
	section := func(i int) string {
		return "## Part " + strconv.Itoa(i) + "\n\nword" + strconv.Itoa(i) + " in part " + strconv.Itoa(i) + "\n\n"
	}
	var long strings.Builder
	for i := range 230 {
		long.WriteString(section(i))
	}
	tv.write("empty.md", "")
	tv.write("one.md", "just one line\n")
	tv.write("few.md", section(1)+section(2)+section(3))
	tv.write("long.md", long.String())
	tv.write("after.md", section(7)+section(8))
	tv.sync()
	tv.write("few.md", section(4)+section(5)) // replaced: new ids after long.md's
	tv.sync()
	// In one sync: the note holding the largest ids replaced (its new
	// chunks may take its old chunks' ids), another replaced and one
	// removed, the queued full-text rows flushed every few rows.
	batch := ftsBatchBytes
	ftsBatchBytes = 64
	t.Cleanup(func() { ftsBatchBytes = batch })
	tv.write("few.md", section(9)+section(10)+section(11))
	tv.write("long.md", long.String()+section(300))
	tv.remove("one.md")
	tv.sync()
	ctx := context.Background()
	rows, err := tv.ix.db.QueryContext(ctx, `SELECT n.path, c.seq, c.heading, c.text, f.heading, f.text
		FROM chunks c JOIN notes n ON n.id = c.note_id LEFT JOIN chunks_fts f ON f.rowid = c.id ORDER BY c.id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var path, heading, body string
		var seq int
		var fHeading, fText sql.NullString
		if err := rows.Scan(&path, &seq, &heading, &body, &fHeading, &fText); err != nil {
			t.Fatal(err)
		}
		n++
		if fHeading.String != text.Analyzed(heading) || fText.String != text.Analyzed(body) {
			t.Errorf("%s chunk %d (%q): full-text row holds %q / %q", path, seq, heading, fHeading.String, fText.String)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	var fts int
	if err := tv.ix.db.QueryRowContext(ctx, `SELECT count(*) FROM chunks_fts`).Scan(&fts); err != nil {
		t.Fatal(err)
	}
	if n < 236 || fts != n {
		t.Errorf("%d chunks, %d full-text rows", n, fts)
	}
}

// TestStoreVectorsOfChunksGone checks that vectors are stored byte for
// byte, and not for the chunks a sync deleted after they were listed.
func TestStoreVectorsOfChunksGone(t *testing.T) {
	tv := newTestVault(t, "", Options{})
	tv.write("base.md", "# Base\n\ngamma grapes\n")
	tv.sync() // not empty: the next sync has no warm start, which stores its vectors itself
	tv.write("keep.md", "# Keep\n\nalpha apples\n\n## More\n\nalpha again\n")
	tv.write("gone.md", "# Gone\n\nbeta bananas\n")
	ctx := context.Background()
	if _, err := tv.ix.SyncWithoutVectors(ctx, os.DirFS(tv.dir), nil); err != nil {
		t.Fatal(err)
	}
	batch, err := tv.ix.vstore.pending(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	tv.remove("gone.md")
	if _, err := tv.ix.SyncWithoutVectors(ctx, os.DirFS(tv.dir), nil); err != nil {
		t.Fatal(err)
	}
	vecs := make([][]byte, len(batch))
	want := map[int64][]byte{}
	for i, p := range batch {
		vecs[i] = vectors.Encode([]float32{float32(i) + 0.5, -1, 0.25})
		if p.path == "keep.md" {
			want[p.id] = vecs[i]
		}
	}
	if len(want) == 0 || len(want) == len(batch) {
		t.Fatalf("pending %+v: want chunks of both notes", batch)
	}
	if err := tv.ix.vstore.storeVectors(ctx, batch, vecs); err != nil {
		t.Fatal(err)
	}
	rows, err := tv.ix.db.QueryContext(ctx, `SELECT v.chunk_id, v.vec FROM vectors v JOIN chunks c ON c.id = v.chunk_id JOIN notes n ON n.id = c.note_id WHERE n.path != 'base.md'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	got := map[int64][]byte{}
	for rows.Next() {
		var id int64
		var v []byte
		if err := rows.Scan(&id, &v); err != nil {
			t.Fatal(err)
		}
		got[id] = v
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("stored vectors %v, want %v", got, want)
	}
	var waiting int
	if err := tv.ix.db.QueryRowContext(ctx, `SELECT count(*) FROM pending`).Scan(&waiting); err != nil || waiting != 0 {
		t.Errorf("%d chunks still pending (%v)", waiting, err)
	}
}

// TestSyncOfANoteLargerThanTheReadAhead checks that a note larger than
// what the readers may hold ahead of the writer (maxAheadBytes) is read
// and written all the same, with the notes around it (it waited for ever
// were its weight not capped).
func TestSyncOfANoteLargerThanTheReadAhead(t *testing.T) {
	tv := newTestVault(t, "", Options{NoVectors: true})
	line := "a line of the long note about harbours\n"
	tv.write("a.md", "before\n")
	tv.write("long.md", "# Long\n\n"+strings.Repeat(line, maxAheadBytes/len(line)+100))
	tv.write("z.md", "after\n")
	st := tv.sync()
	if st.Notes != 3 || len(st.Skipped) != 0 {
		t.Fatalf("synced %+v", st)
	}
	hits, err := tv.ix.Searcher().Search(context.Background(), Query{Text: "harbours", Mode: Keyword, Limit: 1})
	if err != nil || len(hits) != 1 || hits[0].Path != "long.md" {
		t.Errorf("search: %+v, %v", hits, err)
	}
}
