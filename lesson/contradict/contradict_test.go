package contradict

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// generatedLessons are n live lessons as package lesson gives them, drawn with seed:
// triggers of one to six words from a small vocabulary (so that they
// overlap often, by one word or by half), a tool or a glob now and then,
// sometimes one shared by all (shared: "tool:X", a glob with "*", or
// words); action biases that say do or do not about a few of a few
// topics; a few left out (package lesson leaves the archived out), a few
// without polarity.
func generatedLessons(seed uint64, n int, shared string) []Lesson {
	r := rand.New(rand.NewPCG(seed, 29))
	vocab := strings.Fields("deploy release build test tests integration unit migration database schema docker image cache " +
		"index query api client server timeout retry queue worker cron log metric backup restore upgrade module package " +
		"install script shell lint format commit branch review")
	topics := strings.Fields("tabs spaces pnpm npm force push staging production mocks fixtures parallel serial " +
		"vendoring proxies retries sleep")
	markers := []string{"always", "never", "avoid", "use", "do not", "prefer", "don't", "keep", "stop", "consider"}
	tools := []string{"Bash", "Edit", "bash", "Write"}
	pick := func(from []string, k int) string {
		ws := make([]string, k)
		for i := range ws {
			ws[i] = from[r.IntN(len(from))]
		}
		return strings.Join(ws, " ")
	}
	out := make([]Lesson, 0, n)
	for i := range n {
		var trigger []Trigger
		if tool, ok := strings.CutPrefix(shared, "tool:"); ok {
			trigger = append(trigger, Trigger{"tool", tool})
		} else if strings.Contains(shared, "*") {
			trigger = append(trigger, Trigger{"glob", shared})
		} else if shared != "" {
			trigger = append(trigger, Trigger{"words", shared})
		}
		for range 1 + r.IntN(2) {
			trigger = append(trigger, Trigger{"words", pick(vocab, 1+r.IntN(6))})
		}
		if r.IntN(5) == 0 {
			trigger = append(trigger, Trigger{"tool", tools[r.IntN(len(tools))]})
		}
		if r.IntN(8) == 0 {
			trigger = append(trigger, Trigger{"glob", pick(vocab, 1) + "/**/*.go"})
		}
		l := Lesson{Path: fmt.Sprintf("lessons/l%05d.md", i), Trigger: trigger,
			ActionBias: markers[r.IntN(len(markers))] + " " + pick(topics, 1+r.IntN(3))}
		if r.IntN(20) != 0 {
			out = append(out, l)
		}
	}
	return out
}

// allPairsContradictions is the rule applied to every pair of lessons.
func allPairsContradictions(lessons []Lesson) []Contradiction {
	ls := polarLessons(lessons)
	out := []Contradiction{}
	for i := range ls {
		for j := i + 1; j < len(ls); j++ {
			if c, ok := contradiction(&ls[i], &ls[j]); ok {
				out = append(out, c)
			}
		}
	}
	slices.SortFunc(out, func(a, b Contradiction) int {
		return strings.Compare(a.A+"\x00"+a.B, b.A+"\x00"+b.B)
	})
	return out
}

// TestCandidates: the pairs from the index, checked by the
// rule, are exactly the contradictions among all pairs, on generated sets
// of lessons, with and without one trigger shared by all; and the index
// pairs far fewer lessons than all pairs.
func TestCandidates(t *testing.T) {
	for _, tt := range []struct {
		seed   uint64
		n      int
		shared string
	}{
		{1, 600, ""}, {2, 600, ""}, {3, 600, "tool:Bash"}, {4, 600, "deploy"}, {5, 600, "src/**"}, {6, 300, "run the integration tests"},
	} {
		t.Run(fmt.Sprintf("seed=%d/shared=%q", tt.seed, tt.shared), func(t *testing.T) {
			lessons := generatedLessons(tt.seed, tt.n, tt.shared)
			want := allPairsContradictions(lessons)
			pairs, err := candidates(context.Background(), polarLessons(lessons))
			if err != nil {
				t.Fatal(err)
			}
			ls := polarLessons(lessons)
			got := []Contradiction{}
			for _, p := range pairs {
				if c, ok := contradiction(&ls[p[0]], &ls[p[1]]); ok {
					got = append(got, c)
				}
			}
			slices.SortFunc(got, func(a, b Contradiction) int {
				return strings.Compare(a.A+"\x00"+a.B, b.A+"\x00"+b.B)
			})
			if len(want) == 0 {
				t.Fatal("the generated set has no contradiction: it tests nothing")
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got %d contradictions, want %d (all pairs)", len(got), len(want))
				for _, c := range want {
					if !slices.ContainsFunc(got, func(g Contradiction) bool { return g.A == c.A && g.B == c.B }) {
						t.Errorf("missed %s | %s", c.A, c.B)
						break
					}
				}
			}
			all := len(ls) * (len(ls) - 1) / 2
			t.Logf("%d lessons, %d pairs, %d candidates, %d contradictions", len(ls), all, len(pairs), len(want))
			if len(pairs) > all/2 {
				t.Errorf("%d candidates of %d pairs: the index does not narrow them", len(pairs), all)
			}
		})
	}
}

// TestFind: the rule, pair by pair: opposite polarities, a trigger in
// common (a tool or glob, or half the smaller's trigger words) and a topic
// word in common make a contradiction, the earlier path first; anything
// less does not.
func TestFind(t *testing.T) {
	words := func(w string) []Trigger { return []Trigger{{"words", w}} }
	for _, tc := range []struct {
		name string
		a, b Lesson
		want string // "A|B (overlap)", or "" for none
	}{
		{"opposite about the same, same words",
			Lesson{"l/b.md", words("integration tests"), "never reset the database"},
			Lesson{"l/a.md", words("run integration tests"), "always reset the database first"},
			"l/a.md|l/b.md (word:integr, word:test)"},
		{"same polarity", Lesson{"l/a.md", words("integration tests"), "always reset the database"},
			Lesson{"l/b.md", words("integration tests"), "always reset the database first"}, ""},
		{"no topic in common", Lesson{"l/a.md", words("integration tests"), "always reset the database"},
			Lesson{"l/b.md", words("integration tests"), "never run them in parallel"}, ""},
		{"triggers apart", Lesson{"l/a.md", words("write docs"), "always reset the database"},
			Lesson{"l/b.md", words("integration tests"), "never reset the database"}, ""},
		{"a tool in common, whatever its case", Lesson{"l/e.md", []Trigger{{"tool", "Bash"}}, "use set -e"},
			Lesson{"l/f.md", []Trigger{{"tool", "bash"}}, "avoid set -e in loops"}, "l/e.md|l/f.md (tool:bash)"},
		{"no trigger", Lesson{"l/a.md", nil, "always reset the database"},
			Lesson{"l/b.md", nil, "never reset the database"}, ""},
	} {
		cs, err := Find(context.Background(), []Lesson{tc.a, tc.b})
		if err != nil {
			t.Fatal(err)
		}
		var got string
		for _, c := range cs {
			got += fmt.Sprintf("%s|%s (%s)", c.A, c.B, c.Overlap)
		}
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
