package recall

import (
	"math"
	"testing"

	"github.com/vaultmem/vaultmem/index"
)

// TestAddKeepsOneVotePerEngine checks the fusion's bookkeeping: an engine
// that adds a chunk again keeps the larger of its two votes, and the
// fused score is the sum of each engine's vote.
func TestAddKeepsOneVotePerEngine(t *testing.T) {
	s := &search{cands: map[int64]*candidate{}}
	hit := func(id int64) index.Result { return index.Result{Chunk: id} }
	filler := []index.Result{hit(10), hit(11), hit(12), hit(13), hit(14)}
	s.add("temporal", append(filler, hit(1)), 1)   // chunk 1 at rank 5: 1/66
	s.add("temporal", []index.Result{hit(1)}, 0.5) // rank 0 at half weight: 0.5/61, smaller
	s.add("exact", []index.Result{hit(2), hit(1)}, 1)
	c := s.cands[1]
	want := 1.0/66 + 1.0/62
	if math.Abs(c.rrf-want) > 1e-12 || c.ranks["temporal"] != 5 || c.ranks["exact"] != 1 {
		t.Errorf("rrf %v, ranks %v; want %v, temporal #5, exact #1", c.rrf, c.ranks, want)
	}
	s.add("exact", []index.Result{hit(1)}, 1) // a better rank replaces the vote
	if want := 1.0/66 + 1.0/61; math.Abs(c.rrf-want) > 1e-12 || c.ranks["exact"] != 0 {
		t.Errorf("after a better rank: rrf %v, ranks %v; want %v", c.rrf, c.ranks, want)
	}
}
