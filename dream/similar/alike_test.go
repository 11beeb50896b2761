package similar

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestCandidates: counting through an index (a few sets in focus) and
// comparing every pair (many) find exactly the pairs of sets alike enough
// (a Jaccard index of reviewJaccard, or containShare of the smaller in
// the larger), as the plain definition does.
func TestCandidates(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	words := strings.Fields("a b c d e f g h i j k l m n o p q r s t")
	for trial := range 50 {
		var sets [][]string
		for range 40 {
			var s []string
			for _, w := range words[:5+r.IntN(15)] {
				if r.IntN(3) > 0 {
					s = append(s, w)
				}
			}
			sets = append(sets, distinct(s))
		}
		for _, focus := range []func(int) bool{func(int) bool { return true }, func(i int) bool { return i == trial%40 || i == 7 }} {
			found := map[[2]int]bool{}
			for _, c := range alikeCandidates(sets, focus) {
				found[c] = true
			}
			for i := range sets {
				for j := i + 1; j < len(sets); j++ {
					n := len(intersect(sets[i], sets[j]))
					want := (focus(i) || focus(j)) && n > 0 && (jaccard(sets[i], sets[j]) >= reviewJaccard || float64(n) >= containShare*float64(min(len(sets[i]), len(sets[j]))))
					if found[[2]int{i, j}] != want {
						t.Fatalf("trial %d: pair %v %v (Jaccard %.2f): found %v, want %v", trial, sets[i], sets[j], jaccard(sets[i], sets[j]), found[[2]int{i, j}], want)
					}
				}
			}
		}
	}
}

func jaccard(a, b []string) float64 {
	if len(a)+len(b) == 0 {
		return 0
	}
	inter := len(intersect(a, b))
	return float64(inter) / float64(len(a)+len(b)-inter)
}
