package recall_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/recall"
)

// The working memory (L1): what an agent was given is not given again,
// and the stages search on for what it does not have.
func TestRecallGivesNothingTwice(t *testing.T) {
	ix, _ := testIndex(t, "memory-folder", extraNotes)
	e := recall.New(ix.Recall(), recall.Options{NoDeadlines: true})
	ctx := context.Background()
	q := recall.Request{Query: "When do deploys go out?", Budget: 400}
	first, err := e.Recall(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Items) == 0 || first.Repeats != 0 {
		t.Fatalf("first recall: %d items, %d repeats", len(first.Items), first.Repeats)
	}
	given := map[string]bool{}
	for _, it := range first.Items {
		given[recall.ItemKey(it.Path, it.Heading, it.Block)] = true
	}
	q.Given = given
	second, err := e.Recall(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range second.Items {
		if given[recall.ItemKey(it.Path, it.Heading, it.Block)] {
			t.Errorf("given again: %s#%s", it.Path, it.Heading)
		}
	}
	if second.Repeats == 0 {
		t.Errorf("repeats = 0, want the %d items left out counted", len(first.Items))
	}
	if second.NoEvidence {
		t.Error("NoEvidence for a question whose answer was given already")
	}

	// A whole note given (a read of it) stands for every chunk of it.
	q.Given = map[string]bool{"deploys.md": true}
	third, err := e.Recall(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(third.Items, func(it recall.Item) bool { return it.Path == "deploys.md" }) {
		t.Errorf("a note read whole was given again: %+v", third.Items)
	}
}

// A note the agent just wrote ranks a little higher, and says why.
func TestRecallPrefersWhatTheAgentJustWrote(t *testing.T) {
	ix, _ := testIndex(t, "memory-folder", extraNotes)
	e := recall.New(ix.Recall(), recall.Options{NoDeadlines: true})
	ctx := context.Background()
	q := recall.Request{Query: "When do deploys go out?", Budget: 2000}
	before, err := e.Recall(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	// The lowest-ranked note of the answer is the one the agent wrote.
	var last string
	for _, it := range before.Items {
		if it.Path != before.Items[0].Path {
			last = it.Path
		}
	}
	if last == "" {
		t.Fatalf("one note only: %+v", before.Items)
	}
	q.Recent = map[string]bool{last: true}
	after, err := e.Recall(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	rank := func(res *recall.Result) (int, recall.Item) {
		for i, it := range res.Items {
			if it.Path == last {
				return i, it
			}
		}
		return -1, recall.Item{}
	}
	b, _ := rank(before)
	a, it := rank(after)
	if a < 0 || a > b {
		t.Errorf("%s ranked %d before, %d after it was written", last, b, a)
	}
	if !strings.Contains(it.Why, "written in this session") {
		t.Errorf("why = %q, want it to say the agent wrote it", it.Why)
	}
	if after.Items[a].Score <= before.Items[b].Score {
		t.Errorf("score %v after, %v before: no boost", after.Items[a].Score, before.Items[b].Score)
	}
}
