package embed

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"math"
	"slices"
	"sync"
)

// LSAOptions configure [FitLSA]. The zero value works: 128 dimensions, a
// vocabulary of the 30,000 most frequent terms found in at least 2
// documents, seed 1.
type LSAOptions struct {
	// Dimensions is the number of dimensions wanted; 0 means 128. The
	// model may have fewer (see [LSA.Dimensions]).
	Dimensions int
	// MaxVocab is the most terms kept, those in the most documents; 0
	// means 30,000.
	MaxVocab int
	// MinDF is the fewest documents a term must be in to be kept; 0 means
	// 2. A term in one document links it to nothing else.
	MinDF int
	// Seed seeds the random projection; 0 means 1. The same documents and
	// seed give the same model, byte for byte, on the same platform.
	Seed uint64
	// Sample is the most documents the model's directions are fitted on;
	// 0 means 32,768. Of a larger corpus, those whose texts hash lowest
	// (FNV-1a) are taken, so that the same documents always give the same
	// sample; every document still counts for the vocabulary and the term
	// weights, and gets its vector.
	Sample int
}

func (o LSAOptions) withDefaults() (LSAOptions, error) {
	if o.Dimensions < 0 || o.MaxVocab < 0 || o.MinDF < 0 || o.Sample < 0 {
		return o, fmt.Errorf("invalid options %+v: negative value", o)
	}
	if o.Dimensions > maxDimensions {
		return o, fmt.Errorf("invalid options: %d dimensions, over the limit of %d", o.Dimensions, maxDimensions)
	}
	if o.Dimensions == 0 {
		o.Dimensions = 128
	}
	if o.MaxVocab == 0 {
		o.MaxVocab = 30000
	}
	o.MaxVocab = min(o.MaxVocab, maxVocab)
	if o.Sample == 0 {
		o.Sample = 1 << 15
	}
	if o.MinDF == 0 {
		o.MinDF = 2
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	return o, nil
}

// Limits of a model, checked by FitLSA and UnmarshalLSA.
const (
	maxDimensions = 4096
	maxVocab      = 1 << 22
)

// LSA is the default embedder: latent semantic analysis, fitted on the
// vault's own text by [FitLSA]. Texts are weighed by sublinear TF-IDF over
// the model's vocabulary and projected on the leading singular vectors of
// the corpus's documents × terms matrix, so that texts whose words occur
// in the same contexts land close together even when they share no word.
// It needs no model weights and no network, and is deterministic.
//
// An LSA is immutable and safe for concurrent use. The zero value is not
// usable: make one with FitLSA or [UnmarshalLSA].
type LSA struct {
	terms []string         // the vocabulary, most frequent first
	vocab map[string]int32 // term -> row of v
	idf   []float32        // per term
	sigma []float32        // singular values, descending
	v     []float32        // len(terms) × len(sigma), row-major: one row per term

	idOnce sync.Once
	id     string
}

// FitLSA fits an LSA model on docs, typically every chunk of a vault.
//
// The model has [LSAOptions.Dimensions] dimensions, or fewer when the
// corpus has fewer documents or kept terms than that, or fewer independent
// directions (duplicate documents); never fewer than 1. A corpus with no
// terms at all (no documents, only empty ones, or no term in MinDF
// documents) gives a model of 1 dimension that embeds every text as the
// zero vector. Fitting 40,000 short documents takes about a second on two
// cores; it uses every CPU and checks ctx between its stages. Of more than
// [LSAOptions.Sample] documents, a sample gives the directions (see
// there).
//
// The error is ctx's, an invalid option (a negative value, more than 4096
// dimensions), or a failure of the eigensolver, wrapped with "fit lsa".
func FitLSA(ctx context.Context, docs []string, opts LSAOptions) (*LSA, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, fmt.Errorf("fit lsa: %w", err)
	}
	c, err := buildCorpus(ctx, docs, opts.MaxVocab, opts.MinDF)
	if err != nil {
		return nil, fmt.Errorf("fit lsa: %w", err)
	}
	return fitCorpus(ctx, c, opts)
}

// foldInBatch is how many documents foldIn folds in between two calls of
// its callback.
const foldInBatch = 1024

// foldIn folds the documents of c, which m was fitted on, into m's space,
// each its weighed row of the matrix, and calls vectors with each batch
// of them in row order, the first at row lo. The vectors are reused once
// vectors returns.
func foldIn(ctx context.Context, m *LSA, c *corpus, vectors func(lo int, vecs [][]float32)) error {
	k := m.Dimensions()
	batch := make([][]float32, min(c.n, foldInBatch))
	flat := make([]float32, len(batch)*k)
	for i := range batch {
		batch[i] = flat[i*k : (i+1)*k : (i+1)*k]
	}
	for lo := 0; lo < c.n; lo += len(batch) {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("fit lsa: %w", err)
		}
		out := batch[:min(len(batch), c.n-lo)]
		parallelFor(len(out), 128, func(from, to int) {
			e := m.newEmbedder(foldInPower)
			var w weigher
			for i := from; i < to; i++ {
				cols, vals := w.weigh(c, int32(lo+i))
				e.project(cols, vals, out[i])
			}
		})
		vectors(lo, out)
	}
	return nil
}

// FitLSACorpus fits a model on the documents of c as [FitLSA] does on
// their texts in key order, and gives each document its vector, the one
// [LSA.Embed] gives its text up to float rounding, without reading the
// text again: its row of the corpus matrix the model was fitted on,
// folded in. It calls vectors with batches of keys and their vectors, in
// key order, which are reused once vectors returns (copy what you keep). Only one batch of vectors is held at a time. It empties
// c (the counts are freed when the fit returns); no document may be added
// to c while it runs.
func FitLSACorpus(ctx context.Context, c *Corpus, opts LSAOptions, vectors func(keys []string, vecs [][]float32)) (*LSA, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, fmt.Errorf("fit lsa: %w", err)
	}
	cp, keys, err := c.build(ctx, opts.MaxVocab, opts.MinDF)
	if err != nil {
		return nil, fmt.Errorf("fit lsa: %w", err)
	}
	m, err := fitCorpus(ctx, cp, opts)
	if err != nil {
		return nil, err
	}
	err = foldIn(ctx, m, cp, func(lo int, vecs [][]float32) { vectors(keys[lo:lo+len(vecs)], vecs) })
	return m, err
}

// fitCorpus fits a model on corpus c (opts with their defaults).
func fitCorpus(ctx context.Context, c *corpus, opts LSAOptions) (*LSA, error) {
	m := &LSA{terms: c.terms, idf: c.idf}
	if len(c.terms) == 0 {
		m.sigma = []float32{0}
		m.v = make([]float32, len(c.terms))
	} else {
		a := c.sample(opts.Sample)
		v, sigma, err := truncatedSVD(ctx, a, a.transpose(), opts.Dimensions, opts.Seed)
		if err != nil {
			return nil, fmt.Errorf("fit lsa: %w", err)
		}
		m.v = v
		m.sigma = make([]float32, len(sigma))
		for i, s := range sigma {
			m.sigma[i] = float32(s)
		}
	}
	m.index()
	return m, nil
}

var errNoConvergence = errors.New("eigen decomposition did not converge")

// index builds the term lookup.
func (m *LSA) index() {
	m.vocab = make(map[string]int32, len(m.terms))
	for i, t := range m.terms {
		m.vocab[t] = int32(i)
	}
}

// Dimensions returns the length of the vectors that [LSA.Embed] returns:
// at most the LSAOptions.Dimensions the model was fitted with, and at
// least 1.
func (m *LSA) Dimensions() int { return len(m.sigma) }

// ID identifies the model: "lsa-v1-<dimensions>-<hash>", where the hash
// is the first 12 hex digits of the SHA-256 of [LSA.MarshalBinary]'s
// bytes. A refitted model has a new ID (unless it is the same model), so
// a cache keyed by it re-embeds. The "v1" names the tokenizer and the
// weighting as well as the format.
func (m *LSA) ID() string {
	m.idOnce.Do(func() {
		h := sha256.New()
		m.encode(h)
		m.setID(h)
	})
	return m.id
}

// setID sets the model's ID from h, a SHA-256 of its binary form.
func (m *LSA) setID(h hash.Hash) {
	m.id = fmt.Sprintf("lsa-v%d-%d-%s", lsaVersion, m.Dimensions(), hex.EncodeToString(h.Sum(nil))[:12])
}

// foldInPower is the power p of the scaling Σᵖ applied to a folded-in
// text, q̂ = Σᵖ Vᵀ tfidf(q), before it is normalised. Every text the
// index compares, note chunk or query, is folded in the same way, so p
// only decides how much each latent dimension counts in the cosine: p = 0
// is the plain projection on the latent subspace (for a corpus document,
// its row of UΣ, Deerwester's document representation); p = −1 is the
// textbook query fold-in, which makes every dimension count the same
// (rows of U); p > 0 favours the strongest dimensions.
//
// Which is best depends on how many latent topics the corpus has beside
// the number of dimensions. On the synthetic paraphrase benchmark of
// TestFoldInPower (3,000 documents; queries that share no word with their
// document, where keywords find nothing: recall@10 ≤ 0.01), recall@10 for
// p = −1, −½, 0, ½, 1 is
//
//	  60 topics: 0.010 0.010 0.020 0.050 0.065   (p > 0 acts as a cut to fewer dimensions)
//	 400 topics: 0.440 0.425 0.420 0.410 0.380
//	1000 topics: 0.200 0.175 0.130 0.110 0.095
//
// A vault has far more topics than 128 dimensions, which argues for
// p < 0. But on real English sentence pairs (SICK: 1,683 pairs of
// relatedness ≥ 4, each sentence searched among all 4,802) recall@10 is
// 0.757, 0.769, 0.772, 0.761, 0.737: the weakest dimensions are noisier
// in real text than in synthetic text, and p = −1 falls behind. p = −½ is
// close to the best on both, the square-root weighting that Levy,
// Goldberg and Dagan (TACL 2015) also found better than the plain one for
// SVD word vectors.
const foldInPower = -0.5

// Embed returns one L2-normalised vector of [LSA.Dimensions] float32 per
// text: its sublinear TF-IDF vector over the model's vocabulary, projected
// on the model's dimensions. A text with no term of the vocabulary (empty,
// only stop words, or all new words) gets the zero vector, never NaN.
// Large batches are embedded on every CPU. The only error is ctx's,
// wrapped with "lsa embed".
func (m *LSA) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	k := m.Dimensions()
	flat := make([]float32, len(texts)*k)
	const chunk = 64
	var failed sync.Once
	var err error
	parallelFor(len(texts), chunk, func(lo, hi int) {
		if e := ctx.Err(); e != nil {
			failed.Do(func() { err = e })
			return
		}
		e := m.newEmbedder(foldInPower)
		for i := lo; i < hi; i++ {
			out[i] = flat[i*k : (i+1)*k : (i+1)*k]
			e.embed(texts[i], out[i])
		}
	})
	if err != nil {
		return nil, fmt.Errorf("lsa embed: %w", err)
	}
	return out, nil
}

// embedder folds texts into a model. It holds scratch space, so it is not
// safe for concurrent use; the model it reads is.
type embedder struct {
	m     *LSA
	tok   tokenizer
	scale []float64 // σᵖ per dimension
	ids   []int32
	acc   []float64
}

func (m *LSA) newEmbedder(power float64) *embedder {
	e := &embedder{m: m, scale: make([]float64, len(m.sigma)), acc: make([]float64, len(m.sigma))}
	for i, s := range m.sigma {
		switch {
		case power == 0:
			e.scale[i] = 1
		case s > 0:
			e.scale[i] = math.Pow(float64(s), power)
		}
		// A zero σ (the model of a corpus without terms) scales its
		// dimension to zero, never to infinity.
	}
	return e
}

// embed writes the normalised fold-in of text into out.
func (e *embedder) embed(text string, out []float32) {
	m := e.m
	e.ids = e.ids[:0]
	e.tok.each(text, func(term []byte) {
		if j, ok := m.vocab[string(term)]; ok {
			e.ids = append(e.ids, j)
		}
	})
	clear(e.acc)
	clear(out)
	if len(e.ids) == 0 {
		return
	}
	slices.Sort(e.ids)
	k := len(e.acc)
	for i := 0; i < len(e.ids); {
		j := i + 1
		for j < len(e.ids) && e.ids[j] == e.ids[i] {
			j++
		}
		t := int(e.ids[i])
		w := float64(termWeight(j-i, m.idf[t]))
		row := m.v[t*k : (t+1)*k]
		for c, x := range row {
			e.acc[c] += w * float64(x)
		}
		i = j
	}
	e.finish(out)
}

// project writes the normalised fold-in of a weighted term vector (terms
// by their rows of the model, weights) into out.
func (e *embedder) project(terms []int32, weights []float32, out []float32) {
	clear(e.acc)
	clear(out)
	k := len(e.acc)
	for p, t := range terms {
		w := float64(weights[p])
		row := e.m.v[int(t)*k : (int(t)+1)*k]
		for c, x := range row {
			e.acc[c] += w * float64(x)
		}
	}
	e.finish(out)
}

// finish scales the sum in acc by σᵖ and writes it, normalised, into out
// (left zero when the sum is zero).
func (e *embedder) finish(out []float32) {
	var norm float64
	for c := range e.acc {
		e.acc[c] *= e.scale[c]
		norm += e.acc[c] * e.acc[c]
	}
	if norm == 0 || math.IsInf(norm, 0) || math.IsNaN(norm) {
		return
	}
	inv := 1 / math.Sqrt(norm)
	for c, x := range e.acc {
		out[c] = float32(x * inv)
	}
}

// Drift returns the fraction of the terms of texts (words other than stop
// words, after stemming, and CJK bigrams) that are not in the model's
// vocabulary: 0 when texts are all old words, 1 when all are new, and 0
// when texts have no terms. Even the corpus a model was fitted on drifts a
// little, by its words too rare to be kept (MinDF); so compare Drift of
// new text with a threshold well above that, or with Drift of the
// corpus. Drift uses one CPU; it is safe for concurrent use.
func (m *LSA) Drift(texts []string) float64 {
	var tok tokenizer
	total, unknown := 0, 0
	for _, text := range texts {
		tok.each(text, func(term []byte) {
			total++
			if _, ok := m.vocab[string(term)]; !ok {
				unknown++
			}
		})
	}
	if total == 0 {
		return 0
	}
	return float64(unknown) / float64(total)
}
