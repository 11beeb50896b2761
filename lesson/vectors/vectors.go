// Package vectors is the lessons' fast path's vector side, the part that
// knows nothing of lessons: the embedder it is given (Embedder), each
// lesson's vector and signature kept by what it was made from (Vec, the
// cache file File), the signatures' projector (Projector), and the scan
// of a match (Set.Nearest): the signatures nearest the situation's, then
// the vectors of those scored exactly. Package lesson decides what a
// lesson's vector is made of and what a similarity adds to its relevance.
//
// It imports vault (the cache file is written as every cache file is);
// never lesson.
package vectors

import (
	"bufio"
	"bytes"
	"context"
	"encoding/gob"
	"io"
	"math"
	"math/bits"
	"math/rand/v2"
	"os"
	"strings"

	"github.com/vaultmem/vaultmem/vault"
)

// Embedder turns texts into L2-normalised vectors: what package embed's
// embedders, and index.Embedder, are.
type Embedder interface {
	// ID names the model; vectors of another ID are made again.
	ID() string
	// Dimensions is the length of every vector.
	Dimensions() int
	// Embed returns one vector per text, each of Dimensions, L2-normalised
	// (the zero vector for a text it knows no word of).
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// minMeaning is the cosine similarity a lesson's vector must reach to be
// found by meaning, and meaningShare the share of the best similarity of a
// match it must also reach; Top is the most lessons one match
// takes from the vector side. On the paraphrase set, where the right
// lesson is the nearest its similarity is 0.2 to 0.75, and the nearest
// wrong one's is mostly under 0.35: with these values the fast path finds
// 49 of 60 at precision 0.368; a floor of 0.15 finds as many, 0.25 two
// fewer and 0.3 nine fewer; one lesson instead of two finds one fewer at
// precision 0.387, three one more at 0.365.
const (
	minMeaning   = 0.2
	meaningShare = 0.8
	// Top is the most lessons one match takes from the vector side.
	Top = 2
)

// The vector side scans every lesson's signature, not its vector: 10,000
// vectors of 128 dimensions take about a millisecond to scan, the fast
// path's whole budget. A signature is the signs of SigWords×64 random
// projections of the vector (Charikar's SimHash): the share of bits in
// which two signatures differ estimates the angle between the vectors.
// The meaningCandidates lessons whose signatures are nearest the
// situation's are then scored exactly; with fewer lessons than that,
// every lesson is. Among 5,000 lessons of random directions, 512 bits and
// 256 candidates keep 99% of the lessons at a similarity of 0.3 or more
// (256 bits: 93%; TestCandidatesKeepTheNear); at 10,000 lessons the vector
// side adds about 0.2 ms to a match (BenchmarkMatch: p50 0.62 → 0.79–0.90
// ms on a loaded machine), where scanning every vector added 0.8.
const (
	// SigWords is a signature's length in 64-bit words.
	SigWords          = 8
	meaningCandidates = 256
)

// Projector makes signatures: SigWords×64 random directions of dims
// dimensions, from a fixed seed, so that every process makes the same
// signature of a vector (they are kept in File).
type Projector struct {
	dims int
	r    []float32
}

// NewProjector returns the projector of vectors of dims dimensions.
func NewProjector(dims int) *Projector {
	rng := rand.New(rand.NewPCG(41, uint64(dims)))
	r := make([]float32, SigWords*64*dims)
	for i := range r {
		r[i] = float32(rng.NormFloat64())
	}
	return &Projector{dims: dims, r: r}
}

// Dims is the length of the vectors p signs.
func (p *Projector) Dims() int { return p.dims }

// Sign writes v's signature into sig (SigWords long).
func (p *Projector) Sign(v []float32, sig []uint64) {
	clear(sig)
	for b := range SigWords * 64 {
		if dot(v, p.r[b*p.dims:(b+1)*p.dims]) > 0 {
			sig[b/64] |= 1 << (b % 64)
		}
	}
}

// File is the file, in the vault's cache folder, that
// keeps the lessons' vectors between processes: a process that matches
// once (a hook, 'vaultmem lesson match') embeds only the lessons changed
// since, instead of reading the notes around every lesson again.
const File = "lesson-vectors.gob"

// vectorFileVersion changes when the meaning of File's vectors does
// (how a lesson's vector is made); a file of another version is ignored.
const vectorFileVersion = 2

// Key is what a lesson's vector was made from: the lesson's content hash
// and the embedder's ID.
type Key struct {
	Hash, Model string
}

// Vec is a lesson's vector, its signature (SigWords long) and what it
// was made from.
type Vec struct {
	Key Key
	V   []float32
	Sig []uint64
}

// storedVec is one lesson's vector as File keeps it.
type storedVec struct {
	Hash, Model string
	V           []float32
	Sig         []uint64
}

// vectorFile is File's content.
type vectorFile struct {
	Version int
	Vectors map[string]storedVec
}

// Load reads the vectors, by lesson path, that the file p keeps ("" or a
// file that cannot be read or is of another version: none; it is a
// cache).
func Load(p string) map[string]Vec {
	out := map[string]Vec{}
	if p == "" {
		return out
	}
	f, err := os.Open(p)
	if err != nil {
		return out
	}
	defer f.Close()
	var vf vectorFile
	if gob.NewDecoder(bufio.NewReader(f)).Decode(&vf) != nil || vf.Version != vectorFileVersion {
		return out
	}
	for path, v := range vf.Vectors {
		if len(v.Sig) == SigWords {
			out[path] = Vec{Key: Key{v.Hash, v.Model}, V: v.V, Sig: v.Sig}
		}
	}
	return out
}

// Save writes to p (nothing for "") the vectors of vecs of the lessons at
// paths: a cache, so that a failure is no error, only work for the next
// process.
func Save(p string, vecs map[string]Vec, paths []string) {
	if p == "" {
		return
	}
	vf := vectorFile{Version: vectorFileVersion, Vectors: make(map[string]storedVec, len(paths))}
	for _, path := range paths {
		if c, ok := vecs[path]; ok {
			vf.Vectors[path] = storedVec{Hash: c.Key.Hash, Model: c.Key.Model, V: c.V, Sig: c.Sig}
		}
	}
	var buf bytes.Buffer
	if gob.NewEncoder(&buf).Encode(vf) == nil {
		// A cache: on a failure the next process embeds again.
		_ = vault.WriteCacheFile(p, func(w io.Writer) error {
			_, err := w.Write(buf.Bytes())
			return err
		})
	}
}

// Normalize scales v to length 1 (the zero vector stays zero).
func Normalize(v []float32) {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(s))
	for i := range v {
		v[i] *= inv
	}
}

// Set is the vectors of a lesson set's lessons, in the set's order, row
// after row, their signatures, and the embedder that made them.
type Set struct {
	e    Embedder
	dims int
	flat []float32
	sigs []uint64
	proj *Projector
}

// NewSet returns the set of vecs, in their order, made by e, signed by
// proj; each vector is proj.Dims() long.
func NewSet(e Embedder, proj *Projector, vecs []Vec) *Set {
	dims := proj.Dims()
	flat := make([]float32, len(vecs)*dims)
	sigs := make([]uint64, len(vecs)*SigWords)
	for i, c := range vecs {
		copy(flat[i*dims:(i+1)*dims], c.V)
		copy(sigs[i*SigWords:(i+1)*SigWords], c.Sig)
	}
	return &Set{e: e, dims: dims, flat: flat, sigs: sigs, proj: proj}
}

// Scratch is a match's buffers for Nearest, kept between matches so that
// a scan allocates nothing per lesson. Its zero value is ready to use.
type Scratch struct {
	dist  []uint16
	cands []int32
}

// Hit is a lesson found by meaning: its place in the set and its
// vector's cosine similarity to the situation's.
type Hit struct {
	Doc int32
	Sim float32
}

// Nearest embeds the situation's text and returns the best few (at most
// Top) of vs's lessons by the similarity of their vectors to it, above
// the floors (see minMeaning), the most similar first, and how many there
// are; none when vs is nil or the text has no word the embedder knows.
// Errors: the embedder's.
func (vs *Set) Nearest(ctx context.Context, text string, sc *Scratch) ([Top]Hit, int, error) {
	var top [Top]Hit
	if vs == nil || strings.TrimSpace(text) == "" {
		return top, 0, nil
	}
	qs, err := vs.e.Embed(ctx, []string{text})
	if err != nil {
		return top, 0, err
	}
	q := qs[0]
	if len(q) != vs.dims {
		return top, 0, nil
	}
	n := 0
	for _, d := range vs.candidates(q, sc) {
		sim := dot(q, vs.flat[int(d)*vs.dims:(int(d)+1)*vs.dims])
		if sim < minMeaning || (n == Top && sim <= top[n-1].Sim) {
			continue
		}
		if n < Top {
			n++ // else the last, the least similar, gives way
		}
		i := n - 1
		for i > 0 && top[i-1].Sim < sim {
			top[i] = top[i-1]
			i--
		}
		top[i].Doc, top[i].Sim = d, sim
	}
	for k, t := range top[:n] {
		if t.Sim < meaningShare*top[0].Sim {
			return top, k, nil
		}
	}
	return top, n, nil
}

// candidates are the lessons whose vectors Nearest scores for the
// situation's vector q: every lesson, or when there are more than
// meaningCandidates, the meaningCandidates whose signatures differ least
// from q's (ties by order). They are written in sc, whose dist it uses.
func (vs *Set) candidates(q []float32, sc *Scratch) []int32 {
	n := len(vs.sigs) / SigWords
	out := sc.cands[:0]
	defer func() { sc.cands = out }()
	if n <= meaningCandidates {
		for d := range n {
			out = append(out, int32(d))
		}
		return out
	}
	var qs [SigWords]uint64
	vs.proj.Sign(q, qs[:])
	if cap(sc.dist) < n {
		sc.dist = make([]uint16, n)
	}
	dist := sc.dist[:n]
	var hist [SigWords*64 + 1]int
	for d := range n {
		h := 0
		for w, x := range vs.sigs[d*SigWords : (d+1)*SigWords] {
			h += bits.OnesCount64(x ^ qs[w])
		}
		dist[d] = uint16(h)
		hist[h]++
	}
	// cut is the farthest distance taken: all nearer, and as many at it
	// as there is room for.
	cut, room := 0, meaningCandidates
	for ; cut < len(hist) && hist[cut] < room; cut++ {
		room -= hist[cut]
	}
	for d, h := range dist {
		if int(h) < cut || int(h) == cut && room > 0 {
			if int(h) == cut {
				room--
			}
			out = append(out, int32(d))
		}
	}
	return out
}

// dot is the dot product of a and b (of one length), four terms a step.
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return s0 + s1 + s2 + s3
}
