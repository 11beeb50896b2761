package meaning

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/vaultmem/vaultmem/text"
)

// Two near-identical memories contradict each other when one has a
// word's opposite where the other has the word ("raise the limit" and
// "lower the limit", "in the repo" and "out of the repo", "部署前" and
// "部署后"), or when they give two words each other's place ("always
// pnpm, never npm" and "always npm, never pnpm"). Both are found on the
// texts' words aligned by their longest common subsequence, stop words
// included: "in" and "out" say nothing of a text's topic, but one in the
// place of the other turns the statement around.

// oppositeLines are the pairs of opposites, one group a line: the
// phrases of one side, "|", those of the other (a group of more sides has
// more bars: "this | next | last"). Words of one side are alike (begin,
// start). English words are matched by their text.Term, other words as
// written, CJK characters one by one; "_" joins the words of a phrase.
// A line starting with "@" counts only where the texts align (a stop
// word, or a word with other senses); the others also count anywhere in
// the texts (see facts.differ), as long as one text has only one side.
var oppositeLines = []string{
	// English.
	"before earlier | after later", "early | late", "true | false", "yes | no", "on | off",
	"enable enabled | disable disabled", "allow allowed permit permitted | deny denied forbid forbidden disallow block blocked prohibit prohibited",
	"safe | unsafe", "secure | insecure", "required mandatory | optional", "min minimum | max maximum",
	"more | less fewer", "most | least", "above over | below under", "higher high | lower low",
	"increase raise | decrease reduce", "first | last", "next | previous", "open opened | closed close",
	"public | private", "include included | exclude excluded", "success succeed succeeds pass passes passed | failure fail fails failed",
	"start starts begin | stop stops end ends finish", "local | remote", "sync synchronous | async asynchronous",
	"read | write", "input | output", "uppercase | lowercase", "ascending | descending", "valid | invalid",
	"correct | incorrect", "good | bad", "fast faster | slow slower", "same | different", "inside | outside",
	"internal | external", "old older | new newer", "accept accepted | reject rejected", "add added | remove removed delete deleted",
	"lock locked | unlock unlocked", "strict | lenient loose", "up | down", "client | server", "frontend | backend",
	"allowlist whitelist | denylist blocklist blacklist", "upstream | downstream", "inbound | outbound",
	"import | export", "push | pull", "encrypted | unencrypted plaintext", "all every each | some any few",
	"and | or", "always | sometimes usually often rarely seldom occasionally", "with | without", "from | to", "online | offline", "stable | unstable", "blocking | nonblocking",
	"better | worse", "best | worst", "greater larger bigger | smaller lesser", "upgrade upgraded | downgrade downgraded",
	"@raise raised | lower lowered", "@prior | after later", "@earliest | latest", "@grant granted | revoke revoked",
	"@started begin | stopped halt", "@fastest quicker | slowest", "@accept accepted | refuse refused decline declined",
	"@add added | drop dropped", "@shut | open opened", "@show shown | hide hidden", "@visible | invisible hidden",
	"@manual manually | automatic automatically", "@explicit explicitly | implicit implicitly",
	"@permanent permanently | temporary temporarily", "@like likes | dislike dislikes", "@ahead | behind", "@top | bottom",
	"@mutable | immutable", "@inclusive | exclusive", "@plus | minus moins",
	"@in within | out", "@into | out_of", "@up_to_date | out_of_date outdated", "@for | against",
	"@both | either", "@this | next | last", "@must | should",
	// Operators and signs (see markOperators).
	"@> | <", "@>= | <=", "@> | <=", "@>= | <", "@== | !=", "@+ | -",
	// German.
	"@mehr | weniger", "@vor vorher früher | nach nachher später", "@aktivieren aktiviert | deaktivieren deaktiviert",
	"@erlauben erlaubt | verbieten verboten", "@erhöhen erhöht | senken gesenkt verringern verringert",
	"@größer | kleiner", "@schneller | langsamer", "@besser | schlechter", "@einschalten eingeschaltet | ausschalten ausgeschaltet",
	// Spanish.
	"@más | menos", "@antes | después", "@aumenta aumentar aumentan aumentó | reduce reducir reducen redujo disminuye disminuir",
	"@activar activado activada activa | desactivar desactivado desactivada desactiva", "@habilitar habilitado | deshabilitar deshabilitado",
	"@permitir permite permitido | prohibir prohíbe prohibido", "@mayor | menor", "@mejor | peor",
	// French.
	"@avant | après", "@activer activé activée | désactiver désactivé désactivée",
	"@augmenter augmente | réduire réduit diminuer diminue", "@autoriser autorise autorisé | interdire interdit", "@meilleur mieux | pire",
	// Chinese and Japanese (cjkOpposites count anywhere).
	"@前 | 后 後", "@开启 启用 打开 | 关闭 禁用", "@可以 能够 | 不能 不可以 不可", "@更多 | 更少", "@更快 快 | 更慢 慢", "@更好 | 更差", "@接受 | 拒绝",
	"@包括 包含 | 排除", "@添加 | 删除 移除", "@提高 | 降低", "@开 | 关", "@是 | 否", "@有 | 无 無",
	"@有効 | 無効", "@増加 増やす 増え | 減少 減らす 減", "@許可 | 禁止", "@開始 | 終了 停止", "@上げ | 下げ", "@オン | オフ",
}

// operators are the symbols markOperators finds, by the word it writes
// for each: letters only, so that tokenize keeps them, and no word of
// any language.
var operators = map[string]string{
	"vmopgt": ">", "vmoplt": "<", "vmopge": ">=", "vmople": "<=", "vmopeq": "==", "vmopne": "!=",
	"vmopplus": "+", "vmopminus": "-",
}

// operatorWords are the words of operators, by symbol ("≥" is ">=").
var operatorWords = func() map[string]string {
	m := map[string]string{"≥": "vmopge", "≤": "vmople", "≠": "vmopne"}
	for w, op := range operators {
		m[op] = w
	}
	return m
}()

// phrase is one phrase of a group of opposites.
type phrase struct {
	group, side int
	units       []string // keys, as unitKey gives them
}

// phrases are the phrases of oppositeLines, by their first unit: made at
// first use, as it stems every word, which a command that compares no
// statements should not pay for at start.
var phrases = sync.OnceValue(func() map[string][]phrase {
	m := map[string][]phrase{}
	for g, line := range oppositeLines {
		for s, ws := range strings.Split(strings.TrimPrefix(line, "@"), "|") {
			for _, w := range strings.Fields(ws) {
				p := phrase{group: g, side: s}
				if word, ok := operatorWords[w]; ok {
					p.units = []string{text.Term(word)}
				} else if text.HasCJK(w) {
					for _, r := range w {
						p.units = append(p.units, string(r))
					}
				} else {
					for _, u := range strings.Split(w, "_") {
						p.units = append(p.units, text.Term(u))
					}
				}
				m[p.units[0]] = append(m[p.units[0]], p)
			}
		}
	}
	return m
})

// oppositeSides are the English words of the lines of oppositeLines
// that count anywhere, by text.Term: a word standing where the other text has
// its opposite turns the statement around. Made at first use, as phrases.
var oppositeSides = sync.OnceValue(func() map[string]side {
	m := map[string]side{}
	for g, line := range oppositeLines {
		if strings.HasPrefix(line, "@") {
			continue
		}
		for s, ws := range strings.Split(line, "|") {
			for _, w := range strings.Fields(ws) {
				m[text.Term(w)] = side{strconv.Itoa(g), s}
			}
		}
	}
	return m
})

// unitKey is what a token is matched by against the phrases: a CJK
// character as written, a word by its text.Term.
func unitKey(t token) string {
	if t.cjk {
		return t.lower
	}
	return t.term
}

// occurrence is a phrase found in a text: tokens [start, end).
type occurrence struct {
	phrase
	start, end int
}

// occurrencesOf finds the phrases of oppositeLines in ts, and the words
// of quantity (see quantityOf) as phrases of group -1, their value the
// side.
func occurrencesOf(ts []token) []occurrence {
	var out []occurrence
	for i, t := range ts {
		if v, ok := quantityOf(t); ok {
			out = append(out, occurrence{phrase{group: -1, side: v}, i, i + 1})
		}
		for _, p := range phrases()[unitKey(t)] {
			if i+len(p.units) > len(ts) {
				continue
			}
			match := true
			for k, u := range p.units[1:] {
				if unitKey(ts[i+1+k]) != u {
					match = false
					break
				}
			}
			// A negation word ("without", "no") is counted as one (see
			// alignedOpposite); 无 stands for 有's opposite.
			if match && !(len(p.units) == 1 && !t.cjk && isNegation(ts, i)) {
				out = append(out, occurrence{p, i, i + len(p.units)})
			}
		}
	}
	return out
}

// quantityWords are words of quantity that are no number word: "a
// single" and "two", "once" and "twice" say different amounts.
var quantityWords = map[string]int{"single": 1, "couple": 2, "once": 1, "twice": 2, "thrice": 3}

// quantityOf returns the whole number a token stands for: a number, or a
// word of quantityWords.
func quantityOf(t token) (int, bool) {
	if t.number {
		n, err := strconv.Atoi(t.lower)
		return n, err == nil
	}
	n, ok := quantityWords[t.lower]
	return n, ok
}

// tokenSide is a text's tokens aligned with another's, for finding
// opposites.
type tokenSide struct {
	toks     []token
	occ      []occurrence
	partner  []int // by token: the other's token it is aligned with, -1 for none
	hunk     []int // by token: the number of aligned tokens before it
	sentence []int // by token: its sentence
}

// alignTokens aligns every token of a and b (stop words too) by their
// longest common subsequence; false when the texts are too long to.
func alignTokens(a, b *Meaning) (x, y tokenSide, ok bool) {
	ka, kb := make([]string, len(a.words)), make([]string, len(b.words))
	for i, t := range a.words {
		ka[i] = synonymOf(unitKey(t))
	}
	for i, t := range b.words {
		kb[i] = synonymOf(unitKey(t))
	}
	pa, pb, tooBig := lcsPartners(len(ka), len(kb), func(i, j int) bool { return ka[i] == kb[j] })
	if tooBig {
		return x, y, false
	}
	return newTokenSide(a, pa), newTokenSide(b, pb), true
}

func newTokenSide(m *Meaning, partner []int) tokenSide {
	s := tokenSide{toks: m.words, occ: m.occ, partner: partner, hunk: make([]int, len(m.words)), sentence: make([]int, len(m.words))}
	aligned, sent := 0, 0
	for i, t := range m.words {
		if t.initial && i > 0 {
			sent++
		}
		s.sentence[i], s.hunk[i] = sent, aligned
		if partner[i] >= 0 {
			aligned++
		}
	}
	return s
}

// hunkOf returns the hunk an occurrence stands in (-1 when all of it is
// aligned: both texts have it).
func (s *tokenSide) hunkOf(o occurrence) int {
	for i := o.start; i < o.end; i++ {
		if s.partner[i] < 0 {
			return s.hunk[i]
		}
	}
	return -1
}

// leftover counts the content words of hunk h outside occurrence o, in
// its sentence (a heading before it is another).
func (s *tokenSide) leftover(h int, o occurrence) int {
	n := 0
	for i := range s.toks {
		if s.partner[i] < 0 && s.hunk[i] == h && s.sentence[i] == s.sentence[o.start] && (i < o.start || i >= o.end) && isContent(s.toks, i) {
			n++
		}
	}
	return n
}

// hasSide reports whether hunk h holds a phrase of side side of group g.
func (s *tokenSide) hasSide(h, g, side int) bool {
	for _, o := range s.occ {
		if o.group == g && o.side == side && s.hunkOf(o) == h {
			return true
		}
	}
	return false
}

// negations counts the negations of sentence sent outside the phrases
// found opposite (不能 is the opposite of 可以, not one more negation).
func (s *tokenSide) negations(sent int, outside []occurrence) int {
	n := 0
	for i := range s.toks {
		if s.sentence[i] == sent && isNegation(s.toks, i) &&
			!slices.ContainsFunc(outside, func(o occurrence) bool { return i >= o.start && i < o.end }) {
			n++
		}
	}
	return n
}

// shown is the tokens [start, end) as written.
func (s *tokenSide) shown(start, end int) string {
	var b strings.Builder
	for i := start; i < end; i++ {
		t := s.toks[i]
		if i > start && !(t.cjk && s.toks[i-1].cjk) {
			b.WriteByte(' ')
		}
		if op, ok := operators[t.lower]; ok {
			b.WriteString(op)
		} else {
			b.WriteString(t.raw)
		}
	}
	return b.String()
}

// maxLeftover is how many content words a text may have of its own
// beside an opposite where the texts differ: more, and the two say
// different things rather than the one the reverse of the other ("test
// before merging" and "clean up the branches after merging").
const maxLeftover = 1

// alignedOpposite returns the first place where one text has a phrase
// and the other its opposite (or another quantity: "once" and "twice"),
// in the same stretch of the aligned texts with at most maxLeftover other
// content words each, in a sentence the negations do not turn back: one
// more negation in one of them ("allowed" and "not denied" say the same,
// "faster with the cache" and "slower without it" too). Several such
// places in a sentence turn it once ("add it to" and "remove it from").
// Longer phrases come first ("up to date" and "out of date", not "up"
// and "out").
func alignedOpposite(x, y *tokenSide) (Difference, bool) {
	type found struct{ a, b occurrence }
	var all []found
	for _, oa := range x.occ {
		h := x.hunkOf(oa)
		if h < 0 {
			continue
		}
		for _, ob := range y.occ {
			if ob.group != oa.group || ob.side == oa.side || y.hunkOf(ob) != h {
				continue
			}
			if oa.group < 0 && x.toks[oa.start].number && y.toks[ob.start].number {
				continue // two numbers: a number difference (see facts)
			}
			if oa.group >= 0 && (y.hasSide(h, oa.group, oa.side) || x.hasSide(h, ob.group, ob.side)) {
				continue
			}
			if x.leftover(h, oa) > maxLeftover || y.leftover(h, ob) > maxLeftover {
				continue
			}
			all = append(all, found{oa, ob})
		}
	}
	// The sentences of a, in order, each with the places found in it.
	bySentence := map[int][]found{}
	var sentences []int
	for _, f := range all {
		s := x.sentence[f.a.start]
		if bySentence[s] == nil {
			sentences = append(sentences, s)
		}
		bySentence[s] = append(bySentence[s], f)
	}
	slices.Sort(sentences)
	for _, s := range sentences {
		fs := bySentence[s]
		var inA, inB []occurrence
		for _, f := range fs {
			inA, inB = append(inA, f.a), append(inB, f.b)
		}
		turns := 1 + abs(x.negations(s, inA)-y.negations(y.sentence[fs[0].b.start], inB))
		if turns%2 == 0 {
			continue
		}
		f := slices.MaxFunc(fs, func(p, q found) int {
			lp, lq := p.a.end-p.a.start+p.b.end-p.b.start, q.a.end-q.a.start+q.b.end-q.b.start
			if lp != lq {
				return lp - lq
			}
			return q.a.start - p.a.start // the first, of the longest
		})
		return Difference{Kind: "opposite", A: x.shown(f.a.start, f.a.end), B: y.shown(f.b.start, f.b.end), Opposite: true}, true
	}
	return Difference{}, false
}

func abs(n int) int { return max(n, -n) }

// coordinators join words whose order does not matter ("pnpm and npm").
var coordinators = wordSet("and or nor & und oder y o e et ou 和 与 與 或 及 跟 、")

// swapped returns two words the texts give each other's place: each
// found once in each text, where the one's neighbours in a are the
// other's in b, and the other way round ("always pnpm, never npm" and
// "always npm, never pnpm"; "from MySQL to Postgres" and "from Postgres
// to MySQL"). Words joined by no more than "and" or "or" are a list,
// whose order says nothing.
func swapped(a, b []token) (Difference, bool) {
	type context struct{ prev, next string }
	once := func(ts []token) (map[string]int, map[context]string, map[string]context) {
		at, byCtx, ctx := map[string]int{}, map[context]string{}, map[string]context{}
		n := map[string]int{}
		for i, t := range ts {
			if !t.number && !isContent(ts, i) {
				continue
			}
			k := synonymOf(unitKey(t))
			n[k]++
			at[k] = i
			c := context{"^", "$"}
			if i > 0 && !t.initial {
				c.prev = synonymOf(unitKey(ts[i-1]))
			}
			if i+1 < len(ts) && !ts[i+1].initial {
				c.next = synonymOf(unitKey(ts[i+1]))
			}
			ctx[k] = c
		}
		for k, c := range n {
			if c > 1 {
				delete(at, k)
				delete(ctx, k)
			}
		}
		seen := map[context]int{}
		for _, c := range ctx {
			seen[c]++
		}
		for k, c := range ctx {
			if seen[c] == 1 {
				byCtx[c] = k
			}
		}
		return at, byCtx, ctx
	}
	atA, byCtxA, ctxA := once(a)
	atB, _, ctxB := once(b)
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range atA {
			if !yield(k) {
				return
			}
		}
	})
	for _, x := range keys {
		cb, ok := ctxB[x]
		if !ok || cb == ctxA[x] {
			continue
		}
		y, ok := byCtxA[cb]
		if !ok || y == x || ctxB[y] != ctxA[x] {
			continue
		}
		if _, ok := atB[y]; !ok {
			continue
		}
		i, j := min(atA[x], atA[y]), max(atA[x], atA[y])
		list := true
		for k := i + 1; k < j; k++ {
			if !coordinators[a[k].lower] {
				list = false
			}
		}
		if list {
			continue
		}
		first, second := a[i].raw, a[j].raw
		return Difference{Kind: "swap", A: fmt.Sprintf("%s … %s", first, second), B: fmt.Sprintf("%s … %s", second, first), Opposite: true}, true
	}
	return Difference{}, false
}

// opposed reports whether the words of m and o contradict each other: a
// phrase against its opposite where they align, or two words swapped
// (see alignedOpposite and swapped). The texts are taken in one order
// whichever comes first (see before), so that the answer does not depend
// on it: their alignment might.
func opposed(m, o *Meaning) (Difference, bool) {
	flip := before(o.words, m.words)
	if flip {
		m, o = o, m
	}
	d, ok := Difference{}, false
	if len(m.occ) > 0 && len(o.occ) > 0 {
		if x, y, aligned := alignTokens(m, o); aligned {
			d, ok = alignedOpposite(&x, &y)
		}
	}
	if !ok {
		d, ok = swapped(m.words, o.words)
	}
	if ok && flip {
		d.A, d.B = d.B, d.A
	}
	return d, ok
}

// before orders texts: the shorter first, then by their words.
func before(a, b []token) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	for i := range a {
		if ka, kb := unitKey(a[i]), unitKey(b[i]); ka != kb {
			return ka < kb
		}
	}
	return false
}

// minAlike is the least Jaccard index of two texts' content words, those
// of an opposite left out, for the opposite to count anywhere in them:
// "Before merging, run the tests" and "Run the tests after merging" say
// the reverse; "Test before merging" and "Clean up the old branches
// after merging" say two things.
const minAlike = 0.5

// anywhereOpposite returns a word of m and its opposite in o, wherever
// they stand (see oppositeSides and cjkOpposites), when neither text has
// the other's word, the rest of their content words are alike (see
// minAlike), and their negations do not turn it back (an odd number more
// in one: "allowed" and "not forbidden").
func anywhereOpposite(m, o *Meaning) (Difference, bool) {
	if abs(m.negations-o.negations)%2 != 0 {
		return Difference{}, false
	}
	f, g := m.facts.opposites, o.facts.opposites
	for w, s := range sortedMap(f) {
		if _, ok := g[w]; ok {
			continue
		}
		for v, t := range sortedMap(g) {
			if t.pair != s.pair || t.side == s.side {
				continue
			}
			if _, ok := f[v]; ok {
				continue
			}
			if jaccard(contentBut(m.words, w), contentBut(o.words, v)) >= minAlike {
				return Difference{Kind: "opposite", A: written(m.words, w), B: written(o.words, v), Opposite: true}, true
			}
		}
	}
	return Difference{}, false
}

// contentBut returns the content words of ts (by synonym), but for
// word w (a text.Term, or CJK characters).
func contentBut(ts []token, w string) map[string]bool {
	out := map[string]bool{}
	for i, t := range ts {
		if !isContent(ts, i) || t.term == w || t.cjk && strings.Contains(w, t.lower) {
			continue
		}
		out[synonymOf(unitKey(t))] = true
	}
	return out
}

// written returns word w (a text.Term, or CJK characters) as ts writes it.
func written(ts []token, w string) string {
	for _, t := range ts {
		if !t.cjk && t.term == w {
			return t.raw
		}
	}
	return w
}

// jaccard is the Jaccard index of two sets (1 when both are empty).
func jaccard(a, b map[string]bool) float64 {
	both := 0
	for w := range a {
		if b[w] {
			both++
		}
	}
	if n := len(a) + len(b) - both; n > 0 {
		return float64(both) / float64(n)
	}
	return 1
}

// markOperators writes the comparison operators of s (>, <, >=, <=, ==,
// !=, ≥, ≤, ≠) and the operators and signs + and - as words (see
// operators), which tokenize would drop: "x > 5" and "x < 5" differ.
// An operator stands alone (">>", "->" and "=>" are none) with an operand
// or a space on each side, not first on its line (a quote's ">"), not
// closing a tag ("<br>"); + and - are operators between spaces ("a - b")
// or signs before a digit after a space ("-5", not "2026-03" nor
// "well-known").
func markOperators(s string) string {
	if !strings.ContainsAny(s, "<>=!+-≥≤≠") {
		return s
	}
	rs := []rune(s)
	var b strings.Builder
	for i := 0; i < len(rs); {
		j := i
		for j < len(rs) && strings.ContainsRune("<>=!+-≥≤≠", rs[j]) {
			j++
		}
		if j == i {
			b.WriteRune(rs[i])
			i++
			continue
		}
		op := string(rs[i:j])
		if w, ok := operatorWords[op]; ok && isOperatorAt(rs, i, j, op) {
			b.WriteString(" " + w + " ")
		} else {
			b.WriteString(op)
		}
		i = j
	}
	return b.String()
}

// isOperatorAt reports whether op, rs[i:j], is an operator or a sign
// (see markOperators).
func isOperatorAt(rs []rune, i, j int, op string) bool {
	var before, after rune = '\n', '\n'
	if i > 0 {
		before = rs[i-1]
	}
	if j < len(rs) {
		after = rs[j]
	}
	space := func(r rune) bool { return r == ' ' || r == '\t' }
	operand := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == ')' || r == '(' }
	// The nearest runes on either side that are not spaces.
	k := i - 1
	for k >= 0 && space(rs[k]) {
		k--
	}
	l := j
	for l < len(rs) && space(rs[l]) {
		l++
	}
	if k < 0 || rs[k] == '\n' || l >= len(rs) || rs[l] == '\n' {
		return false // first or last on its line: a quote, a bullet, a rule
	}
	if op == "+" || op == "-" {
		switch {
		case space(before) && space(after):
			return operand(rs[k]) && operand(rs[l])
		case unicode.IsDigit(after):
			return space(before) || before == '(' || before == '='
		}
		return false
	}
	if !(space(before) || operand(before)) || !(space(after) || operand(after) || after == '-') {
		return false
	}
	// A tag: "<br>", "</b>".
	if op == "<" {
		m := j
		for m < len(rs) && (unicode.IsLetter(rs[m]) || rs[m] == '/') {
			m++
		}
		if m > j && m < len(rs) && rs[m] == '>' {
			return false
		}
	}
	if op == ">" {
		for m := i - 1; m >= 0 && (unicode.IsLetter(rs[m]) || rs[m] == '/'); m-- {
			if m > 0 && rs[m-1] == '<' {
				return false
			}
		}
	}
	return operand(rs[k]) && operand(rs[l]) || unicode.IsDigit(rs[l])
}

// expandElisions writes French elisions as their words ("n'utilisez" is
// "ne utilisez", "l'API" "le API"), so that "ne … pas" is found and the
// word after the apostrophe aligns: a letter (or "qu") opening a word,
// an apostrophe, and a letter.
func expandElisions(s string) string {
	if !strings.ContainsAny(s, "'’") {
		return s
	}
	rs := []rune(s)
	var b strings.Builder
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if (r == '\'' || r == '’') && i > 0 && i+1 < len(rs) && unicode.IsLetter(rs[i+1]) {
			start := i - 1
			if start > 0 && unicode.IsLetter(rs[start-1]) {
				start--
			}
			opens := start == 0 || !unicode.IsLetter(rs[start-1])
			if w := strings.ToLower(string(rs[start:i])); opens && elided[w] {
				b.WriteString("e ")
				continue
			}
		}
		b.WriteRune(r)
	}
	return b.String()
}

// elided are the French words written without their vowel before one
// ("qu" is "que").
var elided = wordSet("n j l d c s m t qu")
