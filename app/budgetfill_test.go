package app

import (
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/recall"
)

// TestConfigBudgetFill: recall.budget_fill takes shared or greedy (unset:
// recall's default) and reaches the recall options; any other value fails
// at load, naming the file and line.
func TestConfigBudgetFill(t *testing.T) {
	for _, tc := range []struct {
		yaml, want, err string
	}{
		{"", "", ""},
		{"recall:\n  budget_fill: shared\n", recall.FillShared, ""},
		{"recall:\n  budget_fill: greedy\n", recall.FillGreedy, ""},
		{"recall:\n  budget_fill: fair\n", "", "config.yaml:2: recall.budget_fill: recall: unknown budget fill \"fair\""},
	} {
		c, err := LoadConfig(vaultWithConfig(t, tc.yaml))
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: %v, want %q", tc.yaml, err, tc.err)
			}
		case err != nil:
			t.Errorf("%q: %v", tc.yaml, err)
		case c.Recall.BudgetFill != tc.want || (&App{Config: c}).recallOptions().BudgetFill != tc.want:
			t.Errorf("%q: budget fill %q, want %q", tc.yaml, c.Recall.BudgetFill, tc.want)
		}
	}
}
