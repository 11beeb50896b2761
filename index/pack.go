package index

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
	"unsafe"

	"github.com/vaultmem/vaultmem/vault"
)

// The vector pack is every vector of the index in one file beside the
// database, so that a new process (a CLI search) loads them in a few
// milliseconds instead of scanning the vectors table row by row. It is a
// cache of the cache: it names the vectors version it was made from, and
// is used only while the index is still at that version. Every
// transaction that changes chunks or vectors sets a new random version.
const (
	packFile           = "vectors.pack"
	packMagic          = "vaultmem-vectors\x03"
	metaVectorsVersion = "vectors_version"
)

var packCRC = crc32.MakeTable(crc32.Castagnoli)

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
	if err != nil || vs.fromPack || len(vs.ids) == 0 {
		return err
	}
	if err := vault.WriteCacheFile(ix.packPath(), func(w io.Writer) error { return writePack(w, vs) }); err != nil {
		return fmt.Errorf("write vector pack: %w", err)
	}
	return nil
}

// writePack writes a pack to w: the magic, the version and the
// embedder's ID (each a uvarint length and its bytes), dimensions and
// count (uint32), zeros up to an 8-byte boundary, then the chunk ids and
// note ids (int64 each), the vectors' scales (float32 each) and their
// codes (dimensions int8 each), all little-endian, and a CRC-32C of
// everything before it. It streams: a pack of 235,000 vectors (36 MB) is
// never held as bytes.
func writePack(w io.Writer, vs *vectorSet) error {
	if vs.ndead > 0 {
		vs = vs.compact()
	}
	n := len(vs.ids)
	crc := crc32.New(packCRC)
	bw := bufio.NewWriterSize(io.MultiWriter(w, crc), 64<<10)
	var head []byte
	head = append(head, packMagic...)
	head = binary.AppendUvarint(head, uint64(len(vs.version)))
	head = append(head, vs.version...)
	head = binary.AppendUvarint(head, uint64(len(vs.embedID)))
	head = append(head, vs.embedID...)
	head = binary.LittleEndian.AppendUint32(head, uint32(vs.dims))
	head = binary.LittleEndian.AppendUint32(head, uint32(n))
	for len(head)%8 != 0 { // the arrays start 8-aligned
		head = append(head, 0)
	}
	bw.Write(head)
	var b [8]byte
	for _, id := range vs.ids {
		binary.LittleEndian.PutUint64(b[:], uint64(id))
		bw.Write(b[:])
	}
	for _, note := range vs.notes {
		binary.LittleEndian.PutUint64(b[:], uint64(note))
		bw.Write(b[:])
	}
	for _, x := range vs.scales {
		binary.LittleEndian.PutUint32(b[:4], math.Float32bits(x))
		bw.Write(b[:4])
	}
	if len(vs.codes) > 0 {
		bw.Write(unsafe.Slice((*byte)(unsafe.Pointer(&vs.codes[0])), len(vs.codes)))
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	_, err := w.Write(binary.LittleEndian.AppendUint32(nil, crc.Sum32()))
	return err
}

// packVersion reads the version named by the pack's header; "" when
// there is no readable pack.
func (ix *Index) packVersion() string {
	f, err := os.Open(ix.packPath())
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, len(packMagic)+binary.MaxVarintLen64+64)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if len(head) < len(packMagic) || string(head[:len(packMagic)]) != packMagic {
		return ""
	}
	r := head[len(packMagic):]
	l, k := binary.Uvarint(r)
	if k <= 0 || uint64(len(r)-k) < l {
		return ""
	}
	return string(r[k : k+int(l)])
}

var errStalePack = errors.New("index: vector pack missing, damaged or out of date")

// readPack loads the vector pack if it was made at version.
//
// A process that is not resident (a CLI command) maps the pack instead of
// reading it, which saves copying its megabytes; the mapping lasts until
// Close. A resident one reads it, since it may load many packs over its
// life and cannot tell when a search stops using one.
func (ix *Index) readPack(version string) (*vectorSet, error) {
	if ix.opts.Resident {
		b, err := os.ReadFile(ix.packPath())
		if err != nil {
			return nil, errStalePack
		}
		return decodePack(b, version)
	}
	b, unmap, err := mapFile(ix.packPath())
	if err != nil {
		return nil, errStalePack
	}
	vs, err := decodePack(b, version)
	if err != nil {
		unmap()
		return nil, err
	}
	ix.unmaps = append(ix.unmaps, unmap) // under ix.mu, held by ix.vectors
	return vs, nil
}

// decodePack reads the vectors of pack b (see writePack) if it was made
// at version; they use b's memory.
func decodePack(b []byte, version string) (*vectorSet, error) {
	if len(b) < len(packMagic)+4 || string(b[:len(packMagic)]) != packMagic {
		return nil, errStalePack
	}
	body := b[:len(b)-4]
	if crc32.Checksum(body, packCRC) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return nil, errStalePack
	}
	r := body[len(packMagic):]
	str := func() (string, bool) {
		l, k := binary.Uvarint(r)
		if k <= 0 || uint64(len(r)-k) < l {
			return "", false
		}
		s := string(r[k : k+int(l)])
		r = r[k+int(l):]
		return s, true
	}
	ver, ok1 := str()
	embedID, ok2 := str()
	if !ok1 || !ok2 || ver != version || len(r) < 8 {
		return nil, errStalePack
	}
	dims := int(binary.LittleEndian.Uint32(r))
	n := int(binary.LittleEndian.Uint32(r[4:]))
	at := len(body) - len(r) + 8
	at += (8 - at%8) % 8
	if dims <= 0 || len(body)-at != 20*n+n*dims {
		return nil, errStalePack
	}
	vs := &vectorSet{dims: dims, embedID: embedID, version: ver, fromPack: true}
	vs.ids = littleInt64s(body[at : at+8*n])
	vs.notes = littleInt64s(body[at+8*n : at+16*n])
	vs.scales = littleFloat32s(body[at+16*n : at+20*n])
	if codes := body[at+20*n:]; len(codes) > 0 {
		vs.codes = unsafe.Slice((*int8)(unsafe.Pointer(&codes[0])), len(codes))
	}
	return vs, nil
}

// littleEndian is whether this machine stores numbers as the pack does,
// so that its arrays can be used where they lie in the file's bytes.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// littleInt64s returns b, 8-aligned little-endian int64s, as a slice.
func littleInt64s(b []byte) []int64 {
	if len(b) == 0 {
		return nil
	}
	if littleEndian {
		return unsafe.Slice((*int64)(unsafe.Pointer(&b[0])), len(b)/8)
	}
	out := make([]int64, len(b)/8)
	for i := range out {
		out[i] = int64(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return out
}

// littleFloat32s returns b, 4-aligned little-endian float32s, as a slice.
func littleFloat32s(b []byte) []float32 {
	if len(b) == 0 {
		return nil
	}
	if littleEndian {
		return unsafe.Slice((*float32)(unsafe.Pointer(&b[0])), len(b)/4)
	}
	out := make([]float32, len(b)/4)
	decodeFloat32s(b, out)
	return out
}
