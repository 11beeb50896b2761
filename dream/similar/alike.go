package similar

import (
	"fmt"
	"hash/maphash"
	"slices"
	"unicode"
)

// reviewJaccard is the least Jaccard index of two memories' word sets for
// them to be listed as possible duplicates; containShare the least share
// of one's words in the other's for the same.
const (
	reviewJaccard = 0.4
	containShare  = 0.8
)

// factJaccard is the least Jaccard index of two memories' word sets, when
// they differ in a fact (a number, a date, a unit, a name...), for them to
// be listed as possible duplicates: below it they are two memories of one
// shape ("the limit of service A is 60", "... of service B is 100"), which
// a person need not be asked about.
const factJaccard = 0.8

// apartFacts reports whether a and b (with the distinct words ta, tb: see
// tokens) differ in a fact and share too few words for one to be an
// update of the other (see factJaccard): two memories of one shape, not
// possible duplicates.
func apartFacts(a, b *Memory, ta, tb []string) bool {
	diff, differs := differ(a, b)
	if !differs || diff.Kind == "word" && !identifierLike(diff.A) && !identifierLike(diff.B) {
		return false
	}
	n := len(intersect(ta, tb))
	return float64(n) < factJaccard*float64(len(ta)+len(tb)-n)
}

// identifierLike reports whether s, words of a memory, holds an
// identifier (a word with a digit, an underscore or an inner capital:
// a0, DB_HOST, getUsers), which names a thing as a number or a date does.
func identifierLike(s string) bool {
	prev := ' '
	for _, r := range s {
		if unicode.IsDigit(r) || r == '_' || unicode.IsUpper(r) && unicode.IsLower(prev) {
			return true
		}
		prev = r
	}
	return false
}

// alikeWhy says how alike two memories' word sets are, for a person.
func alikeWhy(a, b []string) string {
	n := len(intersect(a, b))
	return fmt.Sprintf("%.0f%% of words shared", 100*float64(n)/float64(max(1, len(a)+len(b)-n)))
}

// alikeCandidates returns the pairs (i < j) of token sets alike enough to
// compare (see alikeCount), one of each in focus. With few sets in focus
// (an incremental run), each is compared with the sets sharing a token
// with it, counted through an inverted index; with many (a full run),
// every pair of sets is compared by a merge of their hashed tokens, which
// costs less than any index at the low bounds possible duplicates need
// (prefix filtering at a Jaccard index of 0.4 pairs nearly every set).
func alikeCandidates(sets [][]string, focus func(int) bool) [][2]int {
	var few []int
	for i := range sets {
		if focus(i) {
			few = append(few, i)
		}
	}
	var out [][2]int
	if len(few)*10 < len(sets) {
		// An index of the words the few hold only.
		posting := map[string][]int{}
		for _, i := range few {
			for _, w := range sets[i] {
				posting[w] = nil
			}
		}
		for j, s := range sets {
			for _, w := range s {
				if ids, ok := posting[w]; ok {
					posting[w] = append(ids, j)
				}
			}
		}
		for _, i := range few {
			shared := map[int]int{}
			for _, w := range sets[i] {
				for _, j := range posting[w] {
					if j != i {
						shared[j]++
					}
				}
			}
			for j, n := range shared {
				if alikeCount(n, len(sets[i]), len(sets[j])) {
					out = append(out, [2]int{min(i, j), max(i, j)})
				}
			}
		}
	} else {
		hs := hashSets(sets)
		for i := range hs {
			for j := i + 1; j < len(hs); j++ {
				if (focus(i) || focus(j)) && alikeCount(sharedCount(hs[i], hs[j]), len(hs[i]), len(hs[j])) {
					out = append(out, [2]int{i, j})
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return a[1] - b[1]
	})
	return slices.Compact(out)
}

// alikeCount reports whether two token sets of sizes a and b sharing n
// tokens are alike enough to compare: a Jaccard index of at least
// reviewJaccard, or at least containShare of the smaller's tokens in the
// larger.
func alikeCount(n, a, b int) bool {
	return n > 0 && (float64(n) >= reviewJaccard*float64(a+b-n) || float64(n) >= containShare*float64(min(a, b)))
}

// hashSets are token sets as sorted hashes: comparing many pairs, a merge
// of integers costs a fraction of comparing strings.
func hashSets(sets [][]string) [][]uint64 {
	seed := maphash.MakeSeed()
	out := make([][]uint64, len(sets))
	for i, s := range sets {
		h := make([]uint64, len(s))
		for j, w := range s {
			h[j] = maphash.String(seed, w)
		}
		slices.Sort(h)
		out[i] = slices.Compact(h)
	}
	return out
}

// sharedCount counts the values sorted sets a and b share.
func sharedCount(a, b []uint64) int {
	n := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			n++
			i++
			j++
		}
	}
	return n
}
