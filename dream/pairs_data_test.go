package dream

import (
	"fmt"
	"strings"
	"testing"
)

// TestLabelledPairsShape holds testdata/duplicate-pairs.tsv to the shape
// TestDuplicateRuleOnLabelledSet relies on: enough pairs of each kind
// that a rule cannot look good by meeting only the easy ones (distinct
// pairs one small edit apart, contradictions beyond English, duplicates
// that differ only by the normalisations Dream merges on), and rows a
// measurement can trust (known labels and languages, two different
// texts, no pair counted twice).
func TestLabelledPairsShape(t *testing.T) {
	pairs := readPairs(t)
	if len(pairs) < 400 {
		t.Errorf("%d pairs, want at least 400", len(pairs))
	}

	labels := map[string]bool{"dup": true, "distinct": true, "contradiction": true}
	langs := map[string]bool{"en": true, "zh": true, "ja": true, "de": true, "es": true, "fr": true}
	seen := map[[2]string]int{}
	byLabelKind := map[[2]string]int{}
	byLabel := map[string]int{}
	contradictionsIn := map[string]int{}
	for _, lp := range pairs {
		at := fmt.Sprintf("testdata/duplicate-pairs.tsv:%d", lp.line)
		if !labels[lp.label] {
			t.Errorf("%s: label %q, want dup, distinct or contradiction", at, lp.label)
		}
		if !langs[lp.lang] {
			t.Errorf("%s: lang %q, want one of en, zh, ja, de, es, fr", at, lp.lang)
		}
		if lp.kind == "" || strings.TrimSpace(lp.a) == "" || strings.TrimSpace(lp.b) == "" {
			t.Errorf("%s: empty kind or text", at)
		}
		if lp.a == lp.b {
			t.Errorf("%s: both texts are %q", at, lp.a)
		}
		// A pair listed twice, in either order, would count twice.
		key := [2]string{min(lp.a, lp.b), max(lp.a, lp.b)}
		if first, ok := seen[key]; ok {
			t.Errorf("%s: the pair of line %d again", at, first)
		} else {
			seen[key] = lp.line
		}
		// "contained" means one text is the other with sentences added.
		if lp.kind == "contained" && !strings.Contains(lp.a, lp.b) && !strings.Contains(lp.b, lp.a) {
			t.Errorf("%s: contained pair whose texts do not contain one another", at)
		}
		byLabel[lp.label]++
		byLabelKind[[2]string{lp.label, lp.kind}]++
		if lp.label == "contradiction" {
			contradictionsIn[lp.lang]++
		}
	}

	for _, c := range []struct {
		label, kind string
		want        int
	}{
		{"distinct", "stopword-antonym", 25},
		{"distinct", "symbol", 25},
		{"distinct", "unit", 25},
		{"distinct", "identifier", 25},
		{"distinct", "one-side-words", 25},
		{"distinct", "tense", 25},
		{"distinct", "decimal", 25},
		{"dup", "normalised", 60},
		{"dup", "contained", 15},
		{"dup", "reworded", 25},
	} {
		if got := byLabelKind[[2]string{c.label, c.kind}]; got < c.want {
			t.Errorf("%d %s pairs of kind %s, want at least %d", got, c.label, c.kind, c.want)
		}
	}
	for _, c := range []struct {
		label string
		want  int
	}{
		{"contradiction", 30},
		{"dup", 100},
	} {
		if got := byLabel[c.label]; got < c.want {
			t.Errorf("%d %s pairs, want at least %d", got, c.label, c.want)
		}
	}
	for _, lang := range []string{"zh", "ja", "de", "es", "fr"} {
		if got := contradictionsIn[lang]; got < 2 {
			t.Errorf("%d contradictions in %s, want at least 2", got, lang)
		}
	}
}
