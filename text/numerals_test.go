package text_test

import (
	"testing"

	"github.com/vaultmem/vaultmem/text"
)

func TestChineseNumber(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want string // "" when no number starts the text
	}{
		{"三天", "3"}, {"十天", "10"}, {"二十天", "20"}, {"一百五十个", "150"}, {"两周", "2"},
		{"十五", "15"}, {"三万", "30000"}, {"一起", ""}, {"一直", ""}, {"万一", ""},
	} {
		got, end := text.ChineseNumber([]rune(tt.in), 0)
		if end == 0 {
			got = ""
		}
		if got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestIsOrdinalSuffix: the four suffixes as written, lower case only
// ("1ST" is no ordinal the normal form writes as one), nothing else.
func TestIsOrdinalSuffix(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want bool
	}{
		{"st", true}, {"nd", true}, {"rd", true}, {"th", true},
		{"ST", false}, {"Th", false}, {"s", false}, {"", false}, {"nth", false}, {"rds", false},
	} {
		if got := text.IsOrdinalSuffix(tt.in); got != tt.want {
			t.Errorf("IsOrdinalSuffix(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
