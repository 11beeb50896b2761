package index

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/vaultmem/vaultmem/index/internal/vectors"
	"github.com/vaultmem/vaultmem/vault"
)

// The vector pack is every vector of the index in one file beside the
// database, so that a new process (a CLI search) loads them in a few
// milliseconds instead of scanning the vectors table row by row. It is a
// cache of the cache: it names the vectors version it was made from, and
// is used only while the index is still at that version. Every
// transaction that changes chunks or vectors sets a new random version.
// Its format is package vectors' (see vectors.WritePack).
const (
	packFile           = "vectors.pack"
	metaVectorsVersion = "vectors_version"
)

// bumpVectorsVersion marks, inside tx, that chunks or vectors changed,
// and returns the versions before and after.
func bumpVectorsVersion(ctx context.Context, tx *sql.Tx) (before, after string, err error) {
	// Random, not a counter: a rebuilt cache must never meet an old
	// pack's version again.
	err = tx.QueryRowContext(ctx, `SELECT coalesce((SELECT value FROM meta WHERE key = ?1), ''), hex(randomblob(12))`,
		metaVectorsVersion).Scan(&before, &after)
	if err == nil {
		err = setMeta(ctx, tx, metaVectorsVersion, after)
	}
	return before, after, err
}

func (ix *Index) packPath() string { return filepath.Join(filepath.Dir(ix.path), packFile) }

// Pack writes the vector pack when it is missing or out of date. Callers
// that sync and then leave later searches to other processes (the CLI)
// call it after every sync: when the pack is current it costs one small
// read; otherwise one read of every vector and one file write. A
// long-running process keeps its vectors in memory and need not.
func (ix *Index) Pack(ctx context.Context) error {
	if ix.opts.NoVectors || ix.readOnly != "" {
		return nil
	}
	version, err := ix.meta(ctx, ix.db, metaVectorsVersion)
	if err != nil || version == "" || ix.packVersion() == version {
		return err
	}
	// Every vector is read (after a cold index, the process's heap is
	// still full of the index's garbage): heavy work (see Options.HeavyWork).
	defer ix.opts.heavyWork()()
	vs, err := ix.vectors(ctx)
	if err != nil || vs.FromPack() || vs.Len() == 0 {
		return err
	}
	if err := vault.WriteCacheFile(ix.packPath(), func(w io.Writer) error { return vectors.WritePack(w, vs) }); err != nil {
		return fmt.Errorf("write vector pack: %w", err)
	}
	return nil
}

// packVersion reads the version named by the pack's header; "" when
// there is no readable pack.
func (ix *Index) packVersion() string {
	f, err := os.Open(ix.packPath())
	if err != nil {
		return ""
	}
	defer f.Close()
	return vectors.PackVersion(f)
}

// readPack loads the vector pack if it was made at version.
//
// A process that is not resident (a CLI command) maps the pack instead of
// reading it, which saves copying its megabytes; the mapping lasts until
// Close. A resident one reads it, since it may load many packs over its
// life and cannot tell when a search stops using one.
func (ix *Index) readPack(version string) (*vectors.Set, error) {
	if ix.opts.Resident {
		b, err := os.ReadFile(ix.packPath())
		if err != nil {
			return nil, err
		}
		return vectors.DecodePack(b, version)
	}
	b, unmap, err := vectors.MapFile(ix.packPath())
	if err != nil {
		return nil, err
	}
	vs, err := vectors.DecodePack(b, version)
	if err != nil {
		unmap()
		return nil, err
	}
	ix.unmaps = append(ix.unmaps, unmap) // under ix.mu, held by ix.vectors
	return vs, nil
}
