package index

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/vaultmem/vaultmem/index/internal/vectors"
)

// vectorsOf opens the index anew, as another process would, and returns
// its vectors as chunk id → "note score" for a fixed query (equal scores
// mean equal vectors), and whether it loaded them from the pack (mapped)
// rather than the database.
func vectorsOf(t *testing.T, tv *testVault) (map[int64]string, bool) {
	t.Helper()
	ctx := context.Background()
	ix := tv.open()
	defer ix.Close()
	vs, err := ix.vstore.vectors(ctx)
	if err != nil {
		t.Fatal(err)
	}
	notes := map[int64]int64{}
	keep := func(note, chunk int64) bool { notes[chunk] = note; return true }
	rng := rand.New(rand.NewPCG(1, 2))
	q := make([]float32, vs.Dims())
	for i := range q {
		q[i] = rng.Float32() - 0.5
	}
	found, err := vs.Nearest(ctx, q, max(vs.Len(), 1), keep)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int64]string{}
	for _, f := range found {
		out[f.ID] = fmt.Sprintf("%d %v", notes[f.ID], f.Score)
	}
	return out, len(ix.unmaps) == 1
}

// vectorsFromDB is vectorsOf with the pack moved aside: every vector
// read from the database.
func vectorsFromDB(t *testing.T, tv *testVault) map[int64]string {
	t.Helper()
	p := tv.ix.vstore.packPath()
	if err := os.Rename(p, p+".aside"); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	defer os.Rename(p+".aside", p)
	got, mapped := vectorsOf(t, tv)
	if mapped {
		t.Fatal("a pack was read with the pack moved aside")
	}
	return got
}

// TestVectorPackDelta holds the pack and its delta to the vectors a full
// load from the database gives, after adds, drops, rewrites, a rebuild, a
// torn delta and a crash between the version and the delta: a few new
// vectors extend the delta and leave the pack, a stale or damaged delta
// is ignored.
func TestVectorPackDelta(t *testing.T) {
	ctx := context.Background()
	tv := newTestVault(t, "memory-folder", Options{})
	for i := range 60 {
		tv.write(fmt.Sprintf("memory/base%d.md", i), fmt.Sprintf("---\nname: base%d\ndescription: base %d\ntype: project\n---\nThe base fact number %d is about harbour %d.\n", i, i, i, i*7))
	}
	tv.sync()
	if err := tv.ix.Pack(ctx); err != nil {
		t.Fatal(err)
	}
	base := tv.ix.vstore.packVersion()
	if base == "" {
		t.Fatal("no pack written")
	}
	// step makes a change, packs, and checks how the vectors load.
	step := func(name string, change func(), wantDelta bool) {
		t.Helper()
		change()
		tv.sync()
		if err := tv.ix.Pack(ctx); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		version, _ := tv.ix.meta(ctx, tv.ix.db, metaVectorsVersion)
		pv := tv.ix.vstore.packVersion()
		if wantDelta && (pv == version || !tv.ix.vstore.deltaCurrent(pv, version)) {
			t.Errorf("%s: pack at %s, index at %s: want the pack kept and a delta", name, pv, version)
		}
		if !wantDelta && pv != version {
			t.Errorf("%s: pack at %s, index at %s: want the pack written whole", name, pv, version)
		}
		got, mapped := vectorsOf(t, tv)
		if !mapped {
			t.Errorf("%s: the pack (and delta) were not used", name)
		}
		if want := vectorsFromDB(t, tv); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: from the pack %d vectors\n%v\nfrom the database %d\n%v", name, len(got), got, len(want), want)
		}
	}
	step("a new note", func() {
		tv.write("memory/new.md", "---\nname: new\ndescription: new\ntype: project\n---\nDeploys go out on Tuesdays after the freeze.\n")
	}, true)
	step("a note rewritten", func() {
		tv.write("memory/new.md", "---\nname: new\ndescription: new\ntype: project\n---\nDeploys now go out on Thursdays.\n\n## More\n\nAnd on Fridays in summer.\n")
	}, true)
	step("a note removed", func() { tv.remove("memory/base3.md") }, true)
	if tv.ix.vstore.packVersion() != base {
		t.Fatalf("the pack was rewritten after small changes")
	}

	// A crash after the version moved and before the delta was written:
	// the delta is behind the index, and ignored.
	behind, err := os.ReadFile(tv.ix.vstore.deltaPath())
	if err != nil {
		t.Fatal(err)
	}
	tv.write("memory/crash.md", "---\nname: crash\ndescription: crash\ntype: project\n---\nThe crash left the delta behind.\n")
	tv.sync()
	if err := os.WriteFile(tv.ix.vstore.deltaPath(), behind, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, mapped := vectorsOf(t, tv); mapped || !reflect.DeepEqual(got, vectorsFromDB(t, tv)) {
		t.Errorf("a delta behind the index: used %v, or not the database's vectors", mapped)
	}
	// The chain from the pack is broken: the next change leaves it, and
	// Pack writes the pack whole.
	step("after a stale delta", func() { tv.remove("memory/base4.md") }, false)

	// A torn delta is ignored.
	step("a new note after the whole pack", func() {
		tv.write("memory/torn.md", "---\nname: torn\ndescription: torn\ntype: project\n---\nA note whose delta is torn.\n")
	}, true)
	whole, err := os.ReadFile(tv.ix.vstore.deltaPath())
	if err != nil {
		t.Fatal(err)
	}
	for _, cut := range []int{1, len(whole) / 2, len(whole) - 1} {
		if err := os.WriteFile(tv.ix.vstore.deltaPath(), whole[:cut], 0o644); err != nil {
			t.Fatal(err)
		}
		if got, mapped := vectorsOf(t, tv); mapped || !reflect.DeepEqual(got, vectorsFromDB(t, tv)) {
			t.Errorf("a delta cut to %d of %d bytes: used %v, or not the database's vectors", cut, len(whole), mapped)
		}
	}
	flipped := append([]byte(nil), whole...)
	flipped[len(flipped)/2] ^= 1
	if err := os.WriteFile(tv.ix.vstore.deltaPath(), flipped, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, mapped := vectorsOf(t, tv); mapped || !reflect.DeepEqual(got, vectorsFromDB(t, tv)) {
		t.Errorf("a damaged delta: used %v, or not the database's vectors", mapped)
	}
	// A delta ahead of the index (its change never committed) is ignored.
	d, err := vectors.DecodeDelta(whole)
	if err != nil {
		t.Fatal(err)
	}
	d.Target = "feedface"
	if err := os.WriteFile(tv.ix.vstore.deltaPath(), vectors.EncodeDelta(d), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, mapped := vectorsOf(t, tv); mapped || !reflect.DeepEqual(got, vectorsFromDB(t, tv)) {
		t.Errorf("a delta ahead of the index: used %v, or not the database's vectors", mapped)
	}
	if err := os.WriteFile(tv.ix.vstore.deltaPath(), whole, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, mapped := vectorsOf(t, tv); !mapped {
		t.Error("the delta written back was not used")
	}

	// Many new vectors at once pass deltaShare: the pack is written whole.
	step("many new notes", func() {
		for i := range 20 {
			tv.write(fmt.Sprintf("memory/many%d.md", i), fmt.Sprintf("---\nname: many%d\ndescription: many\ntype: project\n---\nMany notes, number %d.\n", i, i))
		}
	}, false)
	if _, err := os.Stat(tv.ix.vstore.deltaPath()); !os.IsNotExist(err) {
		t.Errorf("a delta past its share was kept: %v", err)
	}

	// A rebuild: the database is made again, its versions are new, and
	// the old pack and delta are never used.
	step("one more note", func() {
		tv.write("memory/last.md", "---\nname: last\ndescription: last\ntype: project\n---\nThe last note before the rebuild.\n")
	}, true)
	tv.ix.Close()
	cache := filepath.Dir(tv.ix.vstore.packPath())
	entries, err := os.ReadDir(cache)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != packFile && e.Name() != deltaFile {
			os.RemoveAll(filepath.Join(cache, e.Name()))
		}
	}
	tv.ix = tv.open()
	tv.sync()
	if got, mapped := vectorsOf(t, tv); mapped || !reflect.DeepEqual(got, vectorsFromDB(t, tv)) {
		t.Errorf("after a rebuild: the old pack used %v, or not the database's vectors", mapped)
	}
	step("a new note after the rebuild", func() {
		tv.write("memory/rebuilt.md", "---\nname: rebuilt\ndescription: rebuilt\ntype: project\n---\nA note after the rebuild.\n")
	}, false)
	step("another after the rebuild's pack", func() {
		tv.write("memory/rebuilt2.md", "---\nname: rebuilt2\ndescription: rebuilt\ntype: project\n---\nAnother note after the rebuild.\n")
	}, true)
}
