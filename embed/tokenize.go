package embed

import (
	"unicode"
	"unicode/utf8"

	"github.com/vaultmem/vaultmem/text"
)

// Terms are what the LSA model counts. A text becomes terms in one pass:
//
//   - words are runs of Unicode letters, digits and combining marks, lower
//     cased; an apostrophe between letters is dropped ("don't" is "dont",
//     "Anna's" is "annas") so contractions meet the stop list and
//     possessives meet the stemmer;
//   - stop words are dropped (text.IsStopWord), then each word becomes
//     its search term (text.Term: diacritics folded, English stemmed with
//     Snowball), so "painting", "painted" and "paints" meet, as they do in
//     keyword search;
//   - one-character words, digit runs longer than 4 (ids, phone numbers,
//     timestamps) and words over maxTermBytes (hashes, base64) are dropped:
//     they cost vocabulary slots and carry no topic;
//   - runs of Han, Hiragana, Katakana and Hangul become overlapping
//     bigrams ("数据库" is "数据", "据库"), a one-character run itself.
//
// Full-width ASCII (Ａ, １) is folded to ASCII first, as CJK input methods
// produce it. Changing any of this changes the terms of every fitted model,
// so it is versioned with the model format (see lsaMagic).

// maxTermBytes is the longest word kept, in bytes.
const maxTermBytes = 40

// tokenizer splits texts into terms. Its zero value is ready to use; it
// keeps scratch buffers between calls, so it is not safe for concurrent
// use.
type tokenizer struct {
	word []byte // the current word, lower cased
	run  []rune // the current CJK run
	tmp  []byte // a bigram being emitted
}

// each calls emit with every term of text in order. The slice passed to
// emit is only valid during the call.
func (t *tokenizer) each(src string, emit func(term []byte)) {
	t.scan(src, func(tok []byte, word bool) {
		if word {
			if tok = term(tok); tok == nil {
				return
			}
		}
		emit(tok)
	})
}

// scan calls emit with every word of text, lower cased but not yet
// filtered (word is true: see term), and every CJK term (word is false).
// The slice passed to emit is only valid during the call, and emit may
// change it. Splitting scanning from filtering lets a caller that sees the
// same words again and again (the counting pass of FitLSA) remember what
// each word became.
func (t *tokenizer) scan(src string, emit func(tok []byte, word bool)) {
	t.word = t.word[:0]
	t.run = t.run[:0]
	for i := 0; i < len(src); {
		r, size := rune(src[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(src[i:])
		}
		i += size
		if r >= 0xFF01 && r <= 0xFF5E { // full-width ASCII
			r -= 0xFEE0
		}
		switch {
		case r < utf8.RuneSelf:
			c := byte(r)
			switch {
			case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
				t.flushRun(emit)
				t.word = append(t.word, c)
				continue
			case c >= 'A' && c <= 'Z':
				t.flushRun(emit)
				t.word = append(t.word, c+'a'-'A')
				continue
			case c == '\'' && t.apostrophe(src, i):
				continue
			}
		case text.IsCJK(r):
			t.flushWord(emit)
			t.run = append(t.run, r)
			continue
		case r == '\u2019' && t.apostrophe(src, i):
			continue
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r):
			t.flushRun(emit)
			t.word = utf8.AppendRune(t.word, unicode.ToLower(r))
			continue
		}
		// A separator.
		t.flushWord(emit)
		t.flushRun(emit)
	}
	t.flushWord(emit)
	t.flushRun(emit)
}

// apostrophe reports whether the apostrophe ending just before text[i]
// joins two letters of one word.
func (t *tokenizer) apostrophe(src string, i int) bool {
	if len(t.word) == 0 || i >= len(src) {
		return false
	}
	prev, _ := utf8.DecodeLastRune(t.word)
	next, _ := utf8.DecodeRuneInString(src[i:])
	return unicode.IsLetter(prev) && unicode.IsLetter(next) && !text.IsCJK(next)
}

// flushWord emits the current word, if any.
func (t *tokenizer) flushWord(emit func([]byte, bool)) {
	if len(t.word) > 0 {
		emit(t.word, true)
		t.word = t.word[:0]
	}
}

// term returns the term that a lower-cased word stands for, or nil when
// the word is dropped. It may return w itself.
func term(w []byte) []byte {
	if len(w) < 2 || len(w) > maxTermBytes {
		return nil
	}
	digits := true
	for _, c := range w {
		if c < '0' || c > '9' {
			digits = false
			break
		}
	}
	switch {
	case digits && len(w) > 4:
		return nil
	case digits:
		return w
	case utf8.RuneCount(w) < 2:
		return nil
	}
	if text.IsStopWord(string(w)) {
		return nil
	}
	return []byte(text.Term(string(w)))
}

// flushRun emits the bigrams of the current CJK run.
func (t *tokenizer) flushRun(emit func([]byte, bool)) {
	run := t.run
	t.run = t.run[:0]
	if len(run) == 1 {
		t.tmp = utf8.AppendRune(t.tmp[:0], run[0])
		emit(t.tmp, false)
		return
	}
	for i := 0; i+1 < len(run); i++ {
		t.tmp = utf8.AppendRune(t.tmp[:0], run[i])
		t.tmp = utf8.AppendRune(t.tmp, run[i+1])
		emit(t.tmp, false)
	}
}
