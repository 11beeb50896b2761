package recall_test

import (
	"context"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/recall"
)

// TestRecallKeepsAlikeButDistinct: notes alike in words but for a date
// are all recalled (each says something the others do not), while a note
// that says the same as another in other words is dropped as a duplicate.
func TestRecallKeepsAlikeButDistinct(t *testing.T) {
	ix, _ := testIndex(t, "", map[string]string{
		"freeze-march.md": "# Freeze March\n\nThe deploy freeze for the mobile app starts on 2026-03-01 and ends after the release review.\n",
		"freeze-april.md": "# Freeze April\n\nThe deploy freeze for the mobile app starts on 2026-04-01 and ends after the release review.\n",
		"freeze-copy.md":  "# Freeze copy\n\nThe deploy freeze for the mobile app starts on 2026-04-01 and ends after the release review!\n",
		"other.md":        "# Other\n\nBread rises overnight in a warm kitchen.\n",
	})
	e := recall.New(ix.Recall(), recall.Options{NoDeadlines: true})
	res, err := e.Recall(context.Background(), recall.Request{Query: "when does the deploy freeze for the mobile app start?"})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, it := range res.Items {
		paths = append(paths, it.Path)
	}
	got := strings.Join(paths, " ")
	if !strings.Contains(got, "freeze-march.md") || !strings.Contains(got, "freeze-april.md") && !strings.Contains(got, "freeze-copy.md") {
		t.Errorf("recalled %v: want both freezes", paths)
	}
	if strings.Contains(got, "freeze-april.md") && strings.Contains(got, "freeze-copy.md") {
		t.Errorf("recalled %v: the copy says the same as freeze-april", paths)
	}
}
