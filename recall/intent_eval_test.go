package recall

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestIntentRulesOnLabelledSet scores the rules on labelled sets of
// questions (English and Chinese, all six intents) and logs the
// per-intent confusion matrix (go test -v -run
// TestIntentRulesOnLabelledSet ./recall). The floors are the accuracies
// the rules reach now: a change that loses questions fails them.
func TestIntentRulesOnLabelledSet(t *testing.T) {
	for _, set := range []struct {
		file  string
		floor float64
		least int
	}{
		// Tuned on: the rules were changed while looking at its misses.
		{"testdata/intents.tsv", 0.98, 200},
		// The first held-out set: written after the rules were tuned on
		// intents.tsv; scored 0.738 held out, then tuned on too (its
		// misses gave the cues for stances, "what's behind", "how did X
		// get in", shared and tied things, milestones, progress).
		{"testdata/intents-heldout.tsv", 0.97, 40},
		// The second held-out set, written before that tuning: 0.750
		// before it, 0.792 after; then tuned on too (its misses gave the
		// cues for "am I a", "annoys me", "my usual", "which services
		// call", "how are A and B linked", "need to know", "state of",
		// "all about").
		{"testdata/intents-heldout2.tsv", 0.97, 48},
		// Held out: the third set, written before those cues and never
		// tuned on (0.817 before them and after).
		{"testdata/intents-heldout3.tsv", heldOutFloor, 60},
	} {
		t.Run(set.file, func(t *testing.T) { scoreIntents(t, set.file, set.floor, set.least) })
	}
}

func scoreIntents(t *testing.T, file string, floor float64, least int) {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	confusion := map[Intent]map[Intent]int{}
	total, right := 0, 0
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if strings.HasPrefix(text, "#") || strings.TrimSpace(text) == "" {
			continue
		}
		label, q, ok := strings.Cut(text, "\t")
		want, err := ParseIntent(label)
		if !ok || err != nil {
			t.Fatalf("%s:%d: %q is not INTENT<TAB>QUESTION", file, line, text)
		}
		c := ClassifyRules(q)
		got := c.Intent
		if c.Confidence < rulesThreshold { // what recall does with an unsure answer
			got = Hybrid
		}
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
	t.Logf("%d questions, %d right: accuracy %.3f\n%s", total, right, acc, b.String())
	if total < least {
		t.Errorf("%s has %d questions, want at least %d", file, total, least)
	}
	if acc < floor {
		t.Errorf("accuracy %.3f fell below %.2f", acc, floor)
	}
}

// heldOutFloor is the rules' accuracy on the held-out set, rounded down.
const heldOutFloor = 0.81
