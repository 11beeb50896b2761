package text_test

import (
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/text"
)

func TestSimilarity(t *testing.T) {
	w := strings.Fields
	for _, tc := range []struct {
		a, b     string
		min, max float64
	}{
		{"the deploy runs on tuesday", "the deploy runs on tuesday", 1, 1},
		{"the deploy runs on tuesday", "coffee at nine in the kitchen", 0, 0.2},
		{"integration tests must hit a real database not mocks", "integration tests must hit a real database and not mocks", 0.85, 1},
		{"a b c d", "d c b a", 0.4, 0.6}, // same words, reversed: Jaccard 1, LCS 1/4
	} {
		if got := text.Similarity(w(tc.a), w(tc.b)); got < tc.min || got > tc.max {
			t.Errorf("Similarity(%q, %q) = %.3f, want in [%v, %v]", tc.a, tc.b, got, tc.min, tc.max)
		}
	}
}

func TestWords(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Hello, World 42!", "hello world 42"},
		{"数据库 and がっこう", "数 据 库 and が っ こ う"},
		{"Café naïve", "café naïve"},
		{"학교에서 공부", "학 교 에 서 공 부"},
	} {
		if got := strings.Join(text.Words(tc.in), " "); got != tc.want {
			t.Errorf("Words(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestIsCJK(t *testing.T) {
	for r, want := range map[rune]bool{'a': false, 'é': false, '数': true, 'が': true, 'カ': true, '학': true, '々': true, 'ー': true, '1': false, '—': false} {
		if got := text.IsCJK(r); got != want {
			t.Errorf("IsCJK(%q) = %v, want %v", r, got, want)
		}
	}
}

func TestEstimateTokens(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"", 0}, {"abcd", 1}, {"abcde", 2}, {"数据库", 3}, {"ab数", 2},
	} {
		if got := text.EstimateTokens(tc.in); got != tc.want {
			t.Errorf("EstimateTokens(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

func TestStopWords(t *testing.T) {
	for w, want := range map[string]bool{"the": true, "dont": true, "don": true, "yeah": true, "painting": false, "like": false} {
		if got := text.IsStopWord(w); got != want {
			t.Errorf("IsStopWord(%q) = %v, want %v", w, got, want)
		}
	}
}
