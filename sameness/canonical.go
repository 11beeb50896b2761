package sameness

import (
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Dream merges two memories by itself only when it can show they say the
// same thing: their texts are equal once a fixed set of changes that keep
// a meaning are undone (Same), or every sentence of one is a sentence of
// the other (Contains). Everything else, however alike, is left to a
// person. The changes, each exact and listed in docs/merge-rules.md:
//
//  1. the case of prose words, never of code, identifiers, paths, URLs
//     or flags;
//  2. punctuation and whitespace between words (not the symbols inside
//     or on a token: "$", "!=", "./", "--force");
//  3. markdown emphasis, list markers, and the order of a list's items
//     (a bulleted list or an inline "x, y and z");
//  4. where sentences are split: "A. B." is "A; B." is two lines;
//  5. numbers in words or digits, with or without thousands separators,
//     "%" and "percent", by value but decimals as written;
//  6. a date in another format: 2026-03-01 is 1 March 2026;
//  7. a duration or size in another unit or spelling: 30s is 30 seconds,
//     2 min is 120 s, 2 GB is 2 gigabytes;
//  8. the equivalent terms of one table (equivalentTerms).
//
// The normal form is a sequence of units, one a line: a sentence, a list
// or a code block. Its tokens are escaped (escToken) so that no token holds a
// space, a line break or the backslash sequences that mark structure
// (\{ \| \} \[ \] \; and the prefixes of headings, quotes, code blocks and
// the tokens the normalisations make, such as \date:2026-03-01): two texts
// have one normal form only when their units and tokens are equal.

// Canonical returns s in its normal form: two texts with equal normal forms say the same thing.
// Bytes that are not UTF-8 are read as U+FFFD, so Same and Contains compare a text holding them
// only as written.
func Canonical(s string) string {
	return serialize(canonicalUnits(s))
}

// Same reports whether a and b are equal after the normalisations (Canonical(a) == Canonical(b)).
func Same(a, b string) bool {
	if a == b {
		return true
	}
	return utf8.ValidString(a) && utf8.ValidString(b) && Canonical(a) == Canonical(b)
}

// Contains reports whether every sentence of part, in normal form, is a sentence of whole in normal
// form (part says nothing whole does not). An empty part is contained in nothing (returns false).
//
// The sentences of a bulleted list or an inline "x, y and z" are its
// items, each with the words that lead into the list and those after it
// ("We use Go, Rust and Python." holds "We use Go."); an "or" list and a
// numbered list are one sentence each, since an item alone says another
// thing (one of them, or not in that order). A sentence under a heading
// is read with the heading (see sentencesOf).
func Contains(whole, part string) bool {
	if !utf8.ValidString(whole) || !utf8.ValidString(part) {
		return false
	}
	budget := containsBudget(whole, part)
	ps, ok := sentencesOf(canonicalUnits(part), "", &budget)
	if !ok || len(ps) == 0 {
		return false
	}
	wl, ok := sentencesOf(canonicalUnits(whole), "", &budget)
	if !ok {
		return false
	}
	ws := make(map[string]bool, len(wl))
	for _, s := range wl {
		ws[s] = true
	}
	for _, s := range ps {
		if !ws[s] {
			return false
		}
	}
	return true
}

// containsBudget bounds the bytes of the sentences Contains spells out:
// it writes every item of a list with its lead, and the bound keeps a long
// lead before many items from costing quadratic time. A text past it is
// not contained (when in doubt, not).
func containsBudget(whole, part string) int { return 8*(len(whole)+len(part)) + 1<<16 }

// cUnit is one line of the normal form: a sentence (words), a list or a
// code block, under the prefix of the headings and quotes it is in.
type cUnit struct {
	prefix  string
	words   []string
	list    *cList
	code    string // a code block: its info string and text, escaped
	heading int    // a heading's level (its prefix says it too)
}

// cListKind is what a list's order and items say.
type cListKind int

const (
	andList     cListKind = iota // bullets or "x, y and z": the items in any order, each true
	orList                       // "x, y or z": one of the items
	orderedList                  // 1. 2. 3.: the items in this order
)

// cList is a list: the words leading into it ("We use"), its items, and
// the words after an inline list's last item.
type cList struct {
	kind       cListKind
	lead, tail []string
	items      []cItem
}

// cItem is one item of a list: its units, after a task box when it has
// one ("\todo" or "\done").
type cItem struct {
	box   string
	units []cUnit
}

// canonicalUnits reads s as markdown into units.
func canonicalUnits(s string) []cUnit {
	if !isASCII(s) {
		s = norm.NFC.String(strings.ToValidUTF8(s, "\uFFFD"))
	}
	if strings.ContainsRune(s, '\r') {
		s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	}
	return blockUnits(parseBlocks(strings.Split(s, "\n"), 0), "")
}

// isASCII reports whether s is all ASCII, which is already in NFC and valid
// UTF-8: canonicalUnits skips normalising it.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// serialize writes units one a line.
func serialize(us []cUnit) string {
	var b strings.Builder
	for i, u := range us {
		if i > 0 {
			b.WriteByte('\n')
		}
		writeUnit(&b, u)
	}
	return b.String()
}

// writeUnit writes one unit; the items of a list that is not numbered
// are sorted, so that their order does not count.
func writeUnit(b *strings.Builder, u cUnit) {
	b.WriteString(u.prefix)
	switch {
	case u.list != nil:
		l := u.list
		b.WriteString(strings.Join(l.lead, " "))
		items := make([]string, len(l.items))
		for i, it := range l.items {
			items[i] = itemString(it)
		}
		open, close := ` \{ `, ` \}`
		switch l.kind {
		case andList:
			slices.Sort(items)
		case orList:
			slices.Sort(items)
			open = ` \{or `
		case orderedList:
			open, close = ` \[ `, ` \]`
		}
		b.WriteString(open)
		b.WriteString(strings.Join(items, ` \| `))
		b.WriteString(close)
		if len(l.tail) > 0 {
			b.WriteByte(' ')
			b.WriteString(strings.Join(l.tail, " "))
		}
	case u.words != nil:
		b.WriteString(strings.Join(u.words, " "))
	default:
		b.WriteString(`\code `)
		b.WriteString(u.code)
	}
}

// itemString is a list item's units, in order, joined by \;.
func itemString(it cItem) string {
	var b strings.Builder
	b.WriteString(it.box)
	for i, u := range it.units {
		if i > 0 || it.box != "" {
			b.WriteString(` \; `)
		}
		writeUnit(&b, u)
	}
	return b.String()
}

// sentencesOf returns the sentences of units for Contains, in normal
// form after prefix, false when they would be longer than budget bytes
// (which it lowers by their length). A sentence under a heading is read
// with the heading ("## Never" and "use npm" under it is not "use npm").
// An and-list gives one sentence per sentence of each item, led by its
// lead and followed by its tail; a bulleted list without a lead is led by
// the sentence right before it ("Avoid these." and "- use npm" is not
// "use npm").
func sentencesOf(us []cUnit, prefix string, budget *int) ([]string, bool) {
	var out []string
	add := func(s string) bool {
		*budget -= len(s)
		out = append(out, s)
		return *budget >= 0
	}
	type section struct {
		level int
		scope string
	}
	var sections []section
	for i, u := range us {
		for u.heading > 0 && len(sections) > 0 && sections[len(sections)-1].level >= u.heading {
			sections = sections[:len(sections)-1]
		}
		scope := prefix
		if len(sections) > 0 {
			scope = sections[len(sections)-1].scope
		}
		if u.list == nil || u.list.kind != andList {
			var b strings.Builder
			writeUnit(&b, u)
			s := joinWords(scope, b.String())
			if !add(s) {
				return nil, false
			}
			if u.heading > 0 {
				sections = append(sections, section{u.heading, s})
			}
			continue
		}
		l := u.list
		lead := strings.Join(l.lead, " ")
		if len(l.lead) == 0 && len(l.tail) == 0 && i > 0 && us[i-1].words != nil && us[i-1].heading == 0 && us[i-1].prefix == u.prefix {
			lead = strings.Join(us[i-1].words, " ")
		}
		lead = joinWords(scope, joinWords(u.prefix, lead))
		tail := strings.Join(l.tail, " ")
		for _, it := range l.items {
			ss, ok := sentencesOf(it.units, joinWords(lead, it.box), budget)
			if !ok {
				return nil, false
			}
			for _, s := range ss {
				if !add(joinWords(s, tail)) {
					return nil, false
				}
			}
		}
	}
	return out, true
}

// joinWords joins two parts of a sentence with a space, either may be empty.
func joinWords(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + " " + b
}

// escToken writes a token's text so that it holds no space, line break or
// structural backslash sequence: a backslash is doubled, and the
// characters that separate tokens and units are written as \xHH.
func escToken(s string) string {
	if !strings.ContainsAny(s, "\\ \n\t`{}[]|;\v\f") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case ' ', '\n', '\t', '`', '{', '}', '[', ']', '|', ';', '\v', '\f':
			b.WriteString(`\x`)
			b.WriteByte("0123456789abcdef"[r>>4])
			b.WriteByte("0123456789abcdef"[r&15])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
