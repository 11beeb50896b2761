package text

import (
	"strings"
	"sync"
	"unicode"

	"github.com/kljensen/snowball/english"
	"golang.org/x/text/unicode/norm"
)

// Search sees text through one analyzer: the words (letters and numbers,
// split at anything else), lower-cased, their diacritics removed, and
// English words stemmed with the Snowball (Porter 2) stemmer, so
// "painted", "painting" and "paints" are one term. The index's full-text
// table stores the analyzed text (terms joined by spaces, which FTS5's
// unicode61 tokenizer splits back into the same terms), and its in-memory
// keyword index reads the same terms.

// Analyze returns the search terms of s, one per word, in order.
func Analyze(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(s, IsSeparator) {
		out = append(out, Term(w))
	}
	return out
}

// Analyzed is s as the full-text table stores it: its terms joined by
// spaces.
func Analyzed(s string) string {
	return strings.Join(Analyze(s), " ")
}

// IsSeparator reports whether r separates words: anything but a letter or
// a number (what FTS5's unicode61 tokenizer splits at).
func IsSeparator(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) }

// Term is the search term of one word (a run of letters and numbers):
// lower-cased, diacritics folded (but in CJK text), and stemmed when it is
// an English word (a-z only) of three letters or more. It is safe for
// concurrent use; it remembers the words it saw lately.
func Term(w string) string {
	if v, ok := stems.get(w); ok {
		return v
	}
	t := strings.ToLower(w)
	if !isASCII(t) && !HasCJK(t) {
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
