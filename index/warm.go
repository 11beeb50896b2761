package index

import (
	"context"
	"database/sql"
	"fmt"
	"sync"

	"github.com/vaultmem/vaultmem/embed"
	"github.com/vaultmem/vaultmem/index/internal/vectors"
)

// warmStart fits the default embedder and embeds the new chunks while the
// single writer is still storing them. It is used when a sync fills an
// empty index (the first index of a vault, or a rebuild): then every chunk
// is new, the readers count every chunk's terms as they read it (see
// embed.Corpus: the texts are not kept), and the fit, which otherwise
// would start only after the writer, runs on the cores the writer leaves
// idle. The writer stores the model and the vectors with the chunks (see
// storeWarm).
type warmStart struct {
	ctx     context.Context
	corpus  *embed.Corpus
	mu      sync.Mutex
	started bool
	done    chan struct{}

	// Set when done is closed.
	model *embed.LSA
	fit   int               // how many chunks it was fitted on (see fitLSA)
	vecs  map[string][]byte // encoded (see vectors.Encode), by chunk (see chunkKey)
	err   error

	// heavyDone ends the cold index's heavy work (see
	// Options.HeavyWork); release calls it.
	heavyDone   func()
	releaseOnce sync.Once
}

// release ends what the warm start holds for the rest of the sync: its
// heavy work (see Options.HeavyWork). A nil warmStart ignores it.
func (w *warmStart) release() {
	if w != nil {
		w.releaseOnce.Do(w.heavyDone)
	}
}

// newWarmStart returns a warm start for the sync in tx, or nil when the
// index already has chunks or does not use the default embedder.
func (sr *Searcher) newWarmStart(ctx context.Context, tx *sql.Tx) (*warmStart, error) {
	if sr.ix.opts.NoVectors || sr.ix.opts.Embedder != nil {
		return nil, nil
	}
	var any bool
	if err := tx.QueryRowContext(ctx, "SELECT EXISTS(SELECT 1 FROM chunks)").Scan(&any); err != nil || any {
		return nil, err
	}
	return &warmStart{ctx: ctx, corpus: embed.NewCorpus(), done: make(chan struct{}), heavyDone: sr.ix.opts.heavyWork()}, nil
}

// chunkKey identifies chunk seq of the note at path. Keys sort as the
// chunks do by path, then seq (as fitLSA reads them), so that a warm
// start fits the model a refit would.
func chunkKey(path string, seq int) string {
	return fmt.Sprintf("%s\x00%010d", path, seq)
}

// add counts the embed texts of a note's new chunks. Safe for concurrent
// use; a nil warmStart ignores it.
func (w *warmStart) add(nr *noteRows) {
	if w == nil {
		return
	}
	for i, c := range nr.chunks {
		w.corpus.Add(chunkKey(nr.path, i), nr.embedText(c))
	}
}

// start fits and embeds in the background, once every text was added.
// The caller must call wait.
func (w *warmStart) start() {
	if w == nil {
		return
	}
	w.mu.Lock()
	w.started = true
	w.mu.Unlock()
	go func() {
		defer close(w.done)
		if w.corpus.Len() == 0 {
			return
		}
		// In key order, so that the same notes give the same model
		// whatever order the readers finished in. The vectors are kept
		// as they will be stored: a quarter of the memory of float32s.
		w.fit = w.corpus.Len()
		vecs := make(map[string][]byte, w.fit)
		w.model, w.err = embed.FitLSACorpus(w.ctx, w.corpus, embed.LSAOptions{}, func(keys []string, batch [][]float32) {
			for i, v := range batch {
				vecs[keys[i]] = vectors.Encode(v)
			}
		})
		w.corpus = nil
		if w.err == nil {
			w.vecs = vecs
		}
	}()
}

// wait waits for the background work; it returns at once when start was
// never called (the sync failed before reading) or w is nil. It must not
// run concurrently with start.
func (w *warmStart) wait() {
	if w == nil {
		return
	}
	w.mu.Lock()
	started := w.started
	w.mu.Unlock()
	if started {
		<-w.done
	}
}

// warmStored is what storeWarm stored, for the index's memory once the
// transaction commits.
type warmStored struct {
	lsa      *lsaState
	model    []byte // lsa's bytes, for lsaFile
	embedded int    // the chunks given a vector
}

// storeWarm stores in the sync's transaction what warm fitted, once it is
// done: the model, and the vectors of the chunks w inserted, which then
// never wait in the pending table (inserting them there, listing them and
// deleting them again took a second of a cold index at 13,400 notes). It
// returns nil, storing nothing, when warm has no model.
func (sr *Searcher) storeWarm(ctx context.Context, tx *sql.Tx, w *writer, warm *warmStart) (*warmStored, error) {
	warm.wait()
	if warm.err != nil || warm.model == nil || warm.vecs == nil {
		return nil, nil
	}
	state, b, err := putLSA(ctx, tx, warm.model, warm.fit)
	if err != nil {
		return nil, err
	}
	// Every chunk in the index is new (a warm start fills an empty one):
	// pendNew queues those left without a vector.
	if err := sr.ix.vstore.switchEmbedder(ctx, tx, warm.model.ID(), false); err != nil {
		return nil, err
	}
	out := &warmStored{lsa: state, model: b}
	ids := make([]int64, 0, vectorsAStatement)
	vecs := make([][]byte, 0, vectorsAStatement)
	for _, r := range w.newChunks {
		for k := range r.n {
			id := r.first + int64(k)
			v, ok := warm.vecs[chunkKey(r.path, r.seq0+k)]
			if !ok {
				w.unvectored = append(w.unvectored, id)
				continue
			}
			ids, vecs = append(ids, id), append(vecs, v)
			if len(ids) == vectorsAStatement {
				if err := insertVectors(ctx, tx, ids, vecs); err != nil {
					return nil, err
				}
				out.embedded += len(ids)
				ids, vecs = ids[:0], vecs[:0]
			}
		}
	}
	if err := insertVectors(ctx, tx, ids, vecs); err != nil {
		return nil, err
	}
	out.embedded += len(ids)
	w.warmed = true
	return out, nil
}

// keepWarm makes what storeWarm stored the index's, once its
// transaction committed.
func (sr *Searcher) keepWarm(s *warmStored) {
	sr.ix.mu.Lock()
	sr.ix.lsa = s.lsa
	sr.ix.vec = nil // read again when needed, with these
	sr.ix.mu.Unlock()
	sr.ix.vstore.writeLSAFile(s.lsa.version, s.model)
}
