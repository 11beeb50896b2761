package recall

import "strings"

// nearDuplicate is the similarity from which the lower-ranked of two
// items is dropped: 0.4 x Jaccard + 0.6 x LCS ratio of their words.
const nearDuplicate = 0.85

// dedup drops, from candidates in rank order, exact duplicates (the same
// normalised text) and near duplicates of a better-ranked item.
func dedup(ranked []*candidate) []*candidate {
	var out []*candidate
	var kept [][]string
	seen := map[string]bool{}
	for _, c := range ranked {
		w := words(c.hit.Text)
		key := strings.Join(w, " ")
		if key == "" {
			key = c.hit.Path + "\x00" + c.hit.Heading // an empty chunk: one per heading
		}
		if seen[key] {
			continue
		}
		dup := false
		for _, k := range kept {
			if Similarity(w, k) >= nearDuplicate {
				dup = true
				break
			}
		}
		if dup {
			continue
		}
		seen[key] = true
		kept = append(kept, w)
		out = append(out, c)
	}
	return out
}

// Similarity is 0.4 x the Jaccard index of the word sets of a and b plus
// 0.6 x their longest common subsequence over the longer's length. The
// LCS is computed only when the Jaccard index leaves 0.85 within reach.
func Similarity(a, b []string) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	sa, sb := map[string]bool{}, map[string]bool{}
	for _, w := range a {
		sa[w] = true
	}
	for _, w := range b {
		sb[w] = true
	}
	inter := 0
	for w := range sa {
		if sb[w] {
			inter++
		}
	}
	j := float64(inter) / float64(len(sa)+len(sb)-inter)
	if 0.4*j+0.6 < nearDuplicate {
		return 0.4 * j
	}
	return 0.4*j + 0.6*float64(lcs(a, b))/float64(max(len(a), len(b)))
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
