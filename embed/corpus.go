package embed

import (
	"cmp"
	"context"
	"encoding/binary"
	"hash/fnv"
	"io"
	"math"
	"runtime"
	"slices"
	"sync"
)

// corpus is what an LSA model is fitted on: the vocabulary and the
// documents' counted terms, from which the rows of the documents × terms
// TF-IDF matrix are weighed on demand (see weigh): the matrix of a large
// corpus is never held whole, only the rows of the sample the directions
// are fitted on (see sample), and each row is weighed again to be folded
// in.
type corpus struct {
	terms  []string  // the vocabulary, most frequent (by document frequency) first
	idf    []float32 // inverse document frequency of each term
	n      int       // documents
	hashes []uint64  // each document's text's FNV-1a hash, by row
	shares []*counts // the counted documents
	docs   []docRef  // by row: where the document's counts are
	local  [][]int32 // per share: its term id -> global term id
	col    []int32   // global term id -> column of the matrix, or -1
}

// docRef is where a document's counts are: document i of shares[w].
type docRef struct{ w, i int32 }

// textHash is the FNV-1a hash of a document's text, by which a sample of
// the documents is taken (see corpus.sample).
func textHash(doc string) uint64 {
	h := fnv.New64a()
	io.WriteString(h, doc)
	return h.Sum64()
}

// sample returns the matrix of the n documents whose texts hash lowest
// (ties by row), in row order: all of them when there are at most n.
func (c *corpus) sample(n int) *csr {
	rows := make([]int32, c.n)
	for i := range rows {
		rows[i] = int32(i)
	}
	if c.n > n {
		slices.SortFunc(rows, func(x, y int32) int {
			if d := cmp.Compare(c.hashes[x], c.hashes[y]); d != 0 {
				return d
			}
			return cmp.Compare(x, y)
		})
		rows = rows[:n]
		slices.Sort(rows)
	}
	return c.matrix(rows)
}

// matrix returns the weighed rows of the given documents (ascending), in
// that order.
func (c *corpus) matrix(rows []int32) *csr {
	a := &csr{rows: len(rows), cols: len(c.terms), ptr: make([]int, len(rows)+1)}
	for k, r := range rows {
		a.ptr[k+1] = a.ptr[k] + c.kept(r)
	}
	a.col = make([]int32, a.ptr[len(rows)])
	a.val = make([]float32, a.ptr[len(rows)])
	parallelFor(len(rows), 1024, func(lo, hi int) {
		var w weigher
		for k := lo; k < hi; k++ {
			cols, vals := w.weigh(c, rows[k])
			copy(a.col[a.ptr[k]:], cols)
			copy(a.val[a.ptr[k]:], vals)
		}
	})
	return a
}

// pairs calls fn with the local term id and count of each term of the
// document at row r, ids ascending, and the share's local -> global ids.
func (c *corpus) pairs(r int32, fn func(local []int32, id int32, tf int)) {
	d := c.docs[r]
	sh := c.shares[d.w]
	start := 0
	if d.i > 0 {
		start = sh.end[d.i-1]
	}
	b := sh.pairs[start:sh.end[d.i]]
	local := c.local[d.w]
	var id uint64
	for len(b) > 0 {
		delta, n := binary.Uvarint(b)
		tf, m := binary.Uvarint(b[n:])
		b = b[n+m:]
		id += delta
		fn(local, int32(id), int(tf))
	}
}

// kept returns how many of the terms of the document at row r are in the
// vocabulary.
func (c *corpus) kept(r int32) int {
	k := 0
	c.pairs(r, func(local []int32, id int32, _ int) {
		if c.col[local[id]] >= 0 {
			k++
		}
	})
	return k
}

// weigher weighs documents into matrix rows; its buffers are reused, so
// each row it returns is valid until the next.
type weigher struct {
	keys []uint64
	cols []int32
	vals []float32
}

// weigh returns the row of the document at row r: its terms in the
// vocabulary by column, ascending, with their TF-IDF weights,
// L2-normalised.
func (w *weigher) weigh(c *corpus, r int32) ([]int32, []float32) {
	w.keys = w.keys[:0]
	c.pairs(r, func(local []int32, id int32, tf int) {
		if j := c.col[local[id]]; j >= 0 {
			wt := termWeight(tf, c.idf[j])
			w.keys = append(w.keys, uint64(j)<<32|uint64(math.Float32bits(wt)))
		}
	})
	// Sorted by column first, so that the norm is summed in an order that
	// does not depend on how the documents were shared out.
	slices.Sort(w.keys)
	var norm float64
	for _, k := range w.keys {
		x := float64(math.Float32frombits(uint32(k)))
		norm += x * x
	}
	scale := float32(1 / math.Sqrt(norm))
	w.cols, w.vals = w.cols[:0], w.vals[:0]
	for _, k := range w.keys {
		w.cols = append(w.cols, int32(k>>32))
		w.vals = append(w.vals, math.Float32frombits(uint32(k))*scale)
	}
	return w.cols, w.vals
}

// termWeight is the sublinear TF-IDF weight of a term seen tf times in a
// text: 1 + ln tf dampens a term repeated in one text, so that a note
// which says "meeting" ten times is not ten times about meetings.
func termWeight(tf int, idf float32) float32 {
	if tf < len(sublinearTF) {
		return sublinearTF[tf] * idf
	}
	return (1 + float32(math.Log(float64(tf)))) * idf
}

// sublinearTF[tf] is 1 + ln tf, for the counts most terms have.
var sublinearTF = func() (t [64]float32) {
	for tf := 1; tf < len(t); tf++ {
		t[tf] = 1 + float32(math.Log(float64(tf)))
	}
	return t
}()

// inverseDF is ln(1 + N/df): large for rare terms, never zero, so a term
// found in every document still counts a little.
func inverseDF(n, df int) float32 {
	return float32(math.Log1p(float64(n) / float64(df)))
}

// counts is one worker's share of the counting pass: the terms it met,
// their document frequencies, and each of its documents as (term, count)
// pairs, with term ids local to the worker.
type counts struct {
	dict   map[string]int32 // term -> id
	words  map[string]int32 // word as written (lower cased) -> term id, or -1 when dropped
	terms  []string
	df     []int32
	end    []int    // end[i] is where document i's pairs end
	pairs  []byte   // each document's terms, ids ascending, as uvarint pairs: id minus the previous one's, count
	mark   []int32  // per term: 1 + the document that last used it
	cnt    []int32  // per term: its count in that document
	keys   []string // each document's key, when counted by a Corpus
	hashes []uint64 // and its text's hash (see textHash)
}

// Corpus gathers the documents of an LSA model, one at a time and from
// several goroutines at once, counting each one's terms as it comes
// instead of keeping its text: a vault's chunks are counted while they
// are read, and their texts (tens of megabytes) are not held until the
// fit. [FitLSACorpus] fits on it.
type Corpus struct {
	idle chan *counts // the shards no Add is counting into
	all  []*counts
}

// NewCorpus returns an empty corpus.
func NewCorpus() *Corpus {
	n := runtime.GOMAXPROCS(0)
	c := &Corpus{idle: make(chan *counts, n)}
	for range n {
		sh := &counts{}
		c.all = append(c.all, sh)
		c.idle <- sh
	}
	return c
}

// Add counts document doc under key. Keys must be unique: the fit orders
// the documents by key, so that the model does not depend on the order
// they were added in. Safe for concurrent use, but not with the fit.
func (c *Corpus) Add(key, doc string) {
	h := textHash(doc)
	sh := <-c.idle
	sh.countMore([]string{doc})
	sh.keys = append(sh.keys, key)
	sh.hashes = append(sh.hashes, h)
	c.idle <- sh
}

// Len returns the number of documents added.
func (c *Corpus) Len() int {
	n := 0
	for _, sh := range c.all {
		n += len(sh.keys)
	}
	return n
}

// build chooses the vocabulary of the documents of c, their rows in key
// order, and returns the corpus with the keys in that order. It empties
// c: the corpus holds its counts now.
func (c *Corpus) build(ctx context.Context, maxVocab, minDF int) (*corpus, []string, error) {
	type doc struct {
		key string
		docRef
	}
	var docs []doc
	for w, sh := range c.all {
		for i, k := range sh.keys {
			docs = append(docs, doc{k, docRef{int32(w), int32(i)}})
		}
	}
	slices.SortFunc(docs, func(x, y doc) int { return cmp.Compare(x.key, y.key) })
	refs := make([]docRef, len(docs))
	keys := make([]string, len(docs))
	hashes := make([]uint64, len(docs))
	for r, d := range docs {
		refs[r] = d.docRef
		keys[r] = d.key
		hashes[r] = c.all[d.w].hashes[d.i]
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	for _, sh := range c.all {
		sh.keys, sh.hashes = nil, nil
	}
	cp := assemble(c.all, refs, maxVocab, minDF)
	cp.hashes = hashes
	c.all = nil
	return cp, keys, nil
}

// buildCorpus counts the terms of docs (in parallel), keeps the maxVocab
// terms of highest document frequency among those in at least minDF
// documents (see assemble). The result depends only on docs and the two
// limits, never on the number of CPUs.
func buildCorpus(ctx context.Context, docs []string, maxVocab, minDF int) (*corpus, error) {
	// Count, each worker on a contiguous share of the documents.
	workers := min(runtime.GOMAXPROCS(0), max(1, len(docs)/64))
	shares := make([]*counts, workers)
	refs := make([]docRef, len(docs))
	var wg sync.WaitGroup
	for w := range shares {
		lo, hi := len(docs)*w/workers, len(docs)*(w+1)/workers
		shares[w] = &counts{}
		for i := range hi - lo {
			refs[lo+i] = docRef{int32(w), int32(i)}
		}
		wg.Go(func() {
			// Count in slices of the share, so that a cancelled context
			// stops the work early.
			for s := lo; s < hi; s += 1024 {
				if ctx.Err() != nil {
					return
				}
				shares[w].countMore(docs[s:min(s+1024, hi)])
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c := assemble(shares, refs, maxVocab, minDF)
	c.hashes = make([]uint64, len(docs))
	for i, d := range docs {
		c.hashes[i] = textHash(d)
	}
	return c, nil
}

// assemble chooses the vocabulary of the counted documents of shares,
// the document at row r being refs[r].
func assemble(shares []*counts, refs []docRef, maxVocab, minDF int) *corpus {
	// Merge the workers' dictionaries.
	global := map[string]int32{}
	var terms []string
	var df []int
	local := make([][]int32, len(shares)) // worker term id -> global term id
	for w, sh := range shares {
		local[w] = make([]int32, len(sh.terms))
		for l, t := range sh.terms {
			g, ok := global[t]
			if !ok {
				g = int32(len(terms))
				global[t] = g
				terms = append(terms, t)
				df = append(df, 0)
			}
			df[g] += int(sh.df[l])
			local[w][l] = g
		}
		// What only counting needs.
		sh.dict, sh.words, sh.terms, sh.df, sh.mark, sh.cnt = nil, nil, nil, nil, nil, nil
	}

	// Choose the vocabulary: by document frequency, ties by the term, so
	// that the order (and the model) is the same on every machine.
	var keep []int32
	for g := range terms {
		if df[g] >= minDF {
			keep = append(keep, int32(g))
		}
	}
	slices.SortFunc(keep, func(x, y int32) int {
		if c := cmp.Compare(df[y], df[x]); c != 0 {
			return c
		}
		return cmp.Compare(terms[x], terms[y])
	})
	if len(keep) > maxVocab {
		keep = keep[:maxVocab]
	}
	n := len(refs)
	c := &corpus{terms: make([]string, len(keep)), idf: make([]float32, len(keep)), n: n,
		shares: shares, docs: refs, local: local, col: make([]int32, len(terms))}
	for g := range c.col {
		c.col[g] = -1
	}
	for j, g := range keep {
		c.col[g] = int32(j)
		c.terms[j] = terms[g]
		c.idf[j] = inverseDF(n, df[g])
	}
	return c
}

// countMore counts more documents into c.
func (c *counts) countMore(docs []string) {
	if c.dict == nil {
		c.dict = make(map[string]int32)
		c.words = make(map[string]int32)
		size := 0
		for _, d := range docs {
			size += len(d)
		}
		c.pairs = make([]byte, 0, size/3) // about one distinct term in 8 bytes of text, 3 bytes each
	}
	var tok tokenizer
	var uniq []int32 // the document's distinct terms, in order of first use
	add := func(id int32) {
		if c.mark[id] != int32(len(c.end)+1) {
			c.mark[id] = int32(len(c.end) + 1)
			c.cnt[id] = 0
			uniq = append(uniq, id)
		}
		c.cnt[id]++
	}
	for _, doc := range docs {
		uniq = uniq[:0]
		tok.scan(doc, func(tk []byte, word bool) {
			if !word {
				add(c.id(tk))
				return
			}
			// A word is looked up as it is first: filtering and stemming
			// it again each time it occurs is most of the cost of
			// counting.
			id, ok := c.words[string(tk)]
			if !ok {
				w := string(tk)
				id = -1
				if t := term(tk); t != nil {
					id = c.id(t)
				}
				c.words[w] = id
			}
			if id >= 0 {
				add(id)
			}
		})
		// Ids ascending, as small differences: three bytes a term where
		// an int32 and a count took eight.
		slices.Sort(uniq)
		prev := int32(0)
		for _, id := range uniq {
			c.pairs = binary.AppendUvarint(c.pairs, uint64(id-prev))
			c.pairs = binary.AppendUvarint(c.pairs, uint64(c.cnt[id]))
			prev = id
			c.df[id]++
		}
		c.end = append(c.end, len(c.pairs))
	}
}

// id returns the local id of a term, adding it if it is new.
func (c *counts) id(term []byte) int32 {
	id, ok := c.dict[string(term)]
	if !ok {
		id = int32(len(c.terms))
		s := string(term)
		c.dict[s] = id
		c.terms = append(c.terms, s)
		c.df = append(c.df, 0)
		c.mark = append(c.mark, 0)
		c.cnt = append(c.cnt, 0)
	}
	return id
}
