package text

import (
	"slices"
	"strings"
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
