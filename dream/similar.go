package dream

import (
	"crypto/sha256"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/vaultmem/vaultmem/text"
)

// Duplicates are memories of the same type with the same name
// (normalised: case, spacing and closing punctuation ignored), the same
// text, or near the same text: 0.4 x the Jaccard index of their word sets
// + 0.6 x their longest common subsequence of words over the longer's
// length, at least text.NearDuplicate. Whichever way they were found
// alike, two memories are duplicates only when they also say the same
// thing: text.Differ finds no number, date, unit, negation, name,
// opposite word or replaced word between them. Near the same words with
// a negation or an opposite between them are a contradiction, flagged
// for a human. Candidates come from an inverted index of the memories'
// words, never from all pairs.

// words are a memory's description and body as words, for comparing.
func (m *mem) words() []string {
	desc, _ := m.note.Frontmatter.String("description")
	return text.Words(desc + "\n" + string(m.note.Body()))
}

// differ reports how a and b differ in meaning (see text.Differ).
func differ(a, b *mem) (text.Difference, bool) { return a.meaning().Differ(b.meaning()) }

// meaning is m, as planned, read for comparing: its facts from the name,
// description and body; its words from the body alone (the description
// when there is none), which is what a merge keeps: a name and a
// description are reworded freely.
func (m *mem) meaning() *text.Meaning {
	if m.meant == nil {
		n := m.parsed()
		desc, _ := n.Frontmatter.String("description")
		words := strings.TrimSpace(string(n.Body()))
		if words == "" {
			words = desc
		}
		m.meant = text.NewMeaning(m.name+"\n"+desc+"\n"+string(n.Body()), words)
	}
	return m.meant
}

// normName is a name with case, spacing (spaces, "-" and "_" alike) and
// closing punctuation ignored: "Package manager", "package_manager." and
// "PACKAGE-MANAGER" are one name, "C++ style" and "C style" two.
func normName(s string) string {
	words := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return unicode.IsSpace(r) || r == '-' || r == '_' })
	return strings.TrimRight(strings.Join(words, " "), ".,;:!?")
}

// textKey is the hash of a memory's body with case and spacing ignored,
// "" for an empty body.
func textKey(m *mem) string {
	body := strings.Join(strings.Fields(strings.ToLower(string(m.note.Body()))), " ")
	if body == "" {
		return ""
	}
	return fmt.Sprintf("%x", sha256.Sum256([]byte(body)))
}

// duplicates plans the merges among the live memories of each type (see
// duplicatesOf).
func (d *Dreamer) duplicates(p *plan, rep *Report) {
	byKind := map[string][]*mem{}
	var kinds []string
	for _, m := range p.mems {
		if m.archived {
			continue
		}
		k := string(m.kind)
		if byKind[k] == nil {
			kinds = append(kinds, k)
		}
		byKind[k] = append(byKind[k], m)
	}
	slices.Sort(kinds)
	for _, k := range kinds {
		d.duplicatesOf(p, rep, byKind[k])
	}
}

// duplicatesOf plans the merges among ms, memories of one type: the
// pairs of duplicates with at least one memory changed since the
// checkpoint, grouped around winners, the most complete memory first. A
// group holds only memories that are each a duplicate of its winner
// (never one that is alike to another member only: A like B and B like C
// does not make C like A) and that contradict no other member. Pairs near
// the same words but of opposite meaning are planned as contradictions.
func (d *Dreamer) duplicatesOf(p *plan, rep *Report, ms []*mem) {
	alike := make([]map[int]string, len(ms)) // alike[i][j]: why i and j are duplicates
	pair := func(i, j int, why string) {
		if i == j || !ms[i].changed && !ms[j].changed || alike[i][j] != "" {
			return
		}
		if diff, differs := differ(ms[i], ms[j]); differs {
			if diff.Opposite {
				p.opposed = append(p.opposed, opposition{ms[i], ms[j], why, diff})
			}
			return
		}
		if _, contra := contradiction(ms[i], ms[j]); contra {
			return
		}
		for _, k := range [2][2]int{{i, j}, {j, i}} {
			if alike[k[0]] == nil {
				alike[k[0]] = map[int]string{}
			}
			alike[k[0]][k[1]] = why
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
					pair(i, j, why)
				}
			}
		}
	}
	sameKey(func(m *mem) string { return normName(m.name) }, "same name")
	sameKey(textKey, "same text")

	seqs := make([][]string, len(ms))
	sets := make([]text.WordSet, len(ms))
	tokens := make([][]string, len(ms))
	for i, m := range ms {
		seqs[i] = m.words()
		sets[i] = text.NewWordSet(seqs[i])
		tokens[i] = distinct(seqs[i])
	}
	for _, c := range candidates(tokens, minJaccard, func(i int) bool { return ms[i].changed }) {
		i, j := c[0], c[1]
		if alike[i][j] != "" || !sets[i].MayBeNear(sets[j]) {
			continue
		}
		if s := sets[i].Similarity(sets[j]); s >= text.NearDuplicate {
			pair(i, j, fmt.Sprintf("near duplicate (%.2f)", s))
		} else if ms[i].meaning().Negations() != ms[j].meaning().Negations() {
			// Less alike by words, but all that differs may be a negation.
			if diff, differs := differ(ms[i], ms[j]); differs && diff.Opposite && diff.Kind == "negation" {
				p.opposed = append(p.opposed, opposition{ms[i], ms[j], "", diff})
			}
		}
	}

	order := make([]int, len(ms))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return moreComplete(ms[a], ms[b]) })
	rank := make([]int, len(ms))
	for r, i := range order {
		rank[i] = r
	}
	grouped := make([]bool, len(ms))
	for _, w := range order {
		if grouped[w] || len(alike[w]) == 0 {
			continue
		}
		others := slices.Collect(maps.Keys(alike[w]))
		slices.SortFunc(others, func(a, b int) int { return rank[a] - rank[b] })
		mg := &merge{winner: ms[w]}
		for _, j := range others {
			if grouped[j] || slices.ContainsFunc(mg.losers, func(l *mem) bool { _, c := contradiction(l, ms[j]); return c }) {
				continue
			}
			mg.losers = append(mg.losers, ms[j])
			mg.reason = surer(mg.reason, alike[w][j])
			grouped[j] = true
		}
		if len(mg.losers) == 0 {
			continue
		}
		grouped[w] = true
		for _, l := range mg.losers {
			l.archived = true
		}
		p.merges = append(p.merges, mg)
	}
}

// surer returns the surer of two reasons for a merge ("" is none): the
// same name, then the same text, then near the same text.
func surer(a, b string) string {
	rank := func(why string) int {
		switch {
		case why == "":
			return 3
		case why == "same name":
			return 0
		case why == "same text":
			return 1
		}
		return 2
	}
	if rank(b) < rank(a) {
		return b
	}
	return a
}

// moreComplete orders memories the most complete first: more words, then
// the older (by created; one without comes after), then by path.
func moreComplete(a, b *mem) int {
	if na, nb := a.bodyWords(), b.bodyWords(); na != nb {
		return nb - na
	}
	ca, cb := a.created(), b.created()
	switch {
	case ca != cb && ca == "":
		return 1
	case ca != cb && cb == "":
		return -1
	case ca != cb:
		return strings.Compare(ca, cb)
	}
	return strings.Compare(a.path, b.path)
}

// bodyWords counts the words of m's body as read (cached: sorting by
// completeness asks it often).
func (m *mem) bodyWords() int {
	if !m.sized {
		m.size, m.sized = len(text.Words(string(m.note.Body()))), true
	}
	return m.size
}

// minJaccard is the least Jaccard index of near duplicates: with an LCS
// ratio of 1, 0.4 x 0.625 + 0.6 = 0.85.
var minJaccard = (text.NearDuplicate - 0.6) / 0.4

// distinct returns the distinct words of seq, sorted.
func distinct(seq []string) []string {
	out := slices.Clone(seq)
	slices.Sort(out)
	return slices.Compact(out)
}

// candidates returns the pairs (i < j) of token sets whose Jaccard index
// may reach t, each with at least one set that focus accepts, by prefix
// filtering: with every set's tokens ordered rarest first, two sets with a
// Jaccard index of at least t share a token among the first
// |s| - ceil(t|s|) + 1 of each. Sets share rare tokens seldom, so the
// pairs are few; no pair of sets is compared that could not reach t.
func candidates(sets [][]string, t float64, focus func(int) bool) [][2]int {
	var few []int
	for i := range sets {
		if focus(i) {
			few = append(few, i)
		}
	}
	if len(few)*10 < len(sets) {
		return candidatesOf(sets, t, few)
	}
	df := map[string]int{}
	for _, s := range sets {
		for _, w := range s {
			df[w]++
		}
	}
	posting := map[string][]int{}
	for i, s := range sets {
		if len(s) == 0 {
			continue
		}
		order := slices.Clone(s)
		slices.SortFunc(order, func(a, b string) int {
			if df[a] != df[b] {
				return df[a] - df[b]
			}
			return strings.Compare(a, b)
		})
		n := len(order) - int(math.Ceil(t*float64(len(order)))) + 1
		for _, w := range order[:max(1, min(n, len(order)))] {
			posting[w] = append(posting[w], i)
		}
	}
	seen := map[[2]int]bool{}
	var out [][2]int
	for _, ids := range posting {
		for a := range ids {
			for b := a + 1; b < len(ids); b++ {
				c := [2]int{ids[a], ids[b]}
				if seen[c] || !focus(c[0]) && !focus(c[1]) {
					continue
				}
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	slices.SortFunc(out, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return a[1] - b[1]
	})
	return out
}

// candidatesOf is candidates for a few sets (by index): each set is
// compared with the sets sharing a token with it, by the count of tokens
// they share, which bounds their Jaccard index. It costs one pass over the
// tokens of every set, where prefix filtering sorts every set.
func candidatesOf(sets [][]string, t float64, few []int) [][2]int {
	wanted := map[string]bool{}
	for _, i := range few {
		for _, w := range sets[i] {
			wanted[w] = true
		}
	}
	posting := map[string][]int{}
	for j, s := range sets {
		for _, w := range s {
			if wanted[w] {
				posting[w] = append(posting[w], j)
			}
		}
	}
	seen := map[[2]int]bool{}
	var out [][2]int
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
			c := [2]int{min(i, j), max(i, j)}
			if seen[c] || float64(n) < t*float64(len(sets[i])+len(sets[j])-n) {
				continue
			}
			seen[c] = true
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return a[1] - b[1]
	})
	return out
}
