package index

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/embed"
)

// TestWarmStartFitsWhatARefitWould: the first index of a vault counts its
// chunks as the readers read them and fits the default embedder on them:
// the model is byte for byte the one a refit fits on the stored chunks
// (by path, then chunk number, some notes with more than ten chunks), and
// every chunk gets the vector that model gives it.
func TestWarmStartFitsWhatARefitWould(t *testing.T) {
	tv := newTestVault(t, "memory-folder", Options{})
	topics := []string{"ferry harbour timetable winter", "compiler cache linker flags", "garden tomatoes compost rain",
		"invoice ledger tax export", "violin orchestra concert rehearsal"}
	for n := range 12 {
		var b strings.Builder
		fmt.Fprintf(&b, "# Note %d\n\n", n)
		for sec := range 3 + n {
			topic := topics[(n+sec)%len(topics)]
			fmt.Fprintf(&b, "## Part %d\n\n", sec)
			for range 40 { // long enough for a chunk per section
				fmt.Fprintf(&b, "The %s of part %d of note %d. ", topic, sec, n)
			}
			b.WriteString("\n\n")
		}
		tv.write(fmt.Sprintf("notes/n%02d.md", n), b.String())
	}
	st := tv.sync()
	ctx := context.Background()
	var most int
	if err := tv.ix.db.QueryRowContext(ctx, "SELECT max(seq) FROM chunks").Scan(&most); err != nil || most < 10 {
		t.Fatalf("no note with more than ten chunks (%d, %v): the order of chunk numbers is not tested", most, err)
	}
	state, err := tv.ix.vstore.loadLSA(ctx)
	if err != nil || state == nil {
		t.Fatalf("no model stored: %v", err)
	}
	rows, err := tv.ix.db.QueryContext(ctx, "SELECT "+embedTextSQL+" FROM chunks c JOIN notes n ON n.id = c.note_id ORDER BY n.path, c.seq")
	if err != nil {
		t.Fatal(err)
	}
	var docs []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		docs = append(docs, s)
	}
	rows.Close()
	if st.Embedded != len(docs) || state.fitChunks != len(docs) {
		t.Errorf("%d chunks, %d embedded, model fitted on %d", len(docs), st.Embedded, state.fitChunks)
	}
	want, err := embed.FitLSA(ctx, docs, embed.LSAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := state.model.MarshalBinary()
	refit, _ := want.MarshalBinary()
	if !bytes.Equal(got, refit) {
		t.Fatal("the warm start's model differs from a refit's on the same chunks")
	}
	// Every chunk's stored vector is the model's (within quantization), as
	// searches hold it: a query along one dimension scores each chunk by
	// its component in that dimension (the scale times the code, exactly).
	vs, err := tv.ix.vstore.vectors(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wantVecs, err := want.Embed(ctx, docs)
	if err != nil {
		t.Fatal(err)
	}
	dims := len(wantVecs[0])
	held := map[int64][]float32{}
	for d := range dims {
		axis := make([]float32, dims)
		axis[d] = 1
		hits, err := vs.Nearest(ctx, axis, vs.Len(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hits {
			if held[h.ID] == nil {
				held[h.ID] = make([]float32, dims)
			}
			held[h.ID][d] = float32(h.Score)
		}
	}
	rows, err = tv.ix.db.QueryContext(ctx, "SELECT c.id FROM chunks c JOIN notes n ON n.id = c.note_id ORDER BY n.path, c.seq")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for k := 0; rows.Next(); k++ {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		v, ok := held[id]
		if !ok {
			t.Fatalf("chunk %d has no vector", id)
		}
		var top float32
		for _, x := range wantVecs[k] {
			top = max(top, abs32(x))
		}
		scale := top / 127 // the step of the quantized model vector
		for d, x := range wantVecs[k] {
			if got := v[d]; abs32(got-x) > scale/2+1e-4 {
				t.Fatalf("chunk %d (%q...), dimension %d: %g, the model gives %g", id, docs[k][:20], d, got, x)
			}
		}
	}
}

func abs32(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}

// TestColdIndexStoresVectorsWithChunks checks that a sync filling an
// empty index stores the warm start's model and every chunk's vector in
// its own transaction: no chunk waits in the pending table, also for a
// sync that asks for no vectors (the warm start computed them anyway),
// and a vector search finds the notes at once.
func TestColdIndexStoresVectorsWithChunks(t *testing.T) {
	tv := newTestVault(t, "memory-folder", Options{})
	tv.write("notes/ferry.md", "# Ferry\n\nThe ferry timetable changes in winter.\n\n## Harbour\n\nThe harbour closes at dusk.\n")
	ctx := context.Background()
	st, err := tv.ix.SyncWithoutVectors(ctx, os.DirFS(tv.dir), nil)
	if err != nil {
		t.Fatal(err)
	}
	var chunks, vectors, pending int
	if err := tv.ix.db.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM chunks), (SELECT count(*) FROM vectors), (SELECT count(*) FROM pending)`).Scan(&chunks, &vectors, &pending); err != nil {
		t.Fatal(err)
	}
	if chunks == 0 || vectors != chunks || pending != 0 || st.Embedded != chunks {
		t.Fatalf("%d chunks, %d vectors, %d pending, %d embedded", chunks, vectors, pending, st.Embedded)
	}
	state, err := tv.ix.vstore.loadLSA(ctx)
	if err != nil || state == nil || state.fitChunks != chunks {
		t.Fatalf("model stored: %+v, %v", state, err)
	}
	if id, err := tv.ix.meta(ctx, tv.ix.db, "embedder"); err != nil || id != state.model.ID() {
		t.Errorf("embedder %q (%v), want the model's %q", id, err, state.model.ID())
	}
	if done, err := tv.ix.vstore.vectorsDone(ctx); !done || err != nil {
		t.Errorf("vectors done: %v, %v", done, err)
	}
	hits, err := tv.ix.Searcher().Search(ctx, Query{Text: "ferry timetable winter", Mode: Vector, Limit: 3})
	if err != nil || len(hits) == 0 || hits[0].Path != "notes/ferry.md" {
		t.Errorf("vector search: %+v, %v", hits, err)
	}
	if st := tv.sync(); st.Embedded != 0 {
		t.Errorf("the next sync embedded %d chunks again", st.Embedded)
	}
}
