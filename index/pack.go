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
//
// A few new or dropped vectors (a prompt's sync embeds a session note's
// new chunks) do not make a new pack of every vector: each change this
// process commits is added to the pack's delta (deltaFile, see
// vectors.EncodeDelta), which names the pack's version (its base) and the
// version the changes bring it to (its target). A reader loads the pack
// and applies the delta when the delta's base is the pack's version and
// its target the index's; any other delta, or a damaged one, is ignored,
// and the vectors are read from the database. The pack is written whole
// (and the delta dropped) when the delta would pass deltaShare of the
// pack, when a change is not one this process made whole (another
// process's, with no delta written, or a warm start), or when the
// embedder changes.
const (
	packFile           = "vectors.pack"
	deltaFile          = "vectors.delta"
	metaVectorsVersion = "vectors_version"
	// deltaShare is the largest delta kept beside a pack, as a share of
	// the pack's vectors: vectors added plus notes dropped. Past it, a
	// load that copies the pack's arrays to apply the delta costs as much
	// as reading a new pack, and the pack is written whole.
	deltaShare = 0.10
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

func (vx *vectorStore) packPath() string  { return filepath.Join(filepath.Dir(vx.ix.path), packFile) }
func (vx *vectorStore) deltaPath() string { return filepath.Join(filepath.Dir(vx.ix.path), deltaFile) }

// journal adds change, which this process committed from version before
// to after, to the pack's delta, when the delta (or the pack, without
// one) is at before; otherwise the chain of changes from the pack is
// broken, and the delta is left to be ignored. A delta that would grow
// past deltaShare of the pack is removed instead, so that Pack writes
// the pack whole. Failures only cost a later process a whole pack.
func (vx *vectorStore) journal(before, after string, change vectors.Change, partial bool) {
	if vx.ix.opts.NoVectors || vx.ix.readOnly != "" || vx.ix.memory || before == "" {
		return
	}
	base, dims, n, ok := vx.packHeader()
	if !ok {
		return
	}
	d, err := vx.readDelta()
	switch {
	case err == nil && d.Base == base && d.Target == before:
	case base == before:
		d = &vectors.Delta{Base: base, Dims: dims}
	default:
		return // no chain from the pack: Pack writes it whole
	}
	d.Target = after
	d.Changes = append(d.Changes, change)
	if partial || !d.Fits(change) || float64(d.Size()) > deltaShare*float64(n) {
		os.Remove(vx.deltaPath())
		return
	}
	b := vectors.EncodeDelta(d)
	if vault.WriteCacheFile(vx.deltaPath(), func(w io.Writer) error { _, err := w.Write(b); return err }) != nil {
		os.Remove(vx.deltaPath())
	}
}

// readDelta reads the pack's delta; an error when there is none or it is
// damaged.
func (vx *vectorStore) readDelta() (*vectors.Delta, error) {
	b, err := os.ReadFile(vx.deltaPath())
	if err != nil {
		return nil, err
	}
	d, err := vectors.DecodeDelta(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", vx.deltaPath(), err)
	}
	return d, nil
}

// packHeader reads the version, dimensions and count of vectors of the
// pack; ok is false when there is no readable pack.
func (vx *vectorStore) packHeader() (version string, dims, n int, ok bool) {
	f, err := os.Open(vx.packPath())
	if err != nil {
		return "", 0, 0, false
	}
	defer f.Close()
	head := make([]byte, 1024)
	k, _ := io.ReadFull(f, head)
	return vectors.PackHeader(head[:k])
}

// deltaCurrent reports whether the pack at packVersion and its delta
// give the vectors at version.
func (vx *vectorStore) deltaCurrent(packVersion, version string) bool {
	d, err := vx.readDelta()
	return err == nil && packVersion != "" && d.Base == packVersion && d.Target == version
}

// Pack writes the vector pack when it is missing or out of date. Callers
// that sync and then leave later searches to other processes (the CLI)
// call it after every sync: when the pack, or the pack and its delta
// (see deltaFile), are current it costs two small reads; otherwise one
// read of every vector and one file write. A long-running process keeps
// its vectors in memory and need not.
func (ix *Index) Pack(ctx context.Context) error {
	if ix.opts.NoVectors || ix.readOnly != "" {
		return nil
	}
	version, err := ix.meta(ctx, ix.db, metaVectorsVersion)
	if err != nil || version == "" {
		return err
	}
	if pv := ix.vstore.packVersion(); pv == version || ix.vstore.deltaCurrent(pv, version) {
		return nil
	}
	// Every vector is read (after a cold index, the process's heap is
	// still full of the index's garbage): heavy work (see Options.HeavyWork).
	defer ix.opts.heavyWork()()
	vs, err := ix.vstore.vectors(ctx)
	if err != nil || vs.FromPack() || vs.Len() == 0 {
		return err
	}
	// The old delta goes first: one written after it, by a process that
	// saw this pack, is at this pack's version and stays.
	if err := os.Remove(ix.vstore.deltaPath()); err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("remove vector delta: %w", err)
	}
	if err := vault.WriteCacheFile(ix.vstore.packPath(), func(w io.Writer) error { return vectors.WritePack(w, vs) }); err != nil {
		return fmt.Errorf("write vector pack: %w", err)
	}
	return nil
}

// packVersion reads the version named by the pack's header; "" when
// there is no readable pack.
func (vx *vectorStore) packVersion() string {
	f, err := os.Open(vx.packPath())
	if err != nil {
		return ""
	}
	defer f.Close()
	return vectors.PackVersion(f)
}

// readPack loads the vector pack if it was made at version, or if it and
// its delta give the vectors at version (see deltaFile).
//
// A process that is not resident (a CLI command) maps the pack instead of
// reading it, which saves copying its megabytes; the mapping lasts until
// Close. A resident one reads it, since it may load many packs over its
// life and cannot tell when a search stops using one.
func (vx *vectorStore) readPack(version string) (*vectors.Set, error) {
	if vx.ix.opts.Resident {
		b, err := os.ReadFile(vx.packPath())
		if err != nil {
			return nil, err
		}
		return vx.decodePack(b, version)
	}
	b, unmap, err := vectors.MapFile(vx.packPath())
	if err != nil {
		return nil, err
	}
	vs, err := vx.decodePack(b, version)
	if err != nil {
		unmap()
		return nil, err
	}
	vx.ix.unmaps = append(vx.ix.unmaps, unmap) // under vx.ix.mu, held by vx.vectors
	return vs, nil
}

// decodePack reads the vectors at version from pack b, applying the
// delta when the pack is at the delta's base and the delta at version.
func (vx *vectorStore) decodePack(b []byte, version string) (*vectors.Set, error) {
	pv, _, _, ok := vectors.PackHeader(b)
	if !ok || pv == version {
		return vectors.DecodePack(b, version)
	}
	d, err := vx.readDelta()
	if err != nil {
		return nil, err
	}
	if d.Base != pv || d.Target != version {
		return nil, fmt.Errorf("%s: at %s to %s, not %s to %s", vx.deltaPath(), d.Base, d.Target, pv, version)
	}
	vs, err := vectors.DecodePack(b, pv)
	if err != nil {
		return nil, err
	}
	if vs.Dims() != d.Dims {
		return nil, fmt.Errorf("%s: vectors of %d dimensions, the pack's of %d", vx.deltaPath(), d.Dims, vs.Dims())
	}
	return d.Apply(vs), nil
}
