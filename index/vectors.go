package index

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/vaultmem/vaultmem/index/internal/vectors"
)

// advanceVectors brings the in-memory vectors from version before to
// after by change, after this process committed that change: when they
// were at before, change makes the set at after without a read of every
// vector; otherwise (not loaded, or another process changed the index in
// between) they are read again on next use. The change also extends the
// vector pack's delta (see journal), so that the next process loads the
// pack and the delta instead of every vector. partial says the change
// holds only part of what the transaction did (a warm start's vectors go
// in beside it): it moves nothing along, and the pack is written whole.
func (vx *vectorStore) advanceVectors(before, after string, change vectors.Change, partial bool) {
	vx.journal(before, after, change, partial)
	vx.ix.mu.Lock()
	defer vx.ix.mu.Unlock()
	switch {
	case vx.ix.vec == nil:
	case partial || before == "" || vx.ix.vec.Version() != before:
		vx.ix.vec = nil
	default:
		vx.ix.vec = vx.ix.vec.Apply(change, after)
	}
}

// vectors returns the in-memory vector set, loading it on first use and
// again when the index's vectors changed since (this process's own
// changes move it along instead: see advanceVectors; another process's,
// a note saved by a CLI command while a server runs, make it load again).
func (vx *vectorStore) vectors(ctx context.Context) (*vectors.Set, error) {
	vx.ix.mu.Lock()
	defer vx.ix.mu.Unlock()
	// The version first: the rows read after it are at least as new.
	version, err := vx.ix.meta(ctx, vx.ix.db, metaVectorsVersion)
	if err != nil {
		return nil, err
	}
	if vx.ix.vec != nil && vx.ix.vec.Version() == version {
		return vx.ix.vec, nil
	}
	if vs, err := vx.readPack(version); err == nil {
		vx.ix.vec = vs
		return vs, nil
	}
	embedID, err := vx.ix.meta(ctx, vx.ix.db, "embedder")
	if err != nil {
		return nil, err
	}
	var count, dims int
	if err := vx.ix.db.QueryRowContext(ctx, "SELECT count(*), max(coalesce(max(length(vec)), 0) - 4, 0) FROM vectors").Scan(&count, &dims); err != nil {
		return nil, fmt.Errorf("load vectors: %w", err)
	}
	vs := vectors.New(dims, embedID, version, count)
	rows, err := vx.ix.db.QueryContext(ctx, "SELECT v.chunk_id, c.note_id, v.vec FROM vectors v JOIN chunks c ON c.id = v.chunk_id")
	if err != nil {
		return nil, fmt.Errorf("load vectors: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, note int64
		var b sql.RawBytes
		if err := rows.Scan(&id, &note, &b); err != nil {
			return nil, err
		}
		if len(b) != 4+dims {
			continue // from another embedder: re-embedded on the next sync
		}
		vs.Add(id, note, b)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	vx.ix.vec = vs
	return vs, nil
}

// invalidate drops in-memory state after the index changed.
func (vx *vectorStore) invalidate() {
	vx.ix.mu.Lock()
	vx.ix.vec = nil
	vx.ix.mu.Unlock()
}
