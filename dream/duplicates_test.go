package dream

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/dream/similar"
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
		out = append(out, &mem{Memory: &similar.Memory{Path: p, Kind: memory.Type(n.Type()), Name: string(rune('A' + i)), Note: n, Changed: true}})
	}
	return out
}

// outcome is what Dream makes of a pair of memories: merged, listed for
// review as possible duplicates, flagged as a contradiction, or left alone.
type outcome string

const (
	outMerged  outcome = "merged"
	outListed  outcome = "listed"
	outFlagged outcome = "flagged"
	outNone    outcome = "none"
)

// pairOutcome plans a and b as two changed memories of one type, as a run
// would, and says what becomes of them.
func pairOutcome(t *testing.T, a, b string) outcome {
	t.Helper()
	ms := pairMems(a, b)
	p := &plan{fresh: map[pair]bool{}}
	(&Dreamer{}).duplicatesOf(context.Background(), p, &Report{}, ms)
	switch {
	case len(p.merges) == 1:
		return outMerged
	case func() bool { _, c := similar.Contradiction(ms[0].Memory, ms[1].Memory); return c }():
		return outFlagged
	case len(p.similar) == 1:
		return outListed
	}
	return outNone
}

// TestDuplicateRuleOnLabelledSet measures Dream's merge rule on the
// labelled set of testdata/duplicate-pairs.tsv, written apart from the
// rule: no pair of different meaning may be merged; at least 90% of the
// duplicates must be merged or listed for review, and at least 90% of the
// contradictions flagged. It logs a table per kind of pair (go test -v -run
// TestDuplicateRuleOnLabelledSet ./dream), the one BENCHMARKS.md shows.
func TestDuplicateRuleOnLabelledSet(t *testing.T) {
	pairs := readPairs(t)
	if len(pairs) < 400 {
		t.Fatalf("%d pairs, want at least 400", len(pairs))
	}
	type tally struct {
		label string
		n     int
		by    map[outcome]int
	}
	kinds := map[string]*tally{}
	var order []string
	total := map[string]map[outcome]int{}
	for _, lp := range pairs {
		out := pairOutcome(t, lp.a, lp.b)
		key := lp.label + "\t" + lp.kind
		if kinds[key] == nil {
			kinds[key] = &tally{label: lp.label, by: map[outcome]int{}}
			order = append(order, key)
		}
		kinds[key].n++
		kinds[key].by[out]++
		if total[lp.label] == nil {
			total[lp.label] = map[outcome]int{}
		}
		total[lp.label][out]++
		switch {
		case lp.label != "dup" && out == outMerged:
			t.Errorf("testdata/duplicate-pairs.tsv:%d: %s pair (%s) merged: %q / %q", lp.line, lp.label, lp.kind, lp.a, lp.b)
		case lp.label == "dup" && out == outFlagged:
			t.Errorf("testdata/duplicate-pairs.tsv:%d: duplicates flagged as a contradiction: %q / %q", lp.line, lp.a, lp.b)
		case testing.Verbose() && lp.label == "dup" && out == outNone:
			t.Logf("line %d: duplicate neither merged nor listed: %q / %q", lp.line, lp.a, lp.b)
		case testing.Verbose() && lp.label == "contradiction" && out != outFlagged:
			t.Logf("line %d: contradiction %s, not flagged: %q / %q", lp.line, out, lp.a, lp.b)
		}
	}
	slices.Sort(order)
	var b strings.Builder
	b.WriteString("| label | kind | pairs | merged | listed for review | flagged as contradiction | left alone |\n|---|---|---|---|---|---|---|\n")
	for _, k := range order {
		tl := kinds[k]
		label, kind, _ := strings.Cut(k, "\t")
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d | %d |\n", label, kind, tl.n, tl.by[outMerged], tl.by[outListed], tl.by[outFlagged], tl.by[outNone])
	}
	t.Logf("%d pairs, per kind:\n%s", len(pairs), b.String())
	share := func(label string, outs ...outcome) (int, int) {
		n, hit := 0, 0
		for o, c := range total[label] {
			n += c
			if slices.Contains(outs, o) {
				hit += c
			}
		}
		return hit, n
	}
	if hit, n := share("dup", outMerged, outListed); 10*hit < 9*n {
		t.Errorf("duplicates merged or listed: %d of %d, want at least 90%%", hit, n)
	}
	if hit, n := share("contradiction", outFlagged); 10*hit < 9*n {
		t.Errorf("contradictions flagged: %d of %d, want at least 90%%", hit, n)
	}
	if hit, _ := share("distinct", outMerged); hit > 0 {
		t.Errorf("%d pairs of different meaning merged", hit)
	}
}
