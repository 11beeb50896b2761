package recall

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/text"
)

// TestBudgetFills fills the same fixed candidate list, a long item ranked
// first and three short ones after it, with each fill: greedy lets the
// first take the budget; shared shares it (see shares), truncates the long
// one with the marker and keeps the rank order.
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
			if cut := len(res.Items) > 1; cut != tc.longCut {
				t.Errorf("the long item has %d tokens of %d, beside %d others; cut to its share: %v, want %v", first.Tokens, budget, len(res.Items)-1, cut, tc.longCut)
			}
			for i, it := range res.Items[1:] {
				if it.Text != texts[i+1] {
					t.Errorf("short item %d changed: %q", i+1, it.Text)
				}
			}
		})
	}
}

// TestShares: the budget is shared among as many items as fit with their
// frames and minShare tokens each, by water-filling: items that fit whole
// are kept whole, an item shorter than its share keeps all of it, a longer
// one is cut with the marker, and the items past those sharing keep their
// text (the fill drops them).
func TestShares(t *testing.T) {
	long := strings.Repeat("word ", 200) // 250 tokens
	for _, tc := range []struct {
		name   string
		texts  []string
		budget int
		cut    []bool
	}{
		{"all fit whole", []string{long, "short", ""}, 400, []bool{false, false, false}},
		{"one long among short", []string{long, "short", "also short"}, 150, []bool{true, false, false}},
		{"two long share", []string{long, long}, 200, []bool{true, true}},
		{"too small for two: one shares", []string{long, long}, 40, []bool{true, false}},
		{"all within", []string{"a b c", "d e f"}, 400, []bool{false, false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var cs []*candidate
			for i, tx := range tc.texts {
				cs = append(cs, &candidate{hit: index.Result{Chunk: int64(i), Path: fmt.Sprintf("n%d.md", i), Text: tx}})
			}
			got := shares(cs, nil, tc.budget)
			var kept []*candidate
			var texts []string
			for i, g := range got {
				if cut := g != tc.texts[i]; cut != tc.cut[i] {
					t.Errorf("item %d cut %v, want %v", i, cut, tc.cut[i])
				}
				if g != tc.texts[i] && !strings.HasSuffix(g, truncationMarker) {
					t.Errorf("item %d cut without the marker: %q", i, g)
				}
				if tc.cut[i] {
					kept, texts = append(kept, cs[i]), append(texts, g)
				}
			}
			if len(kept) > 1 {
				if n := text.EstimateTokens(render(nil, kept, texts)); n > tc.budget {
					t.Errorf("the items cut to their shares take %d tokens of %d", n, tc.budget)
				}
			}
		})
	}
}

func TestWaterLevel(t *testing.T) {
	for _, tc := range []struct {
		sizes       []int
		total, want int
	}{
		{[]int{10, 10}, 100, 10}, {[]int{100, 10}, 60, 50}, {[]int{100, 100}, 60, 30}, {[]int{5, 100, 7}, 42, 30}, {[]int{3}, 1, 1},
	} {
		if got := waterLevel(tc.sizes, tc.total); got != tc.want {
			t.Errorf("waterLevel(%v, %d) = %d, want %d", tc.sizes, tc.total, got, tc.want)
		}
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
