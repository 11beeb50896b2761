package lexicon

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/index/internal/rank"
)

// TestColumnWeightsAreHalves: postings keep twice a weighted frequency as
// a whole number, which holds while every column weight is a multiple of
// one half.
func TestColumnWeightsAreHalves(t *testing.T) {
	for i, w := range ColumnWeights {
		if 2*w != math.Trunc(2*w) || w <= 0 {
			t.Errorf("column %d: weight %v is not a positive multiple of 0.5; postings would round its frequencies", i, w)
		}
	}
}

// TestPostingsRoundTrip: every posting added comes back, in order, with
// its doc and frequency: gaps of every varint length, the first doc 0,
// frequency 1 (packed alone) and sums of column weights.
func TestPostingsRoundTrip(t *testing.T) {
	type pf struct {
		doc  int32
		freq float64
	}
	for _, want := range [][]pf{
		{},
		{{0, 1}},
		{{0, 5}, {1, 1}, {2, 7.5}},
		{{3, 1}, {200, 2.5}, {70_000, 1}, {70_001, 11}, {1<<31 - 1, 1}},
		{{5, 1000.5}, {6, 0.5}},
	} {
		var p postings
		for _, x := range want {
			p.add(x.doc, x.freq)
		}
		var got []pf
		p.each(func(doc int32, freq float64) { got = append(got, pf{doc, freq}) })
		if !slices.Equal(got, want) || int(p.n) != len(want) {
			t.Errorf("added %v, got back %v (n %d)", want, got, p.n)
		}
	}
}

// FuzzPostings: any ascending docs with frequencies that are sums of half
// units round-trip.
func FuzzPostings(f *testing.F) {
	f.Add([]byte{0, 2, 1, 2, 200, 9})
	f.Fuzz(func(t *testing.T, b []byte) {
		var p postings
		type pf struct {
			doc  int32
			freq float64
		}
		var want []pf
		doc := int32(-1)
		for i := 0; i+1 < len(b); i += 2 {
			doc += 1 + int32(b[i])*int32(b[i]) // gaps up to 65,026
			freq := float64(b[i+1]) / 2
			p.add(doc, freq)
			want = append(want, pf{doc, freq})
		}
		var got []pf
		p.each(func(doc int32, freq float64) { got = append(got, pf{doc, freq}) })
		if !slices.Equal(got, want) {
			t.Fatalf("added %v, got back %v", want, got)
		}
	})
}

// FuzzCJKPostings: any ascending docs, each with ascending positions,
// round-trip, the first doc 0 included.
func FuzzCJKPostings(f *testing.F) {
	f.Add([]byte{0, 2, 1, 2, 200, 9, 3, 0})
	f.Add([]byte{255, 255, 255, 1})
	f.Fuzz(func(t *testing.T, b []byte) {
		var p cjkPostings
		type posting struct {
			doc int32
			pos []int32
		}
		var want []posting
		doc := int32(-1)
		for i := 0; i+1 < len(b); i += 2 {
			doc += 1 + int32(b[i])*int32(b[i]) - min(int32(b[i]), 1) // gaps from 1 to 65,026
			var pos []int32
			at := int32(b[i+1]) % 7
			for k := range int(b[i+1]) % 5 {
				at += int32(k)*300 + 1
				pos = append(pos, at)
			}
			p.add(doc, pos)
			want = append(want, posting{doc, pos})
		}
		var got []posting
		p.each(nil, func(doc int32, pos []int32) { got = append(got, posting{doc, slices.Clone(pos)}) })
		if !slices.EqualFunc(got, want, func(a, b posting) bool { return a.doc == b.doc && slices.Equal(a.pos, b.pos) }) {
			t.Fatalf("added %v, got back %v", want, got)
		}
	})
}

// FuzzFields holds fields to strings.Fields on text split by spaces.
func FuzzFields(f *testing.F) {
	for _, s := range []string{"", "a", "paint paint paint", " lead", "trail ", "two  spaces", "数据 据库"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsAny(s, "\t\n\v\f\r\u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000") {
			return // analyzed text holds no other space
		}
		var got []string
		for i, w := range fields(s) {
			if i != len(got) {
				t.Fatalf("fields(%q): place %d for word %d", s, i, len(got))
			}
			got = append(got, w)
		}
		if want := strings.Fields(s); !slices.Equal(got, want) {
			t.Errorf("fields(%q) = %q, want %q", s, got, want)
		}
	})
}

// TestDropLeavesChunksOut: the chunks of a dropped note are neither
// counted nor ranked, and a note added again after its drop is.
func TestDropLeavesChunksOut(t *testing.T) {
	l := New()
	add := func(id, note int64, text string) {
		var d Doc
		d.ID, d.Note = id, note
		d.Columns[len(d.Columns)-2] = text // the text column
		l.Add(&d)
	}
	add(1, 10, "okapi stripe")
	add(2, 10, "okapi")
	add(3, 20, "okapi zebra")
	ids := func(all bool, terms ...string) []int64 {
		var out []int64
		for _, s := range l.Rank(terms, nil, all, 10, rank.Filter{}) {
			out = append(out, s.ID)
		}
		slices.Sort(out)
		return out
	}
	if l.Rows() != 3 || l.Hits("okapi") != 3 || !slices.Equal(ids(false, "okapi"), []int64{1, 2, 3}) {
		t.Fatalf("before the drop: %d rows, %d hits, ranked %v", l.Rows(), l.Hits("okapi"), ids(false, "okapi"))
	}
	if got := ids(true, "okapi", "zebra"); !slices.Equal(got, []int64{3}) {
		t.Errorf("every word: ranked %v, want [3]", got)
	}
	l.Drop(map[int64]bool{10: true})
	if l.Rows() != 1 || l.Hits("okapi") != 1 || l.Hits("stripe") != 0 || !slices.Equal(ids(false, "okapi", "stripe"), []int64{3}) {
		t.Errorf("after the drop: %d rows, %d hits, ranked %v", l.Rows(), l.Hits("okapi"), ids(false, "okapi", "stripe"))
	}
	add(4, 10, "stripe")
	if got := ids(false, "okapi", "stripe"); !slices.Equal(got, []int64{3, 4}) {
		t.Errorf("the note added again: ranked %v, want [3 4]", got)
	}
	if l.Stale() {
		t.Error("stale after two dropped chunks")
	}
}
