package vault_test

import (
	"testing"

	"github.com/vaultmem/vaultmem/vault"
)

func TestEstimateTokens(t *testing.T) {
	for _, tt := range []struct {
		s    string
		want int
	}{
		{"", 0},
		{"a", 1},
		{"abcd", 1},
		{"abcde", 2},
		{"数据库", 3},
		{"hi 数据", 3},
		{"\xff\xfe", 2},
	} {
		if got := vault.EstimateTokens(tt.s); got != tt.want {
			t.Errorf("EstimateTokens(%q) = %d, want %d", tt.s, got, tt.want)
		}
	}
}
