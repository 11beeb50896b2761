package dream

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/memory"
)

// labelledPair is one line of testdata/duplicate-pairs.tsv: two memory
// texts and whether they are the same memory ("dup"), say different
// things ("distinct"), or one denies the other ("contradiction"); kind is
// what differs.
type labelledPair struct {
	label, kind, lang, a, b string
	line                    int
}

func readPairs(t *testing.T) []labelledPair {
	t.Helper()
	f, err := os.Open("testdata/duplicate-pairs.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []labelledPair
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if n == 1 {
			continue // the header
		}
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) != 5 {
			t.Fatalf("testdata/duplicate-pairs.tsv:%d: %d fields, want 5", n, len(fs))
		}
		out = append(out, labelledPair{fs[0], fs[1], fs[2], fs[3], fs[4], n})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// pairMems are the two texts as memories of one type, both changed since
// the checkpoint, as a run would plan them.
func pairMems(a, b string) []*mem {
	var out []*mem
	for i, body := range []string{a, b} {
		p := fmt.Sprintf("memory/%c.md", 'a'+i)
		n := markdown.Parse(p, []byte(memoryNote(string(rune('A'+i)), "feedback", "", "", body+"\n")))
		out = append(out, &mem{path: p, kind: memory.Type(n.Type()), name: string(rune('A' + i)), note: n, changed: true})
	}
	return out
}

// TestDuplicateRuleOnLabelledSet measures Dream's duplicate rule on a
// labelled set of 547 pairs written apart from the rule (English and
// Chinese; reworded duplicates, and near-identical pairs that differ in a
// number, date, version, duration, unit, negation, person, owner,
// product, platform or polarity word): no pair of different meaning may
// be merged. It logs precision and recall (go test -v -run
// TestDuplicateRuleOnLabelledSet ./dream), and checks that every
// contradiction merged as a near duplicate is flagged instead.
func TestDuplicateRuleOnLabelledSet(t *testing.T) {
	pairs := readPairs(t)
	if len(pairs) < 400 {
		t.Fatalf("%d pairs, want at least 400", len(pairs))
	}
	var tp, fp, fn, tn, flagged, contradictions int
	var agreeDup, agreeOther int // pairs text.Differ alone takes for the same meaning
	missed := map[string]int{}
	for _, lp := range pairs {
		ms := pairMems(lp.a, lp.b)
		p := &plan{fresh: map[pair]bool{}}
		(&Dreamer{}).duplicatesOf(p, &Report{}, ms)
		merged := len(p.merges) == 1
		_, contra := contradiction(ms[0], ms[1])
		if _, differs := differ(ms[0], ms[1]); !differs && lp.label == "dup" {
			agreeDup++
		} else if !differs {
			agreeOther++
			t.Errorf("testdata/duplicate-pairs.tsv:%d: %s pair (%s) taken for the same meaning: %q / %q", lp.line, lp.label, lp.kind, lp.a, lp.b)
		}
		switch {
		case lp.label == "dup" && merged:
			tp++
		case lp.label == "dup":
			fn++
			missed[lp.lang]++
			if testing.Verbose() {
				diff, _ := differ(ms[0], ms[1])
				t.Logf("line %d: duplicate not merged (%v): %q / %q", lp.line, diff, lp.a, lp.b)
			}
		case merged:
			fp++
			t.Errorf("testdata/duplicate-pairs.tsv:%d: %s pair (%s) merged: %q / %q", lp.line, lp.label, lp.kind, lp.a, lp.b)
		default:
			tn++
		}
		if lp.label == "contradiction" {
			contradictions++
			if contra {
				flagged++
			} else if testing.Verbose() {
				diff, _ := differ(ms[0], ms[1])
				t.Logf("line %d: contradiction not flagged (%v): %q / %q", lp.line, diff, lp.a, lp.b)
			}
		}
		if lp.label == "dup" && contra {
			t.Errorf("testdata/duplicate-pairs.tsv:%d: duplicates flagged as a contradiction: %q / %q", lp.line, lp.a, lp.b)
		}
	}
	precision := float64(tp) / float64(max(1, tp+fp))
	recall := float64(tp) / float64(max(1, tp+fn))
	t.Logf("%d pairs: %d duplicates merged, %d missed (%v), %d false merges, %d distinct kept apart; precision %.3f, recall %.3f; contradictions flagged %d of %d",
		len(pairs), tp, fn, missed, fp, tn, precision, recall, flagged, contradictions)
	t.Logf("the meaning check alone (text.Differ, no similarity bound): %d of %d duplicates and %d of %d others taken for the same meaning",
		agreeDup, tp+fn, agreeOther, fp+tn)
	kinds := map[string]bool{}
	for _, lp := range pairs {
		kinds[lp.kind] = true
	}
	for _, want := range []string{"reworded", "number", "date", "version", "duration", "negation", "person", "owner", "product", "platform", "polarity"} {
		if !kinds[want] {
			t.Errorf("the set has no pair of kind %s", want)
		}
	}
	if !slices.ContainsFunc(pairs, func(lp labelledPair) bool { return lp.lang == "zh" && lp.label != "dup" }) {
		t.Error("the set has no Chinese pair of different meaning")
	}
}
