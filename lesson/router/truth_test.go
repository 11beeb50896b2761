package router

import (
	"slices"
	"testing"
)

// TestReplayAgainstTruth measures what Replay cannot, because a real log
// does not know it: how often the lesson each order puts first would
// actually help (the hidden chance of success, averaged over every record
// of the test part), and Replay's own hit rates for the order by that
// hidden chance (the ceiling). A log only credits an order for the lesson
// the agent happened to apply, and an agent that favours the top of what
// it was shown credits the order it was shown.
func TestReplayAgainstTruth(t *testing.T) {
	for _, cd := range []bool{true, false} {
		for _, topBias := range []float64{0, 0.5} {
			for _, seed := range []uint64{1, 2, 3} {
				w := World{ContextDependent: cd, TopBias: topBias, Seed: seed}
				recs, truths := simulate(w, 3000)
				var static, learned, best float64
				var n int
				rep := replay(recs, 0.5, Options{}, func(i int, r Record, order []Candidate) {
					truth := func(c Candidate) float64 {
						return truths[i][slices.IndexFunc(r.Shown, func(s Shown) bool { return s.Path == c.Path })]
					}
					cs := make([]Candidate, len(r.Shown))
					for j, s := range r.Shown {
						cs[j] = s.Candidate()
					}
					static += truth(staticOrder(cs)[0])
					learned += truth(order[0])
					best += slices.Max(truths[i])
					n++
				})
				o1, o3 := ceiling(recs[rep.Train:], truths[rep.Train:])
				t.Logf("cd=%v topbias=%v seed=%d: P@1 static %.3f learned %.3f ceiling %.3f; P@3 static %.3f learned %.3f ceiling %.3f; true success of the first: static %.3f learned %.3f best %.3f",
					cd, topBias, seed, rep.StaticP1, rep.LearnedP1, o1, rep.StaticP3, rep.LearnedP3, o3,
					static/float64(n), learned/float64(n), best/float64(n))
				if cd && learned <= static {
					t.Errorf("cd=%v topbias=%v seed=%d: the learned first helps %.3f of the time, the static first %.3f",
						cd, topBias, seed, learned/float64(n), static/float64(n))
				}
			}
		}
	}
}

// ceiling returns Replay's P@1 and P@3 for the order by the hidden chance
// of success (ties in the shown order) over recs.
func ceiling(recs []Record, truths [][]float64) (p1, p3 float64) {
	var n int
	for i, r := range recs {
		at := slices.IndexFunc(r.Shown, func(s Shown) bool { return s.Path == r.Lesson })
		if r.Outcome != Success || len(r.Shown) < 2 || at < 0 {
			continue
		}
		n++
		// The lesson's rank in the order by truth: the candidates that
		// beat it, by chance or by a tie earlier in the list.
		rank := 0
		for j, p := range truths[i] {
			if p > truths[i][at] || p == truths[i][at] && j < at {
				rank++
			}
		}
		if rank == 0 {
			p1++
		}
		if rank < 3 {
			p3++
		}
	}
	if n == 0 {
		return 0, 0
	}
	return p1 / float64(n), p3 / float64(n)
}
