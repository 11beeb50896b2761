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
func (ix *Index) advanceVectors(before, after string, change vectors.Change, partial bool) {
	ix.journal(before, after, change, partial)
	ix.mu.Lock()
	defer ix.mu.Unlock()
	switch {
	case ix.vec == nil:
	case partial || before == "" || ix.vec.Version() != before:
		ix.vec = nil
	default:
		ix.vec = ix.vec.Apply(change, after)
	}
}

// vectors returns the in-memory vector set, loading it on first use and
// again when the index's vectors changed since (this process's own
// changes move it along instead: see advanceVectors; another process's,
// a note saved by a CLI command while a server runs, make it load again).
func (ix *Index) vectors(ctx context.Context) (*vectors.Set, error) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	// The version first: the rows read after it are at least as new.
	version, err := ix.meta(ctx, ix.db, metaVectorsVersion)
	if err != nil {
		return nil, err
	}
	if ix.vec != nil && ix.vec.Version() == version {
		return ix.vec, nil
	}
	if vs, err := ix.readPack(version); err == nil {
		ix.vec = vs
		return vs, nil
	}
	embedID, err := ix.meta(ctx, ix.db, "embedder")
	if err != nil {
		return nil, err
	}
	var count, dims int
	if err := ix.db.QueryRowContext(ctx, "SELECT count(*), max(coalesce(max(length(vec)), 0) - 4, 0) FROM vectors").Scan(&count, &dims); err != nil {
		return nil, fmt.Errorf("load vectors: %w", err)
	}
	vs := vectors.New(dims, embedID, version, count)
	rows, err := ix.db.QueryContext(ctx, "SELECT v.chunk_id, c.note_id, v.vec FROM vectors v JOIN chunks c ON c.id = v.chunk_id")
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
	ix.vec = vs
	return vs, nil
}

// invalidate drops in-memory state after the index changed.
func (ix *Index) invalidate() {
	ix.mu.Lock()
	ix.vec = nil
	ix.mu.Unlock()
}
