package text

import (
	"slices"
	"testing"
)

// TestWords checks the ASCII fast path against the general one, and the
// general one on CJK text.
func TestWords(t *testing.T) {
	for _, s := range []string{"", "Hello, World!", "what's 2nd-hand (re)use", "  trailing  spaces ", "UPPER lower MiXeD 123abc", "a_b-c.d/e"} {
		if got, want := asciiWords(s), unicodeWords(s); !slices.Equal(got, want) {
			t.Errorf("asciiWords(%q) = %q, want %q", s, got, want)
		}
	}
	if got, want := Words("数据库 Go语言"), []string{"数", "据", "库", "go", "语", "言"}; !slices.Equal(got, want) {
		t.Errorf("Words(CJK) = %q, want %q", got, want)
	}
}
