package dream

import (
	"context"
	"github.com/vaultmem/vaultmem/dream/similar"
	"maps"
	"slices"

	"github.com/vaultmem/vaultmem/dream/proposal"
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

// duplicates plans the merges among the live memories of each type (see
// duplicatesOf).
func (d *Dreamer) duplicates(ctx context.Context, p *plan, rep *Report) {
	byKind := map[string][]*mem{}
	var kinds []string
	for _, m := range p.mems {
		if m.archived {
			continue
		}
		k := string(m.Kind)
		if byKind[k] == nil {
			kinds = append(kinds, k)
		}
		byKind[k] = append(byKind[k], m)
	}
	slices.Sort(kinds)
	for _, k := range kinds {
		d.duplicatesOf(ctx, p, rep, byKind[k])
	}
}

// duplicatesOf plans what becomes of the pairs of alike memories among ms,
// memories of one type, with at least one changed since the checkpoint:
// merges of the provably same, grouped around winners (the most complete
// memory first, never a sync service's conflict copy of another: see
// survivorFirst and considerCopy); contradictions; and possible
// duplicates for review, which the LLM, when there is one, may settle
// (see judge). A group holds only memories that the winner holds whole,
// or that a person or the LLM said are the same as it (never one alike to
// another member only: A like B and B like C does not make C like A); of
// the latter, none that contradicts another member.
func (d *Dreamer) duplicatesOf(ctx context.Context, p *plan, rep *Report, ms []*mem) {
	markCopies(ms)
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
		tokens[i] = m.Tokens()
	}
	seen := map[[2]int]bool{}
	var alike []similarPair
	consider := func(i, j int, why string) {
		k := [2]int{min(i, j), max(i, j)}
		if i == j || !ms[i].changed && !ms[j].changed || seen[k] {
			return
		}
		seen[k] = true
		a, b := ms[i], ms[j]
		if o, c, ok := originalAndCopy(ms, i, j); ok {
			considerCopy(p, ms, o, c, mergeable)
			return
		}
		switch {
		case a.Canonical() != "" && a.Canonical() == b.Canonical():
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
		if diff, differs := similar.Differ(a.Memory, b.Memory); differs && diff.Opposite {
			p.opposed = append(p.opposed, opposition{a, b, why, diff})
			return
		}
		if _, contra := similar.Contradiction(a.Memory, b.Memory); contra {
			p.opposed = append(p.opposed, opposition{a: a, b: b, why: why})
			return
		}
		switch {
		case similar.Settled(a.Memory, b.Memory, memory.NotSameAsKey):
		case similar.Settled(a.Memory, b.Memory, memory.SameAsKey):
			mergeable(i, j, memory.SameAsKey)
			mergeable(j, i, memory.SameAsKey)
		case why == "same name" || !similar.ApartFacts(a.Memory, b.Memory, tokens[i], tokens[j]):
			alike = append(alike, similarPair{a: a, b: b, why: why, i: i, j: j})
		}
	}
	sameKey := func(key func(*mem) string, why string) {
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
	sameKey(func(m *mem) string { return proposal.NormName(m.Name) }, "same name")
	sameKey(func(m *mem) string { return similar.TextKey(m.Memory) }, "same text")
	for i, m := range ms {
		if m.copyOf != nil {
			consider(i, slices.Index(ms, m.copyOf), "a conflict copy") // however much it differs
		}
	}

	for _, c := range similar.AlikeCandidates(tokens, func(i int) bool { return ms[i].changed }) {
		consider(c[0], c[1], similar.AlikeWhy(tokens[c[0]], tokens[c[1]]))
	}
	for _, sp := range alike {
		switch d.judge(ctx, p, rep, sp) {
		case judgedSame:
			mergeable(sp.i, sp.j, "judged the same by the LLM")
			mergeable(sp.j, sp.i, "judged the same by the LLM")
		case judgedOther:
		default:
			p.similar = append(p.similar, sp)
		}
	}

	// A sync service's copy never takes its original in: whatever the
	// LLM judged, only the copy goes into the original.
	for c, m := range ms {
		if o := m.copyOf; o != nil {
			if oi := slices.Index(ms, o); oi >= 0 {
				delete(into[c], oi)
			}
		}
	}
	order := make([]int, len(ms))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return survivorFirst(ms[a], ms[b]) })
	rank := make([]int, len(ms))
	for r, i := range order {
		rank[i] = r
	}
	group(p, ms, into, order, rank)
}

// markCopies sets copyOf on each memory of ms whose path is a sync
// service's conflict copy (see vault.ConflictCopy) of another of ms.
func markCopies(ms []*mem) {
	byPath := make(map[string]*mem, len(ms))
	for _, m := range ms {
		byPath[m.Path] = m
	}
	for _, m := range ms {
		orig, service, ok := vault.ConflictCopy(m.Path, func(p string) bool { return byPath[p] != nil })
		if o := byPath[orig]; ok && o != nil && o != m {
			m.copyOf, m.copyService = o, service
		}
	}
}

// originalAndCopy returns, of ms[i] and ms[j], the original and the
// sync service's copy of it, when one is a copy of the other.
func originalAndCopy(ms []*mem, i, j int) (o, c int, ok bool) {
	switch {
	case ms[i].copyOf == ms[j]:
		return j, i, true
	case ms[j].copyOf == ms[i]:
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
func considerCopy(p *plan, ms []*mem, o, c int, mergeable func(w, l int, why string)) {
	orig, cp := ms[o], ms[c]
	switch {
	case similar.Settled(orig.Memory, cp.Memory, memory.NotSameAsKey):
		return
	case orig.Canonical() != "" && orig.Canonical() == cp.Canonical():
		mergeable(o, c, "same text")
		return
	case sameness.Contains(orig.Said(), cp.Said()):
		mergeable(o, c, "contained")
		return
	}
	why := "conflict copy (" + cp.copyService + "): compare them, keep one"
	if _, contra := similar.Contradiction(orig.Memory, cp.Memory); contra {
		p.opposed = append(p.opposed, opposition{a: orig, b: cp, why: why})
		return
	}
	p.similar = append(p.similar, similarPair{a: orig, b: cp, why: why, i: o, j: c})
}

// survivorFirst orders memories the survivor of a merge first: every
// memory that is no sync service's copy of another before every copy
// (a total order, whatever copies what), then the more complete (see
// similar.MoreComplete). It reads nothing but the memories (their paths and
// contents), so every machine orders one group alike.
func survivorFirst(a, b *mem) int {
	switch ac, bc := a.copyOf != nil, b.copyOf != nil; {
	case ac && !bc:
		return 1
	case bc && !ac:
		return -1
	}
	return similar.MoreComplete(a.Memory, b.Memory)
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
func group(p *plan, ms []*mem, into []map[int]string, order, rank []int) {
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
			mg := &merge{winner: ms[w]}
			take := func(j int, why string) {
				mg.losers = append(mg.losers, ms[j])
				mg.reason = surer(mg.reason, why)
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
				if grouped[j] || slices.ContainsFunc(mg.losers, func(l *mem) bool { _, c := similar.Contradiction(l.Memory, ms[j].Memory); return c }) {
					continue
				}
				take(j, into[w][j])
			}
			if len(mg.losers) == 0 {
				grouped[w] = false
				continue
			}
			progress = true
			for _, l := range mg.losers {
				l.archived = true
			}
			p.merges = append(p.merges, mg)
		}
	}
}

// similarPair is two alike memories (i and j in the list compared) that
// are not provably the same: possible duplicates, for review.
type similarPair struct {
	a, b *mem
	why  string // how they are alike
	i, j int
}

// reason says what differs between the pair, for a person.
func (sp similarPair) reason() string {
	if diff, differs := similar.Differ(sp.a.Memory, sp.b.Memory); differs {
		return sp.why + "; " + diff.String()
	}
	return sp.why + "; worded differently"
}

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
