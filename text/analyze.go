package text

import (
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

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
	for i := 0; ; {
		start, end := nextWord(s, i)
		if start == end {
			return out
		}
		out = append(out, Term(s[start:end]))
		i = end
	}
}

// Analyzed is s as the full-text table stores it: its terms joined by
// spaces.
func Analyzed(s string) string {
	var b strings.Builder
	for i := 0; ; {
		start, end := nextWord(s, i)
		if start == end {
			return b.String()
		}
		if b.Len() == 0 {
			b.Grow(len(s) - start)
		} else {
			b.WriteByte(' ')
		}
		b.WriteString(Term(s[start:end]))
		i = end
	}
}

// nextWord returns the bounds of the first word of s (a run of letters
// and numbers) at or after byte i; start equals end when there is none.
// It splits as strings.FieldsFunc(s, IsSeparator) does, invalid UTF-8 a
// separator, without deciding a rune's class for ASCII bytes.
func nextWord(s string, i int) (start, end int) {
	for i < len(s) {
		if c := s[i]; c < utf8.RuneSelf {
			if asciiWord[c] {
				break
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if !IsSeparator(r) {
			break
		}
		i += n
	}
	start = i
	for i < len(s) {
		if c := s[i]; c < utf8.RuneSelf {
			if !asciiWord[c] {
				break
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if IsSeparator(r) {
			break
		}
		i += n
	}
	return start, i
}

// asciiWord tells the ASCII bytes that are letters or numbers.
var asciiWord = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = !IsSeparator(rune(c))
	}
	return t
}()

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
// microsecond. The index's readers analyze on every core at once, so a
// lookup writes no shared memory (a shared read lock cost them more than
// the lookup, and sync.Map's trie twice a plain map): it reads a map
// that is never changed once published. Words not in it wait in added,
// under mu, until they are a quarter of it; then a new map with them is
// published, so the copying adds up to a few times the final size.
type stemCache struct {
	terms atomic.Pointer[map[string]string]
	mu    sync.Mutex
	added map[string]string
}

// maxCachedStems bounds the cache; when full it starts again from the
// words not yet published.
const maxCachedStems = 1 << 18

var stems = newStemCache()

func newStemCache() *stemCache {
	c := &stemCache{added: map[string]string{}}
	c.terms.Store(&map[string]string{})
	return c
}

func (c *stemCache) get(w string) (string, bool) {
	if t, ok := (*c.terms.Load())[w]; ok {
		return t, true
	}
	c.mu.Lock()
	t, ok := c.added[w]
	c.mu.Unlock()
	return t, ok
}

func (c *stemCache) put(w, t string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.added[strings.Clone(w)] = t
	old := *c.terms.Load()
	full := len(old)+len(c.added) > maxCachedStems
	if len(c.added) < max(1024, len(old)/4) && !full {
		return
	}
	next := make(map[string]string, len(old)+len(c.added))
	if !full {
		for k, v := range old {
			next[k] = v
		}
	}
	for k, v := range c.added {
		next[k] = v
	}
	c.terms.Store(&next)
	c.added = map[string]string{}
}
