package memory_test

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/vault"
)

// BenchmarkRemember writes new memories one after another in process:
// p50 and p99 of one Remember (atomic write, fsync, lock, compare).
func BenchmarkRemember(b *testing.B) {
	w := vault.NewWriter(openVault(b, b.TempDir()), vault.WriterOptions{})
	ctx := context.Background()
	var lat []time.Duration
	i := 0
	for b.Loop() {
		start := time.Now()
		_, err := memory.Remember(ctx, w, "memory", memory.Memory{Type: vault.KindProject, Name: fmt.Sprintf("memory %d", i),
			Description: "a benchmark memory", Body: "Deploys go out on Tuesdays."}, memory.Options{})
		lat = append(lat, time.Since(start))
		if err != nil {
			b.Fatal(err)
		}
		i++
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[min(len(lat)-1, len(lat)*99/100)].Microseconds())/1000, "p99-ms")
}

// BenchmarkRememberConcurrent has 8 goroutines, each with its own Writer
// (as 8 processes would have), remember at once: writes per second.
func BenchmarkRememberConcurrent(b *testing.B) {
	dir := b.TempDir()
	ctx := context.Background()
	const writers = 8
	start := time.Now()
	var n sync.WaitGroup
	per := max(b.N/writers, 1)
	for g := range writers {
		w := vault.NewWriter(openVault(b, dir), vault.WriterOptions{})
		n.Go(func() {
			for i := range per {
				if _, err := memory.Remember(ctx, w, "memory", memory.Memory{Type: vault.KindProject,
					Name: fmt.Sprintf("writer %d memory %d", g, i), Description: "d", Body: "body"}, memory.Options{}); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	n.Wait()
	b.ReportMetric(float64(writers*per)/time.Since(start).Seconds(), "writes/s")
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
