package meaning

import (
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/vaultmem/vaultmem/text"
)

// facts are what two texts must hold alike to say the same thing.
type facts struct {
	numbers, dates, units, names []string // sorted, repeats kept
	restrictions                 []string
	// opposites are the words (of the words compared, not of all the
	// text: see Differ) that have an opposite, each with its side.
	opposites map[string]side
	words     map[string]bool // every token's lower form, term and synonym
	// roles are the words given each direction ("from" in "from MySQL",
	// "over" in "tabs over spaces", "to" in "to Postgres"), by term.
	roles map[string][]string
	// initials are the first letters of the words, for acronyms.
	initials string
}

// factsOf gathers the facts of a tokenized text.
func factsOf(ts []token) facts {
	f := facts{words: map[string]bool{}, roles: map[string][]string{}}
	var initials strings.Builder
	for i, t := range ts {
		f.words[t.lower], f.words[t.term], f.words[synonymOf(t.term)] = true, true, true
		if r := roleOf(ts, i); r != "" && (t.number || isContent(ts, i)) {
			f.roles[r] = append(f.roles[r], synonymOf(t.term))
		}
		if !t.cjk && !t.number {
			initials.WriteByte(t.lower[0])
		}
		switch {
		case t.number && isDateLike(t.lower):
			f.dates = append(f.dates, t.lower)
		case t.number:
			f.numbers = append(f.numbers, t.lower)
			if i+1 < len(ts) && !ts[i+1].number {
				if u, ok := unitOf(ts[i+1]); ok {
					f.units = append(f.units, u)
				}
			}
		case calendarWords[t.lower] != "":
			f.dates = append(f.dates, calendarWords[t.lower])
		case t.lower == "may" && (i > 0 && ts[i-1].number || i+1 < len(ts) && ts[i+1].number):
			f.dates = append(f.dates, "may") // the month: "3 May", "May 3"
		case restrictingWords[t.lower] != "":
			f.restrictions = append(f.restrictions, restrictingWords[t.lower])
		case isName(t):
			f.names = append(f.names, t.lower)
		}
	}
	f.initials = initials.String()
	for _, l := range []*[]string{&f.numbers, &f.dates, &f.units, &f.names} {
		slices.Sort(*l)
	}
	return f
}

// oppositesOf returns the words of ts that have an opposite (see
// oppositeSides and cjkOpposites), each with its side.
func oppositesOf(ts []token) map[string]side {
	m := map[string]side{}
	for _, t := range ts {
		if s, ok := oppositeSides()[t.term]; ok && !t.cjk {
			m[t.term] = s
		}
	}
	for i, o := range cjkOpposites {
		for k, ws := range o {
			for _, w := range ws {
				if containsRunes(ts, w) {
					m[w] = side{"cjk" + strconv.Itoa(i), k}
				}
			}
		}
	}
	return m
}

// differ returns the first fact in which f and g differ.
func (f facts) differ(g facts) (Difference, bool) {
	for _, c := range []struct {
		kind string
		a, b []string
	}{{"date", f.dates, g.dates}, {"number", f.numbers, g.numbers}, {"unit", f.units, g.units}} {
		if a, b := onlyIn(c.a, c.b), onlyIn(c.b, c.a); a != "" && b != "" {
			return Difference{Kind: c.kind, A: a, B: b}, true
		}
	}
	if !slices.Equal(sortedCopy(f.restrictions), sortedCopy(g.restrictions)) {
		return Difference{Kind: "restriction", A: strings.Join(f.restrictions, " "), B: strings.Join(g.restrictions, " ")}, true
	}
	for _, r := range []string{"from", "over"} {
		fw, gw := f.roleWords(r, g), g.roleWords(r, f)
		if len(fw) > 0 && len(gw) > 0 && !slices.Equal(fw, gw) {
			return Difference{Kind: "word", A: r + " " + strings.Join(fw, " "), B: r + " " + strings.Join(gw, " ")}, true
		}
	}
	var fOnly, gOnly []string
	for _, n := range f.names {
		if !g.has(n) {
			fOnly = append(fOnly, n)
		}
	}
	for _, n := range g.names {
		if !f.has(n) {
			gOnly = append(gOnly, n)
		}
	}
	if len(fOnly) > 0 && len(gOnly) > 0 {
		return Difference{Kind: "name", A: strings.Join(fOnly, " "), B: strings.Join(gOnly, " ")}, true
	}
	return Difference{}, false
}

// has reports whether the text holds name w (lower-cased), a synonym of
// it, or the words it is an acronym of ("prs" for "pull requests").
func (f facts) has(w string) bool {
	if f.words[w] || f.words[synonymOf(text.Term(w))] {
		return true
	}
	acronym := strings.TrimSuffix(w, "s")
	return len(acronym) >= 2 && isASCIILetters(acronym) && strings.Contains(f.initials, acronym)
}

// isASCIILetters reports whether s is all lower-case ASCII letters (an
// acronym's letters, lower-cased).
func isASCIILetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

// roleWords are the words f gives role r that g also holds, sorted.
func (f facts) roleWords(r string, g facts) []string {
	var out []string
	for _, w := range f.roles[r] {
		if g.words[w] {
			out = append(out, w)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// onlyIn returns the items of a not in b (as multisets), joined.
func onlyIn(a, b []string) string {
	left := slices.Clone(b)
	var out []string
	for _, x := range a {
		if i := slices.Index(left, x); i >= 0 {
			left = slices.Delete(left, i, i+1)
		} else {
			out = append(out, x)
		}
	}
	return strings.Join(out, " ")
}

func sortedCopy(s []string) []string { return slices.Sorted(slices.Values(s)) }

// sortedMap iterates a map in key order, so that the difference reported
// is the same on every run.
func sortedMap(m map[string]side) func(func(string, side) bool) {
	return func(yield func(string, side) bool) {
		for _, k := range slices.Sorted(func(y func(string) bool) {
			for k := range m {
				if !y(k) {
					return
				}
			}
		}) {
			if !yield(k, m[k]) {
				return
			}
		}
	}
}

// roleOf returns the direction word before ts[i] (articles between them
// skipped), "" when there is none: "from", or "over" (to, into, than,
// versus: "tabs over spaces" and "tabs to spaces" say the same).
func roleOf(ts []token, i int) string {
	for k := i - 1; k >= 0 && k >= i-3; k-- {
		if r, ok := directionWords[ts[k].lower]; ok {
			return r
		}
		if !articles[ts[k].lower] {
			return ""
		}
	}
	return ""
}

// isDateLike reports whether a number's normal form is a date or a time:
// three parts ("2026-3-1", "3/1/2026") or a clock time ("10:30").
func isDateLike(n string) bool {
	return strings.Count(n, "-") == 2 || strings.Count(n, "/") == 2 || strings.Contains(n, ":")
}

// isName reports whether a word is a name: written with a capital where a
// sentence does not put one (not its first word; "Plan B"), or with inner
// capitals or all in capitals ("MySQL", "iOS", "AWS").
func isName(t token) bool {
	if t.cjk || t.number {
		return false
	}
	if len(t.raw) == 1 { // "Plan B", not "I"
		return t.raw != "I" && unicode.IsUpper(rune(t.raw[0])) && !t.initial
	}
	rs := []rune(t.raw)
	inner := false
	for _, r := range rs[1:] {
		if unicode.IsUpper(r) {
			inner = true
		}
	}
	return inner || unicode.IsUpper(rs[0]) && !t.initial
}

// isNegation reports whether ts[i] negates: a negation word or
// contraction (English, German, Spanish, French), a Chinese negating
// character (not inside a word that only looks negative: 非常 is "very"),
// or Japanese ない and ません; never a word completing a negation before
// it (see isNegationCompanion).
func isNegation(ts []token, i int) bool {
	t := ts[i]
	if isNegationCompanion(ts, i) {
		return false
	}
	if t.cjk {
		prev, next := "", ""
		if i > 0 && ts[i-1].cjk {
			prev = ts[i-1].lower
		}
		if i+1 < len(ts) && ts[i+1].cjk {
			next = ts[i+1].lower
		}
		switch t.lower {
		case "な": // ない, なかった, なくて; not 少ない
			return (next == "い" || next == "か" || next == "く") && prev != "" && !strings.Contains(notJapaneseNegation, prev)
		case "せ": // ません
			return prev == "ま" && next == "ん"
		}
		return strings.Contains(cjkNegations, t.lower) && !notNegationAfter[t.lower+next]
	}
	return negationWords[t.lower] || strings.HasSuffix(t.lower, "n't") || negationWords[strings.ReplaceAll(t.lower, "'", "")]
}

// isNegationCompanion reports whether ts[i] completes a negation before
// it into one (see negationCompanions): neither a negation of its own
// nor a content word.
func isNegationCompanion(ts []token, i int) bool {
	t := ts[i]
	if t.cjk {
		prevs, ok := cjkNegationCompanions[t.lower]
		return ok && i > 0 && ts[i-1].cjk && strings.Contains(prevs, ts[i-1].lower)
	}
	if t.lower == "ya" {
		return i+1 < len(ts) && ts[i+1].lower == "no" && !ts[i+1].initial
	}
	prevs, ok := negationCompanions[t.lower]
	if !ok || i == 0 {
		return false
	}
	if farCompanions[t.lower] { // ne … pas, no … nunca: up to a few words apart, in one sentence
		for k := i - 1; k >= 0 && k >= i-4; k-- {
			if ts[k].lower == prevs {
				return true
			}
			if ts[k].initial {
				break
			}
		}
		return false
	}
	return !t.initial && slices.Contains(strings.Fields(prevs), ts[i-1].lower)
}

// unitOf returns a unit word's normal form ("secs" is "second").
func unitOf(t token) (string, bool) {
	if u, ok := unitWords[t.lower]; ok {
		return u, true
	}
	if t.cjk && strings.Contains(cjkUnits, t.lower) {
		return t.lower, true
	}
	return "", false
}

// containsRunes reports whether the CJK tokens of ts spell w in a row.
func containsRunes(ts []token, w string) bool {
	rs := []rune(w)
	for i := 0; i+len(rs) <= len(ts); i++ {
		match := true
		for k, r := range rs {
			if !ts[i+k].cjk || ts[i+k].lower != string(r) {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}
