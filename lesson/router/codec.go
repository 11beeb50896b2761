package router

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"sync"
)

// The file of a saved model, little-endian:
//
//	"VMROUTER" version:u8           magic and format version
//	buckets:u32 rate:f64 l2:f64     the options
//	examples:u64
//	numDense × (w:f64 g:f64)        relevance, strength, static, bias
//	n:u32
//	n × (bucket:u32 w:f32 g:f32)    the hashed weights that are not zero, by bucket
//	crc:u32                         CRC-32C of everything before it
//
// A model keeps its AdaGrad sums (g) so that a loaded model goes on
// learning exactly as the saved one would have. The version covers the
// features as well as the layout (see features.go): a change to either
// must bump it, so that old models fail to load and are trained again
// from the log.
const (
	formatMagic   = "VMROUTER"
	formatVersion = 1
	headerSize    = len(formatMagic) + 1 + 4 + 8 + 8 + 8 + numDense*16 + 4
	entrySize     = 12
)

// castagnoli is the checksum's table, made at first use: making it costs
// a command that never reads a model a good part of its start.
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// ErrBadModel is wrapped by the error [Decode] returns for bytes that are
// not a model this version can read: truncated, corrupt, or of another
// format version.
var ErrBadModel = errors.New("router: bad model file")

// MarshalBinary returns the file form of m (see the layout above), which
// [Decode] reads back: a loaded model scores and goes on learning exactly
// as m would. It must not run concurrently with [Model.Learn] or
// [Model.Train]. The error is always nil.
func (m *Model) MarshalBinary() ([]byte, error) { return m.encode(), nil }

// encode returns the file form of m.
func (m *Model) encode() []byte {
	n := 0
	for i := range m.w {
		if m.w[i] != 0 || m.g[i] != 0 {
			n++
		}
	}
	b := make([]byte, 0, headerSize+n*entrySize+4)
	b = append(b, formatMagic...)
	b = append(b, formatVersion)
	b = binary.LittleEndian.AppendUint32(b, uint32(m.opts.Buckets))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(m.opts.LearningRate))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(m.opts.L2))
	b = binary.LittleEndian.AppendUint64(b, uint64(m.count))
	for i := range numDense {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(m.dw[i]))
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(m.dg[i]))
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(n))
	for i := range m.w {
		if m.w[i] != 0 || m.g[i] != 0 {
			b = binary.LittleEndian.AppendUint32(b, uint32(i))
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(m.w[i]))
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(m.g[i]))
		}
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli()))
}

// Decode reads a model from its file form, as [Model.MarshalBinary]
// wrote it. Bytes it cannot read (truncated, corrupt, another format
// version) give an error wrapping [ErrBadModel] that says what is wrong.
func Decode(b []byte) (*Model, error) {
	m, err := decode(b)
	if err != nil {
		return nil, fmt.Errorf("%w: %s", ErrBadModel, err)
	}
	return m, nil
}

// decode parses the file form of a model.
func decode(b []byte) (*Model, error) {
	if len(b) < len(formatMagic)+1 || string(b[:len(formatMagic)]) != formatMagic {
		return nil, errors.New("not a router model")
	}
	if v := b[len(formatMagic)]; v != formatVersion {
		return nil, fmt.Errorf("format version %d, want %d", v, formatVersion)
	}
	if len(b) < headerSize+4 {
		return nil, fmt.Errorf("%d bytes, truncated", len(b))
	}
	body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	if crc32.Checksum(body, castagnoli()) != sum {
		return nil, errors.New("checksum mismatch (truncated or corrupt)")
	}
	p := body[len(formatMagic)+1:]
	u32 := func() uint32 { v := binary.LittleEndian.Uint32(p); p = p[4:]; return v }
	u64 := func() uint64 { v := binary.LittleEndian.Uint64(p); p = p[8:]; return v }
	f64 := func() float64 { return math.Float64frombits(u64()) }
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

	o := Options{Buckets: int(u32()), LearningRate: f64(), L2: f64()}
	count := u64()
	switch {
	case o.Buckets < 1 || o.Buckets > MaxBuckets:
		return nil, fmt.Errorf("%d buckets", o.Buckets)
	case !finite(o.LearningRate) || o.LearningRate <= 0:
		return nil, fmt.Errorf("learning rate %v", o.LearningRate)
	case !finite(o.L2) || o.L2 < 0:
		return nil, fmt.Errorf("l2 %v", o.L2)
	case count > math.MaxInt:
		return nil, fmt.Errorf("%d examples", count)
	}
	m := &Model{opts: o, count: int(count)}
	for i := range numDense {
		m.dw[i], m.dg[i] = f64(), f64()
		if !finite(m.dw[i]) || !finite(m.dg[i]) || m.dg[i] < 0 {
			return nil, fmt.Errorf("dense weight %d: %v, %v", i, m.dw[i], m.dg[i])
		}
	}
	n := u32()
	if uint64(len(p)) != uint64(n)*entrySize {
		return nil, fmt.Errorf("%d weights in %d bytes", n, len(p))
	}
	m.w = make([]float32, o.Buckets)
	m.g = make([]float32, o.Buckets)
	last := -1
	for range n {
		i := int(u32())
		w, g := math.Float32frombits(u32()), math.Float32frombits(u32())
		switch {
		case i <= last || i >= o.Buckets:
			return nil, fmt.Errorf("bucket %d out of order or range", i)
		case !finite(float64(w)) || !finite(float64(g)) || g < 0 || (w == 0 && g == 0):
			return nil, fmt.Errorf("bucket %d: %v, %v", i, w, g)
		}
		m.w[i], m.g[i], last = w, g, i
	}
	return m, nil
}
