package lexicon

import (
	"encoding/binary"
	"math"
)

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
// sums of ColumnWeights, which are multiples of one half (see
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
// (Rank decodes the same way, inline: a call per posting costs.)
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
