package vectors

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
)

// Change is what one transaction did to the vectors: the vectors of the
// notes DropNotes dropped first, then the encoded vectors Vecs (see
// Encode) of chunks IDs, of notes Notes, added.
type Change struct {
	DropNotes map[int64]bool
	IDs       []int64
	Notes     []int64
	Vecs      [][]byte
}

// Apply returns vs changed by c, at version (see Without and With).
func (vs *Set) Apply(c Change, version string) *Set {
	if len(c.DropNotes) > 0 {
		vs = vs.Without(c.DropNotes, version)
	}
	if len(c.IDs) > 0 {
		vs = vs.With(c.IDs, c.Notes, c.Vecs, version)
	}
	if vs.version != version { // a change of nothing still moves the version
		nv := *vs
		nv.version, nv.fromPack = version, false
		vs = &nv
	}
	return vs
}

// A Delta is the changes made to the vectors since a pack was written:
// applied in order to the pack made at Base, they give the vectors at
// Target. It lets a few new or dropped vectors cost in proportion to them
// instead of a new pack of every vector.
type Delta struct {
	Base, Target string
	Dims         int
	Changes      []Change
}

// Size is the number of vectors added plus notes dropped in d: what its
// owner weighs against the pack's size to decide to write a whole pack.
func (d *Delta) Size() int {
	n := 0
	for _, c := range d.Changes {
		n += len(c.IDs) + len(c.DropNotes)
	}
	return n
}

// Fits reports whether c's vectors have d's dimensions.
func (d *Delta) Fits(c Change) bool {
	for _, v := range c.Vecs {
		if len(v) != 4+d.Dims {
			return false
		}
	}
	return len(c.IDs) == len(c.Notes) && len(c.IDs) == len(c.Vecs)
}

// Apply returns pack, the set read from the pack made at d.Base, brought
// to d.Target.
func (d *Delta) Apply(pack *Set) *Set {
	vs := pack
	for _, c := range d.Changes {
		vs = vs.Apply(c, d.Target)
	}
	if vs.version != d.Target {
		nv := *vs
		nv.version, nv.fromPack = d.Target, false
		vs = &nv
	}
	return vs
}

// deltaMagic begins every delta; its last byte is the format's version.
const deltaMagic = "vaultmem-vdelta\x01"

// Change kinds in an encoded delta.
const (
	opDrop = 0
	opAdd  = 1
)

// EncodeDelta gives d as bytes: the magic, Base and Target (each a
// uvarint length and its bytes), Dims and the number of changes
// (uvarints), then each change: its dropped notes (a uvarint count and a
// varint each), its added vectors (a uvarint count, then a varint chunk
// id, a varint note id and the 4+Dims bytes of the vector each), and a
// CRC-32C of everything before it, little-endian. A delta is small (a
// tenth of a pack at most), so it is made whole.
func EncodeDelta(d *Delta) []byte {
	b := []byte(deltaMagic)
	b = binary.AppendUvarint(b, uint64(len(d.Base)))
	b = append(b, d.Base...)
	b = binary.AppendUvarint(b, uint64(len(d.Target)))
	b = append(b, d.Target...)
	b = binary.AppendUvarint(b, uint64(d.Dims))
	b = binary.AppendUvarint(b, uint64(len(d.Changes)))
	for _, c := range d.Changes {
		b = binary.AppendUvarint(b, uint64(len(c.DropNotes)))
		for n := range c.DropNotes {
			b = binary.AppendVarint(b, n)
		}
		b = binary.AppendUvarint(b, uint64(len(c.IDs)))
		for i, id := range c.IDs {
			b = binary.AppendVarint(b, id)
			b = binary.AppendVarint(b, c.Notes[i])
			b = append(b, c.Vecs[i]...)
		}
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, packCRC))
}

var errBadDelta = errors.New("vectors: delta damaged or of another format")

// DecodeDelta reads a delta EncodeDelta wrote. A damaged or torn delta,
// or one of another format, is an error: never trusted in part. The
// vectors it gives are copies, independent of b.
func DecodeDelta(b []byte) (*Delta, error) {
	if len(b) < len(deltaMagic)+4 || string(b[:len(deltaMagic)]) != deltaMagic {
		return nil, errBadDelta
	}
	body := b[:len(b)-4]
	if crc32.Checksum(body, packCRC) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return nil, errBadDelta
	}
	r := body[len(deltaMagic):]
	bad := false
	uv := func() uint64 {
		v, k := binary.Uvarint(r)
		if k <= 0 {
			bad = true
			return 0
		}
		r = r[k:]
		return v
	}
	v := func() int64 {
		x, k := binary.Varint(r)
		if k <= 0 {
			bad = true
			return 0
		}
		r = r[k:]
		return x
	}
	bytes := func(n uint64) []byte {
		if bad || uint64(len(r)) < n {
			bad = true
			return nil
		}
		s := append([]byte(nil), r[:n]...)
		r = r[n:]
		return s
	}
	d := &Delta{}
	d.Base = string(bytes(uv()))
	d.Target = string(bytes(uv()))
	d.Dims = int(uv())
	n := uv()
	if bad || d.Dims <= 0 || n > uint64(len(r)) {
		return nil, errBadDelta
	}
	for range n {
		var c Change
		drops := uv()
		if bad || drops > uint64(len(r)) {
			return nil, errBadDelta
		}
		if drops > 0 {
			c.DropNotes = make(map[int64]bool, drops)
			for range drops {
				c.DropNotes[v()] = true
			}
		}
		adds := uv()
		if bad || adds > uint64(len(r)) {
			return nil, errBadDelta
		}
		for range adds {
			c.IDs = append(c.IDs, v())
			c.Notes = append(c.Notes, v())
			c.Vecs = append(c.Vecs, bytes(uint64(4+d.Dims)))
		}
		if bad {
			return nil, errBadDelta
		}
		d.Changes = append(d.Changes, c)
	}
	if len(r) != 0 {
		return nil, errBadDelta
	}
	return d, nil
}

// PackHeader reads the version, dimensions and count of vectors named by
// the header of pack b (at least its first hundred bytes or so); ok is
// false when b begins no readable pack.
func PackHeader(b []byte) (version string, dims, n int, ok bool) {
	if len(b) < len(packMagic) || string(b[:len(packMagic)]) != packMagic {
		return "", 0, 0, false
	}
	r := b[len(packMagic):]
	var strs [2]string
	for i := range strs {
		l, k := binary.Uvarint(r)
		if k <= 0 || uint64(len(r)-k) < l {
			return "", 0, 0, false
		}
		strs[i] = string(r[k : k+int(l)])
		r = r[k+int(l):]
	}
	if len(r) < 8 {
		return "", 0, 0, false
	}
	return strs[0], int(binary.LittleEndian.Uint32(r)), int(binary.LittleEndian.Uint32(r[4:])), true
}

// Dims is the number of dimensions of vs's vectors.
func (vs *Set) Dims() int { return vs.dims }
