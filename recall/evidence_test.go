package recall_test

import (
	"context"
	"testing"

	"github.com/vaultmem/vaultmem/recall"
)

// TestRecallWithoutEvidence: a question that shares no word with any note
// gets no context and says so, rather than the notes nearest to nothing;
// a question with evidence gets it.
func TestRecallWithoutEvidence(t *testing.T) {
	// Every fixture vault and a few notes: words enough for the LSA model
	// to place any question near some note.
	ix, _ := testIndex(t, "", map[string]string{
		"deploys.md":   "# Deploys\n\nDeploys go out on Tuesdays after the release freeze; the pipeline ships every service.\n",
		"freeze.md":    "# Freeze\n\nThe release freeze stops deploys; the pipeline waits for the freeze to end.\n",
		"bread.md":     "# Bread\n\nKnead the dough, let the bread rise overnight and bake it in a hot oven.\n",
		"oven.md":      "# Oven\n\nThe oven bakes bread and cakes; heat it before the dough goes in.\n",
		"moon.md":      "# Moon\n\nThe moon orbits the earth; its phases follow the sun's light.\n",
		"telescope.md": "# Telescope\n\nA telescope shows the moon's craters and the planets at night.\n",
	})
	e := recall.New(ix.Recall(), recall.Options{NoDeadlines: true})
	for _, tc := range []struct {
		query      string
		noEvidence bool
	}{
		{"xylophonist zzyzx", true},
		{"who is the xylophonist of zzyzx?", true},
		{"when do deploys go out?", false},
	} {
		res, err := e.Recall(context.Background(), recall.Request{Query: tc.query})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := res.NoEvidence, tc.noEvidence; got != want {
			t.Errorf("Recall(%q).NoEvidence = %v, want %v", tc.query, got, want)
		}
		if got, want := len(res.Items) == 0 && res.Context == "", tc.noEvidence; got != want {
			t.Errorf("Recall(%q): %d items, %d bytes of context; want an empty context: %v", tc.query, len(res.Items), len(res.Context), want)
		}
	}
}
