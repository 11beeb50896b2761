package lexicon

import (
	"container/heap"
	"iter"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/vaultmem/vaultmem/index/internal/rank"
	"github.com/vaultmem/vaultmem/text"
)

// ColumnWeights are the BM25 weights of a document's columns, in order:
// name, aliases, description, tags, heading, text and cjk, the columns of
// the index's full-text table. A match in a note's name or aliases says
// more than one in its text. FTS5's bm25() must be given the same, for
// the lexicon to rank as it does.
var ColumnWeights = [...]float64{5.0, 4.0, 2.5, 2.5, 2.0, 1.0, 1.0}

// cjkColumn is the column of Chinese and Japanese bigrams, whose
// positions the lexicon keeps.
const cjkColumn = len(ColumnWeights) - 1

// Doc is one chunk's full-text row: its id, its note's id, and its
// columns (see ColumnWeights), each the column's analyzed tokens
// separated by single spaces.
type Doc struct {
	ID, Note int64
	Columns  [len(ColumnWeights)]string
}

// Lexicon is an in-memory copy of the full-text table: the same analyzed
// tokens, column weights and BM25 as FTS5's bm25(), so it ranks exactly
// as the FTS5 query would, in a fraction of the time (FTS5 through SQLite
// computes bm25() row by row, some microseconds for each chunk holding a
// query word; the lexicon scores a posting in nanoseconds). The cjk
// column keeps its positions, to match Chinese and Japanese runs as FTS5
// does: phrases of bigrams.
//
// Its methods that read (Rank, Rows, Hits, Stale) may run at once; Add,
// Drop and Clip need it to themselves.
type Lexicon struct {
	docs  []lexDoc
	terms map[string]postings
	// cjk holds the tokens of the cjk column (bigrams) with their
	// positions, for phrase and prefix queries.
	cjk     map[string]cjkPostings
	live    int     // docs not dropped
	tokens  float64 // tokens in the live docs
	dropped int
	// freq and positions are Add's, kept empty between documents: a
	// document's terms with their weighted frequencies, and its cjk
	// tokens with their positions.
	freq      map[string]float64
	positions map[string][]int32
}

// lexDoc is one chunk: its id, its note, and its length in tokens (every
// column, as FTS5's xColumnSize(-1) counts them).
type lexDoc struct {
	id, note int64
	length   float64
	dropped  bool
}

// New returns an empty lexicon.
func New() *Lexicon {
	return &Lexicon{terms: map[string]postings{}, cjk: map[string]cjkPostings{},
		freq: map[string]float64{}, positions: map[string][]int32{}}
}

// fields yields the space-separated words of s with their places, as
// strings.Fields would give them (for the words analyze writes, split by
// single spaces), without making the slice: loading a server's keyword
// index split 60 MB of text so.
func fields(s string) iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		for i := 0; len(s) > 0; {
			k := strings.IndexByte(s, ' ')
			if k < 0 {
				k = len(s)
			}
			if k > 0 {
				if !yield(i, s[:k]) {
					return
				}
				i++
			}
			s = s[min(k+1, len(s)):]
		}
	}
}

// BM25 parameters: FTS5's, fixed.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// Add adds the chunk d. It keeps none of d's strings: the terms it adds
// are copies, so that a key does not pin the row's whole text.
func (l *Lexicon) Add(d *Doc) {
	freq, positions := l.freq, l.positions
	length := 0
	for c, col := range d.Columns {
		for i, tok := range fields(col) {
			length++
			if c == cjkColumn {
				positions[tok] = append(positions[tok], int32(i))
			} else {
				freq[tok] += ColumnWeights[c]
			}
		}
	}
	doc := int32(len(l.docs))
	for t, pos := range positions {
		ps, ok := l.cjk[t]
		if !ok {
			t = strings.Clone(t) // a key must not pin the row's whole text
		}
		ps.add(doc, pos)
		l.cjk[t] = ps
	}
	l.docs = append(l.docs, lexDoc{id: d.ID, note: d.Note, length: float64(length)})
	l.live++
	l.tokens += float64(length)
	for t, f := range freq {
		ps, ok := l.terms[t]
		if !ok {
			t = strings.Clone(t)
		}
		ps.add(doc, f)
		l.terms[t] = ps
	}
	clear(freq)
	clear(positions)
}

// Drop drops the chunks of the given notes: searches skip them from then
// on, and the documents' count and average length leave them out. They
// stay in the postings until the lexicon is loaded anew (see Stale).
func (l *Lexicon) Drop(notes map[int64]bool) {
	for i := range l.docs {
		d := &l.docs[i]
		if !d.dropped && notes[d.note] {
			d.dropped = true
			l.live--
			l.dropped++
			l.tokens -= d.length
		}
	}
}

// Clip gives every postings list the room it needs and no more: lists
// grown by appending hold up to twice their length, which in a resident
// keyword index of a large vault is tens of megabytes. Its caller calls
// it once the lexicon is loaded.
func (l *Lexicon) Clip() {
	for t, ps := range l.terms {
		if cap(ps.data) > len(ps.data) {
			ps.data = slices.Clone(ps.data)
			l.terms[t] = ps
		}
	}
	for t, ps := range l.cjk {
		if cap(ps.data) > len(ps.data) {
			ps.data = slices.Clone(ps.data)
			l.cjk[t] = ps
		}
	}
}

// Stale reports whether so many chunks were dropped that loading the
// lexicon again is better than skipping them in every search.
func (l *Lexicon) Stale() bool {
	return l.dropped > 1000 && l.dropped > l.live/2
}

// Rows counts the chunks, dropped ones left out.
func (l *Lexicon) Rows() int { return l.live }

// Hits counts the chunks holding term.
func (l *Lexicon) Hits(term string) int { return l.df(term) }

func (l *Lexicon) df(term string) int {
	ps := l.terms[term]
	if l.dropped == 0 {
		return int(ps.n)
	}
	n := 0
	ps.each(func(doc int32, _ float64) {
		if !l.docs[doc].dropped {
			n++
		}
	})
	return n
}

// Rank returns the best limit chunks holding any of the analyzed terms
// or CJK runs cjk (with all, every one of them) whose notes pass f, best
// first. It scores as FTS5's bm25() with ColumnWeights does (negated:
// higher is better): each term, and each CJK run as one phrase.
func (l *Lexicon) Rank(terms []string, cjk [][]rune, all bool, limit int, f rank.Filter) []rank.Scored {
	phrases := len(terms) + len(cjk)
	if phrases == 0 || l.live == 0 || limit <= 0 {
		return nil
	}
	n := float64(l.live)
	avgdl := l.tokens / n
	acc := accumulators.Get().(*accumulator)
	defer accumulators.Put(acc)
	acc.reset(len(l.docs))
	// idf is the inverse document frequency of a phrase hit chunks hold.
	idf := func(hit int) float64 {
		if v := math.Log((n - float64(hit) + 0.5) / (float64(hit) + 0.5)); v > 0 {
			return v
		}
		return 1e-6
	}
	// score adds one phrase's BM25 term to a chunk holding it with
	// weighted frequency w.
	score := func(doc int32, w, idf float64) {
		d := &l.docs[doc]
		acc.add(doc, idf*(w*(bm25K1+1))/(w+bm25K1*(1-bm25B+bm25B*d.length/avgdl)))
	}
	for _, t := range terms {
		w := idf(l.df(t))
		data, doc := l.terms[t].data, int32(0)
		for i := 0; i < len(data); {
			v := uint64(data[i])
			if i++; v >= 0x80 {
				v, i = uvarintLong(data, i-1)
			}
			doc += int32(v >> 1)
			freq := 1.0
			if v&1 == 1 {
				f := uint64(data[i])
				if i++; f >= 0x80 {
					f, i = uvarintLong(data, i-1)
				}
				freq = float64(f) / 2
			}
			if !l.docs[doc].dropped {
				score(doc, freq, w)
			}
		}
	}
	for _, run := range cjk {
		counts := l.cjkMatches(run)
		w := idf(len(counts))
		for doc, c := range counts {
			score(doc, float64(c)*ColumnWeights[cjkColumn], w)
		}
	}
	h := make(rank.Heap, 0, limit+1)
	for _, doc := range acc.touched {
		d := &l.docs[doc]
		if (all && int(acc.matched[doc]) < phrases) || !f.KeepChunk(d.note, d.id) {
			continue
		}
		c := rank.Scored{ID: d.id, Score: acc.score[doc]}
		if len(h) < limit {
			heap.Push(&h, c)
		} else if rank.Better(c, h[0]) {
			h[0] = c
			heap.Fix(&h, 0)
		}
	}
	out := []rank.Scored(h)
	sort.Slice(out, func(i, j int) bool { return rank.Better(out[i], out[j]) })
	return out
}

// cjkMatches counts, per live chunk, the instances of a CJK run in its
// cjk column as FTS5 matches the run (as index's keyword query asks for
// it): the phrase of its bigrams, or for one character every token it
// starts.
func (l *Lexicon) cjkMatches(run []rune) map[int32]int {
	counts := map[int32]int{}
	var buf []int32
	if len(run) == 1 {
		prefix := string(run)
		for t, ps := range l.cjk {
			if !strings.HasPrefix(t, prefix) {
				continue
			}
			ps.each(buf, func(doc int32, pos []int32) {
				if !l.docs[doc].dropped {
					counts[doc] += len(pos)
				}
			})
		}
		return counts
	}
	grams := strings.Fields(text.Bigrams(run))
	// Where each later bigram sits, by chunk.
	later := make([]map[int32][]int32, len(grams)-1)
	for k, g := range grams[1:] {
		later[k] = map[int32][]int32{}
		l.cjk[g].each(buf, func(doc int32, pos []int32) {
			later[k][doc] = slices.Clone(pos)
		})
	}
	l.cjk[grams[0]].each(buf, func(doc int32, pos []int32) {
		if l.docs[doc].dropped {
			return
		}
		for _, start := range pos {
			if phraseAt(later, doc, start) {
				counts[doc]++
			}
		}
	})
	return counts
}

// phraseAt reports whether bigram k+1 of a phrase is at position start+k+1
// of chunk doc, for every k.
func phraseAt(later []map[int32][]int32, doc, start int32) bool {
	for k, where := range later {
		if _, ok := slices.BinarySearch(where[doc], start+int32(k)+1); !ok {
			return false
		}
	}
	return true
}

// accumulator sums the scores of one ranking, by document: dense arrays
// reused between searches (a map costs more than the scoring).
type accumulator struct {
	score   []float64
	matched []uint16
	touched []int32
}

var accumulators = sync.Pool{New: func() any { return new(accumulator) }}

// reset makes room for n documents, all at zero.
func (a *accumulator) reset(n int) {
	for _, d := range a.touched {
		a.score[d], a.matched[d] = 0, 0
	}
	a.touched = a.touched[:0]
	if len(a.score) < n {
		a.score = make([]float64, n)
		a.matched = make([]uint16, n)
	}
}

func (a *accumulator) add(doc int32, s float64) {
	if a.matched[doc] == 0 {
		a.touched = append(a.touched, doc)
	}
	a.score[doc] += s
	a.matched[doc]++
}
