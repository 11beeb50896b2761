package index

import (
	"context"
	"database/sql"
	"slices"
	"sync"

	"github.com/vaultmem/vaultmem/embed"
)

// warmStart fits the default embedder and embeds the new chunks while the
// single writer is still storing them. It is used when a sync fills an
// empty index (the first index of a vault, or a rebuild): then every chunk
// is new, the readers hand over every chunk's text, and the fit, which
// otherwise would start only after the writer, runs on the cores the
// writer leaves idle.
type warmStart struct {
	ctx     context.Context
	mu      sync.Mutex
	docs    []string
	started bool
	done    chan struct{}

	// Set when done is closed.
	model *embed.LSA
	fit   int                  // how many chunks it was fitted on
	vecs  map[string][]float32 // by embed text
	err   error
}

// newWarmStart returns a warm start for the sync in tx, or nil when the
// index already has chunks or does not use the default embedder.
func (ix *Index) newWarmStart(ctx context.Context, tx *sql.Tx) (*warmStart, error) {
	if ix.opts.NoVectors || ix.opts.Embedder != nil {
		return nil, nil
	}
	var any bool
	if err := tx.QueryRowContext(ctx, "SELECT EXISTS(SELECT 1 FROM chunks)").Scan(&any); err != nil || any {
		return nil, err
	}
	return &warmStart{ctx: ctx, done: make(chan struct{})}, nil
}

// add records the embed texts of a note's new chunks. Safe for concurrent
// use; a nil warmStart ignores it.
func (w *warmStart) add(nr *noteRows) {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, c := range nr.chunks {
		w.docs = append(w.docs, nr.embedText(c))
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
		if len(w.docs) == 0 {
			return
		}
		// Sorted, so that the same notes give the same model whatever
		// order the readers finished in.
		slices.Sort(w.docs)
		w.fit = len(w.docs)
		var vecs [][]float32
		if w.model, vecs, w.err = embed.FitLSAEmbed(w.ctx, w.docs, embed.LSAOptions{}); w.err != nil {
			return
		}
		w.vecs = make(map[string][]float32, len(vecs))
		for i, v := range vecs {
			w.vecs[w.docs[i]] = v
		}
		w.docs = nil
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

// vectors returns the warm start's vectors of texts, if it has them all.
func (w *warmStart) vectors(texts []string) ([][]float32, bool) {
	if w == nil || w.vecs == nil {
		return nil, false
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v, ok := w.vecs[t]
		if !ok {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}
