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
// microsecond. A lookup takes no lock (the index's readers analyze on
// every core at once, and a shared read lock cost them more than the
// lookup).
type stemCache struct {
	m sync.Map // word → term
	n atomic.Int64
}

// maxCachedStems bounds the cache; when full it starts again.
const maxCachedStems = 1 << 18

var stems = &stemCache{}

func (c *stemCache) get(w string) (string, bool) {
	t, ok := c.m.Load(w)
	if !ok {
		return "", false
	}
	return t.(string), true
}

func (c *stemCache) put(w, t string) {
	if c.n.Add(1) > maxCachedStems {
		c.m.Clear()
		c.n.Store(1)
	}
	c.m.Store(strings.Clone(w), t)
}
