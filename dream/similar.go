package dream

import (
	"context"
	"crypto/sha256"
	"fmt"
	"hash/maphash"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/vaultmem/vaultmem/dream/proposal"
	"github.com/vaultmem/vaultmem/meaning"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/sameness"
	"github.com/vaultmem/vaultmem/text"
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

// reviewJaccard is the least Jaccard index of two memories' word sets for
// them to be listed as possible duplicates; containShare the least share
// of one's words in the other's for the same.
const (
	reviewJaccard = 0.4
	containShare  = 0.8
)

// words are a memory's description and body as words, for comparing
// (as shown: see shown).
func (m *mem) words() []string {
	if m.wordList == nil {
		desc, _ := m.note.Frontmatter.String("description")
		m.wordList = text.Words(shown(desc + "\n" + string(m.note.Body())))
	}
	return m.wordList
}

// addedDate is a date as Dream adds it after a relative one: " (2026-03-05)";
// shownWiki and shownMD are links, whose text Obsidian shows.
var (
	addedDate = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(` \(\d{4}-\d{2}-\d{2}\)`) })
	shownWiki = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`!?\[\[([^\]|]*)(?:\|([^\]]*))?\]\]`) })
	shownMD   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(!?\[[^\]]*\])\([^)\s]*\)`) })
)

// shown is s as alike memories are compared: links as Obsidian shows them
// (a wikilink by its label, else its target; a markdown link by its
// text), and without the dates Dream adds after relative ones (see
// fixDates). Dream's own writes (dates, links pointed at a merged
// memory's winner) then change nothing of how two memories compare (how
// many words they share, what differs), so a run over every memory finds
// the pairs the run before it found.
func shown(s string) string {
	if !strings.Contains(s, "[") && !strings.Contains(s, " (") {
		return s // no link, no added date: most memories
	}
	s = addedDate().ReplaceAllString(s, "")
	s = shownWiki().ReplaceAllStringFunc(s, func(l string) string {
		m := shownWiki().FindStringSubmatch(l)
		if m[2] != "" {
			return m[2]
		}
		return strings.ReplaceAll(m[1], "#", " > ")
	})
	return shownMD().ReplaceAllString(s, "$1")
}

// said is what a memory says, as merges compare it: its body, or its
// description when it has no body (a name and a description are reworded
// freely).
func (m *mem) said() string {
	n := m.parsed()
	if body := strings.TrimSpace(string(n.Body())); body != "" {
		return body
	}
	desc, _ := n.Frontmatter.String("description")
	return desc
}

// canonical is said in its normal form (see sameness.Canonical), cached.
func (m *mem) canonical() string {
	if m.canon == nil {
		c := sameness.Canonical(m.said())
		m.canon = &c
	}
	return *m.canon
}

// differ reports how a and b differ in meaning (see meaning.Differ). A pair
// is asked several times in a run (is it opposite, a contradiction, apart
// in facts, what differs), so the answer is kept on a, for as long as
// neither's meaning changes.
func differ(a, b *mem) (meaning.Difference, bool) {
	am, bm := a.meaning(), b.meaning()
	if r, ok := a.diffs[b]; ok && r.a == am && r.b == bm {
		return r.d, r.differs
	}
	d, differs := am.Differ(bm)
	if a.diffs == nil {
		a.diffs = map[*mem]difference{}
	}
	a.diffs[b] = difference{a: am, b: bm, d: d, differs: differs}
	return d, differs
}

// difference is what differ found between two meanings.
type difference struct {
	a, b    *meaning.Meaning
	d       meaning.Difference
	differs bool
}

// meaning is m, as planned, read for comparing: its facts from the name,
// description and body; its words from the body alone (the description
// when there is none), which is what a merge keeps: a name and a
// description are reworded freely.
func (m *mem) meaning() *meaning.Meaning {
	if m.meant == nil {
		n := m.parsed()
		desc, _ := n.Frontmatter.String("description")
		words := strings.TrimSpace(string(n.Body()))
		if words == "" {
			words = desc
		}
		m.meant = meaning.NewMeaning(shown(m.name+"\n"+desc+"\n"+string(n.Body())), shown(words))
	}
	return m.meant
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

// settled reports whether a person settled a and b with key (either's
// frontmatter naming the other: see memory.Names).
func settled(a, b *mem, key string) bool {
	return memory.Names(a.note, key, b.path, b.name) || memory.Names(b.note, key, a.path, a.name)
}

// duplicates plans the merges among the live memories of each type (see
// duplicatesOf).
func (d *Dreamer) duplicates(ctx context.Context, p *plan, rep *Report) {
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
		tokens[i] = distinct(m.words())
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
		case a.canonical() != "" && a.canonical() == b.canonical():
			mergeable(i, j, "same text")
			mergeable(j, i, "same text")
			return
		case sameness.Contains(a.said(), b.said()):
			mergeable(i, j, "contained")
			return
		case sameness.Contains(b.said(), a.said()):
			mergeable(j, i, "contained")
			return
		}
		if diff, differs := differ(a, b); differs && diff.Opposite {
			p.opposed = append(p.opposed, opposition{a, b, why, diff})
			return
		}
		if _, contra := contradiction(a, b); contra {
			p.opposed = append(p.opposed, opposition{a: a, b: b, why: why})
			return
		}
		switch {
		case settled(a, b, memory.NotSameAsKey):
		case settled(a, b, memory.SameAsKey):
			mergeable(i, j, memory.SameAsKey)
			mergeable(j, i, memory.SameAsKey)
		case why == "same name" || !apartFacts(a, b, tokens[i], tokens[j]):
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
	sameKey(func(m *mem) string { return proposal.NormName(m.name) }, "same name")
	sameKey(textKey, "same text")
	for i, m := range ms {
		if m.copyOf != nil {
			consider(i, slices.Index(ms, m.copyOf), "a conflict copy") // however much it differs
		}
	}

	for _, c := range alikeCandidates(tokens, func(i int) bool { return ms[i].changed }) {
		consider(c[0], c[1], alikeWhy(tokens[c[0]], tokens[c[1]]))
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
	d.group(p, ms, into, order, rank)
}

// markCopies sets copyOf on each memory of ms whose path is a sync
// service's conflict copy (see vault.ConflictCopy) of another of ms.
func markCopies(ms []*mem) {
	byPath := make(map[string]*mem, len(ms))
	for _, m := range ms {
		byPath[m.path] = m
	}
	for _, m := range ms {
		orig, service, ok := vault.ConflictCopy(m.path, func(p string) bool { return byPath[p] != nil })
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
	case settled(orig, cp, memory.NotSameAsKey):
		return
	case orig.canonical() != "" && orig.canonical() == cp.canonical():
		mergeable(o, c, "same text")
		return
	case sameness.Contains(orig.said(), cp.said()):
		mergeable(o, c, "contained")
		return
	}
	why := "conflict copy (" + cp.copyService + "): compare them, keep one"
	if _, contra := contradiction(orig, cp); contra {
		p.opposed = append(p.opposed, opposition{a: orig, b: cp, why: why})
		return
	}
	p.similar = append(p.similar, similarPair{a: orig, b: cp, why: why, i: o, j: c})
}

// survivorFirst orders memories the survivor of a merge first: every
// memory that is no sync service's copy of another before every copy
// (a total order, whatever copies what), then the more complete (see
// moreComplete). It reads nothing but the memories (their paths and
// contents), so every machine orders one group alike.
func survivorFirst(a, b *mem) int {
	switch ac, bc := a.copyOf != nil, b.copyOf != nil; {
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
func (d *Dreamer) group(p *plan, ms []*mem, into []map[int]string, order, rank []int) {
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
				if grouped[j] || slices.ContainsFunc(mg.losers, func(l *mem) bool { _, c := contradiction(l, ms[j]); return c }) {
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
	if diff, differs := differ(sp.a, sp.b); differs {
		return sp.why + "; " + diff.String()
	}
	return sp.why + "; worded differently"
}

// factJaccard is the least Jaccard index of two memories' word sets, when
// they differ in a fact (a number, a date, a unit, a name...), for them to
// be listed as possible duplicates: below it they are two memories of one
// shape ("the limit of service A is 60", "... of service B is 100"), which
// a person need not be asked about.
const factJaccard = 0.8

// apartFacts reports whether a and b (with the distinct words ta, tb)
// differ in a fact and share too few words for one to be an update of the
// other (see factJaccard).
func apartFacts(a, b *mem, ta, tb []string) bool {
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

// alikeWhy says how alike two memories' word sets are.
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

// distinct returns the distinct words of seq, sorted.
func distinct(seq []string) []string {
	out := slices.Clone(seq)
	slices.Sort(out)
	return slices.Compact(out)
}
