package eval_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/vaultmem/vaultmem/eval"
	"github.com/vaultmem/vaultmem/index"
)

// TestLocomoEvidenceRecallFixture is the recall quality gate that always
// runs: testdata/locomo-mini holds two short conversations invented for
// it, in LoCoMo's shape (qa.jsonl and vault/conv-*/), with 53 questions
// scored and 2 adversarial ones that are not. At 1,000 tokens a context
// holds most of a conversation, so the gate scores 300-token contexts,
// where the retrievers differ: when written, recall reached 0.865 overall
// and 0.759 on the 9 multi-hop questions, plain keyword search 0.670. The
// floors are a little under: about two questions overall, one multi-hop.
func TestLocomoEvidenceRecallFixture(t *testing.T) {
	checkLocomo(t, filepath.Join("testdata", "locomo-mini"), 300, 0.82, 0.65, "conv-a", "conv-b")
}

// TestLocomoEvidenceRecall runs the full LoCoMo development set when
// $VAULTMEM_LOCOMO_DEV names a folder holding it in the layout of
// testdata/locomo-mini (the set is not in the repository: without it this
// test skips and the fixture's gate above stands), and keeps recall above
// a floor a little under what it reaches (0.829 overall, 0.536 multi-hop).
func TestLocomoEvidenceRecall(t *testing.T) {
	dir := os.Getenv("VAULTMEM_LOCOMO_DEV")
	if dir == "" {
		t.Skip("VAULTMEM_LOCOMO_DEV names no LoCoMo development set")
	}
	if _, err := os.Stat(filepath.Join(dir, "qa.jsonl")); err != nil {
		t.Fatalf("VAULTMEM_LOCOMO_DEV=%s: %v", dir, err)
	}
	if testing.Short() {
		t.Skip("slow")
	}
	checkLocomo(t, dir, 0, 0.81, 0.51, "conv-26", "conv-30")
}

// checkLocomo evaluates the LoCoMo-shaped set in dir with contexts of
// budget tokens (0: the default) and fails when recall's evidence recall
// is under overall, or under multiHop on the multi-hop questions, when it
// is no better than plain keyword search, or lacks a figure for one of
// the conversations. It runs twice, ranking with FTS5 and with the
// resident in-memory lexicon: the scores must be the same.
func checkLocomo(t *testing.T, dir string, budget int, overall, multiHop float64, conversations ...string) {
	t.Helper()
	rep, err := eval.LoCoMo(context.Background(), dir, eval.Options{Budget: budget})
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Scores["recall"]
	if r.Overall < overall || r.ByCategory["multi-hop"] < multiHop {
		t.Errorf("LoCoMo evidence recall fell: got overall %.3f, multi-hop %.3f; want at least %.2f and %.2f (%+v)",
			r.Overall, r.ByCategory["multi-hop"], overall, multiHop, r)
	}
	if len(r.ByConversation) != len(conversations) {
		t.Errorf("figures for %d conversations, want %d: %+v", len(r.ByConversation), len(conversations), r.ByConversation)
	}
	for _, c := range conversations {
		if r.ByConversation[c].Overall == 0 {
			t.Errorf("no figure for %s: %+v", c, r.ByConversation)
		}
	}
	if k := rep.Scores["keyword"]; r.Overall <= k.Overall {
		t.Errorf("recall (%.3f) no better than plain keyword search (%.3f)", r.Overall, k.Overall)
	}
	resident, err := eval.LoCoMo(context.Background(), dir, eval.Options{Budget: budget, Index: index.Options{Resident: true}, Answers: true})
	if err != nil {
		t.Fatal(err)
	}
	// The answers are the questions scored, and average to the overall
	// figure.
	sum := 0.0
	for _, a := range resident.Answers {
		sum += a.Recall
	}
	if len(resident.Answers) != resident.Questions || len(rep.Answers) != 0 ||
		math.Abs(sum/float64(len(resident.Answers))-resident.Scores["recall"].Overall) > 1e-9 {
		t.Errorf("%d answers (and %d not asked for) averaging %.4f, for %d questions at %.4f", len(resident.Answers), len(rep.Answers),
			sum/float64(max(1, len(resident.Answers))), resident.Questions, resident.Scores["recall"].Overall)
	}
	if !reflect.DeepEqual(resident.Scores, rep.Scores) {
		t.Errorf("scores with the in-memory lexicon differ from FTS5's:\n%+v\n%+v", resident.Scores, rep.Scores)
	}
}
