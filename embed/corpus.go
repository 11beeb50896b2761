package embed

import (
	"cmp"
	"context"
	"hash/fnv"
	"io"
	"math"
	"runtime"
	"slices"
	"sync"
)

// corpus is what an LSA model is fitted on: the vocabulary and the
// documents × terms TF-IDF matrix.
type corpus struct {
	terms  []string  // the vocabulary, most frequent (by document frequency) first
	idf    []float32 // inverse document frequency of each term
	a      *csr      // documents × terms, each row L2-normalised
	hashes []uint64  // each document's text's FNV-1a hash, by row
}

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
	a := c.a
	if a.rows <= n {
		return a
	}
	rows := make([]int, a.rows)
	for i := range rows {
		rows[i] = i
	}
	slices.SortFunc(rows, func(x, y int) int {
		if d := cmp.Compare(c.hashes[x], c.hashes[y]); d != 0 {
			return d
		}
		return cmp.Compare(x, y)
	})
	rows = rows[:n]
	slices.Sort(rows)
	s := &csr{rows: n, cols: a.cols, ptr: make([]int, n+1)}
	for k, r := range rows {
		s.ptr[k+1] = s.ptr[k] + a.ptr[r+1] - a.ptr[r]
	}
	s.col = make([]int32, 0, s.ptr[n])
	s.val = make([]float32, 0, s.ptr[n])
	for _, r := range rows {
		s.col = append(s.col, a.col[a.ptr[r]:a.ptr[r+1]]...)
		s.val = append(s.val, a.val[a.ptr[r]:a.ptr[r+1]]...)
	}
	return s
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
	end    []int   // end[i] is where document i's pairs end in ids and tf
	ids    []int32 // local term ids, in order of first use within a document
	tf     []int32
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

// build assembles the corpus matrix, its rows in key order, and returns
// it with the keys in that order. It empties c.
func (c *Corpus) build(ctx context.Context, maxVocab, minDF int) (*corpus, []string, error) {
	type doc struct {
		key  string
		w, i int32
	}
	var docs []doc
	for w, sh := range c.all {
		for i, k := range sh.keys {
			docs = append(docs, doc{k, int32(w), int32(i)})
		}
	}
	slices.SortFunc(docs, func(x, y doc) int { return cmp.Compare(x.key, y.key) })
	rows := make([][]int32, len(c.all))
	for w, sh := range c.all {
		rows[w] = make([]int32, len(sh.keys))
	}
	keys := make([]string, len(docs))
	hashes := make([]uint64, len(docs))
	for r, d := range docs {
		rows[d.w][d.i] = int32(r)
		keys[r] = d.key
		hashes[r] = c.all[d.w].hashes[d.i]
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	cp := assemble(c.all, rows, len(docs), maxVocab, minDF)
	cp.hashes = hashes
	c.all = nil // the counts are in the matrix now: free them for the fit
	return cp, keys, nil
}

// buildCorpus counts the terms of docs (in parallel), keeps the maxVocab
// terms of highest document frequency among those in at least minDF
// documents, and weighs the documents. The result depends only on docs
// and the two limits, never on the number of CPUs.
func buildCorpus(ctx context.Context, docs []string, maxVocab, minDF int) (*corpus, error) {
	// Count, each worker on a contiguous share of the documents.
	workers := min(runtime.GOMAXPROCS(0), max(1, len(docs)/64))
	shares := make([]*counts, workers)
	rows := make([][]int32, workers) // the matrix row of each share's documents
	var wg sync.WaitGroup
	for w := range shares {
		lo, hi := len(docs)*w/workers, len(docs)*(w+1)/workers
		shares[w] = &counts{}
		rows[w] = make([]int32, hi-lo)
		for i := range rows[w] {
			rows[w][i] = int32(lo + i)
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
	c := assemble(shares, rows, len(docs), maxVocab, minDF)
	c.hashes = make([]uint64, len(docs))
	for i, d := range docs {
		c.hashes[i] = textHash(d)
	}
	return c, nil
}

// assemble chooses the vocabulary of the counted documents of shares (n
// in all) and weighs them into the matrix, the document i of share w at
// row rows[w][i].
func assemble(shares []*counts, rows [][]int32, n, maxVocab, minDF int) *corpus {
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
	col := make([]int32, len(terms)) // global term id -> column, or -1
	for g := range col {
		col[g] = -1
	}
	c := &corpus{terms: make([]string, len(keep)), idf: make([]float32, len(keep))}
	for j, g := range keep {
		col[g] = int32(j)
		c.terms[j] = terms[g]
		c.idf[j] = inverseDF(n, df[g])
	}

	// Weigh the documents into the matrix.
	a := &csr{rows: n, cols: len(keep), ptr: make([]int, n+1)}
	c.a = a
	for w, sh := range shares {
		start := 0
		for i, end := range sh.end {
			k := 0
			for _, l := range sh.ids[start:end] {
				if col[local[w][l]] >= 0 {
					k++
				}
			}
			a.ptr[rows[w][i]+1] = k
			start = end
		}
	}
	for r := range n {
		a.ptr[r+1] += a.ptr[r]
	}
	a.col = make([]int32, a.ptr[n])
	a.val = make([]float32, a.ptr[n])
	var wg sync.WaitGroup
	for w, sh := range shares {
		wg.Go(func() { c.fill(a, rows[w], sh, local[w], col) })
	}
	wg.Wait()
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
		c.ids = make([]int32, 0, size/8) // about one distinct term in 8 bytes of text
		c.tf = make([]int32, 0, size/8)
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
		for _, id := range uniq {
			c.ids = append(c.ids, id)
			c.tf = append(c.tf, c.cnt[id])
			c.df[id]++
		}
		c.end = append(c.end, len(c.ids))
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

// fill writes the weighted rows of one worker's documents, document i at
// row rows[i], into a: columns ascending, each row L2-normalised.
func (c *corpus) fill(a *csr, rows []int32, sh *counts, local, col []int32) {
	var keys []uint64
	start := 0
	for i, end := range sh.end {
		keys = keys[:0]
		for p := start; p < end; p++ {
			j := col[local[sh.ids[p]]]
			if j < 0 {
				continue
			}
			w := termWeight(int(sh.tf[p]), c.idf[j])
			keys = append(keys, uint64(j)<<32|uint64(math.Float32bits(w)))
		}
		start = end
		// Sorted by column first, so that the norm is summed in an order
		// that does not depend on how the documents were shared out.
		slices.Sort(keys)
		var norm float64
		for _, k := range keys {
			w := float64(math.Float32frombits(uint32(k)))
			norm += w * w
		}
		scale := float32(1 / math.Sqrt(norm))
		out := a.ptr[rows[i]]
		for q, k := range keys {
			a.col[out+q] = int32(k >> 32)
			a.val[out+q] = math.Float32frombits(uint32(k)) * scale
		}
	}
}
