package embed

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// paraphraseData is a synthetic retrieval benchmark in which queries say
// what a document says in other words. Concepts have three synonyms each;
// topics are sets of concepts; a document is about one or two topics and
// names each concept it mentions by one of its synonyms. A query
// paraphrases one document: some of its concepts, each named by another
// synonym than the document's where overlap is 0 (so the query and its
// document share no word), or by the document's own word with
// probability overlap. Synonyms never meet in one text, only in similar
// contexts, which is exactly what LSA is for and keyword search cannot
// see.
type paraphraseData struct {
	docs    []string
	queries []string
	targets []int // the document each query paraphrases
}

func newParaphraseData(ndocs, nqueries, topics int, overlap float64, seed uint64) *paraphraseData {
	const (
		synonyms      = 3
		topicConcepts = 30
		fillers       = 40 // words of no topic, in every kind of text
	)
	concepts := topics * 15 // a concept is in two topics on average
	r := rand.New(rand.NewPCG(seed, 11))
	word := func(id int) string { // made-up words the stemmer leaves alone
		const cons, vows = "bdfgklmnprtvz", "aeiou"
		b := []byte{}
		for id++; id > 0; id /= 65 {
			b = append(b, cons[id%13], vows[(id/13)%5])
		}
		return string(append(b, 'k'))
	}
	syn := func(concept, s int) string { return word(concept*synonyms + s) }
	filler := func() string { return word(concepts*synonyms + r.IntN(fillers)) }
	topicOf := make([][]int, topics)
	for t := range topicOf {
		for range topicConcepts {
			topicOf[t] = append(topicOf[t], r.IntN(concepts))
		}
	}

	type mention struct{ concept, syn int }
	d := &paraphraseData{}
	mentions := make([][]mention, ndocs)
	for i := range ndocs {
		ts := []int{r.IntN(topics)}
		if r.IntN(3) == 0 {
			ts = append(ts, r.IntN(topics))
		}
		var words []string
		chosen := map[int]int{} // a document calls a concept by one name
		for range 12 + r.IntN(30) {
			if r.IntN(4) == 0 {
				words = append(words, filler())
				continue
			}
			t := ts[r.IntN(len(ts))]
			c := topicOf[t][int(float64(topicConcepts)*math.Pow(r.Float64(), 2))] // some concepts are more common
			s, ok := chosen[c]
			if !ok {
				s = r.IntN(synonyms)
				chosen[c] = s
			}
			mentions[i] = append(mentions[i], mention{c, s})
			words = append(words, syn(c, s))
		}
		d.docs = append(d.docs, strings.Join(words, " "))
	}
	for range nqueries {
		target := r.IntN(ndocs)
		ms := mentions[target]
		if len(ms) < 6 {
			continue
		}
		var words []string
		for _, p := range r.Perm(len(ms))[:4+r.IntN(3)] {
			m := ms[p]
			s := m.syn
			if r.Float64() >= overlap {
				s = (s + 1 + r.IntN(synonyms-1)) % synonyms
			}
			words = append(words, syn(m.concept, s))
		}
		words = append(words, filler())
		d.queries = append(d.queries, strings.Join(words, " "))
		d.targets = append(d.targets, target)
	}
	return d
}

// rankOf returns the rank (0 is first) of doc target by score among
// scores, ties counted against the target.
func rankOf(scores []float64, target int) int {
	rank := 0
	for i, s := range scores {
		if i != target && s >= scores[target] {
			rank++
		}
	}
	return rank
}

type retrieval struct{ recall10, mrr float64 }

func (r retrieval) String() string { return fmt.Sprintf("recall@10 %.3f  MRR %.3f", r.recall10, r.mrr) }

func evaluate(d *paraphraseData, score func(q int) []float64) retrieval {
	var res retrieval
	for q, target := range d.targets {
		rank := rankOf(score(q), target)
		if rank < 10 {
			res.recall10++
		}
		res.mrr += 1 / float64(rank+1)
	}
	n := float64(len(d.targets))
	return retrieval{res.recall10 / n, res.mrr / n}
}

// embedAll folds texts into m with the scaling Σᵖ.
func embedAll(m *LSA, texts []string, power float64) [][]float32 {
	e := m.newEmbedder(power)
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = make([]float32, m.Dimensions())
		e.embed(t, out[i])
	}
	return out
}

// tfidf is the keyword baseline: the text's normalised sublinear TF-IDF
// vector over the model's vocabulary, as a map.
func tfidf(m *LSA, text string) map[int32]float64 {
	counts := map[int32]int{}
	var tok tokenizer
	tok.each(text, func(term []byte) {
		if j, ok := m.vocab[string(term)]; ok {
			counts[j]++
		}
	})
	v := map[int32]float64{}
	var norm float64
	for j, tf := range counts {
		w := float64(termWeight(tf, m.idf[j]))
		v[j] = w
		norm += w * w
	}
	for j := range v {
		v[j] /= math.Sqrt(norm)
	}
	return v
}

// TestFoldInPower compares the fold-in scalings q̂ = Σᵖ Vᵀ tfidf(q) on
// the paraphrase benchmark, next to keyword (TF-IDF cosine) retrieval
// (run it with -v to see the table), and checks that LSA finds documents
// that keywords cannot, and that the chosen foldInPower does at least as
// well as the plain projection when the corpus has more topics than
// dimensions (on real text, where weak dimensions are noisier, p = −1
// falls behind p = 0: see foldInPower).
func TestFoldInPower(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("fits and searches several models: slow in -short and -race")
	}
	powers := []float64{-1, -0.5, 0, 0.5, 1}
	for _, tc := range []struct {
		topics  int
		overlap float64
	}{{60, 0}, {400, 0}, {1000, 0}, {1000, 0.5}} {
		overlap := tc.overlap
		d := newParaphraseData(3000, 200, tc.topics, overlap, 1)
		m, err := FitLSA(context.Background(), d.docs, LSAOptions{})
		if err != nil {
			t.Fatal(err)
		}

		docVecs := make([]map[int32]float64, len(d.docs))
		for i, doc := range d.docs {
			docVecs[i] = tfidf(m, doc)
		}
		keyword := evaluate(d, func(q int) []float64 {
			qv := tfidf(m, d.queries[q])
			scores := make([]float64, len(d.docs))
			for i, dv := range docVecs {
				for j, w := range qv {
					scores[i] += w * dv[j]
				}
			}
			return scores
		})
		t.Logf("%d topics, overlap %.1f, %d dims: keywords  %v", tc.topics, overlap, m.Dimensions(), keyword)

		results := map[float64]retrieval{}
		for _, p := range powers {
			docs, queries := embedAll(m, d.docs, p), embedAll(m, d.queries, p)
			results[p] = evaluate(d, func(q int) []float64 {
				scores := make([]float64, len(docs))
				for i, dv := range docs {
					for c, x := range queries[q] {
						scores[i] += float64(x * dv[c])
					}
				}
				return scores
			})
			t.Logf("%d topics, overlap %.1f, %d dims: LSA p=%+.1f %v", tc.topics, overlap, m.Dimensions(), p, results[p])
		}

		chosen := results[foldInPower]
		if overlap == 0 && chosen.recall10 <= keyword.recall10 {
			t.Errorf("%d topics, no shared words: LSA recall@10 %.3f, not above keywords' %.3f", tc.topics, chosen.recall10, keyword.recall10)
		}
		if tc.topics < 128 {
			continue // fewer topics than dimensions: p > 0 wins, see foldInPower
		}
		if plain := results[0]; chosen.mrr < plain.mrr-0.01 {
			t.Errorf("%d topics, overlap %.1f: the chosen p=%g (MRR %.3f) is more than 0.01 below the plain projection p=0 (MRR %.3f)",
				tc.topics, overlap, float64(foldInPower), chosen.mrr, plain.mrr)
		}
	}
}

// TestParaphraseDataShareNoWords checks the benchmark's premise: with
// overlap 0 a query shares no topic word with its document.
func TestParaphraseDataShareNoWords(t *testing.T) {
	d := newParaphraseData(500, 100, 60, 0, 2)
	for q, target := range d.targets {
		docWords := strings.Fields(d.docs[target])
		words := strings.Fields(d.queries[q])
		for _, w := range words[:len(words)-1] { // the last word is a filler
			if slices.Contains(docWords, w) {
				t.Fatalf("query %q shares %q with its document %q", d.queries[q], w, d.docs[target])
			}
		}
	}
}
