package router

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// Train replays recs into m in slice order, one [Model.Learn] per
// candidate of each record: the lesson the record reports helped if its
// outcome is [Success] and did not if it is [Failure]; every other
// candidate shown did not (it was shown and it was not the one that was
// applied and worked). A record whose lesson is not among its shown
// candidates (or that shows none) adds its lesson with relevance and
// strength 0, as unknown. Records with any other outcome are skipped.
func (m *Model) Train(recs []Record) {
	var buf []uint32
	for _, r := range recs {
		buf = m.train(r, buf)
	}
}

// train is Train of one record, with a scratch buffer it returns.
func (m *Model) train(r Record, buf []uint32) []uint32 {
	if r.Outcome != Success && r.Outcome != Failure {
		return buf
	}
	ctx := hashTerms(contextTerms(r.Situation()))
	success := r.Outcome == Success
	found := false
	for _, s := range r.Shown {
		it := s.Path == r.Lesson
		found = found || it
		buf = m.learn(ctx, s.Candidate(), it && success, buf)
	}
	if !found {
		buf = m.learn(ctx, Candidate{Path: r.Lesson}, success, buf)
	}
	return buf
}

// Report is what [Replay] measured. The rates are fractions of Test, 0
// when Test is 0:
//
//   - P1 (hit@1) counts the records whose succeeded lesson is first in
//     the order;
//   - P3 (hit@3) counts those whose succeeded lesson is among the first
//     three. Each record knows one lesson that helped, so this is
//     precision@3 as a hit rate (precision@3 proper would be a third of
//     it); with 3 or fewer candidates shown it is 1 for both orders.
//
// Static is the order by [Static], ties by path; Learned is
// [Model.Rerank]'s.
type Report struct {
	Train int `json:"train"` // records trained on before the test part
	Held  int `json:"held"`  // records in the test part, all learned online after scoring
	Test  int `json:"test"`  // records of the test part scored: a success, ≥2 shown, its lesson among them

	StaticP1  float64 `json:"static_p1"`
	LearnedP1 float64 `json:"learned_p1"`
	StaticP3  float64 `json:"static_p3"`
	LearnedP3 float64 `json:"learned_p3"`
}

// Replay evaluates a fresh model, New(o), against the static order on
// recs in time order, as it would have run. It sorts a copy of recs by
// Time (stably), trains the model on the first trainFrac of them (taken
// within [0, 1]; NaN as 0), and then goes through the rest: each record
// that has outcome [Success], at least two candidates shown and its lesson
// among them is scored by both orders, and then every record of the rest
// is learned from, after it was scored (prequential evaluation). recs is
// not modified.
func Replay(recs []Record, trainFrac float64, o Options) Report {
	return replay(recs, trainFrac, o, nil)
}

// replay is Replay, also calling visit, when it is not nil, with every
// record of the test part that shows candidates, its index in time order
// and the model's order of its candidates, before learning from it.
func replay(recs []Record, trainFrac float64, o Options, visit func(i int, r Record, learned []Candidate)) Report {
	sorted := slices.Clone(recs)
	slices.SortStableFunc(sorted, func(a, b Record) int { return a.Time.Compare(b.Time) })
	if !(trainFrac > 0) {
		trainFrac = 0
	}
	n := int(math.Round(min(trainFrac, 1) * float64(len(sorted))))
	m := New(o)
	m.Train(sorted[:n])
	rep := Report{Train: n, Held: len(sorted) - n}
	var s1, s3, l1, l3 int
	var buf []uint32
	for j, r := range sorted[n:] {
		if visit != nil && len(r.Shown) > 0 {
			cs := make([]Candidate, len(r.Shown))
			for i, s := range r.Shown {
				cs[i] = s.Candidate()
			}
			visit(n+j, r, m.Rerank(r.Situation(), cs))
		}
		if r.Outcome == Success && len(r.Shown) >= 2 && slices.ContainsFunc(r.Shown, func(s Shown) bool { return s.Path == r.Lesson }) {
			cs := make([]Candidate, len(r.Shown))
			for i, s := range r.Shown {
				cs[i] = s.Candidate()
			}
			rep.Test++
			static := staticOrder(cs)
			learned := m.Rerank(r.Situation(), cs)
			s1 += hits(static[:1], r.Lesson)
			l1 += hits(learned[:1], r.Lesson)
			s3 += hits(static[:min(3, len(static))], r.Lesson)
			l3 += hits(learned[:min(3, len(learned))], r.Lesson)
		}
		buf = m.train(r, buf)
	}
	if rep.Test > 0 {
		t := float64(rep.Test)
		rep.StaticP1, rep.StaticP3 = float64(s1)/t, float64(s3)/t
		rep.LearnedP1, rep.LearnedP3 = float64(l1)/t, float64(l3)/t
	}
	return rep
}

// staticOrder returns cs ordered by Static, best first, ties by path.
func staticOrder(cs []Candidate) []Candidate {
	out := slices.Clone(cs)
	slices.SortStableFunc(out, func(a, b Candidate) int {
		if c := cmp.Compare(Static(b), Static(a)); c != 0 {
			return c
		}
		return strings.Compare(a.Path, b.Path)
	})
	return out
}

// hits returns 1 if a candidate in cs is the lesson at path, else 0.
func hits(cs []Candidate, path string) int {
	for _, c := range cs {
		if c.Path == path {
			return 1
		}
	}
	return 0
}
