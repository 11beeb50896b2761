package index

import (
	"strings"
	"sync"
	"unicode"

	"github.com/kljensen/snowball/english"
	"golang.org/x/text/unicode/norm"
)

// Keyword search sees text through one analyzer, in Go: the words
// (letters and numbers, split at anything else), lower-cased, their
// diacritics removed, and English words stemmed with the Snowball
// (Porter 2) stemmer, so "painted", "painting" and "paints" are one term.
// The full-text table stores the analyzed text (tokens joined by spaces,
// which FTS5's unicode61 tokenizer splits back into the same tokens), and
// the in-memory keyword index (see lexicon) reads the same tokens: both
// rank with the same terms, lengths and counts.

// analyze returns the tokens of text.
func analyze(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(text, isSeparator) {
		out = append(out, term(w))
	}
	return out
}

// analyzed is text as the full-text table stores it: its tokens joined by
// spaces.
func analyzed(text string) string {
	return strings.Join(analyze(text), " ")
}

// isSeparator reports whether r separates words: anything but a letter
// or a number (what unicode61 splits at).
func isSeparator(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) }

// term is the search term of one word.
func term(w string) string {
	if v, ok := stems.get(w); ok {
		return v
	}
	t := strings.ToLower(w)
	if !isASCII(t) && len(cjkRuns(t)) == 0 {
		t = foldDiacritics(t)
	}
	if len(t) > 2 && isASCIILetters(t) {
		t = english.Stem(t, true)
	}
	stems.put(w, t)
	return t
}

// foldDiacritics removes combining marks: "café" gives "cafe".
func foldDiacritics(s string) string {
	d := norm.NFD.String(s)
	var b strings.Builder
	for _, r := range d {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return norm.NFC.String(b.String())
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func isASCIILetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

// stemCache remembers the terms of the words seen lately: a vault uses a
// few tens of thousands of distinct words, and stemming one costs a
// microsecond.
type stemCache struct {
	mu sync.RWMutex
	m  map[string]string
}

// maxCachedStems bounds the cache; when full it starts again.
const maxCachedStems = 1 << 18

var stems = &stemCache{m: map[string]string{}}

func (c *stemCache) get(w string) (string, bool) {
	c.mu.RLock()
	t, ok := c.m[w]
	c.mu.RUnlock()
	return t, ok
}

func (c *stemCache) put(w, t string) {
	c.mu.Lock()
	if len(c.m) >= maxCachedStems {
		c.m = map[string]string{}
	}
	c.m[strings.Clone(w)] = t
	c.mu.Unlock()
}
