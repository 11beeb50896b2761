package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/fixtures/gen"
)

// benchVaults caches generated vaults on disk across benchmarks of one run.
var benchVaults sync.Map // notes -> dir

// benchVault writes a generated vault of n notes (once per run), with
// modification times in the past so that no file counts as racily clean.
func benchVault(b *testing.B, n int) string {
	b.Helper()
	if dir, ok := benchVaults.Load(n); ok {
		return dir.(string)
	}
	dir, err := os.MkdirTemp("", fmt.Sprintf("vaultmem-bench-%d-", n))
	if err != nil {
		b.Fatal(err)
	}
	if _, _, err := gen.Write(dir, gen.Options{Notes: n}); err != nil {
		b.Fatal(err)
	}
	past := time.Now().Add(-time.Hour)
	err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			err = os.Chtimes(p, past, past)
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	benchVaults.Store(n, dir)
	return dir
}

// TestMain removes the generated benchmark vaults after the run.
func TestMain(m *testing.M) {
	code := m.Run()
	benchVaults.Range(func(_, dir any) bool {
		os.RemoveAll(dir.(string))
		return true
	})
	os.Exit(code)
}

// coldIndex indexes dir from nothing into cache.
func coldIndex(b *testing.B, dir, cache string, opts Options) Stats {
	b.Helper()
	if err := Remove(cache); err != nil {
		b.Fatal(err)
	}
	ix, err := Open(context.Background(), cache, opts)
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	st, err := ix.Sync(context.Background(), os.DirFS(dir), nil)
	if err != nil {
		b.Fatal(err)
	}
	return st
}

// BenchmarkColdIndex indexes generated vaults from nothing, with the
// default (LSA) embedder and without vectors.
func BenchmarkColdIndex(b *testing.B) {
	for _, n := range []int{1000, 10000, 50000} {
		for _, vectors := range []bool{true, false} {
			name := fmt.Sprintf("notes=%d/vectors=%v", n, vectors)
			b.Run(name, func(b *testing.B) {
				dir := benchVault(b, n)
				cache := b.TempDir()
				var st Stats
				for b.Loop() {
					st = coldIndex(b, dir, cache, Options{NoVectors: !vectors})
				}
				if st.Notes < n || (vectors && st.Embedded != st.Chunks) {
					b.Fatalf("indexed %+v", st)
				}
				b.ReportMetric(float64(st.Chunks), "chunks")
				reportRSS(b)
			})
		}
	}
}

// BenchmarkNoChangeSync syncs an up-to-date index: one walk of stats.
func BenchmarkNoChangeSync(b *testing.B) {
	for _, n := range []int{1000, 10000, 50000} {
		b.Run(fmt.Sprintf("notes=%d", n), func(b *testing.B) {
			dir := benchVault(b, n)
			cache := b.TempDir()
			coldIndex(b, dir, cache, Options{})
			ix, err := Open(context.Background(), cache, Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer ix.Close()
			fsys := os.DirFS(dir)
			for b.Loop() {
				st, err := ix.Sync(context.Background(), fsys, nil)
				if err != nil || st.Parsed != 0 || st.Embedded != 0 {
					b.Fatalf("no-change sync did work: %+v %v", st, err)
				}
			}
		})
	}
}

// benchQueries are search terms drawn from the generated vault's note
// titles: realistic two- and three-word queries.
func benchQueries(b *testing.B, ix *Index) []string {
	rows, err := ix.db.Query("SELECT title FROM notes WHERE kind = '' ORDER BY id LIMIT 400")
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	var qs []string
	for rows.Next() {
		var t string
		rows.Scan(&t)
		words := strings.Fields(t)
		if len(words) >= 2 {
			qs = append(qs, strings.Join(words[:min(3, len(words))], " "))
		}
	}
	return qs
}

// BenchmarkSearch measures in-process search at 10k notes: p50 and p99 of
// each mode over queries taken from note titles.
func BenchmarkSearch(b *testing.B) {
	dir := benchVault(b, 10000)
	cache := b.TempDir()
	coldIndex(b, dir, cache, Options{})
	ix, err := Open(context.Background(), cache, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	qs := benchQueries(b, ix)
	ctx := context.Background()
	// Warm the vector set and the model, as a running server has them.
	if _, err := ix.Searcher().Search(ctx, Query{Text: qs[0], Mode: Hybrid}); err != nil {
		b.Fatal(err)
	}
	// The same cache through a resident handle: keyword ranking from the
	// in-memory lexicon.
	resident, err := Open(ctx, cache, Options{Resident: true})
	if err != nil {
		b.Fatal(err)
	}
	defer resident.Close()
	if _, err := resident.Searcher().Search(ctx, Query{Text: qs[0], Mode: Hybrid}); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		ix   *Index
		mode Mode
	}{{"keyword", ix, Keyword}, {"vector", ix, Vector}, {"hybrid", ix, Hybrid},
		{"keyword-resident", resident, Keyword}, {"hybrid-resident", resident, Hybrid}} {
		b.Run(c.name, func(b *testing.B) {
			var lat []time.Duration
			i := 0
			for b.Loop() {
				start := time.Now()
				res, err := c.ix.Searcher().Search(ctx, Query{Text: qs[i%len(qs)], Mode: c.mode, Limit: 10})
				lat = append(lat, time.Since(start))
				if err != nil || len(res) == 0 {
					b.Fatalf("search %q: %v, %d results", qs[i%len(qs)], err, len(res))
				}
				i++
			}
			sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}

// BenchmarkLexiconLoad measures what a resident index's first keyword
// search costs at 10k notes: loading the lexicon, and the heap it keeps.
func BenchmarkLexiconLoad(b *testing.B) {
	dir := benchVault(b, 10000)
	cache := b.TempDir()
	coldIndex(b, dir, cache, Options{NoVectors: true})
	ctx := context.Background()
	var heap runtime.MemStats
	for b.Loop() {
		ix, err := Open(ctx, cache, Options{NoVectors: true, Resident: true})
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&heap)
		before := heap.HeapAlloc
		if _, err := ix.Searcher().Search(ctx, Query{Text: "cache", Mode: Keyword}); err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&heap)
		b.ReportMetric(float64(heap.HeapAlloc-before)/(1<<20), "heap-MiB")
		ix.Close()
	}
}

// indexedBenchVault is the 10,000-note benchmark vault, indexed, and its
// index (closed when b ends).
func indexedBenchVault(b *testing.B) (string, *Index) {
	dir := benchVault(b, 10000)
	cache := b.TempDir()
	coldIndex(b, dir, cache, Options{})
	ix, err := Open(context.Background(), cache, Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ix.Close() })
	return dir, ix
}

// BenchmarkOneNoteSync syncs a 10,000-note index after one note was
// written: what a watcher does after each save.
func BenchmarkOneNoteSync(b *testing.B) {
	dir, ix := indexedBenchVault(b)
	fsys := os.DirFS(dir)
	i := 0
	for b.Loop() {
		p := filepath.Join(dir, "bench", fmt.Sprintf("saved %d.md", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(fmt.Sprintf("# Saved\n\nA note holding zq%dxv.\n", i)), 0o644)
		st, err := ix.Sync(context.Background(), fsys, nil)
		if err != nil || st.Parsed == 0 {
			b.Fatalf("sync after a save: %+v %v", st, err)
		}
		i++
	}
}

// BenchmarkOneNoteSyncPaths is BenchmarkOneNoteSync as a watcher does it
// now: only the path its event named, without walking the vault.
func BenchmarkOneNoteSyncPaths(b *testing.B) {
	dir, ix := indexedBenchVault(b)
	fsys := os.DirFS(dir)
	os.MkdirAll(filepath.Join(dir, "bench"), 0o755)
	i := 0
	for b.Loop() {
		rel := fmt.Sprintf("bench/by path %d.md", i)
		os.WriteFile(filepath.Join(dir, filepath.FromSlash(rel)), []byte(fmt.Sprintf("# Saved\n\nA note holding zq%dxv.\n", i)), 0o644)
		st, err := ix.SyncPaths(context.Background(), fsys, []string{rel})
		if err != nil || st.Parsed == 0 {
			b.Fatalf("sync after a save: %+v %v", st, err)
		}
		i++
	}
}

// BenchmarkLexiconCatchUp measures the first keyword search of a resident
// index after another handle synced one new note, at 10k notes: the
// lexicon catches up (every note's hash compared, the new note's chunks
// read) instead of loading anew.
func BenchmarkLexiconCatchUp(b *testing.B) {
	dir := benchVault(b, 10000)
	cache := b.TempDir()
	coldIndex(b, dir, cache, Options{NoVectors: true})
	ctx := context.Background()
	writer, err := Open(ctx, cache, Options{NoVectors: true})
	if err != nil {
		b.Fatal(err)
	}
	defer writer.Close()
	resident, err := Open(ctx, cache, Options{NoVectors: true, Resident: true})
	if err != nil {
		b.Fatal(err)
	}
	defer resident.Close()
	if err := resident.Searcher().Warm(ctx); err != nil {
		b.Fatal(err)
	}
	fsys := os.DirFS(dir)
	var lat []time.Duration
	i := 0
	for b.Loop() {
		b.StopTimer()
		word := fmt.Sprintf("qz%dcatch", i)
		p := filepath.Join(dir, "bench", "caught "+word+".md")
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("# Caught\n\nA note holding "+word+".\n"), 0o644)
		if _, err := writer.Sync(ctx, fsys, nil); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		res, err := resident.Searcher().Search(ctx, Query{Text: word, Mode: Keyword})
		lat = append(lat, time.Since(start))
		if err != nil || len(res) != 1 {
			b.Fatalf("%s after catching up: %d results, %v", word, len(res), err)
		}
		i++
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
}
