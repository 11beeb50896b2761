package similar

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

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
func sentences(m *Memory) []sentence {
	if m.sentences != nil {
		return *m.sentences
	}
	n := m.Parsed()
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

// Contradiction reports whether a and b, memories as planned, may
// contradict each other, and how (a reason for a person): a pair of
// polar sentences (see polarContradiction), or the same name or near the
// same words with opposite meaning (see opposite).
func Contradiction(a, b *Memory) (string, bool) {
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
func opposite(a, b *Memory) (string, bool) {
	if a.Kind != b.Kind {
		return "", false
	}
	diff, differs := differ(a, b)
	if !differs || !diff.Opposite {
		return "", false
	}
	if diff.Kind != "negation" && NormName(a.Name) != NormName(b.Name) && !alike(a, b, diff) {
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
func alike(a, b *Memory, diff meaning.Difference) bool {
	without := func(m *Memory, shown string) map[string]bool {
		drop := map[string]bool{}
		for _, w := range text.Words(shown) {
			drop[text.Term(w)] = true
		}
		n := m.Parsed()
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
func polarContradiction(a, b *Memory) (string, bool) {
	if !canContradict(a.Kind) || !canContradict(b.Kind) {
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

// canContradict reports whether memories of type k are read for polar
// sentences (see polarContradiction).
func canContradict(k memory.Type) bool { return k == memory.Feedback || k == memory.User }

// maxTopicShare is how many polar sentences may share a term before it stops
// pairing them as candidates: a word most memories use says nothing of
// what one is about.
const maxTopicShare = 100
