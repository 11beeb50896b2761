package router

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// Situation is what an agent is about to do.
type Situation struct {
	Text  string   // what it is about to do, free text
	Tool  string   // tool name, "" when none
	Paths []string // files involved (vault- or repo-relative slash paths)
}

// Candidate is one lesson the fast path proposed for a situation, with the
// static features it was ranked by.
type Candidate struct {
	Path      string // the lesson note's path, its identity
	Domain    string
	Tags      []string
	Relevance float64 // 0..1 from the fast path
	Strength  float64 // 0..1
}

// Static is the static score the fast path ranks by: c.Relevance ×
// c.Strength.
func Static(c Candidate) float64 { return c.Relevance * c.Strength }

// Options configure a [Model]. The zero value gets the defaults.
type Options struct {
	// Buckets is the number of hashed weights, 1<<18 when 0 or less, at
	// most MaxBuckets. More buckets mean fewer collisions between
	// features and more memory (8 bytes a bucket while learning; a saved
	// model keeps only the non-zero ones).
	Buckets int
	// LearningRate is the base step size, 0.3 when 0 or less. Each
	// weight's step is LearningRate/√(1+Σg²) over the gradients g it has
	// had (AdaGrad), so rare features (a lesson seen in few situations)
	// keep learning after common ones have settled.
	LearningRate float64
	// L2 is the weight decay added to every gradient, 1e-3 when 0; a
	// negative value turns it off. It keeps weights of features that
	// were seen once from growing on noise.
	L2 float64
}

// MaxBuckets is the largest [Options.Buckets].
const MaxBuckets = 1 << 24

// withDefaults returns o with its zero fields set to the defaults.
func (o Options) withDefaults() Options {
	if o.Buckets <= 0 {
		o.Buckets = 1 << 18
	}
	o.Buckets = min(o.Buckets, MaxBuckets)
	if !(o.LearningRate > 0) || math.IsInf(o.LearningRate, 0) {
		o.LearningRate = 0.3
	}
	switch {
	case o.L2 == 0 || math.IsNaN(o.L2) || math.IsInf(o.L2, 0):
		o.L2 = 1e-3
	case o.L2 < 0:
		o.L2 = 0
	}
	return o
}

// The dense features, each with its own weight: the candidate's static
// features and the bias. The static features are centred (relevance −
// 0.5, strength − 0.5, static − 0.25): uncentred, all three are positive
// and move with the bias, so while the bias is still far from the base
// rate (most candidates shown do not help) they soak up its gradient and
// learn to rank backwards.
const (
	denseRelevance = iota
	denseStrength
	denseStatic
	denseBias
	numDense
)

// Model is logistic regression trained online by stochastic gradient
// descent (AdaGrad steps; see [Options]): the probability that a
// candidate lesson helps in a situation is σ(w·x), where x holds the
// candidate's relevance, strength and static score, a bias, and hashed
// features that cross the situation's words, tool, path extensions and
// first folders with the lesson's path, domain and tags.
//
// A new model scores every candidate 0.5, so its [Model.Rerank] falls back
// to the static order until it has learned something.
//
// Score, Rerank and Save may run concurrently with each other, but not
// with Learn or Train.
type Model struct {
	opts  Options
	w     []float32 // hashed weights, opts.Buckets of them
	g     []float32 // AdaGrad's Σg² per hashed weight
	dw    [numDense]float64
	dg    [numDense]float64
	count int
}

// New returns an untrained model.
func New(o Options) *Model {
	o = o.withDefaults()
	return &Model{
		opts: o,
		w:    make([]float32, o.Buckets),
		g:    make([]float32, o.Buckets),
	}
}

// Options returns the options the model runs with, defaults filled in.
func (m *Model) Options() Options { return m.opts }

// Examples returns the number of examples the model has learned.
func (m *Model) Examples() int { return m.count }

// example is one candidate in one situation, turned into features.
type example struct {
	buckets []uint32
	x       float64 // the value of every hashed feature
	dense   [numDense]float64
}

// clamp01 returns v within [0, 1], and 0 for NaN.
func clamp01(v float64) float64 {
	if !(v > 0) {
		return 0
	}
	return min(v, 1)
}

// example turns a candidate into features for a situation's context
// hashes, reusing buf for the buckets.
func (m *Model) example(ctx []uint64, c Candidate, buf []uint32) example {
	e := example{}
	e.buckets, e.x = features(buf[:0], ctx, hashTerms(lessonTerms(c)), m.opts.Buckets)
	rel, str := clamp01(c.Relevance), clamp01(c.Strength)
	e.dense = [numDense]float64{rel - 0.5, str - 0.5, rel*str - 0.25, 1}
	return e
}

// logit returns w·x for e.
func (m *Model) logit(e example) float64 {
	var z float64
	for _, b := range e.buckets {
		z += float64(m.w[b])
	}
	z *= e.x
	for i, v := range e.dense {
		z += m.dw[i] * v
	}
	return z
}

// sigmoid is the logistic function, exactly 0 or 1 never.
func sigmoid(z float64) float64 {
	z = max(-30, min(30, z))
	return 1 / (1 + math.Exp(-z))
}

// Score returns the model's probability, in (0, 1), that c helps in s.
// Relevance and strength are taken within [0, 1] (NaN as 0).
func (m *Model) Score(s Situation, c Candidate) float64 {
	return sigmoid(m.logit(m.example(hashTerms(contextTerms(s)), c, nil)))
}

// Learn takes one labelled example, c helped in s or it did not, and moves
// the weights one gradient step towards it.
func (m *Model) Learn(s Situation, c Candidate, helped bool) {
	m.learn(hashTerms(contextTerms(s)), c, helped, nil)
}

// learn is Learn with the context hashed already and a scratch buffer; it
// returns the buffer for reuse.
func (m *Model) learn(ctx []uint64, c Candidate, helped bool, buf []uint32) []uint32 {
	e := m.example(ctx, c, buf)
	y := 0.0
	if helped {
		y = 1
	}
	d := sigmoid(m.logit(e)) - y // ∂loss/∂z for log loss
	lr, l2 := m.opts.LearningRate, m.opts.L2
	for _, b := range e.buckets {
		w := float64(m.w[b])
		g := d*e.x + l2*w
		m.g[b] += float32(g * g)
		m.w[b] = float32(w - lr*g/math.Sqrt(1+float64(m.g[b])))
	}
	for i, v := range e.dense {
		g := d * v
		if i != denseBias {
			g += l2 * m.dw[i]
		}
		m.dg[i] += g * g
		m.dw[i] -= lr * g / math.Sqrt(1+m.dg[i])
	}
	m.count++
	return e.buckets
}

// Rerank returns cs ordered by [Model.Score], best first; equal scores
// are ordered by [Static], best first, then by path, and candidates equal
// in all three keep their order. It does not modify cs.
func (m *Model) Rerank(s Situation, cs []Candidate) []Candidate {
	ctx := hashTerms(contextTerms(s))
	type scored struct {
		c      Candidate
		score  float64
		static float64
	}
	ss := make([]scored, len(cs))
	var buf []uint32
	for i, c := range cs {
		e := m.example(ctx, c, buf)
		buf = e.buckets
		ss[i] = scored{c, sigmoid(m.logit(e)), Static(c)}
	}
	slices.SortStableFunc(ss, func(a, b scored) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		if c := cmp.Compare(b.static, a.static); c != 0 {
			return c
		}
		return strings.Compare(a.c.Path, b.c.Path)
	})
	out := make([]Candidate, len(ss))
	for i, s := range ss {
		out[i] = s.c
	}
	return out
}
