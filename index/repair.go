package index

import (
	"context"
	"fmt"
	"io/fs"
	"os"
)

// Repair is what [Index.Repair] found and did.
type Repair struct {
	// Drift is what Check found before the repair.
	Drift []Drift `json:"drift"`
	// Fixed says there was drift and the index matches the vault after the
	// repair; Rebuilt that a sync was not enough and the cache was rebuilt
	// from nothing.
	Fixed   bool `json:"fixed"`
	Rebuilt bool `json:"rebuilt"`
}

// Repair checks the index against the vault in fsys (see Check) and, when
// they differ, syncs and checks again; drift that a sync does not mend (a
// cache edited by hand, a damaged file) is cleared by rebuilding the cache
// from nothing, in place, and indexing the vault anew. It must not run
// while the Index is in use by other goroutines. Errors: those of Check
// and Sync; a read-only cache cannot be repaired (its ReadOnly reason).
func (ix *Index) Repair(ctx context.Context, fsys fs.FS, progress Progress) (Repair, error) {
	drift, err := ix.Check(ctx, fsys)
	if err != nil {
		return Repair{}, err
	}
	rep := Repair{Drift: drift}
	if len(drift) == 0 {
		return rep, nil // nothing to fix
	}
	if !ix.writable() {
		return rep, fmt.Errorf("cannot repair the index: %s", ix.readOnly)
	}
	var after []Drift
	_, err = ix.Sync(ctx, fsys, progress)
	if err == nil {
		after, err = ix.Check(ctx, fsys)
	}
	if err != nil && ctx.Err() != nil {
		return rep, ctx.Err()
	}
	if err != nil || len(after) > 0 {
		if err := ix.rebuild(ctx); err != nil {
			return rep, err
		}
		if _, err := ix.Sync(ctx, fsys, progress); err != nil {
			return rep, err
		}
		if after, err = ix.Check(ctx, fsys); err != nil {
			return rep, err
		}
		rep.Rebuilt = true
	}
	rep.Fixed = len(after) == 0
	return rep, nil
}

// rebuild replaces the cache with an empty one of the current schema, the
// file itself when it cannot be trusted, and forgets what the Index kept
// in memory of the old one.
func (ix *Index) rebuild(ctx context.Context) error {
	ix.mu.Lock()
	ix.stmts.close()
	ix.vec, ix.lsa, ix.files = nil, nil, nil
	ix.mu.Unlock()
	ix.lexLoad.Lock()
	ix.lex = nil
	ix.lexLoad.Unlock()
	mode := readWrite
	if ix.memory {
		mode = inMemory
	}
	if ix.pin != nil {
		ix.pin.Close()
	}
	if err := ix.db.Close(); err != nil {
		return fmt.Errorf("rebuild index %s: %w", ix.path, err)
	}
	if !ix.memory {
		if err := removeDB(ix.path); err != nil {
			return fmt.Errorf("rebuild index %s: %w", ix.path, err)
		}
		os.Remove(ix.vstore.packPath()) // a cache of the cache: gone with it
	}
	fresh, err := open(ctx, ix.path, ix.opts, mode)
	if err != nil {
		return fmt.Errorf("rebuild index %s: %w", ix.path, err)
	}
	ix.db, ix.pin = fresh.db, fresh.pin
	ix.stmts.use(fresh.db)
	return nil
}
