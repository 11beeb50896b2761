package recall

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

// TestIntentRulesOnLabelledSet scores what recall classifies with when it
// has no LLM (the rules, and the examples classifier when they are
// unsure: see classifyLocal) on labelled sets of questions (English and
// Chinese, all six intents), logs the rules' accuracy alone beside it and
// the per-intent confusion matrix (go test -v -run
// TestIntentRulesOnLabelledSet ./recall). The floors are the accuracies
// reached now: a change that loses questions fails them. The first five
// sets are what the examples classifier is trained on (intentdata).
func TestIntentRulesOnLabelledSet(t *testing.T) {
	for _, set := range []struct {
		file  string
		floor float64
		least int
	}{
		// Tuned on: the rules were changed while looking at its misses.
		{"intentdata/intents.tsv", 0.98, 200},
		// The first held-out set: written after the rules were tuned on
		// intents.tsv; scored 0.738 held out, then tuned on too (its
		// misses gave the cues for stances, "what's behind", "how did X
		// get in", shared and tied things, milestones, progress).
		{"intentdata/intents-heldout.tsv", 0.97, 40},
		// The second held-out set, written before that tuning: 0.750
		// before it, 0.792 after; then tuned on too (its misses gave the
		// cues for "am I a", "annoys me", "my usual", "which services
		// call", "how are A and B linked", "need to know", "state of",
		// "all about").
		{"intentdata/intents-heldout2.tsv", 0.97, 48},
		// The third set, written before those cues, never tuned on: the
		// rules alone 0.817 before them and after; 0.917 with the
		// examples classifier (trained on the first three sets) when held
		// out. Trained on since.
		{"intentdata/intents-heldout3.tsv", 0.90, 60},
		// The fourth set, written after the examples classifier was
		// built: 0.883 held out (the rules alone 0.833). Trained on since.
		{"intentdata/intents-heldout4.tsv", 0.88, 60},
		// Held out: the fifth set, written before the classifier was
		// trained on the third and fourth sets, and scored once after.
		{"testdata/intents-heldout5.tsv", heldOutFloor, 60},
	} {
		t.Run(set.file, func(t *testing.T) { scoreIntents(t, set.file, set.floor, set.least) })
	}
}

func scoreIntents(t *testing.T, file string, floor float64, least int) {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	questions, err := readLabelled(file, data)
	if err != nil {
		t.Fatal(err)
	}
	confusion := map[Intent]map[Intent]int{}
	total, right, rulesRight := 0, 0, 0
	for _, lq := range questions {
		want, q := lq.intent, lq.text
		rules := ClassifyRules(q)
		if rules.Confidence < rulesThreshold { // what recall does with an unsure answer
			rules.Intent = Hybrid
		}
		if rules.Intent == want {
			rulesRight++
		}
		got := classifyLocal(q).Intent // what recall uses without an LLM
		if confusion[want] == nil {
			confusion[want] = map[Intent]int{}
		}
		confusion[want][got]++
		total++
		if got == want {
			right++
		} else if testing.Verbose() {
			t.Logf("%-20s got %-20s %s", want, got, q)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-20s", "want \\ got")
	for _, in := range Intents {
		fmt.Fprintf(&b, " %8.8s", in)
	}
	for _, want := range Intents {
		fmt.Fprintf(&b, "\n%-20s", want)
		for _, got := range Intents {
			fmt.Fprintf(&b, " %8d", confusion[want][got])
		}
	}
	acc := float64(right) / float64(total)
	t.Logf("%d questions, %d right: accuracy %.3f (the rules alone: %.3f)\n%s", total, right, acc,
		float64(rulesRight)/float64(total), b.String())
	if total < least {
		t.Errorf("%s has %d questions, want at least %d", file, total, least)
	}
	if acc < floor {
		t.Errorf("accuracy %.3f fell below %.2f", acc, floor)
	}
}

// heldOutFloor is the accuracy on the held-out set, rounded down.
const heldOutFloor = 0.90

// TestExamplesClassifier: questions no cue of the rules matches are
// classified by the labelled questions they resemble when that is sure
// enough, and are hybrid (the rules' unsure answer) when it is not; a
// question the rules are sure of keeps their answer.
func TestExamplesClassifier(t *testing.T) {
	for q, want := range map[string]Intent{
		"Fill me in on the search rewrite.": Hybrid,
		"Run me through the auth project.":  Hybrid,
	} {
		got := classifyLocal(q)
		if got.Intent != want || got.Classifier != "examples" || got.Confidence < rulesThreshold {
			t.Errorf("%q: %+v, want %s from the examples", q, got, want)
		}
		if again := classifyLocal(q); !reflect.DeepEqual(again, got) {
			t.Errorf("%q: %+v, then %+v", q, got, again)
		}
	}
	q := "Whose code review blocked the release?"
	if b := examples().classify(q); b.Confidence >= rulesThreshold {
		t.Fatalf("%q: the examples are sure (%+v): pick a question they are not sure of", q, b)
	}
	if got := classifyLocal(q); got.Intent != Hybrid || got.Classifier != "rules" {
		t.Errorf("%q, the examples unsure: %+v, want the rules' hybrid", q, got)
	}
	if got := classifyLocal("Why did the deploy fail?"); got.Intent != Causal || got.Classifier != "rules" {
		t.Errorf("a causal question: %+v", got)
	}
}

func TestTrainBayesNamesABadLine(t *testing.T) {
	for _, bad := range []string{"simple fact\tWho owns it?", "simple-fact Who owns it?", "simple-fact\t  "} {
		_, err := trainBayes(fstest.MapFS{"intentdata/a.tsv": {Data: []byte("# labelled\nsimple-fact\tWhat port?\n" + bad + "\n")}})
		if err == nil || !strings.Contains(err.Error(), "intentdata/a.tsv:3") {
			t.Errorf("%q: err = %v, want the file and line 3", bad, err)
		}
	}
	if _, err := trainBayes(fstest.MapFS{}); err == nil {
		t.Error("no labelled questions: no error")
	}
}
