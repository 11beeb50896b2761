package recall_test

import (
	"context"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/recall"
)

// TestRecallHidden: a hidden note (a teammate's user memory) is never
// given, whichever engine or route finds it, while the notes around it
// still are; without Hidden it is given.
func TestRecallHidden(t *testing.T) {
	notes := map[string]string{
		"memory/ann-language.md": "---\nname: Ann's language\ntype: user\nowner: ann@example.com\n---\nAnswer in French; Ann reads [[Style guide]] first.\n",
		"memory/bob-language.md": "---\nname: Bob's language\ntype: user\nowner: bob@example.com\n---\nAnswer in German, as [[Style guide]] allows.\n",
		"Style guide.md":         "# Style guide\n\nAnswers follow the reader's language: French, German or English.\n",
	}
	ix, _ := testIndex(t, "memory-folder", notes)
	e := recall.New(ix.Recall(), recall.Options{NoDeadlines: true})
	for _, intent := range []recall.Intent{recall.SimpleFact, recall.Preference, recall.Relationship, recall.Hybrid} {
		for _, hidden := range []map[string]bool{nil, {"memory/bob-language.md": true}} {
			res, err := e.Recall(context.Background(), recall.Request{Query: "which language should answers be in, French or German?", Intent: intent, Budget: 800, Hidden: hidden})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]bool{}
			for _, it := range res.Items {
				got[it.Path] = true
			}
			if got["memory/bob-language.md"] != (hidden == nil) || !got["memory/ann-language.md"] || !got["Style guide.md"] {
				t.Errorf("%s, hidden %v: items %v", intent, hidden, got)
			}
			if hidden != nil && strings.Contains(res.Context, "German, as") {
				t.Errorf("%s: the hidden note's text is in the context:\n%s", intent, res.Context)
			}
		}
	}
}
