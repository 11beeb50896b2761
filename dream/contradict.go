package dream

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/vaultmem/vaultmem/dream/proposal"
	"github.com/vaultmem/vaultmem/meaning"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/text"
)

// Contradictions are memories that say opposite things. Dream flags them
// for a human and resolves none: rules of thumb find them, and a false
// alarm costs a look, where a wrong resolution would cost a memory. Two
// rules: feedback and user memories about the same thing with opposite
// polarity ("Always use tabs." and "Never use tabs in Go.": a sentence of
// each, sharing their topic words, one saying always, use, prefer, the
// other never, don't, avoid; see polarContradiction); and memories of any
// type alike in words but for a negation, an opposite word or two words
// swapped (see opposite). A memory whose frontmatter supersedes the other
// resolves the pair.

var sentenceEnd = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[.!?;:]+(\s|$)|\n`) })

// sentence is one sentence of a memory: its polarity (+1, -1, 0), the
// word that gave it, and its topic terms (stemmed words, neither stop
// words nor polarity words).
type sentence struct {
	polarity int
	marker   string
	terms    []string
	shown    map[string]string // a term's word as written
}

// sentences splits a memory's description and body into sentences with a
// polarity, once per memory.
func sentences(m *mem) []sentence {
	if m.sentences != nil {
		return *m.sentences
	}
	n := m.parsed()
	desc, _ := n.Frontmatter.String("description")
	out := []sentence{}
	for _, s := range sentenceEnd().Split(desc+"\n"+string(n.Body()), -1) {
		s = strings.ToLower(strings.ReplaceAll(s, "’", "'"))
		st := sentence{shown: map[string]string{}}
		if st.polarity, st.marker = meaning.Polarity(s); st.polarity == 0 {
			continue
		}
		for _, w := range text.Words(s) {
			if len([]rune(w)) > 1 && !text.IsStopWord(w) && !meaning.IsPolarityWord(w) {
				t := text.Term(w)
				st.terms = append(st.terms, t)
				if _, ok := st.shown[t]; !ok {
					st.shown[t] = w
				}
			}
		}
		if st.terms = distinct(st.terms); len(st.terms) > 0 {
			out = append(out, st)
		}
	}
	m.sentences = &out
	return out
}

// contradiction reports whether a and b may contradict each other, and
// how: a pair of polar sentences (see polarContradiction), or the same
// name or near the same words with opposite meaning (see opposite).
func contradiction(a, b *mem) (string, bool) {
	if reason, ok := polarContradiction(a, b); ok {
		return reason, true
	}
	return opposite(a, b)
}

// opposite reports whether a and b, memories of one type, state opposite
// things (see meaning.Differ and Difference.Opposite): one negates the other
// and nothing else differs between their words ("Run the integration
// tests against staging" and "Never run the integration tests against
// staging"); or one has a word's opposite where the other has the word
// ("raise the limit", "lower the limit"; "in"/"out", ">"/"<", 前/后,
// más/menos), or gives two words each other's place ("always pnpm, never
// npm" and "always npm, never pnpm"), and they are alike: the same name,
// or the same words but for those (see alike). Either is a
// contradiction, whatever their type and whatever else their names say,
// and never a duplicate.
func opposite(a, b *mem) (string, bool) {
	if a.kind != b.kind {
		return "", false
	}
	diff, differs := differ(a, b)
	if !differs || !diff.Opposite {
		return "", false
	}
	if diff.Kind != "negation" && proposal.NormName(a.name) != proposal.NormName(b.name) && !alike(a, b, diff) {
		return "", false
	}
	switch {
	case diff.Kind == "swap":
		return fmt.Sprintf("swapped: %q vs %q", diff.A, diff.B), true
	case diff.A == "":
		return fmt.Sprintf("the same but for %q", diff.B), true
	case diff.B == "":
		return fmt.Sprintf("the same but for %q", diff.A), true
	}
	return fmt.Sprintf("%q vs %q", diff.A, diff.B), true
}

// minAlike is the least Jaccard index of two memories' words, what
// differs between them left out, for an opposite between them to be a
// contradiction: "Raise the limit" and "Lower the limit" share all but
// it; "Test before merging" and "Clean up the old branches after
// merging" say two things. Lower than text.NearDuplicate, which also
// counts the words that differ: a short memory differs from its reverse
// in a third of its words.
const minAlike = 0.5

// alike reports whether a and b say the same in words but for what diff
// names (see minAlike): the terms (text.Term: "replica" and "replicas"
// are one) of their words as meaning.Differ compares them, the body (the
// description when there is none).
func alike(a, b *mem, diff meaning.Difference) bool {
	without := func(m *mem, shown string) map[string]bool {
		drop := map[string]bool{}
		for _, w := range text.Words(shown) {
			drop[text.Term(w)] = true
		}
		n := m.parsed()
		words := strings.TrimSpace(string(n.Body()))
		if words == "" {
			words, _ = n.Frontmatter.String("description")
		}
		set := map[string]bool{}
		for _, w := range text.Words(words) {
			if t := text.Term(w); !drop[t] {
				set[t] = true
			}
		}
		return set
	}
	sa, sb := without(a, diff.A+" "+diff.B), without(b, diff.A+" "+diff.B)
	both := 0
	for w := range sa {
		if sb[w] {
			both++
		}
	}
	union := len(sa) + len(sb) - both
	return union == 0 || float64(both) >= minAlike*float64(union)
}

// polarContradiction reports whether a and b may contradict each other,
// and how: a sentence of each with opposite polarity about the same terms
// (more than half their terms shared, and two, or all of the shorter's),
// where neither memory also says what the other says (a near copy of a
// memory that weighs both sides is no contradiction); the pair sharing the
// most terms tells how.
func polarContradiction(a, b *mem) (string, bool) {
	if !canContradict(a.kind) || !canContradict(b.kind) {
		return "", false
	}
	sa, sb := sentences(a), sentences(b)
	says := func(ss []sentence, polarity int, x sentence) bool {
		for _, z := range ss {
			if z.polarity == polarity && len(about(z, x)) > 0 {
				return true
			}
		}
		return false
	}
	best, reason := 0, ""
	for _, x := range sa {
		for _, y := range sb {
			if x.polarity == y.polarity {
				continue
			}
			shared := about(x, y)
			if len(shared) <= best || says(sb, x.polarity, x) || says(sa, y.polarity, y) {
				continue
			}
			words := make([]string, 0, 4)
			for _, t := range shared[:min(4, len(shared))] {
				words = append(words, x.shown[t])
			}
			best, reason = len(shared), fmt.Sprintf("%q vs %q: %s", x.marker, y.marker, strings.Join(words, ", "))
		}
	}
	return reason, best > 0
}

// about returns the terms x and y share when they are about the same
// thing: more than half their terms shared, and two, or all of the
// shorter's; else none.
func about(x, y sentence) []string {
	shared := intersect(x.terms, y.terms)
	union := len(x.terms) + len(y.terms) - len(shared)
	if len(shared) == 0 || len(shared) < min(2, len(x.terms), len(y.terms)) || 2*len(shared) <= union {
		return nil
	}
	return shared
}

func canContradict(k memory.Type) bool { return k == memory.Feedback || k == memory.User }

// intersect returns the words of both sorted lists.
func intersect(a, b []string) []string {
	var out []string
	for _, w := range a {
		if _, ok := slices.BinarySearch(b, w); ok {
			out = append(out, w)
		}
	}
	return out
}

// maxTopicShare is how many polar sentences may share a term before it stops
// pairing them as candidates: a word most memories use says nothing of
// what one is about.
const maxTopicShare = 100

// contradictions plans the flagged pairs: those flagged before whose
// memories are both live and unchanged stand; pairs with a memory changed
// since the checkpoint are checked (candidates: memories sharing a topic
// term few others use); a memory superseding the other resolves a pair.
func (d *Dreamer) contradictions(p *plan) error {
	old, sum, err := d.store.Flags()
	if err != nil {
		return err
	}
	p.flagsSum = sum
	keep := map[pair]memory.Flag{}
	listed := map[pair]memory.Flag{} // the possible duplicates listed before
	for _, f := range old {
		if f.Kind == memory.Duplicate {
			listed[pairOf(f.A, f.B)] = f
		}
		if !p.live(f.A) || !p.live(f.B) {
			continue
		}
		if f.Kind != memory.Contradiction {
			// A possible duplicate, or a pair the LLM settled apart,
			// stands while both memories stay as they are; a changed one
			// is compared again (see duplicatesOf).
			if a, b := p.by[f.A], p.by[f.B]; a == nil || b == nil || !a.changed && !b.changed {
				keep[pairOf(f.A, f.B)] = f
			}
			continue
		}
		if p.cycles[pairOf(f.A, f.B)] {
			keep[pairOf(f.A, f.B)] = f
			continue
		}
		a, b := p.by[f.A], p.by[f.B]
		if a == nil || b == nil { // neither changed: the flag stands
			keep[pairOf(f.A, f.B)] = f
			continue
		}
		if supersedes(a, b) || supersedes(b, a) {
			continue
		}
		if a.changed || b.changed {
			if reason, ok := contradiction(a, b); ok {
				f.Reason = reason
			} else {
				continue
			}
		}
		keep[pairOf(f.A, f.B)] = f
	}
	var live []*mem
	var sks []sketch
	for _, m := range p.mems {
		if !m.archived {
			live, sks = append(live, m), append(sks, sketchOf(m))
		}
	}
	if p.common == nil { // a full run: every memory is here
		p.common = commonTerms(sks)
	}
	for _, c := range polarCandidates(sks, func(i int) bool { return live[i].changed }, p.common) {
		a, b := live[c[0]], live[c[1]]
		k := pairOf(a.path, b.path)
		if _, ok := keep[k]; ok || supersedes(a, b) || supersedes(b, a) {
			continue
		}
		if reason, ok := contradiction(a, b); ok {
			keep[k] = memory.Flag{A: k[0], B: k[1], Reason: reason}
			p.fresh[k] = true
		}
	}
	for k := range p.cycles {
		if _, ok := keep[k]; !ok && p.live(k[0]) && p.live(k[1]) {
			keep[k] = memory.Flag{A: k[0], B: k[1], Reason: "each supersedes the other: keep the supersedes key of the one that is right"}
			p.fresh[k] = true
		}
	}
	for _, o := range p.opposed {
		k := pairOf(o.a.path, o.b.path)
		if _, ok := keep[k]; ok || o.a.archived || o.b.archived || supersedes(o.a, o.b) || supersedes(o.b, o.a) {
			continue
		}
		if reason, ok := contradiction(o.a, o.b); ok {
			keep[k] = memory.Flag{A: k[0], B: k[1], Reason: reason}
			p.fresh[k] = true
		}
	}
	for _, f := range p.judgedFlags {
		k := pairOf(f.A, f.B)
		if _, ok := keep[k]; !ok && p.live(f.A) && p.live(f.B) {
			keep[k] = f
			p.fresh[k] = true
		}
	}
	for _, sp := range p.similar {
		k := pairOf(sp.a.path, sp.b.path)
		if _, ok := keep[k]; ok || sp.a.archived || sp.b.archived || supersedes(sp.a, sp.b) || supersedes(sp.b, sp.a) {
			continue
		}
		f := memory.Flag{A: k[0], B: k[1], Reason: sp.reason(), Kind: memory.Duplicate, Found: p.today}
		if was, ok := listed[k]; ok { // found again: as old as it was
			f.Found = was.Found
		} else {
			p.fresh[k] = true
		}
		keep[k] = f
	}
	for _, f := range keep {
		p.flags = append(p.flags, f)
	}
	slices.SortFunc(p.flags, func(a, b memory.Flag) int {
		if c := strings.Compare(pairOf(a.A, a.B)[0], pairOf(b.A, b.B)[0]); c != 0 {
			return c
		}
		return strings.Compare(pairOf(a.A, a.B)[1], pairOf(b.A, b.B)[1])
	})
	p.flagsChanged = !slices.Equal(old, p.flags)
	return nil
}
