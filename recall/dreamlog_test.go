package recall_test

import (
	"context"
	"testing"

	"github.com/vaultmem/vaultmem/recall"
)

// TestRecallLeavesOutDreamLog: Dream's log holds the memories' own words,
// but recall never gives it: not found by search, nor opened as a note a
// hit links to with a label holding a word of the question.
func TestRecallLeavesOutDreamLog(t *testing.T) {
	ix, _ := testIndex(t, "memory-folder", map[string]string{
		"memory/dream-log.md": "---\ntype: dream-log\ndescription: What vaultmem's Dream pass changed in the memories, one entry per run.\n---\n\n" +
			"# Dream log\n\n## 2026-03-06 02:00 UTC\n\n" +
			"- Merged the release freeze memories into [[project_freeze]] (merge freeze for the mobile release branch)\n" +
			"- Flagged [[feedback_testing]] and [[user_role]] for review: integration tests, real database, mocks, migration\n",
		"notes/release.md": "# Release\n\nThe release freeze changes are in [[dream-log|the freeze history]].\n",
	})
	e := recall.New(ix.Recall(), recall.Options{NoDeadlines: true})
	for _, q := range []string{
		"release freeze",
		"what is the freeze history?",
		"integration tests with a real database or mocks?",
		"dream log",
	} {
		for _, intent := range []recall.Intent{"", recall.Relationship, recall.Hybrid} {
			res, err := e.Recall(context.Background(), recall.Request{Query: q, Intent: intent, Budget: 2000})
			if err != nil {
				t.Fatal(err)
			}
			for _, it := range res.Items {
				if it.Path == "memory/dream-log.md" {
					t.Errorf("Recall(%q, intent %q) gives the dream log (%s)", q, intent, it.Why)
				}
			}
		}
	}
}
