package vectors

import (
	"bufio"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"math"
	"unsafe"
)

// A vector pack is a set in one file, read back where its bytes lie: the
// format WritePack writes. packMagic begins every pack; its last byte is
// the format's version.
const packMagic = "vaultmem-vectors\x03"

var packCRC = crc32.MakeTable(crc32.Castagnoli)

// WritePack writes vs as a pack to w: the magic, the version and the
// embedder's ID (each a uvarint length and its bytes), dimensions and
// count (uint32), zeros up to an 8-byte boundary, then the chunk ids and
// note ids (int64 each), the vectors' scales (float32 each) and their
// codes (dimensions int8 each), all little-endian, and a CRC-32C of
// everything before it. It streams: a pack of 235,000 vectors (36 MB) is
// never held as bytes. Dropped vectors are left out, and a set of two
// segments (see Set.more) is written as one.
func WritePack(w io.Writer, vs *Set) error {
	if vs.ndead > 0 || vs.more != nil {
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

// PackVersion reads the version named by the header of the pack r reads
// (its first hundred bytes or so); "" when r holds no readable pack.
func PackVersion(r io.Reader) string {
	head := make([]byte, len(packMagic)+binary.MaxVarintLen64+64)
	n, _ := io.ReadFull(r, head)
	head = head[:n]
	if len(head) < len(packMagic) || string(head[:len(packMagic)]) != packMagic {
		return ""
	}
	rest := head[len(packMagic):]
	l, k := binary.Uvarint(rest)
	if k <= 0 || uint64(len(rest)-k) < l {
		return ""
	}
	return string(rest[k : k+int(l)])
}

var errStalePack = errors.New("vectors: pack damaged, of another format or out of date")

// DecodePack reads the vectors of pack b (see WritePack) if it was made
// at version; they use b's memory, which must stay as it is while the
// set is used. A damaged pack, or one of another version or format, is
// an error.
func DecodePack(b []byte, version string) (*Set, error) {
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
	vs := &Set{dims: dims, embedID: embedID, version: ver, fromPack: true}
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

// decodeFloat32s reads little-endian float32s from b into into.
func decodeFloat32s(b []byte, into []float32) {
	for i := range into {
		into[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
}
