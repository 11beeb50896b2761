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

// TestLocomoEvidenceRecall runs the LoCoMo evaluation when the data is
// there (../shared/data/locomo-dev) and keeps recall above a floor a
// little under what it reaches (0.829 overall, 0.536 multi-hop). It runs
// twice, ranking with FTS5 and with the resident in-memory lexicon: the
// scores must be the same.
func TestLocomoEvidenceRecall(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "data", "locomo-dev")
	if _, err := os.Stat(filepath.Join(dir, "qa.jsonl")); err != nil {
		t.Skip("LoCoMo data not here:", err)
	}
	if testing.Short() {
		t.Skip("slow")
	}
	rep, err := eval.LoCoMo(context.Background(), dir, eval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Scores["recall"]
	if r.Overall < 0.81 || r.ByCategory["multi-hop"] < 0.51 {
		t.Errorf("LoCoMo evidence recall fell: %+v", r)
	}
	if len(r.ByConversation) != 2 || r.ByConversation["conv-26"].Overall == 0 || r.ByConversation["conv-30"].Overall == 0 {
		t.Errorf("per-conversation figures: %+v", r.ByConversation)
	}
	if k := rep.Scores["keyword"]; r.Overall <= k.Overall {
		t.Errorf("recall (%.3f) no better than plain keyword search (%.3f)", r.Overall, k.Overall)
	}
	resident, err := eval.LoCoMo(context.Background(), dir, eval.Options{Index: index.Options{Resident: true}, Answers: true})
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
