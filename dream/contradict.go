package dream

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/text"
	"github.com/vaultmem/vaultmem/vault"
)

// Contradictions are feedback and user memories about the same thing with
// opposite polarity: "Always use tabs." and "Never use tabs in Go." Dream
// flags them for a human and resolves none: a rule of thumb finds them
// (a sentence of each, sharing their topic words, one saying always, use,
// prefer, the other never, don't, avoid), and a false alarm costs a look,
// where a wrong resolution would cost a memory. A memory whose frontmatter
// supersedes the other resolves the pair.

// The words that give a sentence its polarity.
var (
	negativeMarkers = []string{"never", "not", "no", "no longer", "avoid", "avoids", "avoided", "avoiding", "stop", "stops",
		"stopped", "stop using", "without", "dislike", "dislikes", "disable", "disabled", "against", "don't", "doesn't",
		"didn't", "shouldn't", "mustn't", "can't", "cannot", "won't", "isn't", "aren't"}
	positiveMarkers = []string{"always", "do", "does", "use", "uses", "used", "using", "prefer", "prefers", "preferred",
		"should", "must", "enable", "enabled", "like", "likes", "want", "wants", "need", "needs", "keep", "require", "required"}
	negative, positive = markerPattern(negativeMarkers), markerPattern(positiveMarkers)
	// polarWords are the markers' words, which are no topic.
	polarWords = func() map[string]bool {
		m := map[string]bool{}
		for _, w := range slices.Concat(negativeMarkers, positiveMarkers) {
			for _, x := range text.Words(w) {
				m[x] = true
			}
		}
		return m
	}()
	sentenceEnd = regexp.MustCompile(`[.!?;:]+(\s|$)|\n`)
)

// markerPattern matches any of the words, the longest first.
func markerPattern(words []string) *regexp.Regexp {
	ws := slices.Clone(words)
	slices.SortFunc(ws, func(a, b string) int { return len(b) - len(a) })
	for i, w := range ws {
		ws[i] = regexp.QuoteMeta(w)
	}
	return regexp.MustCompile(`\b(` + strings.Join(ws, "|") + `)\b`)
}

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
// polarity.
func sentences(m *mem) []sentence {
	desc, _ := m.note.Frontmatter.String("description")
	var out []sentence
	for _, s := range sentenceEnd.Split(desc+"\n"+string(m.note.Body()), -1) {
		s = strings.ToLower(strings.ReplaceAll(s, "’", "'"))
		st := sentence{shown: map[string]string{}}
		if w := negative.FindString(s); w != "" {
			st.polarity, st.marker = -1, w
		} else if w := positive.FindString(s); w != "" {
			st.polarity, st.marker = 1, w
		} else {
			continue
		}
		for _, w := range text.Words(s) {
			if len([]rune(w)) > 1 && !text.IsStopWord(w) && !polarWords[w] {
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
	return out
}

// contradiction reports whether a and b may contradict each other, and
// how: a sentence of each with opposite polarity about the same terms
// (at least half their terms shared, and two, or all of the shorter's);
// the pair sharing the most terms tells how.
func contradiction(a, b *mem) (string, bool) {
	if !canContradict(a.kind) || !canContradict(b.kind) {
		return "", false
	}
	best, reason := 0, ""
	for _, x := range sentences(a) {
		for _, y := range sentences(b) {
			if x.polarity == y.polarity {
				continue
			}
			shared := intersect(x.terms, y.terms)
			union := len(x.terms) + len(y.terms) - len(shared)
			if len(shared) <= best || len(shared) < min(2, len(x.terms), len(y.terms)) || 2*len(shared) < union {
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

func canContradict(k vault.Kind) bool { return k == vault.KindFeedback || k == vault.KindUser }

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

// maxTopicShare is how many memories may share a term before it stops
// pairing them as candidates: a word most memories use says nothing of
// what one is about.
const maxTopicShare = 50

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
	live := func(path string) *mem {
		if m := p.by[path]; m != nil && !m.archived {
			return m
		}
		return nil
	}
	keep := map[pair]memory.Flag{}
	for _, f := range old {
		a, b := live(f.A), live(f.B)
		if a == nil || b == nil || supersedes(a, b) || supersedes(b, a) {
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
	var ms []*mem
	var terms [][]string
	for _, m := range p.mems {
		if m.archived || !canContradict(m.kind) {
			continue
		}
		var ts []string
		for _, s := range sentences(m) {
			ts = append(ts, s.terms...)
		}
		ms, terms = append(ms, m), append(terms, distinct(ts))
	}
	posting := map[string][]int{}
	for i, ts := range terms {
		for _, t := range ts {
			posting[t] = append(posting[t], i)
		}
	}
	checked := map[pair]bool{}
	for _, ids := range posting {
		if len(ids) > maxTopicShare {
			continue
		}
		for x := range ids {
			for y := x + 1; y < len(ids); y++ {
				a, b := ms[ids[x]], ms[ids[y]]
				k := pairOf(a.path, b.path)
				if checked[k] || !a.changed && !b.changed {
					continue
				}
				checked[k] = true
				if _, ok := keep[k]; ok || supersedes(a, b) || supersedes(b, a) {
					continue
				}
				if reason, ok := contradiction(a, b); ok {
					keep[k] = memory.Flag{A: k[0], B: k[1], Reason: reason}
					p.fresh[k] = true
				}
			}
		}
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
