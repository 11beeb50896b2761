package similar

import (
	"maps"
	"slices"

	"github.com/vaultmem/vaultmem/meaning"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/sameness"
	"github.com/vaultmem/vaultmem/vault"
)

// Two memories merge by themselves only when they are provably the same:
// their texts are equal after the meaning-preserving normalisations of
// sameness.Canonical (case of prose, punctuation, emphasis, number words,
// formats of equal dates, durations and sizes, a small table of equivalent
// terms: see docs/merge-rules.md), or every sentence of one is in the
// other (it merges into the fuller one), or a person said so (same_as in
// one's frontmatter names the other). A list of known differences is never
// the gate: whatever the normalisations do not prove the same is not a
// merge. Memories merely alike (the same name, near the same words, most
// of one's words in the other) are listed for review as possible
// duplicates with what differs, unless they contradict each other (then
// they are flagged as a contradiction) or a person settled them apart
// (not_same_as). Candidates come from an inverted index of the memories'
// words, never from all pairs.

// Find plans what becomes of the pairs of alike memories among ms,
// memories of one type, with at least one changed since the checkpoint:
// merges of the provably same, grouped around winners (the most complete
// memory first, never a sync service's conflict copy of another: see
// SurvivorFirst and considerCopy); contradictions; and possible
// duplicates for review, which judge may settle (it is asked of each pair
// neither provably the same nor apart, in order). A group holds only
// memories that the winner holds whole, or that a person or the judge
// said are the same as it (never one alike to another member only: A
// like B and B like C does not make C like A); of the latter, none that
// contradicts another member. It sets CopyOf on the conflict copies among
// ms (see MarkCopies), and archives nothing: that is the caller's.
func Find(ms []*Memory, judge func(Pair) Verdict) Found {
	var f Found
	MarkCopies(ms)
	into := make([]map[int]string, len(ms)) // into[w][l]: why l may merge into w, which holds all of it
	mergeable := func(w, l int, why string) {
		if into[w] == nil {
			into[w] = map[int]string{}
		}
		if into[w][l] == "" {
			into[w][l] = why
		}
	}
	tokens := make([][]string, len(ms))
	for i, m := range ms {
		tokens[i] = m.tokens()
	}
	seen := map[[2]int]bool{}
	var alike []Pair
	consider := func(i, j int, why string) {
		k := [2]int{min(i, j), max(i, j)}
		if i == j || !ms[i].Changed && !ms[j].Changed || seen[k] {
			return
		}
		seen[k] = true
		a, b := ms[i], ms[j]
		if o, c, ok := originalAndCopy(ms, i, j); ok {
			considerCopy(&f, ms, o, c, mergeable)
			return
		}
		switch {
		case a.canonical() != "" && a.canonical() == b.canonical():
			mergeable(i, j, "same text")
			mergeable(j, i, "same text")
			return
		case sameness.Contains(a.Said(), b.Said()):
			mergeable(i, j, "contained")
			return
		case sameness.Contains(b.Said(), a.Said()):
			mergeable(j, i, "contained")
			return
		}
		if diff, differs := differ(a, b); differs && diff.Opposite {
			f.Opposed = append(f.Opposed, Opposition{a, b, why, diff})
			return
		}
		if _, contra := Contradiction(a, b); contra {
			f.Opposed = append(f.Opposed, Opposition{A: a, B: b, Why: why})
			return
		}
		switch {
		case settled(a, b, memory.NotSameAsKey):
		case settled(a, b, memory.SameAsKey):
			mergeable(i, j, memory.SameAsKey)
			mergeable(j, i, memory.SameAsKey)
		case why == "same name" || !apartFacts(a, b, tokens[i], tokens[j]):
			alike = append(alike, Pair{A: a, B: b, Why: why, i: i, j: j})
		}
	}
	sameKey := func(key func(*Memory) string, why string) {
		byKey := map[string][]int{}
		for i, m := range ms {
			if k := key(m); k != "" {
				byKey[k] = append(byKey[k], i)
			}
		}
		for i, m := range ms {
			for _, j := range byKey[key(m)] {
				if j > i {
					consider(i, j, why)
				}
			}
		}
	}
	sameKey(func(m *Memory) string { return NormName(m.Name) }, "same name")
	sameKey(TextKey, "same text")
	for i, m := range ms {
		if m.CopyOf != nil {
			consider(i, slices.Index(ms, m.CopyOf), "a conflict copy") // however much it differs
		}
	}

	for _, c := range alikeCandidates(tokens, func(i int) bool { return ms[i].Changed }) {
		consider(c[0], c[1], alikeWhy(tokens[c[0]], tokens[c[1]]))
	}
	for _, sp := range alike {
		switch judge(sp) {
		case JudgedSame:
			mergeable(sp.i, sp.j, "judged the same by the LLM")
			mergeable(sp.j, sp.i, "judged the same by the LLM")
		case JudgedOther:
		default:
			f.Similar = append(f.Similar, sp)
		}
	}

	// A sync service's copy never takes its original in: whatever the
	// LLM judged, only the copy goes into the original.
	for c, m := range ms {
		if o := m.CopyOf; o != nil {
			if oi := slices.Index(ms, o); oi >= 0 {
				delete(into[c], oi)
			}
		}
	}
	order := make([]int, len(ms))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return SurvivorFirst(ms[a], ms[b]) })
	rank := make([]int, len(ms))
	for r, i := range order {
		rank[i] = r
	}
	f.Groups = group(ms, into, order, rank)
	return f
}

// MarkCopies sets CopyOf on each memory of ms whose path is a sync
// service's conflict copy (see vault.ConflictCopy) of another of ms.
func MarkCopies(ms []*Memory) {
	byPath := make(map[string]*Memory, len(ms))
	for _, m := range ms {
		byPath[m.Path] = m
	}
	for _, m := range ms {
		orig, service, ok := vault.ConflictCopy(m.Path, func(p string) bool { return byPath[p] != nil })
		if o := byPath[orig]; ok && o != nil && o != m {
			m.CopyOf, m.CopyService = o, service
		}
	}
}

// originalAndCopy returns, of ms[i] and ms[j], the original and the
// sync service's copy of it, when one is a copy of the other.
func originalAndCopy(ms []*Memory, i, j int) (o, c int, ok bool) {
	switch {
	case ms[i].CopyOf == ms[j]:
		return j, i, true
	case ms[j].CopyOf == ms[i]:
		return i, j, true
	}
	return 0, 0, false
}

// considerCopy plans what becomes of ms[c], a sync service's copy of
// ms[o]: the original stays the memory. A copy saying the same or less
// goes into it; one that says more or otherwise is for a person (a
// possible duplicate, or a contradiction): which edit to keep is never
// Dream's guess, nor the LLM's. A pair a person settled apart
// (not_same_as) stays apart.
func considerCopy(f *Found, ms []*Memory, o, c int, mergeable func(w, l int, why string)) {
	orig, cp := ms[o], ms[c]
	switch {
	case settled(orig, cp, memory.NotSameAsKey):
		return
	case orig.canonical() != "" && orig.canonical() == cp.canonical():
		mergeable(o, c, "same text")
		return
	case sameness.Contains(orig.Said(), cp.Said()):
		mergeable(o, c, "contained")
		return
	}
	why := "conflict copy (" + cp.CopyService + "): compare them, keep one"
	if _, contra := Contradiction(orig, cp); contra {
		f.Opposed = append(f.Opposed, Opposition{A: orig, B: cp, Why: why})
		return
	}
	f.Similar = append(f.Similar, Pair{A: orig, B: cp, Why: why, i: o, j: c})
}

// SurvivorFirst orders memories the survivor of a merge first: every
// memory that is no sync service's copy of another before every copy
// (a total order, whatever copies what), then the more complete (see
// moreComplete). It reads nothing but the memories (their paths and
// contents), so every machine orders one group alike.
func SurvivorFirst(a, b *Memory) int {
	switch ac, bc := a.CopyOf != nil, b.CopyOf != nil; {
	case ac && !bc:
		return 1
	case bc && !ac:
		return -1
	}
	return moreComplete(a, b)
}

// proved reports whether why is a proof that a memory holds another whole
// (equal normal forms, or every sentence held): a relation that is
// transitive, unlike a person's or the LLM's "same".
func proved(why string) bool { return why == "same text" || why == "contained" }

// group plans the merges of ms from into (into[w][l]: why l may merge into
// w), order (the most complete first) and rank (each memory's place in
// order). A memory another holds whole goes into it rather than take
// others itself, so that what a run merges does not depend on the order
// it meets the memories in (a memory that repeats a sentence has more
// words than the one holding it): the winners are the memories no other
// ungrouped memory strictly holds (of memories holding each other, the
// first in order). A winner takes every memory it holds, directly or
// through others it holds (holding is transitive), and those a person or
// the LLM said are the same as it, but none of the latter that contradicts
// another member.
func group(ms []*Memory, into []map[int]string, order, rank []int) []Group {
	var out []Group
	grouped := make([]bool, len(ms))
	heldElsewhere := func(w int) bool {
		for y := range ms {
			if y != w && !grouped[y] && proved(into[y][w]) && (!proved(into[w][y]) || rank[y] < rank[w]) {
				return true
			}
		}
		return false
	}
	for progress := true; progress; {
		progress = false
		for _, w := range order {
			if grouped[w] || len(into[w]) == 0 || heldElsewhere(w) {
				continue
			}
			mg := Group{Winner: ms[w]}
			take := func(j int, why string) {
				mg.Losers = append(mg.Losers, ms[j])
				mg.Reason = surer(mg.Reason, why)
				grouped[j] = true
			}
			grouped[w] = true
			// What w holds, through what it holds.
			queue := []int{w}
			for len(queue) > 0 {
				x := queue[0]
				queue = queue[1:]
				held := slices.Collect(maps.Keys(into[x]))
				slices.SortFunc(held, func(a, b int) int { return rank[a] - rank[b] })
				for _, j := range held {
					if !grouped[j] && proved(into[x][j]) {
						take(j, into[x][j])
						queue = append(queue, j)
					}
				}
			}
			// Those said to be the same as w, contradicting no member.
			others := slices.Collect(maps.Keys(into[w]))
			slices.SortFunc(others, func(a, b int) int { return rank[a] - rank[b] })
			for _, j := range others {
				if grouped[j] || slices.ContainsFunc(mg.Losers, func(l *Memory) bool { _, c := Contradiction(l, ms[j]); return c }) {
					continue
				}
				take(j, into[w][j])
			}
			if len(mg.Losers) == 0 {
				grouped[w] = false
				continue
			}
			progress = true
			out = append(out, mg)
		}
	}
	return out
}

// Pair is two alike memories that are not provably the same: possible
// duplicates, for review (or for a judge: see Find).
type Pair struct {
	A, B *Memory
	Why  string // how they are alike
	i, j int    // their places in the memories compared
}

// Reason says how the pair is alike and what differs between them, for a
// person.
func (sp Pair) Reason() string {
	if diff, differs := differ(sp.A, sp.B); differs {
		return sp.Why + "; " + diff.String()
	}
	return sp.Why + "; worded differently"
}

// Opposition is two memories alike in words (Why says how) whose meaning
// is opposite (Diff says where, when differ found it): contradictions,
// never duplicates.
type Opposition struct {
	A, B *Memory
	Why  string
	Diff meaning.Difference
}

// Group is a merge Find found: the Losers go into the Winner, for Reason
// (the surest of theirs: "same text", "contained", same_as, or the
// judge's).
type Group struct {
	Winner *Memory
	Losers []*Memory
	Reason string
}

// Found is what Find found among memories of one type.
type Found struct {
	Groups  []Group
	Opposed []Opposition
	// Similar are the possible duplicates the judge did not settle, in
	// the order found.
	Similar []Pair
}

// Verdict is what a judge (the LLM, when there is one) said of a pair of
// possible duplicates.
type Verdict int

const (
	Unjudged    Verdict = iota // no judge, or no answer: listed for review
	JudgedSame                 // the same: merged, no text lost
	JudgedOther                // different or contradicting: the judge flags them its way
)

// surer returns the surer of two reasons for a merge ("" is none): the
// same text, then one held whole in the other, then a person's same_as,
// then the LLM's judgement.
func surer(a, b string) string {
	rank := func(why string) int {
		switch why {
		case "":
			return 4
		case "same text":
			return 0
		case "contained":
			return 1
		case memory.SameAsKey:
			return 2
		}
		return 3
	}
	if rank(b) < rank(a) {
		return b
	}
	return a
}
