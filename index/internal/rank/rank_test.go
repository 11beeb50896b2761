package rank

import (
	"container/heap"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// TestHeapKeepsTheBest: a Heap bounded to k, fed as the scans feed it,
// holds the k best by Better, whatever the order they came in; ties in
// score go to the lower id.
func TestHeapKeepsTheBest(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 8))
	for _, k := range []int{1, 3, 10, 50} {
		var all []Scored
		for id := range int64(40) {
			all = append(all, Scored{ID: id, Score: float64(rnd.IntN(8))}) // many ties
		}
		h := make(Heap, 0, k+1)
		for _, c := range all {
			if len(h) < k {
				heap.Push(&h, c)
			} else if Better(c, h[0]) {
				h[0] = c
				heap.Fix(&h, 0)
			}
		}
		got := make([]Scored, len(h))
		for i := len(h) - 1; i >= 0; i-- {
			got[i] = heap.Pop(&h).(Scored)
		}
		sort.Slice(all, func(i, j int) bool { return Better(all[i], all[j]) })
		if want := all[:min(k, len(all))]; !slices.Equal(got, want) {
			t.Errorf("k %d: kept %v, want %v", k, got, want)
		}
	}
}

func TestFilter(t *testing.T) {
	for _, tc := range []struct {
		f        Filter
		keep     []bool // notes 1, 2, 3
		keepsAll bool
	}{
		{Filter{}, []bool{true, true, true}, true},
		{Filter{Only: map[int64]bool{1: true, 2: true}}, []bool{true, true, false}, false},
		{Filter{Hide: map[int64]bool{2: true}}, []bool{true, false, true}, false},
		{Filter{Only: map[int64]bool{1: true, 2: true}, Hide: map[int64]bool{2: true}}, []bool{true, false, false}, false},
		{Filter{Only: map[int64]bool{}}, []bool{false, false, false}, false},
	} {
		for i, want := range tc.keep {
			if got := tc.f.Keep(int64(i + 1)); got != want {
				t.Errorf("%+v keeps note %d: %v, want %v", tc.f, i+1, got, want)
			}
		}
		if got := tc.f.All(); got != tc.keepsAll {
			t.Errorf("%+v keeps all: %v, want %v", tc.f, got, tc.keepsAll)
		}
	}
}

// TestFilterChunks: a chunk is kept when its note is and it is not one
// of the hidden chunks (boilerplate), whichever note holds it.
func TestFilterChunks(t *testing.T) {
	for _, tc := range []struct {
		f           Filter
		note, chunk int64
		want        bool
	}{
		{Filter{}, 1, 10, true},
		{Filter{Chunks: map[int64]bool{10: true}}, 1, 10, false},
		{Filter{Chunks: map[int64]bool{10: true}}, 2, 11, true},
		{Filter{Hide: map[int64]bool{2: true}, Chunks: map[int64]bool{10: true}}, 2, 11, false},
		{Filter{Only: map[int64]bool{1: true}, Chunks: map[int64]bool{11: true}}, 1, 10, true},
	} {
		if got := tc.f.KeepChunk(tc.note, tc.chunk); got != tc.want {
			t.Errorf("%+v keeps chunk %d of note %d: %v, want %v", tc.f, tc.chunk, tc.note, got, tc.want)
		}
	}
	if (Filter{Chunks: map[int64]bool{10: true}}).All() {
		t.Error("a filter hiding a chunk keeps all")
	}
}
