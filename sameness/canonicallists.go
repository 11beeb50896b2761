package sameness

import "github.com/vaultmem/vaultmem/text"

// A list written inline says what a bulleted list says: "We use Go, Rust
// and Python." is "We use:" and the items Go, Rust, Python, in any order.
// Only what is surely a list is read as one, since prose word order
// never changes: either single words (no stop word among them) joined by
// commas and a last "and" or "or", three or more, after a word that does
// not open the sentence or with two commas ("Go, Rust, and Python"), the
// last ending the sentence or followed by a comma or a stop word; or,
// after a colon, three or more items of any length to the end of the
// sentence, each a short phrase without stop words but articles
// ("Supported: Postgres 16, MySQL 8 and SQLite").

// maxInlineItems bounds the items of an inline list looked for, so that
// a long run of commas costs linear time.
const maxInlineItems = 64

// normalizeSentence is a sentence's unit: its tokens normalised, or the
// list it is.
func normalizeSentence(toks []cToken) cUnit {
	ts := normalizeNumbers(toks)
	if l := inlineList(ts); l != nil {
		return cUnit{list: l}
	}
	return cUnit{words: tokenTexts(ts)}
}

func tokenTexts(ts []cToken) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.s
	}
	return out
}

// inlineList returns the list a sentence is, nil when it is none.
func inlineList(ts []cToken) *cList {
	for c, t := range ts {
		if !isConjunction(t) || c < 2 || c+1 >= len(ts) || !isListWord(ts[c+1]) || !isListWord(ts[c-1]) || ts[c-1].colon {
			continue
		}
		commas, first := 0, c-1
		if ts[c-1].comma {
			commas++ // "Go, Rust, and Python"
		}
		for first > 0 && c-first < maxInlineItems && ts[first-1].comma && !ts[first-1].colon && isListWord(ts[first-1]) {
			first--
			commas++
		}
		if c-first+1 < 3 || commas < 2 && ts[first].initial || !endsItem(ts, c+2) ||
			first > 0 && ts[first-1].kind != wordTok && !ts[first-1].colon {
			continue // "Keep 3 apples, pears and plums": the 3 is the apples'
		}
		l := &cList{kind: listKindOf(t), lead: tokenTexts(ts[:first]), tail: tokenTexts(ts[c+2:])}
		for _, it := range append(ts[first:c:c], ts[c+1]) {
			l.items = append(l.items, cItem{units: []cUnit{{words: []string{it.s}}}})
		}
		return l
	}
	return colonList(ts)
}

// colonList returns the list after a sentence's last colon: items split
// at commas, the last two at "and" or "or".
func colonList(ts []cToken) *cList {
	p := -1
	for i, t := range ts {
		if t.colon {
			p = i
		}
	}
	if p < 0 || p+1 >= len(ts) {
		return nil
	}
	var segs [][]cToken
	start := p + 1
	for i := start; i < len(ts); i++ {
		if ts[i].comma || i == len(ts)-1 {
			segs = append(segs, ts[start:i+1])
			start = i + 1
		}
	}
	if len(segs) < 2 || len(segs) > maxInlineItems {
		return nil
	}
	last := segs[len(segs)-1]
	var conj cToken
	switch {
	case isConjunction(last[0]): // "..., and SQLite"
		conj, segs[len(segs)-1] = last[0], last[1:]
	default:
		for q, t := range last {
			if isConjunction(t) {
				conj = t
				segs = append(segs[:len(segs)-1], last[:q], last[q+1:])
				break
			}
		}
	}
	if conj.s == "" || len(segs) < 3 {
		return nil
	}
	l := &cList{kind: listKindOf(conj), lead: tokenTexts(ts[:p+1])}
	for _, seg := range segs {
		if len(seg) == 0 || len(seg) > maxItemWords {
			return nil
		}
		for _, t := range seg {
			if !isListWord(t) && !(t.kind == wordTok && (t.s == "the" || t.s == "a" || t.s == "an")) {
				return nil // "Rule: if the build fails, retry and alert" is a clause, not a list
			}
		}
		l.items = append(l.items, cItem{units: []cUnit{{words: tokenTexts(seg)}}})
	}
	return l
}

// endsItem reports whether the last item of an inline list ends before
// ts[i]: at the end of the sentence, at a comma, or before a stop word
// ("and Python for scripts"). A word that may belong to the item does
// not end it: "Go, Rust and Python 3" is not "Python, Rust and Go 3", nor
// "Go, Rust and Python scripts" "Python, Rust and Go scripts".
func endsItem(ts []cToken, i int) bool {
	return i >= len(ts) || ts[i-1].comma || ts[i].kind == wordTok && text.IsStopWord(ts[i].s)
}

func isConjunction(t cToken) bool { return t.kind == wordTok && (t.s == "and" || t.s == "or") }

func listKindOf(conj cToken) cListKind {
	if conj.s == "or" {
		return orList
	}
	return andList
}

// isListWord reports whether a token may be in an item of an inline
// list: not a stop word ("If so, tests and lint run" is no list), not a
// negation, not a question mark.
func isListWord(t cToken) bool {
	switch t.kind {
	case wordTok:
		return !text.IsStopWord(t.s) && !listNegations[t.s]
	case otherTok:
		return t.s != "?"
	}
	return true
}

// listNegations are the negations that are not stop words.
var listNegations = setOf("never without none nothing nobody nowhere neither")

// maxItemWords bounds the words of an item of a list after a colon: an
// item is a name or a short phrase ("Postgres 16"), not a clause.
const maxItemWords = 5
