package embed

import (
	"slices"
	"strings"
	"testing"
)

func terms(text string) []string {
	var tok tokenizer
	var got []string
	tok.each(text, func(term []byte) { got = append(got, string(term)) })
	return got
}

func TestTokenize(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"empty", "", nil},
		{"stop words only", "I was there and it is what it is", nil},
		{"case and punctuation", "Painting, PAINTED; paints!", []string{"paint", "paint", "paint"}},
		{"contractions", "I don't think you'll go", []string{"think", "go"}},
		{"possessive", "Anna's cat", []string{"anna", "cat"}},
		{"curly apostrophe", "Anna’s cat isn’t here", []string{"anna", "cat"}},
		{"quote is not an apostrophe", "'hello' 'world'", []string{"world"}},
		{"hyphen splits", "state-of-the-art e-mail", []string{"state", "art", "mail"}},
		{"one character dropped", "a b c x y z 7", nil},
		{"digits", "in 2024 at 10 phone 5551234567", []string{"2024", "10", "phone"}},
		{"letters and digits", "mp3 files on a v2 api", []string{"mp3", "file", "v2", "api"}},
		{"over long word", "sha " + strings.Repeat("a1", 25) + " end", []string{"sha", "end"}},
		{"accents folded, as search folds them", "Café naïve Straße", []string{"cafe", "naiv", "straße"}},
		{"cyrillic", "Привет Мир", []string{"привет", "мир"}},
		{"han bigrams", "数据库", []string{"数据", "据库"}},
		{"single han", "猫", []string{"猫"}},
		{"han and latin", "用Go写数据库", []string{"用", "go", "写数", "数据", "据库"}},
		{"han punctuation splits", "你好，世界。", []string{"你好", "世界"}},
		{"japanese", "ラーメンが好き", []string{"ラー", "ーメ", "メン", "ンが", "が好", "好き"}},
		{"hangul", "한국어", []string{"한국", "국어"}},
		{"full width", "ＡＢＣ１２", []string{"abc12"}},
		{"apostrophe before cjk splits", "Go'数据", []string{"go", "数据"}},
		{"invalid utf-8", "bad\xffbyte", []string{"bad", "byte"}},
		{"underscore splits", "snake_case_name", []string{"snake", "case", "name"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := terms(tt.text); !slices.Equal(got, tt.want) {
				t.Errorf("terms(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

// TestTokenizeReuse checks that a tokenizer's scratch space does not leak
// from one text into the next.
func TestTokenizeReuse(t *testing.T) {
	var tok tokenizer
	var got []string
	for _, text := range []string{"数据库 painting", "cats", "猫"} {
		tok.each(text, func(term []byte) { got = append(got, string(term)) })
	}
	want := []string{"数据", "据库", "paint", "cat", "猫"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
