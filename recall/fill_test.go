package recall

import (
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/text"
)

// TestBudgetFills fills the same fixed candidate list, a long item ranked
// first and three short ones after it, with each fill: greedy lets the
// first take the budget; shared caps each at its share (budget ÷ items),
// truncates the long one with the marker and keeps the rank order.
func TestBudgetFills(t *testing.T) {
	long := strings.Repeat("the deploy freeze starts when the release review ends and nobody merges ", 40)
	texts := []string{long, "Deploys go out on Tuesdays.", "The freeze lasts a week.", "Ana owns the release review."}
	candidates := func() []*candidate {
		var out []*candidate
		for i, tx := range texts {
			out = append(out, &candidate{hit: index.Result{Chunk: int64(i + 1), Path: "notes/n" + string(rune('a'+i)) + ".md", Text: tx, Line: 1},
				ranks: map[string]int{"exact": i}, final: 1 - float64(i)/10})
		}
		return out
	}
	const budget = 200
	for _, tc := range []struct {
		fill      string
		wantPaths []string
		longCut   bool // the long item is cut to its share
	}{
		{FillGreedy, []string{"notes/na.md"}, false},
		{FillShared, []string{"notes/na.md", "notes/nb.md", "notes/nc.md", "notes/nd.md"}, true},
	} {
		t.Run(tc.fill, func(t *testing.T) {
			e := &Engine{fill: tc.fill}
			res := &Result{Budget: budget}
			e.fillBudget(res, candidates(), nil)
			var paths []string
			for _, it := range res.Items {
				paths = append(paths, it.Path)
			}
			if strings.Join(paths, " ") != strings.Join(tc.wantPaths, " ") {
				t.Fatalf("items %v, want %v in that order", paths, tc.wantPaths)
			}
			if res.UsedTokens > budget || !res.Truncated {
				t.Errorf("used %d of %d tokens, truncated %v", res.UsedTokens, budget, res.Truncated)
			}
			first := res.Items[0]
			if !strings.HasSuffix(first.Text, truncationMarker) || !strings.Contains(res.Context, strings.TrimSpace(truncationMarker)) {
				t.Errorf("the long item is not marked as truncated: %q", first.Text)
			}
			if share := budget / len(texts); tc.longCut != (first.Tokens <= share) {
				t.Errorf("the long item has %d tokens; cut to its share of %d: %v, want %v", first.Tokens, share, first.Tokens <= share, tc.longCut)
			}
			for i, it := range res.Items[1:] {
				if it.Text != texts[i+1] {
					t.Errorf("short item %d changed: %q", i+1, it.Text)
				}
			}
		})
	}
}

// TestShares: each item's text is cut to the budget ÷ the items with text,
// never below minTruncated tokens; an item within its share is kept whole.
func TestShares(t *testing.T) {
	for _, tc := range []struct {
		name   string
		texts  []string
		budget int
		cut    []bool
	}{
		{"one long among short", []string{strings.Repeat("word ", 200), "short", ""}, 400, []bool{true, false, false}},
		{"all within", []string{"a b c", "d e f"}, 400, []bool{false, false}},
		{"tiny share floored", []string{strings.Repeat("word ", 40), strings.Repeat("word ", 40)}, 10, []bool{true, true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var cs []*candidate
			for i, tx := range tc.texts {
				cs = append(cs, &candidate{hit: index.Result{Chunk: int64(i), Path: "n.md", Text: tx}})
			}
			got := shares(cs, nil, tc.budget)
			n := 0
			for _, tx := range tc.texts {
				if strings.TrimSpace(tx) != "" {
					n++
				}
			}
			share := max(minTruncated, (tc.budget-text.EstimateTokens(render(nil, nil, nil)))/n)
			for i, g := range got {
				if cut := g != tc.texts[i]; cut != tc.cut[i] {
					t.Errorf("item %d cut %v, want %v", i, cut, tc.cut[i])
				}
				if g != tc.texts[i] && (!strings.HasSuffix(g, truncationMarker) || text.EstimateTokens(g) > share) {
					t.Errorf("item %d: %d tokens for a share of %d, or no marker: %q", i, text.EstimateTokens(g), share, g)
				}
			}
		})
	}
}

func TestParseBudgetFill(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{{"", DefaultBudgetFill, true}, {"greedy", FillGreedy, true}, {"shared", FillShared, true}, {"fair", "", false}} {
		got, err := ParseBudgetFill(tc.in)
		if got != tc.want || (err == nil) != tc.ok {
			t.Errorf("%q: %q, %v", tc.in, got, err)
		}
	}
}
