package index

import (
	"context"
	"fmt"
	"testing"
)

// topicNotes is a small vault of three topics, each in several notes, so
// that the LSA model fitted on it has words to relate.
var topicNotes = map[string]string{
	"deploys.md":   "# Deploys\n\nDeploys go out on Tuesdays after the release freeze; the pipeline ships every service.\n",
	"rollback.md":  "# Rollback\n\nRoll back a deploy with the pipeline when the canary fails; the release goes out again later.\n",
	"freeze.md":    "# Freeze\n\nThe release freeze stops deploys; the pipeline waits for the freeze to end.\n",
	"bread.md":     "# Bread\n\nKnead the dough, let the bread rise overnight and bake it in a hot oven.\n",
	"oven.md":      "# Oven\n\nThe oven bakes bread and cakes; heat it before the dough goes in.\n",
	"cakes.md":     "# Cakes\n\nCakes need flour, eggs and sugar; bake them in a slow oven.\n",
	"moon.md":      "# Moon\n\nThe moon orbits the earth; its phases follow the sun's light.\n",
	"telescope.md": "# Telescope\n\nA telescope shows the moon's craters and the planets at night.\n",
	"planets.md":   "# Planets\n\nThe planets orbit the sun; at night some shine brighter than stars.\n",
}

// TestSearchNeedsEvidence: a hit needs evidence. A query sharing no word
// with any note finds nothing in any mode (the embedder has no word of it,
// and a chunk with no similarity is no vector hit); a vector hit is more
// similar to the query than the floor; and a new note about a word the
// model never saw ranks first for that word, not behind chunks that rank
// by vector alone with no similarity.
func TestSearchNeedsEvidence(t *testing.T) {
	ctx := context.Background()
	tv := newTestVault(t, "", Options{})
	// Four of each note: more chunks than a hybrid search ranks by vector
	// (30 at least), so that a chunk ranked by vector alone can tie the
	// new note's keyword hit.
	for p, c := range topicNotes {
		for i := range 4 {
			tv.write(fmt.Sprintf("%d/%s", i, p), c)
		}
	}
	tv.sync()

	for _, mode := range []Mode{Keyword, Vector, Hybrid} {
		got, err := tv.ix.Searcher().Search(ctx, Query{Text: "xylophonist zzyzx", Mode: mode})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 0 {
			t.Errorf("%s search for words no note holds: got %d hits (first %s, score %.3f), want none", mode, len(got), got[0].Path, got[0].Score)
		}
	}

	// Every chunk ranked by vector, were they all hits: the ones about
	// other topics are not.
	got, err := tv.ix.Searcher().Search(ctx, Query{Text: "bake bread in the oven", Mode: Vector, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || len(got) >= 4*len(topicNotes) {
		t.Errorf("vector search for bread: %d hits, want some but not all %d notes", len(got), 4*len(topicNotes))
	}
	for _, r := range got {
		if r.Score <= lsaMinSimilarity {
			t.Errorf("vector hit %s has similarity %.3f, not above the floor %.2f", r.Path, r.Score, lsaMinSimilarity)
		}
	}

	tv.write("quokka.md", "# Marsupial\n\nThe quokka lives on Rottnest Island.\n")
	tv.sync()
	got, err = tv.ix.Searcher().Search(ctx, Query{Text: "quokka"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Path != "quokka.md" {
		var paths []string
		for _, r := range got {
			paths = append(paths, r.Path)
		}
		t.Errorf("hybrid search for a word of one new note: got %v, want [quokka.md]", paths)
	}
}
