package memory_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/vault"
)

// BenchmarkRemember writes new memories one after another in process, into
// a vault of 1,000 memories (indexed), each listed in MEMORY.md at once:
// p50 and p99 of one Remember (two atomic writes with fsync, the lock,
// the index's list of memories, MEMORY.md rendered).
func BenchmarkRemember(b *testing.B) {
	dir := b.TempDir()
	for i := range 1000 {
		p := filepath.Join(dir, "memory", fmt.Sprintf("m%04d.md", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, markdown.Format([]markdown.Field{{Key: "name", Value: fmt.Sprintf("Memory %d", i)},
			{Key: "description", Value: "a memory of the benchmark"}, {Key: "type", Value: "project"}}, "Body."), 0o644)
	}
	ctx := context.Background()
	v := openVault(b, dir)
	ix, err := index.Open(ctx, v.Abs(vault.CacheDir), index.Options{NoVectors: true})
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Sync(ctx, v.FS(), nil); err != nil {
		b.Fatal(err)
	}
	s := memory.NewStore(vault.NewWriter(v, vault.WriterOptions{}), ix.Stores(), memory.StoreOptions{})
	var lat []time.Duration
	i := 0
	for b.Loop() {
		start := time.Now()
		res, err := s.Remember(ctx, memory.Memory{Type: memory.Project, Name: fmt.Sprintf("new memory %d", i),
			Description: "a benchmark memory", Body: "Deploys go out on Tuesdays."}, memory.Options{})
		lat = append(lat, time.Since(start))
		if err != nil || res.ListLine == "" {
			b.Fatal(err, res.ListError)
		}
		i++
		// The server's watcher syncs a moment after each write.
		b.StopTimer()
		if _, err := ix.Sync(ctx, v.FS(), nil); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[min(len(lat)-1, len(lat)*99/100)].Microseconds())/1000, "p99-ms")
}

// openVault opens the vault in dir for the test.
func openVault(tb testing.TB, dir string) *vault.Vault {
	tb.Helper()
	v, err := vault.Open(dir, vault.Folders{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { v.Close() })
	return v
}
