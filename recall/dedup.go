package recall

import "strings"

// nearDuplicate is the similarity from which the lower-ranked of two
// items is dropped: 0.4 x Jaccard + 0.6 x LCS ratio of their words.
const nearDuplicate = 0.85

// minJaccard is the least Jaccard index of a near duplicate: with an LCS
// ratio of 1, 0.4 x 0.625 + 0.6 = 0.85.
const minJaccard = (nearDuplicate - 0.6) / 0.4

// dedup drops, from candidates in rank order, exact duplicates (the same
// normalised text) and near duplicates of a better-ranked item. It stops
// once the kept items hold limit tokens: the rest could not be packed.
func dedup(ranked []*candidate, limit int) []*candidate {
	var out []*candidate
	var kept []wordSet
	seen := map[string]bool{}
	tokens := 0
	for _, c := range ranked {
		if tokens >= limit {
			break
		}
		w := c.words()
		key := strings.Join(w, " ")
		if key == "" {
			key = c.hit.Path + "\x00" + c.hit.Heading // an empty chunk: one per heading
		}
		if seen[key] {
			continue
		}
		ws := newWordSet(w)
		dup := false
		for _, k := range kept {
			if mayDuplicate(ws, k) && similarity(ws, k) >= nearDuplicate {
				dup = true
				break
			}
		}
		if dup {
			continue
		}
		seen[key] = true
		kept = append(kept, ws)
		out = append(out, c)
		tokens += c.hit.Tokens
	}
	return out
}

// mayDuplicate reports whether a and b can be near duplicates: their
// Jaccard index is at most the smaller set's size over the larger's, and
// must reach minJaccard.
func mayDuplicate(a, b wordSet) bool {
	small, large := min(len(a.set), len(b.set)), max(len(a.set), len(b.set))
	return float64(small) >= minJaccard*float64(large)
}

// wordSet is a text's words in order and as a set.
type wordSet struct {
	seq []string
	set map[string]bool
}

func newWordSet(w []string) wordSet {
	set := make(map[string]bool, len(w))
	for _, x := range w {
		set[x] = true
	}
	return wordSet{w, set}
}

// Similarity is 0.4 x the Jaccard index of the word sets of a and b plus
// 0.6 x their longest common subsequence over the longer's length. The
// LCS is computed only when the Jaccard index leaves 0.85 within reach.
func Similarity(a, b []string) float64 {
	return similarity(newWordSet(a), newWordSet(b))
}

func similarity(a, b wordSet) float64 {
	if len(a.seq) == 0 || len(b.seq) == 0 {
		return 0
	}
	inter := 0
	for w := range a.set {
		if b.set[w] {
			inter++
		}
	}
	j := float64(inter) / float64(len(a.set)+len(b.set)-inter)
	if 0.4*j+0.6 < nearDuplicate {
		return 0.4 * j
	}
	return 0.4*j + 0.6*float64(lcs(a.seq, b.seq))/float64(max(len(a.seq), len(b.seq)))
}

// lcs is the length of the longest common subsequence of a and b.
func lcs(a, b []string) int {
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
