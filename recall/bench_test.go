package recall_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/fixtures/gen"
	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/recall"
)

// BenchmarkRecall measures recall on a 10,000-note generated vault with
// the rules classifier and the default embedder: p50 and p99 over
// questions built from note titles, and p50 per intent (each question
// form is classified as one).
func BenchmarkRecall(b *testing.B) {
	dir := b.TempDir()
	if _, _, err := gen.Write(dir, gen.Options{Notes: 10000}); err != nil {
		b.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*", "*.md"))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	ix, err := index.Open(ctx, filepath.Join(dir, ".vaultmem", "cache"), index.Options{Resident: true})
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Sync(ctx, os.DirFS(dir), nil); err != nil {
		b.Fatal(err)
	}
	forms := []string{"What is %s?", "Why does %s happen?", "When did we change %s?", "How does %s relate to the rest?", "%s"}
	var qs []string
	for i, f := range files {
		if !strings.HasSuffix(f, ".md") || len(qs) >= 200 {
			continue
		}
		name := strings.TrimSuffix(filepath.Base(f), ".md")
		qs = append(qs, strings.Replace(forms[i%len(forms)], "%s", strings.ReplaceAll(name, "_", " "), 1))
	}
	e := recall.New(ix.Recall(), recall.Options{})
	// Load the vectors, the model and the keyword index, as a running
	// server has them.
	for _, mode := range []index.Mode{index.Vector, index.Keyword} {
		if _, err := ix.Searcher().Search(ctx, index.Query{Text: qs[0], Mode: mode}); err != nil {
			b.Fatal(err)
		}
	}
	var lat []time.Duration
	byIntent := map[recall.Intent][]time.Duration{}
	i := 0
	for b.Loop() {
		start := time.Now()
		res, err := e.Recall(ctx, recall.Request{Query: qs[i%len(qs)]})
		took := time.Since(start)
		if err != nil || res.UsedTokens > res.Budget {
			b.Fatalf("%q: %v", qs[i%len(qs)], err)
		}
		lat = append(lat, took)
		byIntent[res.Intent] = append(byIntent[res.Intent], took)
		i++
	}
	b.ReportMetric(quantile(lat, 50), "p50-ms")
	b.ReportMetric(quantile(lat, 99), "p99-ms")
	for in, l := range byIntent {
		b.ReportMetric(quantile(l, 50), string(in)+"-p50-ms")
	}
}

// quantile returns the q-th percentile of lat in milliseconds, sorting
// lat.
func quantile(lat []time.Duration, q int) float64 {
	slices.Sort(lat)
	return float64(lat[min(len(lat)-1, len(lat)*q/100)].Microseconds()) / 1000
}
