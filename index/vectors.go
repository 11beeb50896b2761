package index

import (
	"container/heap"
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"
	"unsafe"
)

// vectorSet holds every chunk vector contiguously for an exact scan, each
// quantized to one signed byte per dimension with a scale of its own
// (see quantize): a quarter of the memory of float32s, for a cosine that
// differs from the exact one by well under 1 %.
type vectorSet struct {
	dims    int
	ids     []int64   // chunk ids
	notes   []int64   // note id of each chunk
	scales  []float32 // per vector
	codes   []int8    // len(ids) × dims
	embedID string
	// version is the index's vectors version the set was read at, or
	// brought to by this process's own changes (see advanceVectors);
	// fromPack says it came from the vector pack (see Pack).
	version  string
	fromPack bool
	// dead marks the vectors dropped since the set was read (bit i for
	// vector i; nil for none), ndead counts them. A set is never changed
	// once searches can see it: without and with make new ones.
	dead  []uint64
	ndead int
}

// isDead reports whether vector i was dropped.
func (vs *vectorSet) isDead(i int) bool {
	return vs.dead != nil && vs.dead[i>>6]&(1<<(i&63)) != 0
}

// without returns vs without the vectors of the given notes, at version.
// It shares vs's arrays; only the small dead set is copied.
func (vs *vectorSet) without(notes map[int64]bool, version string) *vectorSet {
	nv := *vs
	nv.version, nv.fromPack = version, false
	nv.dead = make([]uint64, (len(vs.ids)+63)/64)
	copy(nv.dead, vs.dead)
	for i, n := range vs.notes {
		if notes[n] && !vs.isDead(i) {
			nv.dead[i>>6] |= 1 << (i & 63)
			nv.ndead++
		}
	}
	if nv.ndead*8 >= len(nv.ids) {
		return nv.compact()
	}
	return &nv
}

// with returns vs with the encoded vectors vecs (see encodeVector) of
// chunks ids (of notes notes), at version. It appends to vs's arrays
// past their length, where no search of vs looks; callers change only
// the index's current set, one at a time (under Index.mu).
func (vs *vectorSet) with(ids, notes []int64, vecs [][]byte, version string) *vectorSet {
	nv := *vs
	nv.version, nv.fromPack = version, false
	nv.ids = append(vs.ids[:len(vs.ids):len(vs.ids)], ids...)
	nv.notes = append(vs.notes[:len(vs.notes):len(vs.notes)], notes...)
	if cap(vs.codes)-len(vs.codes) >= len(vecs)*vs.dims && cap(vs.scales)-len(vs.scales) >= len(vecs) {
		nv.codes, nv.scales = vs.codes, vs.scales // room enough: append in place
	} else {
		grow := len(vs.ids)/4 + len(vecs)
		nv.codes = slices.Grow(slices.Clip(vs.codes), grow*vs.dims)
		nv.scales = slices.Grow(slices.Clip(vs.scales), grow)
	}
	for _, v := range vecs {
		nv.codes = append(nv.codes, asInt8s(v[4:4+vs.dims])...)
		nv.scales = append(nv.scales, math.Float32frombits(binary.LittleEndian.Uint32(v)))
	}
	if vs.dead != nil {
		nv.dead = make([]uint64, (len(nv.ids)+63)/64)
		copy(nv.dead, vs.dead)
	}
	return &nv
}

// compact returns vs without its dead vectors, in new arrays.
func (vs *vectorSet) compact() *vectorSet {
	n := len(vs.ids) - vs.ndead
	nv := &vectorSet{dims: vs.dims, embedID: vs.embedID, version: vs.version, ids: make([]int64, 0, n), notes: make([]int64, 0, n),
		scales: make([]float32, 0, n), codes: make([]int8, 0, n*vs.dims)}
	for i := range vs.ids {
		if !vs.isDead(i) {
			nv.ids = append(nv.ids, vs.ids[i])
			nv.notes = append(nv.notes, vs.notes[i])
			nv.scales = append(nv.scales, vs.scales[i])
			nv.codes = append(nv.codes, vs.codes[i*vs.dims:(i+1)*vs.dims]...)
		}
	}
	return nv
}

// advanceVectors brings the in-memory vectors from version before to
// after by change, after this process committed that change: when they
// were at before, the set changes without a read of every vector;
// otherwise (not loaded, or another process changed the index in
// between) they are read again on next use.
func (ix *Index) advanceVectors(before, after string, change func(vs *vectorSet) *vectorSet) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	switch {
	case ix.vec == nil:
	case before == "" || ix.vec.version != before:
		ix.vec = nil
	default:
		ix.vec = change(ix.vec)
		ix.vec.version = after
	}
}

// encodeVector stores a vector as the vector set holds it (see quantize):
// its scale as a little-endian float32, then one signed byte per
// dimension. What searches use is all that is kept: a quarter of the
// bytes of float32s to write and read.
func encodeVector(v []float32) []byte {
	b := make([]byte, 4+len(v))
	scale := quantize(v, asInt8s(b[4:]))
	binary.LittleEndian.PutUint32(b, math.Float32bits(scale))
	return b
}

// asInt8s returns b's bytes as signed bytes, sharing its memory.
func asInt8s(b []byte) []int8 {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*int8)(unsafe.Pointer(&b[0])), len(b))
}

// decodeFloat32s reads little-endian float32s from b into into.
func decodeFloat32s(b []byte, into []float32) {
	for i := range into {
		into[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
}

// vectors returns the in-memory vector set, loading it on first use and
// again when the index's vectors changed since (this process's own
// changes move it along instead: see advanceVectors; another process's,
// a note saved by a CLI command while a server runs, make it load again).
func (ix *Index) vectors(ctx context.Context) (*vectorSet, error) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	// The version first: the rows read after it are at least as new.
	version, err := ix.meta(ctx, ix.db, metaVectorsVersion)
	if err != nil {
		return nil, err
	}
	if ix.vec != nil && ix.vec.version == version {
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
	vs := &vectorSet{dims: dims, embedID: embedID, version: version, ids: make([]int64, 0, count), notes: make([]int64, 0, count),
		scales: make([]float32, 0, count), codes: make([]int8, 0, count*dims)}
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
		vs.ids = append(vs.ids, id)
		vs.notes = append(vs.notes, note)
		vs.scales = append(vs.scales, math.Float32frombits(binary.LittleEndian.Uint32(b)))
		vs.codes = append(vs.codes, asInt8s(b[4:])...)
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

// scored is a chunk with a similarity or rank score.
type scored struct {
	id    int64
	score float64
}

// minHeap keeps the k best scores seen.
type minHeap []scored

func (h minHeap) Len() int           { return len(h) }
func (h minHeap) Less(i, j int) bool { return better(h[j], h[i]) }
func (h minHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *minHeap) Push(x any)        { *h = append(*h, x.(scored)) }
func (h *minHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// nearest returns the k chunks most similar to q (cosine: vectors are
// normalised), best first, among those whose note passes keep (nil: all).
// A large set is scanned in parts on every core. When ctx ends, the scan
// stops and nearest returns ctx's error.
func (vs *vectorSet) nearest(ctx context.Context, q []float32, k int, keep func(note int64) bool) ([]scored, error) {
	if len(q) != vs.dims || k <= 0 {
		return nil, nil
	}
	parts := min(runtime.GOMAXPROCS(0), len(vs.ids)/minVectorsPerPart, 8)
	if parts <= 1 {
		found := vs.scan(ctx, q, k, keep, 0, len(vs.ids))
		return found, ctx.Err()
	}
	found := make([][]scored, parts)
	var wg sync.WaitGroup
	for p := range parts {
		wg.Go(func() {
			found[p] = vs.scan(ctx, q, k, keep, p*len(vs.ids)/parts, (p+1)*len(vs.ids)/parts)
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	all := slices.Concat(found...)
	sort.Slice(all, func(i, j int) bool { return better(all[i], all[j]) })
	return all[:min(k, len(all))], nil
}

// scanCheck is how many vectors a scan compares between two looks at
// whether its context ended.
const scanCheck = 4096

// minVectorsPerPart is the fewest vectors worth a goroutine of their own.
const minVectorsPerPart = 8192

// scan returns the k best of the vectors from index i to j, best first;
// nil when ctx ends first.
func (vs *vectorSet) scan(ctx context.Context, q []float32, k int, keep func(note int64) bool, from, to int) []scored {
	h := make(minHeap, 0, k+1)
	d := vs.dims
	for i := from; i < to; i++ {
		if (i-from)%scanCheck == 0 && ctx.Err() != nil {
			return nil
		}
		if keep != nil && !keep(vs.notes[i]) || vs.isDead(i) {
			continue
		}
		c := scored{vs.ids[i], float64(vs.scales[i] * dotCodes(q, vs.codes[i*d:i*d+d]))}
		if len(h) < k {
			heap.Push(&h, c)
		} else if better(c, h[0]) {
			h[0] = c
			heap.Fix(&h, 0)
		}
	}
	out := make([]scored, len(h))
	for i := len(h) - 1; i >= 0; i-- {
		out[i] = heap.Pop(&h).(scored)
	}
	return out
}

// quantize writes v as signed bytes into codes (of equal length) and
// returns the scale that gives v back: v[i] ≈ scale × codes[i]. The
// largest component of v maps to ±127.
func quantize(v []float32, codes []int8) float32 {
	var top float32
	for _, x := range v {
		top = max(top, float32(math.Abs(float64(x))))
	}
	if top == 0 || math.IsNaN(float64(top)) || math.IsInf(float64(top), 0) {
		clear(codes)
		return 0
	}
	for i, x := range v {
		codes[i] = int8(math.Round(float64(x / top * 127)))
	}
	return top / 127
}

// dotCodesGo is the dot product of a and the quantized vector codes (of
// equal length) before its scale, with four accumulators so that the
// multiplications overlap. dotCodes is it, or on CPUs with AVX2 and FMA
// the same eight lanes at a time (see dot_amd64.s).
func dotCodesGo(a []float32, codes []int8) float32 {
	codes = codes[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * float32(codes[i])
		s1 += a[i+1] * float32(codes[i+1])
		s2 += a[i+2] * float32(codes[i+2])
		s3 += a[i+3] * float32(codes[i+3])
	}
	for ; i < len(a); i++ {
		s0 += a[i] * float32(codes[i])
	}
	return s0 + s1 + s2 + s3
}
