package meaning

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/vaultmem/vaultmem/text"
)

// alignment is two texts' content words aligned by their longest common
// subsequence: what is left of each between two shared words is a
// stretch where they differ.
type alignment struct {
	a, b   alignedText
	hunks  []hunk
	tooBig bool
}

// alignedText is one text of an alignment.
type alignedText struct {
	toks     []token
	content  []int // indices into toks of the content words, in order
	partner  []int // by position in content: the other's content position it is aligned with, -1 for none
	sentence []int // by token: its sentence
	perSent  map[int]int
}

// hunk is a stretch of each text's content words (positions in content)
// between two aligned words.
type hunk struct{ a, b []int }

// newSide readies a text for alignment.
func newSide(ts []token) alignedText {
	s := alignedText{toks: ts, sentence: make([]int, len(ts)), perSent: map[int]int{}}
	sent := 0
	for i, t := range ts {
		if t.initial && i > 0 {
			sent++
		}
		s.sentence[i] = sent
		if isContent(ts, i) {
			s.content = append(s.content, i)
			s.perSent[sent]++
		}
	}
	return s
}

// key is what aligns: the canonical term (a synonym's first word).
func (s *alignedText) key(c int) string { return synonymOf(s.toks[s.content[c]].term) }

// align aligns the content words of a and b.
func align(a, b []token) *alignment {
	al := &alignment{a: newSide(a), b: newSide(b)}
	x, y := &al.a, &al.b
	pa, pb, tooBig := lcsPartners(len(x.content), len(y.content), func(i, j int) bool { return x.key(i) == y.key(j) })
	if tooBig {
		al.tooBig = true
		return al
	}
	x.partner, y.partner = pa, pb
	var h hunk
	flush := func() {
		if len(h.a)+len(h.b) > 0 {
			al.hunks = append(al.hunks, h)
		}
		h = hunk{}
	}
	for i, j := 0, 0; i < len(pa) || j < len(pb); {
		switch {
		case i < len(pa) && pa[i] == j:
			flush()
			i, j = i+1, j+1
		case i < len(pa) && pa[i] < 0:
			h.a = append(h.a, i)
			i++
		default:
			h.b = append(h.b, j)
			j++
		}
	}
	flush()
	return al
}

// lcsPartners aligns two sequences of n and m items, eq telling which
// are equal, by their longest common subsequence: the common start and
// end as they are, the rest by dynamic programming. It returns each
// item's partner in the other (-1 for none), or tooBig when the middles'
// product passes maxAlign.
func lcsPartners(n, m int, eq func(i, j int) bool) (pa, pb []int, tooBig bool) {
	pa, pb = slices.Repeat([]int{-1}, n), slices.Repeat([]int{-1}, m)
	lo := 0
	for lo < n && lo < m && eq(lo, lo) {
		pa[lo], pb[lo] = lo, lo
		lo++
	}
	hiA, hiB := n, m
	for hiA > lo && hiB > lo && eq(hiA-1, hiB-1) {
		hiA, hiB = hiA-1, hiB-1
		pa[hiA], pb[hiB] = hiB, hiA
	}
	n2, m2 := hiA-lo, hiB-lo
	if n2*m2 > maxAlign {
		return nil, nil, true
	}
	// lcs[i][j] is the LCS of the middles from i and j on.
	w := m2 + 1
	lcs := make([]int32, (n2+1)*w)
	for i := n2 - 1; i >= 0; i-- {
		for j := m2 - 1; j >= 0; j-- {
			if eq(lo+i, lo+j) {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	for i, j := 0, 0; i < n2 || j < m2; {
		switch {
		case i < n2 && j < m2 && eq(lo+i, lo+j):
			pa[lo+i], pb[lo+j] = lo+j, lo+i
			i, j = i+1, j+1
		case j == m2 || i < n2 && lcs[(i+1)*w+j] >= lcs[i*w+j+1]:
			i++
		default:
			j++
		}
	}
	return pa, pb, false
}

// replaced returns the first stretch where each text has content words of
// its own inside a sentence both share: unless one side of it is whole
// sentences (that text adds sentences of its own, the other words of its
// own: detail, which a merge keeps) or the two are synonyms.
func (al *alignment) replaced() (Difference, bool) {
	if al.tooBig {
		return Difference{Kind: "word", A: "(too long to align)", B: "(too long to align)"}, true
	}
	for _, h := range al.hunks {
		if len(h.a) == 0 || len(h.b) == 0 || al.a.whole(h.a) || al.b.whole(h.b) {
			continue
		}
		if slices.Equal(canonical(al.a.terms(h.a)), canonical(al.b.terms(h.b))) {
			continue
		}
		return Difference{Kind: "word", A: al.a.shown(h.a), B: al.b.shown(h.b)}, true
	}
	return Difference{}, false
}

// added reports whether either text has content words the other lacks.
func (al *alignment) added() bool {
	return al.tooBig || len(al.hunks) > 0
}

// negated returns the first negation one text has that the other lacks:
// a sentence with more negations of aligned words than the sentence of
// the other text holding their partners ("Run the tests" and "Never run
// the tests"; where in its sentence each puts it does not matter). A
// negation bears on the next content word in its sentence (the one
// before it when none follows); one that bears on words only its text has
// is part of what that text adds, not a flip.
func (al *alignment) negated() (Difference, bool) {
	for _, sides := range [2][2]*alignedText{{&al.a, &al.b}, {&al.b, &al.a}} {
		x, y := sides[0], sides[1]
		for k := range x.toks {
			if !isNegation(x.toks, k) {
				continue
			}
			c := x.near(k)
			if c < 0 || x.partner[c] < 0 {
				continue
			}
			if x.negations(x.sentence[k]) > y.negations(y.sentence[y.content[x.partner[c]]]) {
				d := Difference{Kind: "negation", A: x.toks[k].raw}
				if x == &al.b {
					d.A, d.B = "", x.toks[k].raw
				}
				return d, true
			}
		}
	}
	return Difference{}, false
}

// near returns the content word (its position in content) a negation at
// token k bears on: the next one in its sentence, else the one before it;
// -1 when its sentence has none.
func (s *alignedText) near(k int) int {
	prev := -1
	for ci, ti := range s.content {
		switch {
		case s.sentence[ti] != s.sentence[k]:
			if ti > k {
				return prev
			}
		case ti > k:
			return ci
		default:
			prev = ci
		}
	}
	return prev
}

// negations counts the negations of sentence sent that bear on aligned
// words.
func (s *alignedText) negations(sent int) int {
	n := 0
	for k, t := range s.sentence {
		if t == sent && isNegation(s.toks, k) {
			if c := s.near(k); c >= 0 && s.partner[c] >= 0 {
				n++
			}
		}
	}
	return n
}

// whole reports whether the content words at positions cs make up whole
// sentences of the text.
func (s *alignedText) whole(cs []int) bool {
	n := map[int]int{}
	for _, c := range cs {
		n[s.sentence[s.content[c]]]++
	}
	for sent, k := range n {
		if s.perSent[sent] != k {
			return false
		}
	}
	return true
}

// terms are the terms of the content words at positions cs.
func (s *alignedText) terms(cs []int) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = s.toks[s.content[c]].term
	}
	return out
}

// shown is the content words at positions cs as written.
func (s *alignedText) shown(cs []int) string {
	var b strings.Builder
	for i, c := range cs {
		t := s.toks[s.content[c]]
		if i > 0 && !(t.cjk && s.toks[s.content[cs[i-1]]].cjk) {
			b.WriteByte(' ')
		}
		b.WriteString(t.raw)
	}
	return b.String()
}

// isContent reports whether ts[i] carries content: not a stop word, a
// number (compared as a fact), a negation or a word completing one
// (compared by negated), an operator (compared by alignedOpposite), a
// Chinese function character, Japanese kana written in hiragana (endings
// and particles: 使います and 使いません share 使), nor "always" (a rule
// says it either way).
func isContent(ts []token, i int) bool {
	t := ts[i]
	switch {
	case t.number, t.lower == "always", operators[t.lower] != "", isNegationCompanion(ts, i):
		return false
	case t.cjk:
		r, _ := utf8.DecodeRuneInString(t.lower)
		return !strings.Contains(cjkFunction+cjkNegations, t.lower) && !unicode.Is(unicode.Hiragana, r)
	}
	w := strings.ReplaceAll(t.lower, "'", "")
	return !text.IsStopWord(w) && !negationWords[w] && !strings.HasSuffix(t.lower, "n't")
}

// canonical maps terms through the synonyms, joining CJK characters into
// one word first (synonyms there are words of several characters).
func canonical(terms []string) []string {
	var out []string
	var run strings.Builder
	flush := func() {
		if run.Len() > 0 {
			out = append(out, synonymOf(run.String()))
			run.Reset()
		}
	}
	for _, t := range terms {
		if text.HasCJK(t) {
			run.WriteString(t)
			continue
		}
		flush()
		out = append(out, synonymOf(t))
	}
	flush()
	return out
}

func synonymOf(t string) string {
	if s, ok := synonyms()[t]; ok {
		return s
	}
	return t
}
