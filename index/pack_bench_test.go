package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkPackAfterOneChunk is a hook's process without a server on a
// 13,400-note vault: a sync gives one new chunk its vector, then Pack,
// then the next process loads the vectors. "whole" removes the delta
// before Pack, so that the pack is written whole (what Pack did before
// the delta); "delta" keeps it. The sync is not timed; sync-ms is its
// wall time (it writes the delta), pack-ms, load-ms and search-ms are
// Pack's part, the load's and one vector search's over what was loaded
// (which reads every mapped page), vectors the vectors loaded.
func BenchmarkPackAfterOneChunk(b *testing.B) {
	ctx := context.Background()
	dir := benchVault(b, 13400)
	cache := b.TempDir()
	coldIndex(b, dir, cache, Options{})
	fsys := os.DirFS(dir)
	i := 0
	for _, mode := range []string{"whole", "delta", "whole", "delta"} {
		b.Run(mode, func(b *testing.B) {
			first, err := Open(ctx, cache, Options{})
			if err != nil {
				b.Fatal(err)
			}
			if err := first.Pack(ctx); err != nil {
				b.Fatal(err)
			}
			first.Close()
			var pack, load, sync, search time.Duration
			n := 0
			for b.Loop() {
				b.StopTimer()
				p := filepath.Join(dir, "bench", fmt.Sprintf("pack %d.md", i))
				i++
				os.MkdirAll(filepath.Dir(p), 0o755)
				os.WriteFile(p, []byte(fmt.Sprintf("# Pack\n\nA session note holding zq%dxv.\n", i)), 0o644)
				ix, err := Open(ctx, cache, Options{})
				if err != nil {
					b.Fatal(err)
				}
				t := time.Now()
				if st, err := ix.Sync(ctx, fsys, nil); err != nil || st.Embedded == 0 {
					b.Fatalf("sync: %+v %v", st, err)
				}
				sync += time.Since(t)
				if mode == "whole" {
					os.Remove(ix.vstore.deltaPath())
				}
				b.StartTimer()
				t0 := time.Now()
				if err := ix.Pack(ctx); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				next, err := Open(ctx, cache, Options{})
				if err != nil {
					b.Fatal(err)
				}
				t2 := time.Now()
				vs, err := next.vstore.vectors(ctx)
				if err != nil || vs.Len() == 0 {
					b.Fatalf("load: %v", err)
				}
				pack, load = pack+t1.Sub(t0), load+time.Since(t2)
				q := make([]float32, vs.Dims())
				q[i%len(q)] = 1
				t3 := time.Now()
				if _, err := vs.Nearest(ctx, q, 10, nil); err != nil {
					b.Fatal(err)
				}
				search += time.Since(t3)
				n = vs.Len()
				b.StopTimer()
				next.Close()
				ix.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(pack.Microseconds())/1000/float64(b.N), "pack-ms")
			b.ReportMetric(float64(load.Microseconds())/1000/float64(b.N), "load-ms")
			b.ReportMetric(float64(sync.Microseconds())/1000/float64(b.N), "sync-ms")
			b.ReportMetric(float64(search.Microseconds())/1000/float64(b.N), "search-ms")
			b.ReportMetric(float64(n), "vectors")
		})
	}
}
