package index

import (
	"container/heap"
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"iter"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/vaultmem/vaultmem/index/internal/rank"
	"github.com/vaultmem/vaultmem/text"
)

// lexicon is an in-memory copy of the full-text table for a long-running
// process (Options.Resident): the same analyzed tokens, column weights and
// BM25 as FTS5's bm25(), so it ranks exactly as the FTS5 query would, in
// a fraction of the time (FTS5 through SQLite computes bm25() row by row,
// some microseconds for each chunk holding a query word; the lexicon
// scores a posting in nanoseconds). The cjk column keeps its positions,
// to match Chinese and Japanese runs as FTS5 does: phrases of bigrams.
//
// It reflects the cache at one files version. When a sync (of this
// process or another) changes the version, the next search catches up:
// the notes whose content hash changed, appeared or went have their
// chunks dropped and read again; a lexicon that changed too much, or
// holds too many dropped chunks, is loaded anew.
type lexicon struct {
	mu      sync.RWMutex
	version string
	docs    []lexDoc
	terms   map[string]postings
	// cjk holds the tokens of the cjk column (bigrams) with their
	// positions, for phrase and prefix queries.
	cjk map[string]cjkPostings
	// hashes are the content hashes of the notes it holds, by note id:
	// what catchUp compares with the cache's.
	hashes  map[int64]string
	live    int     // docs not dropped
	tokens  float64 // tokens in the live docs
	dropped int
}

// lexDoc is one chunk: its id, its note, and its length in tokens (every
// column, as FTS5's xColumnSize(-1) counts them).
type lexDoc struct {
	id, note int64
	length   float64
	dropped  bool
}

// cjkPostings are the chunks holding a token of the cjk column, in the
// order they were added (ascending doc), with the token's positions in
// each, packed in bytes as postings are: for each chunk, the gap from the
// previous chunk's doc, the number of positions, and the positions, each
// as the gap from the one before, all varints. Three or four bytes a
// posting where a struct and a slice of positions took sixteen or more:
// on a vault of 13,400 notes, a fifth of them with Chinese, 13.6 MB of a
// resident process's heap became 3 MB.
type cjkPostings struct {
	data []byte
	last int32 // the doc of the last posting
}

// add appends doc, which must be above every doc in p, with the token's
// ascending positions pos in it.
func (p *cjkPostings) add(doc int32, pos []int32) {
	gap := doc - p.last
	if len(p.data) == 0 {
		gap = doc
	}
	p.data = binary.AppendUvarint(p.data, uint64(gap))
	p.data = binary.AppendUvarint(p.data, uint64(len(pos)))
	prev := int32(0)
	for _, x := range pos {
		p.data = binary.AppendUvarint(p.data, uint64(x-prev))
		prev = x
	}
	p.last = doc
}

// each calls f with every posting's doc and the token's positions in it
// (appended to buf, which f must not keep).
func (p cjkPostings) each(buf []int32, f func(doc int32, pos []int32)) {
	data, doc := p.data, int32(0)
	for i := 0; i < len(data); {
		v, k := binary.Uvarint(data[i:])
		if k <= 0 {
			return
		}
		i += k
		doc += int32(v)
		n, k := binary.Uvarint(data[i:])
		if k <= 0 {
			return
		}
		i += k
		buf = buf[:0]
		x := int32(0)
		for range n {
			d, k := binary.Uvarint(data[i:])
			if k <= 0 {
				return
			}
			i += k
			x += int32(d)
			buf = append(buf, x)
		}
		f(doc, buf)
	}
}

// postings are the chunks holding a term, in the order they were added
// (ascending doc), each with the weights of the columns of the term's
// occurrences in it summed (bm25's weighted frequency). They are packed
// in bytes, a posting in two as a rule instead of eight: the gap from the
// previous posting's doc, shifted left one bit, as a varint, its low bit
// set when a second varint, twice the frequency, follows; a posting
// without one has frequency 1 (once in the text column). Frequencies are
// sums of columnWeights, which are multiples of one half (see
// TestColumnWeightsAreHalves), so twice one is a whole number.
type postings struct {
	data []byte
	n    int32 // postings, dropped chunks' included
	last int32 // the doc of the last posting
}

// add appends a posting of doc, which must be above every doc in p, with
// weighted frequency freq.
func (p *postings) add(doc int32, freq float64) {
	gap := uint64(doc - p.last)
	if p.n == 0 {
		gap = uint64(doc)
	}
	if freq == 1 {
		p.data = binary.AppendUvarint(p.data, gap<<1)
	} else {
		p.data = binary.AppendUvarint(p.data, gap<<1|1)
		p.data = binary.AppendUvarint(p.data, uint64(math.Round(2*freq)))
	}
	p.n++
	p.last = doc
}

// each calls f with every posting's doc and weighted frequency, in order.
// (rank decodes the same way, inline: a call per posting costs.)
func (p postings) each(f func(doc int32, freq float64)) {
	data, doc := p.data, int32(0)
	for i := 0; i < len(data); {
		v := uint64(data[i])
		if i++; v >= 0x80 {
			v, i = uvarintLong(data, i-1)
		}
		doc += int32(v >> 1)
		freq := 1.0
		if v&1 == 1 {
			w := uint64(data[i])
			if i++; w >= 0x80 {
				w, i = uvarintLong(data, i-1)
			}
			freq = float64(w) / 2
		}
		f(doc, freq)
	}
}

// uvarintLong reads the varint at b[i:], of two bytes or more, and
// returns it and the index after it; a malformed one ends b. The callers
// read a one-byte varint, most of them, themselves: a call per posting
// costs.
func uvarintLong(b []byte, i int) (uint64, int) {
	v, k := binary.Uvarint(b[i:])
	if k <= 0 {
		return 0, len(b)
	}
	return v, i + k
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

// lexiconSQL reads the full-text rows with their notes; the columns are
// chunks_fts's, in order.
const lexiconSQL = `SELECT f.rowid, c.note_id, f.name, f.aliases, f.description, f.tags, f.heading, f.text, f.cjk
	FROM chunks_fts f JOIN chunks c ON c.id = f.rowid`

// loadLexicon reads every full-text row.
func loadLexicon(ctx context.Context, q querier, version string) (*lexicon, error) {
	l := &lexicon{version: version, terms: map[string]postings{}, cjk: map[string]cjkPostings{}}
	hashes, err := noteHashes(ctx, q)
	if err != nil {
		return nil, err
	}
	l.hashes = hashes
	if err := l.add(ctx, q, lexiconSQL); err != nil {
		return nil, err
	}
	l.clip()
	return l, nil
}

// clip gives every postings list the room it needs and no more: lists
// grown by appending hold up to twice their length, which in a resident
// keyword index of a large vault is tens of megabytes.
func (l *lexicon) clip() {
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

// noteHashes reads every note's content hash, by id.
func noteHashes(ctx context.Context, q querier) (map[int64]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, hash FROM notes`)
	if err != nil {
		return nil, fmt.Errorf("load keyword index: %w", err)
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var id int64
		var h string
		if err := rows.Scan(&id, &h); err != nil {
			return nil, err
		}
		out[id] = h
	}
	return out, rows.Err()
}

// catchUp brings l to version, reading q: the chunks of the notes whose
// hash changed, appeared or went are dropped and read again. It reports
// false, changing nothing, when more than a quarter of the notes changed:
// loading anew costs less then.
func (l *lexicon) catchUp(ctx context.Context, q querier, version string) (bool, error) {
	now, err := noteHashes(ctx, q)
	if err != nil {
		return false, err
	}
	changed := map[int64]bool{}
	for id, h := range now {
		if l.hashes[id] != h {
			changed[id] = true
		}
	}
	for id := range l.hashes {
		if _, ok := now[id]; !ok {
			changed[id] = true
		}
	}
	if len(changed) > len(now)/4 {
		return false, nil
	}
	if err := l.update(ctx, q, changed, version); err != nil {
		return false, err
	}
	l.mu.Lock()
	l.hashes = now
	l.mu.Unlock()
	return true, nil
}

// add reads the full-text rows query selects (with lexiconSQL's columns)
// into l.
func (l *lexicon) add(ctx context.Context, q querier, query string, args ...any) error {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("load keyword index: %w", err)
	}
	defer rows.Close()
	var cols [len(columnWeights)]string
	ptrs := make([]any, 0, len(cols)+2)
	var id, note int64
	ptrs = append(ptrs, &id, &note)
	for i := range cols {
		ptrs = append(ptrs, &cols[i])
	}
	freq := map[string]float64{}
	positions := map[string][]int32{}
	cjkCol := len(cols) - 1
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return fmt.Errorf("load keyword index: %w", err)
		}
		clear(freq)
		clear(positions)
		length := 0
		for c, text := range cols {
			for i, tok := range fields(text) {
				length++
				if c == cjkCol {
					positions[tok] = append(positions[tok], int32(i))
				} else {
					freq[tok] += columnWeights[c]
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
		l.docs = append(l.docs, lexDoc{id: id, note: note, length: float64(length)})
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
	}
	return rows.Err()
}

// update drops the chunks of the notes in changed and reads the ones they
// have now, as the cache is at version.
func (l *lexicon) update(ctx context.Context, q querier, changed map[int64]bool, version string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i := range l.docs {
		d := &l.docs[i]
		if !d.dropped && changed[d.note] {
			d.dropped = true
			l.live--
			l.dropped++
			l.tokens -= d.length
		}
	}
	ids := make([]any, 0, len(changed))
	for id := range changed {
		ids = append(ids, id)
	}
	for len(ids) > 0 {
		batch := ids[:min(len(ids), 500)]
		ids = ids[len(batch):]
		if err := l.add(ctx, q, lexiconSQL+` WHERE c.note_id IN (?`+strings.Repeat(", ?", len(batch)-1)+`)`, batch...); err != nil {
			return err
		}
	}
	l.version = version
	return nil
}

// stale reports whether so many chunks were dropped that loading the
// lexicon again is better than skipping them in every search.
func (l *lexicon) stale() bool {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.dropped > 1000 && l.dropped > l.live/2
}

func (l *lexicon) rows(context.Context) (int, error) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.live, nil
}

func (l *lexicon) hits(_ context.Context, term string, _ int) (int, error) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.df(term), nil
}

func (l *lexicon) df(term string) int {
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

// rank scores as FTS5's bm25() with columnWeights does (negated: higher
// is better): each term, and each CJK run as one phrase.
func (l *lexicon) rank(_ context.Context, q keywordQuery, all bool, limit int, f rank.Filter) ([]rank.Scored, error) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	phrases := q.size()
	if phrases == 0 || l.live == 0 || limit <= 0 {
		return nil, nil
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
	for _, t := range q.terms {
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
	for _, run := range q.cjk {
		counts := l.cjkMatches(run)
		w := idf(len(counts))
		for doc, c := range counts {
			score(doc, float64(c)*columnWeights[len(columnWeights)-1], w)
		}
	}
	h := make(rank.Heap, 0, limit+1)
	for _, doc := range acc.touched {
		d := &l.docs[doc]
		if (all && int(acc.matched[doc]) < phrases) || !f.Keep(d.note) {
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
	return out, nil
}

// cjkMatches counts, per live chunk, the instances of a CJK run in its
// cjk column as FTS5 matches the run (see keywordQuery.expr): the phrase
// of its bigrams, or for one character every token it starts.
func (l *lexicon) cjkMatches(run []rune) map[int32]int {
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

// lexicon returns the in-memory keyword index at the cache's current
// files version, loading it on first use and catching up when a sync
// changed the cache since; nil when the index keeps none.
func (ix *Index) lexicon(ctx context.Context) (*lexicon, error) {
	if !ix.opts.Resident {
		return nil, nil
	}
	version, err := ix.meta(ctx, ix.db, metaFilesVersion)
	if err != nil {
		return nil, err
	}
	ix.mu.Lock()
	l := ix.lex
	ix.mu.Unlock()
	if l != nil && l.current(version) {
		return l, nil
	}
	ix.lexLoad.Lock()
	defer ix.lexLoad.Unlock()
	tx, err := ix.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("load keyword index: %w", err)
	}
	defer tx.Rollback()
	// The version inside the transaction names the rows read there.
	if version, err = ix.meta(ctx, tx, metaFilesVersion); err != nil {
		return nil, err
	}
	ix.mu.Lock()
	l = ix.lex
	ix.mu.Unlock()
	if l != nil && l.current(version) {
		return l, nil // another goroutine caught up meanwhile
	}
	if l != nil && !l.stale() {
		if ok, err := l.catchUp(ctx, tx, version); err != nil || ok {
			return l, err
		}
	}
	if l, err = loadLexicon(ctx, tx, version); err != nil {
		return nil, err
	}
	ix.mu.Lock()
	ix.lex = l
	ix.mu.Unlock()
	return l, nil
}

func (l *lexicon) current(version string) bool {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.version == version
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

// Warm loads what searches would load on first use: the vectors and, for
// a resident index, the lexicon. A server calls it at start, so that its
// first query does not wait.
func (ix *Index) Warm(ctx context.Context) error {
	if _, err := ix.lexicon(ctx); err != nil {
		return err
	}
	if ix.opts.NoVectors {
		return nil
	}
	if _, err := ix.queryEmbedder(ctx, ""); err != nil {
		return err
	}
	_, err := ix.vectors(ctx)
	return err
}
