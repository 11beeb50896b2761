//go:build unix

package watch_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/fixtures/gen"
	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/watch"
)

// BenchmarkSaveToSearchable measures, with the default embedder, how
// long after a note is written a keyword search finds it while a watcher
// runs: p50 and p99 over b.N saves, on a 10,000-note vault and on one of
// the shape of issue 16's real vault (13,400 notes of ~4.5 KB, 20 %
// dangling links, 33 folders). It also reports the CPU the idle watcher
// used over 3 s.
func BenchmarkSaveToSearchable(b *testing.B) {
	for _, v := range []struct {
		name string
		opts gen.Options
	}{
		{"notes=10000", gen.Options{Notes: 10000}},
		{"notes=13400", gen.Options{Notes: 13400, MeanBytes: 4500, UnresolvedRatio: 0.2, Folders: 33}},
	} {
		b.Run(v.name, func(b *testing.B) { saveToSearchable(b, v.opts) })
	}
}

func saveToSearchable(b *testing.B, opts gen.Options) {
	dir := b.TempDir()
	if _, _, err := gen.Write(dir, opts); err != nil {
		b.Fatal(err)
	}
	past := time.Now().Add(-time.Hour)
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			os.Chtimes(p, past, past)
		}
		return nil
	})
	ctx := context.Background()
	ix, err := index.Open(ctx, filepath.Join(dir, ".vaultmem", "cache"), index.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	var mu sync.Mutex
	var syncs []time.Duration
	w, err := watch.New(openVault(b, dir), ix, watch.Options{OnBatch: func(bt watch.Batch) {
		mu.Lock()
		syncs = append(syncs, bt.Stats.Duration)
		mu.Unlock()
	}})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	w2, _ := watch.New(openVault(b, dir), ix, watch.Options{}) // must fail: one watcher
	if w2 != nil {
		b.Fatal("a second watcher started")
	}
	go func() { done <- w.Run(runCtx) }()
	defer func() {
		cancel()
		<-done
	}()
	// Wait for the initial (cold) sync, then for the vector pack written
	// a second after it.
	for {
		mu.Lock()
		n := len(syncs)
		mu.Unlock()
		if n > 0 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(3 * time.Second)

	var usage syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &usage)
	cpu0 := time.Duration(usage.Utime.Nano() + usage.Stime.Nano())
	time.Sleep(3 * time.Second)
	syscall.Getrusage(syscall.RUSAGE_SELF, &usage)
	idle := time.Duration(usage.Utime.Nano()+usage.Stime.Nano()) - cpu0

	// The folder the saves go to exists before the first (a new folder
	// makes the watcher walk the vault, which a save in a folder does not).
	os.MkdirAll(filepath.Join(dir, "bench"), 0o755)
	time.Sleep(500 * time.Millisecond)
	var lat []time.Duration
	i := 0
	for b.Loop() {
		word := fmt.Sprintf("zq%dxv", i)
		p := filepath.Join(dir, "bench", fmt.Sprintf("saved %d.md", i))
		start := time.Now()
		if err := os.WriteFile(p, []byte("# Saved\n\nA note holding "+word+".\n"), 0o644); err != nil {
			b.Fatal(err)
		}
		for {
			res, err := ix.Searcher().Search(ctx, index.Query{Text: word, Mode: index.Keyword, Limit: 1})
			if err != nil {
				b.Fatal(err)
			}
			if len(res) > 0 {
				break
			}
			if time.Since(start) > 10*time.Second {
				b.Fatalf("%s not searchable after 10 s", word)
			}
			time.Sleep(2 * time.Millisecond)
		}
		lat = append(lat, time.Since(start))
		i++
		time.Sleep(50 * time.Millisecond) // separate saves, as a human's are
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	mu.Lock()
	b.Log("sync durations", syncs[1:])
	mu.Unlock()
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[min(len(lat)-1, len(lat)*99/100)].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(idle.Microseconds())/1000, "idle-cpu-ms/3s")
	b.ReportMetric(float64(w.Folders()), "folders")
}
