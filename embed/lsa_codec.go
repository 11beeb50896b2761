package embed

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"unicode/utf8"
)

// The binary form of an LSA model, little-endian:
//
//	"VMLSA" version:u8                 magic and format version
//	dims:u32 terms:u32
//	terms × (len:u8 bytes)             the vocabulary, most frequent first
//	terms × idf:f32
//	dims × σ:f32                       descending
//	terms × dims × v:f32               one row per term
//	crc:u32                            CRC-32C of everything before it
//
// It is canonical (one model, one encoding), so that a model's ID, a hash
// of these bytes, is the same after a round trip. The version covers the
// tokenizer, stemmer and weighting as well as the layout: a change to any
// of them must bump it, which makes old models fail to load and be refit.

const (
	lsaMagic   = "VMLSA"
	lsaVersion = 2
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrBadModel is returned by [UnmarshalLSA] for bytes that are not a
// model this version can read: truncated, corrupt, or of another format
// version. The error wraps it with the reason.
var ErrBadModel = errors.New("embed: bad lsa model")

// MarshalBinary encodes the model in a compact, versioned binary form
// (float32; about 4 × terms × dimensions bytes) that [UnmarshalLSA]
// reads back. It never fails; the error is there for
// [encoding.BinaryMarshaler].
func (m *LSA) MarshalBinary() ([]byte, error) {
	var b bytes.Buffer
	b.Grow(m.encodedSize())
	m.encode(&b)
	return b.Bytes(), nil
}

func (m *LSA) encodedSize() int {
	n := len(lsaMagic) + 1 + 8 + 4*len(m.idf) + 4*len(m.sigma) + 4*len(m.v) + 4
	for _, t := range m.terms {
		n += 1 + len(t)
	}
	return n
}

// encode writes the binary form to w, which must not fail (a buffer or a
// hash).
func (m *LSA) encode(w io.Writer) {
	crc := crc32.New(castagnoli)
	bw := bufio.NewWriterSize(io.MultiWriter(w, crc), 64<<10)
	var scratch [4]byte
	u32 := func(v uint32) {
		binary.LittleEndian.PutUint32(scratch[:], v)
		bw.Write(scratch[:])
	}
	f32s := func(fs []float32) {
		for _, f := range fs {
			u32(math.Float32bits(f))
		}
	}
	bw.WriteString(lsaMagic)
	bw.WriteByte(lsaVersion)
	u32(uint32(len(m.sigma)))
	u32(uint32(len(m.terms)))
	for _, t := range m.terms {
		bw.WriteByte(byte(len(t)))
		bw.WriteString(t)
	}
	f32s(m.idf)
	f32s(m.sigma)
	f32s(m.v)
	bw.Flush()
	binary.LittleEndian.PutUint32(scratch[:], crc.Sum32())
	w.Write(scratch[:])
}

// UnmarshalLSA decodes a model written by [LSA.MarshalBinary]. It checks
// the whole input (size, checksum, that every term is distinct valid
// UTF-8 and every number finite) before using it, so a truncated or
// corrupt file gives an error wrapping [ErrBadModel], never a panic or a
// model that embeds garbage. It does not keep b.
func UnmarshalLSA(b []byte) (*LSA, error) {
	m, err := decodeLSA(b)
	if err != nil {
		return nil, fmt.Errorf("unmarshal lsa: %w: %s", ErrBadModel, err)
	}
	// The encoding is canonical: b is what encode would write again, so
	// its hash is the ID, without the encoding (tens of milliseconds for
	// a large model).
	m.idOnce.Do(func() {
		h := sha256.New()
		h.Write(b)
		m.setID(h)
	})
	return m, nil
}

// expBits are the exponent bits of a float32.
const expBits = 0x7f800000

func decodeLSA(b []byte) (*LSA, error) {
	const header = len(lsaMagic) + 1 + 8
	if len(b) < header+4 {
		return nil, fmt.Errorf("%d bytes, too short", len(b))
	}
	if string(b[:len(lsaMagic)]) != lsaMagic {
		return nil, errors.New("not an lsa model")
	}
	if v := b[len(lsaMagic)]; v != lsaVersion {
		return nil, fmt.Errorf("format version %d, want %d", v, lsaVersion)
	}
	body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	if crc32.Checksum(body, castagnoli) != sum {
		return nil, errors.New("checksum mismatch (truncated or corrupt)")
	}
	dims := int(binary.LittleEndian.Uint32(b[len(lsaMagic)+1:]))
	nterms := int(binary.LittleEndian.Uint32(b[len(lsaMagic)+5:]))
	if dims < 1 || dims > maxDimensions {
		return nil, fmt.Errorf("%d dimensions", dims)
	}
	if nterms > maxVocab || nterms > (len(body)-header)/2 {
		return nil, fmt.Errorf("%d terms in %d bytes", nterms, len(b))
	}
	rest := body[header:]
	m := &LSA{terms: make([]string, nterms), vocab: make(map[string]int32, nterms)}
	for i := range nterms {
		if len(rest) == 0 || len(rest) < 1+int(rest[0]) {
			return nil, fmt.Errorf("term %d: truncated", i)
		}
		t := string(rest[1 : 1+int(rest[0])])
		rest = rest[1+int(rest[0]):]
		if t == "" || len(t) > maxTermBytes || !utf8.ValidString(t) {
			return nil, fmt.Errorf("term %d: invalid %q", i, t)
		}
		if _, dup := m.vocab[t]; dup {
			return nil, fmt.Errorf("term %d: duplicate %q", i, t)
		}
		m.terms[i] = t
		m.vocab[t] = int32(i)
	}
	if want := 4 * (nterms + dims + nterms*dims); len(rest) != want {
		return nil, fmt.Errorf("%d bytes of numbers, want %d", len(rest), want)
	}
	floats := func(n int) ([]float32, error) {
		fs := make([]float32, n)
		for i := range fs {
			bits := binary.LittleEndian.Uint32(rest[4*i:])
			if bits&expBits == expBits { // all exponent bits set: infinite or NaN
				return nil, errors.New("non-finite number")
			}
			fs[i] = math.Float32frombits(bits)
		}
		rest = rest[4*n:]
		return fs, nil
	}
	var err error
	if m.idf, err = floats(nterms); err != nil {
		return nil, fmt.Errorf("idf: %w", err)
	}
	for i, x := range m.idf {
		if x <= 0 {
			return nil, fmt.Errorf("idf of term %d: %g", i, x)
		}
	}
	if m.sigma, err = floats(dims); err != nil {
		return nil, fmt.Errorf("singular values: %w", err)
	}
	for i, s := range m.sigma {
		if s < 0 || i > 0 && s > m.sigma[i-1] {
			return nil, fmt.Errorf("singular value %d: %g out of order", i, s)
		}
	}
	if m.v, err = floats(nterms * dims); err != nil {
		return nil, fmt.Errorf("vectors: %w", err)
	}
	return m, nil
}
