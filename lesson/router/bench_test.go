package router_test

import (
	"testing"

	"github.com/vaultmem/vaultmem/lesson/router"
)

// benchSetup returns a model trained on a simulated log and one of the
// log's situations with ten candidates.
func benchSetup(b *testing.B) (*router.Model, router.Situation, []router.Candidate) {
	b.Helper()
	recs := router.Simulate(router.World{Lessons: 40, Shown: 10, ContextDependent: true, Seed: 1}, 1000)
	m := router.New(router.Options{})
	m.Train(recs)
	r := recs[len(recs)-1]
	cs := make([]router.Candidate, len(r.Shown))
	for i, s := range r.Shown {
		cs[i] = s.Candidate()
	}
	return m, r.Situation(), cs
}

func BenchmarkRerank(b *testing.B) {
	m, s, cs := benchSetup(b)
	b.ReportAllocs()
	for b.Loop() {
		m.Rerank(s, cs)
	}
}

func BenchmarkScore(b *testing.B) {
	m, s, cs := benchSetup(b)
	b.ReportAllocs()
	for b.Loop() {
		m.Score(s, cs[0])
	}
}

func BenchmarkLearn(b *testing.B) {
	m, s, cs := benchSetup(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		m.Learn(s, cs[i%len(cs)], i%10 == 0)
		i++
	}
}

// BenchmarkTrain is the replay of one record of ten candidates.
func BenchmarkTrain(b *testing.B) {
	recs := router.Simulate(router.World{Lessons: 40, Shown: 10, ContextDependent: true, Seed: 1}, 1000)
	m := router.New(router.Options{})
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		m.Train(recs[i%len(recs) : i%len(recs)+1])
		i++
	}
}
