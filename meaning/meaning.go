package meaning

import "fmt"

// Two memories can share nearly every word and still say different
// things: "the freeze starts on 2026-03-01" and "... on 2026-04-01", "run
// the tests" and "never run the tests", "the payments team owns billing"
// and "the platform team owns billing". Word overlap (text.Similarity) cannot
// tell them apart, so whatever merges or drops near duplicates asks
// Differ first. Its rule is strict on purpose: merging two memories that
// say different things loses a fact, keeping two that say the same costs a
// line.
//
// Two texts agree only when they hold:
//   - the same numbers (digits, English number words, Chinese numerals),
//     dates, month and weekday names, and units after a number, or those
//     of one among the other's (a memory that adds a date to another
//     says more, not something else);
//   - the same restricting words (only, except, unless, until, instead);
//   - the same names, or those of one among the other's: capitalised words
//     that do not open a sentence, and words written with inner capitals
//     or in capitals (MySQL, AWS; an acronym matches its words);
//   - a negation (not, never, no, n't, without, no longer; nicht, kein;
//     no, ya no, nunca; ne … pas, ne … plus, jamais; 不, 不再, 没, 别;
//     ない, ません) on the same words in both, where both have those words;
//   - no phrase of one whose opposite stands in its place in the other,
//     stop words and operators included (before/after, raise/lower,
//     in/out, into/out of, up to date/out of date, >/<, +/-, once/twice,
//     más/menos, 前/后, 有効/無効: see oppositeLines), nor a content
//     word's opposite anywhere in words otherwise alike ("Before
//     merging, run the tests" and "Run the tests after merging");
//   - no two words in each other's place ("always pnpm, never npm" and
//     "always npm, never pnpm"; "from MySQL to Postgres" and "from
//     Postgres to MySQL"), nor a word given another role;
//   - and no content word replaced by another: aligned by their longest
//     common subsequence of content words (stop words left out), every
//     stretch where the texts differ must be words one of them adds,
//     whole sentences each adds, inflections of one stem or listed
//     synonyms (db and database, prefer and like). What one adds is
//     detail, which a merge keeps; a word replaced is another fact.
//
// A negation that is all that differs between the words, an opposite
// (unless a negation turns it back: "allowed" and "not forbidden") or two
// words swapped is Opposite: the texts contradict each other, which a
// human should look at. Those are checked first, over the words alone
// (see Differ's aWords and bWords), so that whatever else differs
// between the texts (a name, a number) does not hide them.

// Difference is one way two texts differ in meaning.
type Difference struct {
	// Kind names what differs: "number", "date", "unit", "negation",
	// "restriction", "name", "opposite", "swap" (two words in each
	// other's place) or "word".
	Kind string
	// A and B are what each text has in its place ("" when it has none).
	A, B string
	// Opposite says one text negates the other, uses a word's opposite
	// or swaps two of its words: a contradiction rather than two
	// distinct facts.
	Opposite bool
}

// String is the difference for a person: `number "50" vs "500"`.
func (d Difference) String() string {
	return fmt.Sprintf("%s %q vs %q", d.Kind, d.A, d.B)
}

// maxAlign bounds the word-by-word alignment (the product of the two
// texts' lengths once their common start and end are set aside): texts
// that differ over a longer stretch are reported as differing.
const maxAlign = 4 << 20

// Differ reports how texts a and b differ in meaning, ok false when they
// agree on everything the rule above checks. Facts are compared over all
// of each text; words (the alignment, negations) over aWords and bWords,
// which leave out what a rewording may change freely (a memory's name,
// say): pass a and b again when there is nothing to leave out. To compare
// one text with many, read it once with NewMeaning.
func Differ(a, aWords, b, bWords string) (d Difference, ok bool) {
	return NewMeaning(a, aWords).Differ(NewMeaning(b, bWords))
}

// Meaning is a text read for comparing (see Differ): its facts and its
// words, worked out once. It is safe for concurrent use once made.
type Meaning struct {
	facts     facts
	words     []token
	occ       []occurrence // the phrases of words with an opposite
	negations int
}

// NewMeaning reads text, with words the part of it a rewording may not
// change freely (see Differ).
func NewMeaning(text, words string) *Meaning {
	m := &Meaning{facts: factsOf(tokenize(expandElisions(text))), words: tokenize(markOperators(expandElisions(words)))}
	m.facts.opposites = oppositesOf(m.words)
	m.occ = occurrencesOf(m.words)
	for i := range m.words {
		if isNegation(m.words, i) {
			m.negations++
		}
	}
	return m
}

// Negations counts the negations of its words: two texts that differ in
// it may state opposite things (see Difference.Opposite); two that do not
// differ only in where they put them.
func (m *Meaning) Negations() int { return m.negations }

// Differ reports how m and o differ in meaning (see Differ). What turns
// one around comes first, whatever else the texts differ in (a memory's
// name, say): an opposite where the words align, two words swapped (see
// opposed), a negation all that differs between the words, an opposite
// anywhere in words otherwise alike (see anywhereOpposite).
func (m *Meaning) Differ(o *Meaning) (Difference, bool) {
	if d, ok := opposed(m, o); ok {
		return d, true
	}
	al := align(m.words, o.words)
	neg, negated := al.negated()
	if negated && !al.added() {
		// A negation is a contradiction when it is all that differs
		// between the words: "run the tests" and "never run the tests".
		neg.Opposite = true
		return neg, true
	}
	if d, ok := anywhereOpposite(m, o); ok {
		return d, true
	}
	if d, ok := m.facts.differ(o.facts); ok {
		return d, true
	}
	if d, ok := al.replaced(); ok {
		return d, true
	}
	return neg, negated
}
