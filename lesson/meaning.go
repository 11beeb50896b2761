package lesson

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
	"slices"
	"strings"

	"github.com/vaultmem/vaultmem/vault"
)

// The fast path's vector side: a paraphrase of a lesson's situation
// ("before I touch the schema" for a lesson on migrations) shares no word
// with its trigger, so the keyword side never finds it. The vault's
// embedder places the situation; each lesson is placed by its own words
// and by what the vault says around it (the notes it links to and is
// linked from, else the notes its rule's words find), because a lesson's
// few words alone place it poorly among lessons (measured: 1 of 5
// paraphrases put the right lesson first by its words alone, while the
// vault's notes on each topic were found 5 of 5). The vectors are made
// when the lesson set is (re)built, each kept by the lesson's content hash
// and the embedder's ID, so that a rebuild after one outcome embeds one
// lesson; a match embeds only the situation and scans the lessons'
// signatures (see candidates).

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

// Meaning is what the vector side asks of the vault.
type Meaning interface {
	// Embedder returns the vault's embedder as it is now; nil, with no
	// error, when there is none (no vectors, or none fitted yet): then the
	// fast path keeps to words.
	Embedder(ctx context.Context) (Embedder, error)
	// Around returns, by lesson path, the texts the vault holds about
	// each of ls (the notes it links to and is linked from, else the notes
	// its rule's words find); a lesson with none is left out.
	Around(ctx context.Context, ls []Lesson) (map[string][]string, error)
}

// aroundWeight is the weight of the vault's texts around a lesson against
// the lesson's own words in its vector (both normalised first). Measured
// on the paraphrase set (TestLessonParaphrases: 60 situations, 12
// lessons), the right lesson is the nearest by vector for 20 situations
// with weight 0 (the lesson's own words), 40 with 3, 43 with 4, 42 with
// 5 and 40 with the texts alone: the texts place a lesson, its own words
// tell it from the lessons on a neighbouring topic.
const aroundWeight = 4.0

// minMeaning is the cosine similarity a lesson's vector must reach to be
// found by meaning, and meaningShare the share of the best similarity of a
// match it must also reach; meaningTop is the most lessons one match
// takes from the vector side. On the paraphrase set, where the right
// lesson is the nearest its similarity is 0.2 to 0.75, and the nearest
// wrong one's is mostly under 0.35: with these values the fast path finds
// 49 of 60 at precision 0.368; a floor of 0.15 finds as many, 0.25 two
// fewer and 0.3 nine fewer; one lesson instead of two finds one fewer at
// precision 0.387, three one more at 0.365.
const (
	minMeaning   = 0.2
	meaningShare = 0.8
	meaningTop   = 2
)

// meaningFull is the similarity at which the meaning part of a lesson's
// relevance is whole (1); below it the part is the similarity's share of
// it, so that a lesson at the floor (0.2, a part of 0.4) reaches
// MinRelevance on meaning alone.
const meaningFull = 0.5

// vecKey is what a lesson's cached vector was made from.
type vecKey struct {
	hash, model string
}

// lessonVectors are the vectors of a set's lessons, in the set's order,
// row after row, and the embedder that made them (nil: no vector side).
type lessonVectors struct {
	e    Embedder
	dims int
	flat []float32
	// sigs are the lessons' signatures, sigWords a lesson, made by proj.
	sigs []uint64
	proj *projector
}

// The vector side scans every lesson's signature, not its vector: 10,000
// vectors of 128 dimensions take about a millisecond to scan, the fast
// path's whole budget. A signature is the signs of sigWords×64 random
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
	sigWords          = 8
	meaningCandidates = 256
)

// projector makes signatures: sigWords×64 random directions of dims
// dimensions, from a fixed seed, so that every process makes the same
// signature of a vector (they are kept in VectorFile).
type projector struct {
	dims int
	r    []float32
}

func newProjector(dims int) *projector {
	rng := rand.New(rand.NewPCG(41, uint64(dims)))
	r := make([]float32, sigWords*64*dims)
	for i := range r {
		r[i] = float32(rng.NormFloat64())
	}
	return &projector{dims: dims, r: r}
}

// sign writes v's signature into sig (sigWords long).
func (p *projector) sign(v []float32, sig []uint64) {
	clear(sig)
	for b := range sigWords * 64 {
		if dot(v, p.r[b*p.dims:(b+1)*p.dims]) > 0 {
			sig[b/64] |= 1 << (b % 64)
		}
	}
}

// meaningText is the text of a lesson its own vector is made of: its name,
// word triggers, action bias and text.
func meaningText(e *entry) string {
	return strings.Join(append(append([]string{e.Name}, e.phraseText...), e.ActionBias, e.Text), "\n")
}

// embedSet gives set's lessons their vectors, reusing those m made before
// for a lesson of the same content and embedder.
func (m *Matcher) embedSet(ctx context.Context, set *lessonSet) error {
	if m.opts.Meaning == nil || len(set.lessons) == 0 {
		return nil
	}
	e, err := m.opts.Meaning.Embedder(ctx)
	if err != nil || e == nil {
		return err
	}
	model := e.ID()
	m.vecMu.Lock()
	defer m.vecMu.Unlock()
	if m.vecs == nil {
		m.vecs = loadVectors(m.opts.VectorFile)
	}
	dims := e.Dimensions()
	if m.proj == nil || m.proj.dims != dims {
		m.proj = newProjector(dims)
	}
	var missing []int
	for i := range set.lessons {
		l := &set.lessons[i]
		if c, ok := m.vecs[l.Path]; !ok || c.key != (vecKey{l.Hash, model}) || len(c.v) != dims {
			missing = append(missing, i)
		}
	}
	if len(missing) > 0 {
		ls := make([]Lesson, len(missing))
		own := make([]string, len(missing))
		for j, i := range missing {
			ls[j] = set.lessons[i].Lesson
			own[j] = meaningText(&set.lessons[i])
		}
		around, err := m.opts.Meaning.Around(ctx, ls)
		if err != nil {
			return err
		}
		ctxText := make([]string, len(missing))
		for j, l := range ls {
			ctxText[j] = strings.Join(around[l.Path], "\n")
		}
		ownV, err := e.Embed(ctx, own)
		if err != nil {
			return err
		}
		ctxV, err := e.Embed(ctx, ctxText)
		if err != nil {
			return err
		}
		for j, i := range missing {
			v := slices.Clone(ownV[j])
			for d := range v {
				v[d] += aroundWeight * ctxV[j][d]
			}
			normalize(v)
			c := cachedVec{key: vecKey{set.lessons[i].Hash, model}, v: v, sig: make([]uint64, sigWords)}
			m.proj.sign(v, c.sig)
			m.vecs[set.lessons[i].Path] = c
		}
		saveVectors(m.opts.VectorFile, m.vecs, set)
	}
	flat := make([]float32, len(set.lessons)*dims)
	sigs := make([]uint64, len(set.lessons)*sigWords)
	kept := make(map[string]cachedVec, len(set.lessons)) // a lesson gone, or out of matching, is forgotten
	for i := range set.lessons {
		c := m.vecs[set.lessons[i].Path]
		kept[set.lessons[i].Path] = c
		copy(flat[i*dims:(i+1)*dims], c.v)
		copy(sigs[i*sigWords:(i+1)*sigWords], c.sig)
	}
	m.vecs = kept
	set.vec = &lessonVectors{e: e, dims: dims, flat: flat, sigs: sigs, proj: m.proj}
	return nil
}

// cachedVec is a lesson's vector and what it was made from.
type cachedVec struct {
	key vecKey
	v   []float32
	sig []uint64
}

// VectorFile is the file, in the cache folder (Options.CacheDir), that
// keeps the lessons' vectors between processes: a process that matches
// once (a hook, 'vaultmem lesson match') embeds only the lessons changed
// since, instead of reading the notes around every lesson again.
const VectorFile = "lesson-vectors.gob"

// vectorFileVersion changes when the meaning of VectorFile's vectors does
// (how a lesson's vector is made); a file of another version is ignored.
const vectorFileVersion = 2

// storedVec is one lesson's vector as VectorFile keeps it.
type storedVec struct {
	Hash, Model string
	V           []float32
	Sig         []uint64
}

// vectorFile is VectorFile's content.
type vectorFile struct {
	Version int
	Vectors map[string]storedVec
}

// loadVectors reads the vectors file p keeps ("" or a file that cannot be
// read or is of another version: none; it is a cache).
func loadVectors(p string) map[string]cachedVec {
	out := map[string]cachedVec{}
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
		if len(v.Sig) == sigWords {
			out[path] = cachedVec{key: vecKey{v.Hash, v.Model}, v: v.V, sig: v.Sig}
		}
	}
	return out
}

// saveVectors writes the vectors of set's lessons to p (nothing for ""):
// a cache, so that a failure is no error, only work for the next process.
func saveVectors(p string, vecs map[string]cachedVec, set *lessonSet) {
	if p == "" {
		return
	}
	vf := vectorFile{Version: vectorFileVersion, Vectors: make(map[string]storedVec, len(set.lessons))}
	for i := range set.lessons {
		if c, ok := vecs[set.lessons[i].Path]; ok {
			vf.Vectors[set.lessons[i].Path] = storedVec{Hash: c.key.hash, Model: c.key.model, V: c.v, Sig: c.sig}
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

// normalize scales v to length 1 (the zero vector stays zero).
func normalize(v []float32) {
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

// meaning scores set's lessons by the similarity of their vectors to the
// situation's text and writes, for the best few above the floors (see
// minMeaning), their similarity into sc.sem; nothing when the set has no
// vectors or the text no word the embedder knows.
func (set *lessonSet) meaning(ctx context.Context, textOf string, sc *scratch) error {
	vs := set.vec
	if vs == nil || strings.TrimSpace(textOf) == "" {
		return nil
	}
	qs, err := vs.e.Embed(ctx, []string{textOf})
	if err != nil {
		return err
	}
	q := qs[0]
	if len(q) != vs.dims {
		return nil
	}
	var top [meaningTop]struct {
		d   int32
		sim float32
	}
	n := 0
	for _, d := range vs.candidates(q, sc) {
		sim := dot(q, vs.flat[int(d)*vs.dims:(int(d)+1)*vs.dims])
		if sim < minMeaning || (n == meaningTop && sim <= top[n-1].sim) {
			continue
		}
		if n < meaningTop {
			n++ // else the last, the least similar, gives way
		}
		i := n - 1
		for i > 0 && top[i-1].sim < sim {
			top[i] = top[i-1]
			i--
		}
		top[i].d, top[i].sim = d, sim
	}
	for _, t := range top[:n] {
		if t.sim < meaningShare*top[0].sim {
			break
		}
		sc.touch(t.d)
		sc.sem[t.d] = min(1, float64(t.sim)/meaningFull)
	}
	return nil
}

// candidates are the lessons whose vectors meaning scores for the
// situation's vector q: every lesson, or when there are more than
// meaningCandidates, the meaningCandidates whose signatures differ least
// from q's (ties by order). They are written in sc, whose dist it uses.
func (vs *lessonVectors) candidates(q []float32, sc *scratch) []int32 {
	n := len(vs.sigs) / sigWords
	out := sc.cands[:0]
	defer func() { sc.cands = out }()
	if n <= meaningCandidates {
		for d := range n {
			out = append(out, int32(d))
		}
		return out
	}
	var qs [sigWords]uint64
	vs.proj.sign(q, qs[:])
	if cap(sc.dist) < n {
		sc.dist = make([]uint16, n)
	}
	dist := sc.dist[:n]
	var hist [sigWords*64 + 1]int
	for d := range n {
		h := 0
		for w, x := range vs.sigs[d*sigWords : (d+1)*sigWords] {
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

// WordTriggers are the items of trigger that are words: no tool:NAME, no
// path glob (see the trigger's kinds in docs/lessons.md).
func WordTriggers(trigger []string) []string {
	var out []string
	for _, t := range trigger {
		if kind, v := triggerKind(t); kind == "words" {
			out = append(out, v)
		}
	}
	return out
}
