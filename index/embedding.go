package index

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/vaultmem/vaultmem/embed"
	"github.com/vaultmem/vaultmem/index/internal/vectors"
	"github.com/vaultmem/vaultmem/vault"
)

// lsaState is the default embedder fitted on this vault.
type lsaState struct {
	model *embed.LSA
	// fitChunks is how many chunks the model was fitted on; version the
	// index's LSA version it was stored or loaded at.
	fitChunks int
	version   string
}

// currentLSA returns the model this process holds while it is the one the
// index stores, nil when it holds none or another process has stored a
// newer one since.
func (vx *vectorStore) currentLSA(ctx context.Context) (*lsaState, error) {
	vx.ix.mu.Lock()
	state := vx.ix.lsa
	vx.ix.mu.Unlock()
	if state == nil {
		return nil, nil
	}
	version, err := vx.ix.meta(ctx, vx.ix.db, metaLSAVersion)
	if err != nil || version != state.version {
		return nil, err
	}
	return state, nil
}

// Refit rules of the default embedder: the model is fitted again on all
// chunks when the chunks waiting for vectors use too many words it does
// not know, or when the vault has grown to twice the size it was fitted on.
const (
	refitDrift  = 0.25 // share of unknown words in new chunks
	refitShare  = 0.10 // ...when the new chunks are at least this share of the fit
	refitGrowth = 2.0
)

const embedBatch = 256

// pendingChunk is a chunk without a vector: chunk seq of the note at
// path, with its embed text (unless left out: see pending).
type pendingChunk struct {
	id, note int64
	path     string
	seq      int
	text     string
}

// embedText is what is embedded for a chunk: the note's title and the
// heading path give a short paragraph its context.
const embedTextSQL = `n.title || char(10) || c.heading || char(10) || c.text`

// embedPending gives every chunk without a vector one. Embedder failures
// do not fail the sync: they are reported in st.EmbedError and keyword
// search still works. (A cold index stored its warm start's model and
// vectors with its chunks: see storeWarm.)
func (vx *vectorStore) embedPending(ctx context.Context, st *Stats) error {
	if vx.ix.opts.NoVectors {
		return nil
	}
	if done, err := vx.vectorsDone(ctx); done || err != nil {
		return err
	}
	e, err := vx.embedder(ctx)
	if err != nil {
		st.EmbedError = err.Error()
		return nil
	}
	if e == nil {
		return nil // nothing to embed yet
	}
	if err := vx.useEmbedder(ctx, e.ID()); err != nil {
		return err
	}
	pending, err := vx.pending(ctx, true)
	if err != nil {
		return err
	}
	for len(pending) > 0 {
		batch := pending[:min(len(pending), embedBatch)]
		pending = pending[len(batch):]
		texts, err := vx.embedTexts(ctx, batch)
		if err != nil {
			return err
		}
		vecs, err := e.Embed(ctx, texts)
		if err == nil && len(vecs) != len(batch) {
			err = fmt.Errorf("embedder returned %d vectors for %d texts", len(vecs), len(batch))
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			st.EmbedError = fmt.Sprintf("embed with %s: %v", e.ID(), err)
			return nil
		}
		enc := make([][]byte, len(vecs))
		for i, v := range vecs {
			enc[i] = vectors.Encode(v)
		}
		if err := vx.storeVectors(ctx, batch, enc); err != nil {
			return err
		}
		st.Embedded += len(batch)
	}
	return nil
}

// vectorsDone reports whether every chunk has a vector of the configured
// embedder: no chunk waits in the pending table (which a new chunk enters
// unless its sync stored its vector with it, and storing its vector
// leaves) and the embedder is the one the vectors were made with.
func (vx *vectorStore) vectorsDone(ctx context.Context) (bool, error) {
	var waiting bool
	if err := vx.ix.db.QueryRowContext(ctx, "SELECT EXISTS(SELECT 1 FROM pending)").Scan(&waiting); err != nil || waiting {
		return false, err
	}
	if vx.ix.opts.Embedder == nil {
		return true, nil
	}
	id, err := vx.ix.meta(ctx, vx.ix.db, "embedder")
	return id == vx.ix.opts.Embedder.ID(), err
}

// embedder returns the configured embedder, or the vault's LSA model,
// fitting (or refitting) it when needed. It returns nil, nil when there is
// no text to fit on yet.
func (vx *vectorStore) embedder(ctx context.Context) (Embedder, error) {
	if vx.ix.opts.Embedder != nil {
		return vx.ix.opts.Embedder, nil
	}
	state, err := vx.currentLSA(ctx)
	if err != nil {
		return nil, err
	}
	if state == nil {
		if state, err = vx.loadLSA(ctx); err != nil {
			return nil, err
		}
	}
	var total int
	if err := vx.ix.db.QueryRowContext(ctx, "SELECT count(*) FROM chunks").Scan(&total); err != nil {
		return nil, err
	}
	if total == 0 {
		return nil, nil
	}
	refit := state == nil || float64(total) >= refitGrowth*float64(state.fitChunks)
	if !refit {
		pending, err := vx.pending(ctx, true)
		if err != nil {
			return nil, err
		}
		if float64(len(pending)) >= refitShare*float64(state.fitChunks) {
			texts := make([]string, len(pending))
			for i, p := range pending {
				texts[i] = p.text
			}
			refit = state.model.Drift(texts) > refitDrift
		}
	}
	if refit {
		var err error
		if state, err = vx.fitLSA(ctx); err != nil {
			return nil, err
		}
	}
	vx.ix.mu.Lock()
	vx.ix.lsa = state
	vx.ix.mu.Unlock()
	return state.model, nil
}

// loadLSA reads the stored model; nil when there is none.
func (vx *vectorStore) loadLSA(ctx context.Context) (*lsaState, error) {
	version, err := vx.ix.meta(ctx, vx.ix.db, metaLSAVersion)
	if err != nil {
		return nil, err
	}
	b := vx.readLSAFile(version)
	if b == nil {
		err = vx.ix.db.QueryRowContext(ctx, "SELECT value FROM blobs WHERE key = 'lsa'").Scan(&b)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("load embedder: %w", err)
		}
		vx.writeLSAFile(version, b)
	}
	m, err := embed.UnmarshalLSA(b)
	if err != nil {
		return nil, nil // unreadable: fit again
	}
	n, _ := vx.ix.meta(ctx, vx.ix.db, "lsa_fit_chunks")
	fit, _ := strconv.Atoi(n)
	return &lsaState{model: m, fitChunks: fit, version: version}, nil
}

// fitLSA fits the default embedder on every chunk (its directions on a
// sample of them: see embed.LSAOptions.Sample) and stores it.
func (vx *vectorStore) fitLSA(ctx context.Context) (*lsaState, error) {
	// In path order, so that the same notes give the same model.
	rows, err := vx.ix.db.QueryContext(ctx, "SELECT "+embedTextSQL+" FROM chunks c JOIN notes n ON n.id = c.note_id ORDER BY n.path, c.seq")
	if err != nil {
		return nil, fmt.Errorf("read chunks to fit embedder: %w", err)
	}
	var docs []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			rows.Close()
			return nil, err
		}
		docs = append(docs, s)
	}
	rows.Close()
	m, err := embed.FitLSA(ctx, docs, embed.LSAOptions{})
	if err != nil {
		return nil, fmt.Errorf("fit embedder: %w", err)
	}
	return vx.storeLSA(ctx, m, len(docs))
}

// storeLSA keeps model m, fitted on n chunks, in the cache.
func (vx *vectorStore) storeLSA(ctx context.Context, m *embed.LSA, n int) (*lsaState, error) {
	tx, err := vx.ix.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	state, b, err := putLSA(ctx, tx, m, n)
	if err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("store embedder: %w", err)
	}
	vx.writeLSAFile(state.version, b)
	return state, nil
}

// putLSA writes model m, fitted on n chunks, in tx; it returns the model's
// state once tx commits, and the model's bytes (for lsaFile).
func putLSA(ctx context.Context, tx *sql.Tx, m *embed.LSA, n int) (*lsaState, []byte, error) {
	b, err := m.MarshalBinary()
	if err != nil {
		return nil, nil, err
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO blobs(key, value) VALUES('lsa', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", b); err != nil {
		return nil, nil, err
	}
	if err := setMeta(ctx, tx, "lsa_fit_chunks", strconv.Itoa(n)); err != nil {
		return nil, nil, err
	}
	version := newVersion()
	if err := setMeta(ctx, tx, metaLSAVersion, version); err != nil {
		return nil, nil, err
	}
	return &lsaState{model: m, fitChunks: n, version: version}, b, nil
}

// metaLSAVersion names the meta row that changes with every model the
// default embedder stores; lsaFile, in the cache folder, holds the model
// as a file (its version on the first line), which a process reads in a
// few milliseconds where the blob takes tens through SQLite.
const (
	metaLSAVersion = "lsa_version"
	lsaFile        = "lsa.model"
)

// readLSAFile returns the model in lsaFile if it is of version; nil
// otherwise.
func (vx *vectorStore) readLSAFile(version string) []byte {
	if version == "" || vx.ix.memory {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(filepath.Dir(vx.ix.path), lsaFile))
	if err != nil {
		return nil
	}
	head, body, ok := bytes.Cut(b, []byte("\n"))
	if !ok || string(head) != version {
		return nil
	}
	return body
}

// writeLSAFile writes the model b of version to lsaFile, if it can; the
// model's own checksum catches a file a crash cut short.
func (vx *vectorStore) writeLSAFile(version string, b []byte) {
	if version == "" || vx.ix.memory || !vx.ix.writable() {
		return
	}
	vault.WriteCacheFile(filepath.Join(filepath.Dir(vx.ix.path), lsaFile), func(w io.Writer) error {
		_, err := w.Write(append([]byte(version+"\n"), b...))
		return err
	})
}

// useEmbedder drops the vectors of another embedder.
func (vx *vectorStore) useEmbedder(ctx context.Context, id string) error {
	cur, err := vx.ix.meta(ctx, vx.ix.db, "embedder")
	if err != nil || cur == id {
		return err
	}
	tx, err := vx.ix.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := vx.switchEmbedder(ctx, tx, id, true); err != nil {
		return err
	}
	if _, _, err := bumpVectorsVersion(ctx, tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	vx.invalidate()
	return nil
}

// switchEmbedder records id as the embedder of the vectors in tx, and
// drops every vector if it was another; then, with queue set, every chunk
// waits for one of id.
func (vx *vectorStore) switchEmbedder(ctx context.Context, tx *sql.Tx, id string, queue bool) error {
	cur, err := vx.ix.meta(ctx, tx, "embedder")
	if err != nil || cur == id {
		return err
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM vectors"); err != nil {
		return err
	}
	if queue {
		if _, err := tx.ExecContext(ctx, "INSERT OR IGNORE INTO pending(chunk_id) SELECT id FROM chunks"); err != nil {
			return err
		}
	}
	return setMeta(ctx, tx, "embedder", id)
}

// pending lists the chunks without a vector, with their embed texts when
// withText is set.
func (vx *vectorStore) pending(ctx context.Context, withText bool) ([]pendingChunk, error) {
	text := "''"
	if withText {
		text = embedTextSQL
	}
	rows, err := vx.ix.db.QueryContext(ctx, "SELECT c.id, c.note_id, n.path, c.seq, "+text+` FROM pending p
		CROSS JOIN chunks c ON c.id = p.chunk_id JOIN notes n ON n.id = c.note_id ORDER BY p.chunk_id`)
	if err != nil {
		return nil, fmt.Errorf("find chunks to embed: %w", err)
	}
	defer rows.Close()
	var out []pendingChunk
	for rows.Next() {
		var p pendingChunk
		if err := rows.Scan(&p.id, &p.note, &p.path, &p.seq, &p.text); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// embedTexts returns the embed texts of batch, reading those that pending
// left out. A chunk deleted since has none ("").
func (vx *vectorStore) embedTexts(ctx context.Context, batch []pendingChunk) ([]string, error) {
	texts := make([]string, len(batch))
	ids := map[int64]bool{}
	for i, p := range batch {
		texts[i] = p.text
		if p.text == "" {
			ids[p.id] = true
		}
	}
	if len(ids) == 0 {
		return texts, nil
	}
	rows, err := vx.ix.db.QueryContext(ctx, "SELECT c.id, "+embedTextSQL+` FROM chunks c JOIN notes n ON n.id = c.note_id
		WHERE c.id IN (SELECT value FROM json_each(?))`, idList(ids))
	if err != nil {
		return nil, fmt.Errorf("read chunks to embed: %w", err)
	}
	defer rows.Close()
	read := map[int64]string{}
	for rows.Next() {
		var id int64
		var t string
		if err := rows.Scan(&id, &t); err != nil {
			return nil, err
		}
		read[id] = t
	}
	for i, p := range batch {
		if ids[p.id] {
			texts[i] = read[p.id]
		}
	}
	return texts, rows.Err()
}

// storeVectors stores the encoded vectors (see vectors.Encode) of the
// chunks of batch, and takes them out of the pending table.
func (vx *vectorStore) storeVectors(ctx context.Context, batch []pendingChunk, vecs [][]byte) error {
	tx, err := vx.ix.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	batchIDs := make([]int64, len(batch))
	for i, p := range batch {
		batchIDs[i] = p.id
	}
	// A chunk a sync deleted in the meantime gets none.
	present, err := presentChunks(ctx, tx, batchIDs)
	if err != nil {
		return fmt.Errorf("store vectors: %w", err)
	}
	var ids, notes []int64
	var stored [][]byte
	for i, p := range batch {
		if present[p.id] {
			ids, notes, stored = append(ids, p.id), append(notes, p.note), append(stored, vecs[i])
		}
	}
	if err := insertVectors(ctx, tx, ids, stored); err != nil {
		return err
	}
	// The batch is no longer pending: one statement for all of it.
	if _, err := tx.ExecContext(ctx, "DELETE FROM pending WHERE chunk_id IN (SELECT value FROM json_each(?))", jsonString(batchIDs)); err != nil {
		return fmt.Errorf("store vectors: %w", err)
	}
	before, after, err := bumpVectorsVersion(ctx, tx)
	if err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	vx.advanceVectors(before, after, vectors.Change{IDs: ids, Notes: notes, Vecs: stored}, false)
	return nil
}

// insertVectors stores the encoded vectors of the chunks ids, many a
// statement, as a JSON array of [id, hex] that SQLite decodes: a
// statement a vector was a second of a cold index at 13,400 notes.
func insertVectors(ctx context.Context, tx *sql.Tx, ids []int64, vecs [][]byte) error {
	var buf []byte
	for start := 0; start < len(ids); start += vectorsAStatement {
		end := min(len(ids), start+vectorsAStatement)
		buf = append(buf[:0], '[')
		for k := start; k < end; k++ {
			if k > start {
				buf = append(buf, ',')
			}
			buf = append(buf, '[')
			buf = strconv.AppendInt(buf, ids[k], 10)
			buf = append(buf, ',', '"')
			buf = hex.AppendEncode(buf, vecs[k])
			buf = append(buf, '"', ']')
		}
		buf = append(buf, ']')
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO vectors(chunk_id, vec) SELECT value->>0, unhex(value->>1) FROM json_each(?)`, string(buf)); err != nil {
			return fmt.Errorf("store vectors: %w", err)
		}
	}
	return nil
}

// vectorsAStatement is how many vectors insertVectors stores a statement.
const vectorsAStatement = 2000

// presentChunks returns which of ids are chunks in the index.
func presentChunks(ctx context.Context, tx *sql.Tx, ids []int64) (map[int64]bool, error) {
	rows, err := tx.QueryContext(ctx, `SELECT c.id FROM json_each(?) j CROSS JOIN chunks c ON c.id = j.value`, jsonString(ids))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	present := make(map[int64]bool, len(ids))
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		present[id] = true
	}
	return present, rows.Err()
}
