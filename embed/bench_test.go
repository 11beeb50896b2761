package embed_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/vaultmem/vaultmem/embed"
)

// syntheticCorpus returns n documents of about 60 words (after stop
// words, some 45 distinct) drawn from 200 topics over a Zipfian vocabulary
// of 80,000 made-up words: each word is either from the whole vocabulary
// or from one of the document's two topics. Some 30,000+ words end up in
// two documents or more, so a 40,000-document corpus fills the default
// vocabulary of 30,000 terms.
func syntheticCorpus(n int, seed uint64) []string {
	const (
		vocab  = 80000
		topics = 200
		topicV = 400
	)
	r := rand.New(rand.NewPCG(seed, 7))
	global := rand.NewZipf(r, 1.07, 2, vocab-1)
	local := rand.NewZipf(r, 1.2, 1, topicV-1)
	docs := make([]string, n)
	var b strings.Builder
	for i := range docs {
		b.Reset()
		t1, t2 := r.IntN(topics), r.IntN(topics)
		words := 30 + r.IntN(60)
		for w := 0; w < words; w++ {
			var id uint64
			switch r.IntN(4) {
			case 0, 1:
				id = global.Uint64()
			case 2:
				id = uint64(t1*topicV) + local.Uint64()
			default:
				id = uint64(t2*topicV) + local.Uint64()
			}
			if w > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(word(id))
		}
		docs[i] = b.String()
	}
	return docs
}

// word spells id as a made-up word of consonant-vowel syllables that no
// stop word or stemmer rule touches.
func word(id uint64) string {
	const cons, vows = "bdfgklmnprtvz", "aou"
	var b []byte
	for {
		b = append(b, cons[id%13], vows[(id/13)%3])
		id /= 39
		if id == 0 {
			break
		}
	}
	return string(append(b, 'k'))
}

var benchCorpus = sync.OnceValue(func() []string { return syntheticCorpus(40000, 1) })

// BenchmarkFitLSA fits the default model (128 dimensions, 30,000 terms) on
// 40,000 synthetic documents.
func BenchmarkFitLSA(b *testing.B) {
	docs := benchCorpus()
	b.ResetTimer()
	for b.Loop() {
		m, err := embed.FitLSA(context.Background(), docs, embed.LSAOptions{})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(m.Dimensions()), "dims")
	}
}

// BenchmarkLSAEmbed embeds batches of 1,000 documents of about 60 words
// with the model of BenchmarkFitLSA.
func BenchmarkLSAEmbed(b *testing.B) {
	docs := benchCorpus()
	m, err := embed.FitLSA(context.Background(), docs, embed.LSAOptions{})
	if err != nil {
		b.Fatal(err)
	}
	batch := docs[:1000]
	b.ResetTimer()
	for b.Loop() {
		if _, err := m.Embed(context.Background(), batch); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(batch))/b.Elapsed().Seconds(), "texts/s")
}

// BenchmarkFitLSACorpus counts 40,000 synthetic documents into a Corpus
// from two goroutines, fits the default model on it and folds every
// document in: what a vault's first index does with its chunks.
func BenchmarkFitLSACorpus(b *testing.B) {
	docs := benchCorpus()
	b.ResetTimer()
	for b.Loop() {
		c := embed.NewCorpus()
		var wg sync.WaitGroup
		for w := range 2 {
			wg.Go(func() {
				for i := w; i < len(docs); i += 2 {
					c.Add(fmt.Sprintf("%08d", i), docs[i])
				}
			})
		}
		wg.Wait()
		n := 0
		_, err := embed.FitLSACorpus(context.Background(), c, embed.LSAOptions{}, func(keys []string, _ [][]float32) { n += len(keys) })
		if err != nil || n != len(docs) {
			b.Fatal(n, err)
		}
	}
}

// BenchmarkUnmarshalLSA reads back the model of BenchmarkFitLSA (30,000
// terms, 128 dimensions), as every one-shot search does.
func BenchmarkUnmarshalLSA(b *testing.B) {
	m, err := embed.FitLSA(context.Background(), benchCorpus(), embed.LSAOptions{})
	if err != nil {
		b.Fatal(err)
	}
	data, _ := m.MarshalBinary()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := embed.UnmarshalLSA(data); err != nil {
			b.Fatal(err)
		}
	}
}
