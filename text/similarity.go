package text

import (
	"hash/maphash"
	"slices"
)

// NearDuplicate is the similarity from which two texts are near
// duplicates: 0.4 x the Jaccard index of their word sets + 0.6 x their
// longest common subsequence over the longer's length.
const NearDuplicate = 0.85

// minJaccard is the least Jaccard index of a near duplicate: with an LCS
// ratio of 1, 0.4 x 0.625 + 0.6 = 0.85.
const minJaccard = (NearDuplicate - 0.6) / 0.4

// WordSet is a text's words in order and as a set, for comparing it with
// many others. Words are held as 64-bit hashes: comparing and sorting
// them costs a fraction of comparing strings (recall dedups every ranked
// chunk against those kept), and two words share a hash once in 2^64
// pairs.
type WordSet struct {
	seq []uint64
	set []uint64 // the distinct words, sorted
}

// wordSeed seeds the words' hashes: sets compare only within a process.
var wordSeed = maphash.MakeSeed()

// NewWordSet returns the set of words (see Words).
func NewWordSet(words []string) WordSet {
	seq := make([]uint64, len(words))
	for i, w := range words {
		seq[i] = maphash.String(wordSeed, w)
	}
	set := slices.Compact(slices.Sorted(slices.Values(seq)))
	return WordSet{seq, set}
}

// MayBeNear reports whether a and b can be near duplicates at all: their
// Jaccard index is at most the smaller set's size over the larger's, and
// must reach what NearDuplicate needs. It is cheap, and rules out most
// pairs before Similarity is computed.
func (a WordSet) MayBeNear(b WordSet) bool {
	small, large := min(len(a.set), len(b.set)), max(len(a.set), len(b.set))
	return float64(small) >= minJaccard*float64(large)
}

// Similarity is 0.4 x the Jaccard index of a's and b's word sets plus 0.6 x
// their longest common subsequence over the longer's length. The LCS (a
// quadratic cost) is computed only when the Jaccard index leaves
// NearDuplicate within reach; otherwise the result is 0.4 x the Jaccard
// index alone, which is below NearDuplicate either way.
func (a WordSet) Similarity(b WordSet) float64 {
	if len(a.seq) == 0 || len(b.seq) == 0 {
		return 0
	}
	inter := 0
	for i, j := 0, 0; i < len(a.set) && j < len(b.set); {
		switch x, y := a.set[i], b.set[j]; {
		case x < y:
			i++
		case x > y:
			j++
		default:
			inter++
			i++
			j++
		}
	}
	j := float64(inter) / float64(len(a.set)+len(b.set)-inter)
	if 0.4*j+0.6 < NearDuplicate {
		return 0.4 * j
	}
	return 0.4*j + 0.6*float64(lcs(a.seq, b.seq))/float64(max(len(a.seq), len(b.seq)))
}

// Similarity compares the words of two texts (see WordSet.Similarity).
func Similarity(a, b []string) float64 {
	return NewWordSet(a).Similarity(NewWordSet(b))
}

// lcs is the length of the longest common subsequence of a and b.
func lcs(a, b []uint64) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(cur[j], prev[j+1])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
