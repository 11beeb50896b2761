package sameness

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/vaultmem/vaultmem/text"
)

// cTokKind is what a token of the normal form is.
type cTokKind int

const (
	wordTok  cTokKind = iota // a prose word (letters), case folded unless it is a name (see wordForm)
	numTok                   // a number: its digits, thousands separators dropped
	ordTok                   // an ordinal: 1st, 2nd
	cjkTok                   // one CJK character
	otherTok                 // anything else, compared as written: identifiers, paths, symbols, code, URLs
	madeTok                  // a token made by a normalisation: \date:2026-03-01, \dur:30s
)

// cToken is one token of a sentence.
type cToken struct {
	s       string // the normal form, escaped
	raw     string // as written (for a unit, a number after "version")
	kind    cTokKind
	comma   bool // a comma follows it
	colon   bool // a colon follows it
	initial bool // it opens a sentence
	spaced  bool // one space or no-break space before it, within a line ("1 000")
}

// cSentence is a sentence's tokens, and whether a colon ends it.
type cSentence struct {
	toks  []cToken
	colon bool
}

// cSentenceUnit is a unit made of one sentence, and whether a colon ended
// it (it may lead into a list).
type cSentenceUnit struct {
	u     cUnit
	colon bool
}

// paragraphUnits cuts a paragraph's (or heading's) text into sentences,
// normalises each and returns them as units.
func paragraphUnits(text string) []cSentenceUnit {
	var b cSentenceBuilder
	var chunk strings.Builder
	one := "" // the chunk while it is one piece, copied into chunk only when a second comes
	afterSpace, spaced := true, false
	write := func(s string) {
		switch {
		case one == "" && chunk.Len() == 0:
			one = s
		case chunk.Len() == 0:
			chunk.WriteString(one)
			fallthrough
		default:
			chunk.WriteString(s)
		}
	}
	flush := func() {
		c := one
		if chunk.Len() > 0 {
			c = chunk.String()
			chunk.Reset()
		}
		if c != "" {
			b.chunk(c, afterSpace, spaced)
			one, afterSpace, spaced = "", false, false
		}
	}
	for _, p := range lexInline(text) {
		switch p.kind {
		case textPiece:
			write(p.s)
		case delimPiece:
			if !p.removed {
				write(p.s)
			}
		case spacePiece:
			flush()
			afterSpace, spaced = true, p.nonBreak && !p.newline
		case codePiece:
			flush()
			b.add(cToken{s: "`" + escToken(p.s) + "`", raw: p.s, kind: otherTok})
			afterSpace, spaced = false, false
		case linkPiece:
			flush()
			b.add(cToken{s: escToken(p.s), raw: p.s, kind: otherTok})
			afterSpace, spaced = false, false
		}
	}
	flush()
	b.end()
	out := make([]cSentenceUnit, 0, len(b.done))
	for _, s := range b.done {
		out = append(out, cSentenceUnit{u: normalizeSentence(s.toks), colon: s.colon})
	}
	return out
}

// cSentenceBuilder gathers tokens into sentences.
type cSentenceBuilder struct {
	cur  []cToken
	done []cSentence
}

func (b *cSentenceBuilder) add(t cToken) {
	t.initial = len(b.cur) == 0
	if b.cur == nil {
		b.cur = make([]cToken, 0, 16)
	}
	b.cur = append(b.cur, t)
}

func (b *cSentenceBuilder) end() {
	if len(b.cur) > 0 {
		b.done = append(b.done, cSentence{toks: b.cur, colon: b.cur[len(b.cur)-1].colon})
		b.cur = nil
	}
}

// chunk adds a run of text between spaces: its tokens, then what its
// punctuation says (a comma or colon after the last token, the end of a
// sentence, a question).
func (b *cSentenceBuilder) chunk(c string, afterSpace, spaced bool) {
	c = strings.ReplaceAll(c, "’", "'")
	if !text.HasCJK(c) {
		b.plain(c, afterSpace, spaced)
		return
	}
	rs := []rune(c)
	for i := 0; i < len(rs); {
		j := i
		cjk := isCharWord(rs[i])
		for j < len(rs) && isCharWord(rs[j]) == cjk {
			j++
		}
		if cjk {
			for _, t := range cjkTokens(rs[i:j]) {
				b.add(t)
			}
		} else {
			b.plain(string(rs[i:j]), i == 0 && afterSpace, i == 0 && spaced)
		}
		i = j
	}
}

// isCharWord reports whether r is a word of its own: Chinese and
// Japanese, written without spaces, are compared character by character,
// so that "部署 前" is "部署前". Korean puts spaces between its words, and
// they count ("아버지가 방에" is not "아버지 가방에"): Hangul is read as
// letters.
func isCharWord(r rune) bool { return text.IsCJK(r) && !unicode.Is(unicode.Hangul, r) }

// plain adds a chunk of text without Chinese or Japanese characters.
func (b *cSentenceBuilder) plain(c string, afterSpace, spaced bool) {
	core, p := stripEdges(c)
	if core == "." && !afterSpace {
		core, p.end = "", true // "`pnpm`." ends the sentence after the code
	}
	ts, n := classify(core, len(b.cur) == 0)
	for k, t := range ts[:n] {
		if k == 0 {
			t.spaced = spaced
		}
		b.add(t)
	}
	if n := len(b.cur); n > 0 {
		last := &b.cur[n-1]
		last.comma = last.comma || p.comma
		last.colon = last.colon || p.colon
		if p.question {
			b.add(cToken{s: "?", raw: "?", kind: otherTok})
		}
	}
	if p.end && !(p.dot && isAbbreviation(core)) || p.question {
		b.end()
	}
}

// cPunct is what the punctuation stripped from a chunk's ends says.
type cPunct struct {
	comma, colon, end, question bool
	dot                         bool // the end is a full stop (not after an abbreviation)
}

// Punctuation stripped from a token's ends (dashes too: "tabs — not
// spaces" is "tabs, not spaces"). Symbols that carry meaning
// ($ € £ + - ~ ^ > < = ! / . @ # %) stay inside and in front of a token;
// at its end a full stop, "!" and "?" are the end of a sentence.
const (
	leadingPunct  = "\"'“‘«„¿¡「『《（【〈—–"
	trailingPunct = ",;:!?\"'”’»…，、。！？；：」』》）】〉—–"
)

// stripEdges strips the punctuation from a chunk's ends, returning its
// core and what the punctuation said. Brackets are stripped only when
// the core does not hold their other half ("f(x)" keeps them, "(see"
// loses it), and a "." only after a letter, digit or closing mark, so
// that "./", "..", "../.." stay as written.
func stripEdges(c string) (string, cPunct) {
	var p cPunct
	opens, closes := 0, 0
	if strings.ContainsAny(c, "()[]{}") {
		opens = strings.Count(c, "(") + strings.Count(c, "[") + strings.Count(c, "{")
		closes = strings.Count(c, ")") + strings.Count(c, "]") + strings.Count(c, "}")
	}
	for c != "" {
		r, n := utf8.DecodeLastRuneInString(c)
		rest := c[:len(c)-n]
		switch {
		case r == '.':
			prev, _ := utf8.DecodeLastRuneInString(rest)
			if rest == "" || prev == '.' || prev == '/' || prev == '\\' {
				return stripLeading(c, opens, closes, p)
			}
			p.end, p.dot = true, true
		case r == ')' || r == ']' || r == '}':
			if closes <= opens {
				return stripLeading(c, opens, closes, p)
			}
			closes--
		case strings.ContainsRune(trailingPunct, r):
			switch r {
			case ',', '，', '、':
				p.comma = true
			case ':', '：':
				p.colon = true
			case '?', '？':
				p.question = true
			case ';', '；', '!', '！', '。':
				p.end = true
			}
		default:
			return stripLeading(c, opens, closes, p)
		}
		c = rest
	}
	return "", p
}

// stripLeading strips the opening punctuation from a chunk's start, and
// the brackets around all of it ("(optional)").
func stripLeading(c string, opens, closes int, p cPunct) (string, cPunct) {
	for c != "" {
		r, n := utf8.DecodeRuneInString(c)
		switch {
		case strings.ContainsRune(leadingPunct, r):
		case (r == '(' || r == '[' || r == '{') && opens > closes:
			opens--
		default:
			for k := 0; k < 3 && len(c) >= 2 && (c[0] == '(' && c[len(c)-1] == ')' || c[0] == '[' && c[len(c)-1] == ']') &&
				bracketsBalanced(c[1:len(c)-1]); k++ {
				c = c[1 : len(c)-1]
			}
			return c, p
		}
		c = c[n:]
	}
	return "", p
}

// bracketsBalanced reports whether s closes every bracket it opens, in order.
func bracketsBalanced(s string) bool {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
			if depth < 0 {
				return false
			}
		}
	}
	return depth == 0
}

// abbreviations end in a full stop that does not end a sentence.
var abbreviations = setOf("etc vs cf approx incl dr mr mrs st jr sr fig jan feb mar apr jun jul aug sep sept oct nov dec")

// isAbbreviation reports whether a word before a full stop is an
// abbreviation: listed, one capital letter (an initial: "J. Smith"), or
// letters of one or two between full stops ("e.g", "i.e", "U.S").
func isAbbreviation(core string) bool {
	lower := strings.ToLower(core)
	if abbreviations[lower] || utf8.RuneCountInString(core) == 1 && unicode.IsUpper([]rune(core)[0]) {
		return true
	}
	if !strings.Contains(core, ".") {
		return false
	}
	for _, part := range strings.Split(lower, ".") {
		if len(part) == 0 || len(part) > 2 || !isASCIILetterRun(part) {
			return false
		}
	}
	return true
}

// cjkTokens are a run of CJK characters, one token each, but a Chinese
// numeral before a counter ("三天", "两周") is one number token: 三天 is
// 3天. A numeral before anything else stays as written (一部 is a part,
// not one copy).
func cjkTokens(rs []rune) []cToken {
	var out []cToken
	for i := 0; i < len(rs); {
		if n, j := text.ChineseNumber(rs, i); j > i {
			if j-i <= 8 && hasCounter(rs[j:]) {
				out = append(out, cToken{s: n, raw: string(rs[i:j]), kind: numTok})
				i = j
				continue
			}
			for ; i < j; i++ {
				out = append(out, cToken{s: string(rs[i]), raw: string(rs[i]), kind: cjkTok})
			}
			continue
		}
		out = append(out, cToken{s: string(rs[i]), raw: string(rs[i]), kind: cjkTok})
		i++
	}
	return out
}

// cjkCounters are the words that count what a Chinese numeral before
// them numbers.
var cjkCounters = strings.Fields("天 日 周 月 年 号 个 次 秒 分 小时 时 岁 倍 人 台 项 条 种 步 元 块 遍 位 名")

func hasCounter(rs []rune) bool {
	for _, c := range cjkCounters {
		if strings.HasPrefix(string(rs[:min(len(rs), 2)]), c) {
			return true
		}
	}
	return false
}
