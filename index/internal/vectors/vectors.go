package vectors

import (
	"encoding/binary"
	"math"
	"slices"
	"unsafe"
)

// Set holds every chunk vector contiguously for an exact scan, each
// quantized to one signed byte per dimension with a scale of its own
// (see quantize): a quarter of the memory of float32s, for a cosine that
// differs from the exact one by well under 1 %.
type Set struct {
	dims    int
	ids     []int64   // chunk ids
	notes   []int64   // note id of each chunk
	scales  []float32 // per vector
	codes   []int8    // len(ids) × dims
	embedID string
	// version is the index's vectors version the set was read at, or
	// brought to by the process's own changes (see With and Without);
	// fromPack says it came from a vector pack (see DecodePack).
	version  string
	fromPack bool
	// dead marks the vectors dropped since the set was read (bit i for
	// vector i; nil for none), ndead counts them. A set is never changed
	// once searches can see it: Without and With make new ones.
	dead  []uint64
	ndead int
	// more holds the vectors added after those of the arrays above, when
	// those had no room for them (a pack's arrays are its file's bytes):
	// vector i of the set is more's i-len(ids)th past them. A few new
	// vectors then cost a copy of themselves, not of every vector. more
	// has no more of its own; dead and ndead count over both.
	more *Set
}

// New returns an empty set of vectors of dims dimensions, made by the
// embedder embedID, at the index's vectors version, with room for n
// vectors; Add fills it.
func New(dims int, embedID, version string, n int) *Set {
	return &Set{dims: dims, embedID: embedID, version: version, ids: make([]int64, 0, n), notes: make([]int64, 0, n),
		scales: make([]float32, 0, n), codes: make([]int8, 0, n*dims)}
}

// Add appends the encoded vector vec (see Encode) of the set's
// dimensions, of chunk id of note note, to a set no search uses yet: the
// set New made, as its caller reads the vectors one by one.
func (vs *Set) Add(id, note int64, vec []byte) {
	vs.ids = append(vs.ids, id)
	vs.notes = append(vs.notes, note)
	vs.scales = append(vs.scales, math.Float32frombits(binary.LittleEndian.Uint32(vec)))
	vs.codes = append(vs.codes, asInt8s(vec[4:])...)
}

// Len is the number of vectors vs holds, counting those dropped but not
// yet compacted away (see Without).
func (vs *Set) Len() int {
	if vs.more != nil {
		return len(vs.ids) + len(vs.more.ids)
	}
	return len(vs.ids)
}

// EmbedID is the ID of the embedder that made the vectors.
func (vs *Set) EmbedID() string { return vs.embedID }

// Version is the index's vectors version the set is at.
func (vs *Set) Version() string { return vs.version }

// FromPack reports whether the set was read from a vector pack (and not
// changed since).
func (vs *Set) FromPack() bool { return vs.fromPack }

// isDead reports whether vector i was dropped.
func (vs *Set) isDead(i int) bool {
	return vs.dead != nil && vs.dead[i>>6]&(1<<(i&63)) != 0
}

// Without returns vs without the vectors of the given notes, at version.
// It shares vs's arrays; only the small dead set is copied.
func (vs *Set) Without(notes map[int64]bool, version string) *Set {
	nv := *vs
	nv.version, nv.fromPack = version, false
	nv.dead = make([]uint64, (vs.Len()+63)/64)
	copy(nv.dead, vs.dead)
	i := 0
	for seg := vs; seg != nil; seg = seg.more {
		for _, n := range seg.notes {
			if notes[n] && !vs.isDead(i) {
				nv.dead[i>>6] |= 1 << (i & 63)
				nv.ndead++
			}
			i++
		}
	}
	if nv.ndead*8 >= nv.Len() {
		return nv.compact()
	}
	return &nv
}

// With returns vs with the encoded vectors vecs (see Encode) of chunks
// ids (of notes notes), at version. It appends to vs's arrays past their
// length, where no search of vs looks; callers change only the index's
// current set, one at a time (index does, under its lock). When vs's
// arrays have no room (a pack's), the vectors go in its second segment
// (see Set.more) instead of a copy of every vector, when they are few
// beside vs's (see segmentShare).
func (vs *Set) With(ids, notes []int64, vecs [][]byte, version string) *Set {
	var nv *Set
	noRoom := cap(vs.codes)-len(vs.codes) < len(vecs)*vs.dims || cap(vs.scales)-len(vs.scales) < len(vecs)
	if vs.more != nil || noRoom && len(vecs)*segmentShare < len(vs.ids) {
		cp := *vs
		tail := vs.more
		if tail == nil {
			tail = New(vs.dims, vs.embedID, version, len(ids))
		}
		cp.more = tail.appended(ids, notes, vecs)
		nv = &cp
	} else {
		nv = vs.appended(ids, notes, vecs)
	}
	nv.version, nv.fromPack = version, false
	if vs.dead != nil {
		nv.dead = make([]uint64, (nv.Len()+63)/64)
		copy(nv.dead, vs.dead)
	}
	return nv
}

// segmentShare: vectors added to a set whose arrays have no room go in a
// second segment when the set holds more than segmentShare times as many
// (a copy of every vector would cost more than a few times theirs), else
// in a copy with room to grow.
const segmentShare = 8

// appended returns a copy of vs with the vectors appended to its own
// arrays: in place past their length when they have room, else in new
// arrays with a quarter more room.
func (vs *Set) appended(ids, notes []int64, vecs [][]byte) *Set {
	nv := *vs
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
	return &nv
}

// compact returns vs without its dead vectors, in new arrays of one
// segment.
func (vs *Set) compact() *Set {
	n := vs.Len() - vs.ndead
	nv := New(vs.dims, vs.embedID, vs.version, n)
	i := 0
	for seg := vs; seg != nil; seg = seg.more {
		for j := range seg.ids {
			if !vs.isDead(i) {
				nv.ids = append(nv.ids, seg.ids[j])
				nv.notes = append(nv.notes, seg.notes[j])
				nv.scales = append(nv.scales, seg.scales[j])
				nv.codes = append(nv.codes, seg.codes[j*vs.dims:(j+1)*vs.dims]...)
			}
			i++
		}
	}
	return nv
}

// Encode gives a vector as a set holds it (see quantize): its scale as a
// little-endian float32, then one signed byte per dimension. What
// searches use is all that is kept: a quarter of the bytes of float32s to
// write and read.
func Encode(v []float32) []byte {
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
