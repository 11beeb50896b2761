package text

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode"
)

func TestAnalyze(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"Painted, painting & paints", "paint paint paint"},
		{"Café NAÏVE résumé", "cafe naiv resum"},
		{"Caroline's 18th birthday", "carolin s 18th birthday"},
		{"数据库 and がっこう", "数据库 and がっこう"}, // CJK kept whole, marks and all
		{"go-to e-mail", "go to e mail"},
	} {
		if got := Analyzed(tc.text); got != tc.want {
			t.Errorf("Analyzed(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// FuzzAnalyze checks what FTS5 and the lexicon rely on: the analyzed
// text's tokens are exactly analyze's, each made of letters and numbers
// only, so unicode61 splits the stored text back into the same tokens.
func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{"Painted, painting", "Café", "数据库 go", "a\u0301b", "x\u200by", "ǅemal", "İstanbul"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		toks := Analyze(text)
		if got := strings.Fields(Analyzed(text)); !slices.Equal(got, toks) {
			t.Errorf("Analyzed(%q) splits into %q, want %q", text, got, toks)
		}
		var words []string
		for _, w := range strings.FieldsFunc(text, IsSeparator) {
			words = append(words, Term(w))
		}
		if !slices.Equal(toks, words) {
			t.Errorf("Analyze(%q) = %q, want the terms of its fields, %q", text, toks, words)
		}
		for _, tok := range toks {
			if tok == "" || strings.IndexFunc(tok, IsSeparator) >= 0 {
				t.Errorf("Analyze(%q): token %q holds a separator", text, tok)
			}
			if strings.ToLower(tok) != tok && strings.IndexFunc(tok, unicode.IsUpper) >= 0 {
				t.Errorf("Analyze(%q): token %q is not lower-cased", text, tok)
			}
		}
	})
}

// TestStemCache checks that the cache gives back every term put in it,
// before and after it publishes them, and that it stays within its bound.
func TestStemCache(t *testing.T) {
	c := newStemCache()
	word := func(i int) string { return "w" + strconv.Itoa(i) }
	for i := range 5000 {
		c.put(word(i), "t"+strconv.Itoa(i))
		for _, j := range []int{0, i / 2, i} {
			if got, ok := c.get(word(j)); !ok || got != "t"+strconv.Itoa(j) {
				t.Fatalf("after %d puts, get(%q) = %q, %v", i+1, word(j), got, ok)
			}
		}
	}
	if _, ok := c.get("never put"); ok {
		t.Error("get of a word never put found one")
	}
	for i := 5000; i < maxCachedStems+5000; i++ {
		c.put(word(i), "x")
	}
	if n := len(*c.terms.Load()) + len(c.added); n > maxCachedStems {
		t.Errorf("cache holds %d words, bound %d", n, maxCachedStems)
	}
}

// TestTermConcurrent runs Term on many goroutines at once (run with
// -race): every answer is the word's term.
func TestTermConcurrent(t *testing.T) {
	words := []string{"Painted", "painting", "CAFÉ", "résumé", "数据库", "running", "runs", "x1"}
	want := make([]string, len(words))
	for i, w := range words {
		want[i] = Term(w)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 3000 {
				k := (i + g) % len(words)
				w := words[k]
				if i%5 == 0 {
					w += strconv.Itoa(i) // new words make the cache publish
				}
				got := Term(w)
				if w == words[k] && got != want[k] {
					t.Errorf("Term(%q) = %q, want %q", w, got, want[k])
					return
				}
			}
		})
	}
	wg.Wait()
}

// FuzzCJKRuns holds CJKRuns and HasCJK, with their fast path for text
// without a CJK lead byte, to a rune-by-rune reading.
func FuzzCJKRuns(f *testing.F) {
	for _, s := range []string{"plain ascii", "数据库 and がっこう", "café ᄀ 한국어", "x ᄀ y", "\xe1\x84", "ー々", "\U00020000x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want [][]rune
		var cur []rune
		has := false
		for _, r := range s {
			if IsCJK(r) {
				cur = append(cur, r)
				has = true
				continue
			}
			if cur != nil {
				want, cur = append(want, cur), nil
			}
		}
		if cur != nil {
			want = append(want, cur)
		}
		if got := CJKRuns(s); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("CJKRuns(%q) = %v, want %v", s, got, want)
		}
		if got := HasCJK(s); got != has {
			t.Errorf("HasCJK(%q) = %v, want %v", s, got, has)
		}
	})
}
