package task_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/task"
	"github.com/vaultmem/vaultmem/vault"
)

// taskVault writes a vault of n task notes in a tree up to 8 deep (a
// task's parent is an earlier one, seeded), a third of them done, with a
// few events each and a dependency now and then, and indexes it. It
// returns the store and a task 8 deep, open, with siblings and events.
func taskVault(b *testing.B, n int) (*task.Store, string) {
	dir := b.TempDir()
	r := rand.New(rand.NewPCG(1, uint64(n)))
	depth := make([]int, n)
	for i := range n {
		fields := []markdown.Field{{Key: "type", Value: "task"}, {Key: "name", Value: fmt.Sprintf("Task %d", i)},
			{Key: "status", Value: []string{"todo", "doing", "done"}[r.IntN(3)]}, {Key: "priority", Value: task.Priorities[r.IntN(3)]}}
		if i > 0 && r.IntN(20) > 0 {
			p := r.IntN(i)
			for depth[p] >= 7 {
				p = r.IntN(i)
			}
			depth[i] = depth[p] + 1
			fields = append(fields, markdown.Field{Key: "parent", Value: fmt.Sprintf("[[t%05d]]", p)})
		}
		if i > 10 && r.IntN(10) == 0 {
			fields = append(fields, markdown.Field{Key: "depends_on", Value: []string{fmt.Sprintf("[[t%05d]]", r.IntN(i))}})
		}
		fields = append(fields, markdown.Field{Key: "created", Value: markdown.FromJSON("2026-11-01")})
		body := fmt.Sprintf("What task %d is about, in a sentence or two.\n\n## Log\n\n", i)
		for e := range r.IntN(4) {
			body += fmt.Sprintf("- 2026-11-%02d 10:00 %s: event %d of task %d\n", 1+e, task.EventTypes[r.IntN(4)], e, i)
		}
		p := filepath.Join(dir, "tasks", fmt.Sprintf("t%05d.md", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, markdown.Format(fields, body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	// The task the context is of: 8 deep, with siblings and 20 events.
	leafParent := slices.Index(depth, 6)
	leaf := "tasks/leaf.md"
	body := "The benchmark's focused task.\n\n## Log\n\n"
	for e := range 20 {
		body += fmt.Sprintf("- 2026-11-20 10:%02d decision: chose option %d because it is the simplest that works\n", e, e)
	}
	os.WriteFile(filepath.Join(dir, leaf), markdown.Format([]markdown.Field{{Key: "type", Value: "task"}, {Key: "name", Value: "Leaf"},
		{Key: "status", Value: "doing"}, {Key: "parent", Value: fmt.Sprintf("[[t%05d]]", leafParent)}}, body), 0o644)
	ctx := context.Background()
	v, err := vault.Open(dir, vault.Folders{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { v.Close() })
	ix, err := index.Open(ctx, v.Abs(vault.CacheDir), index.Options{NoVectors: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ix.Close() })
	if _, err := ix.Sync(ctx, v.FS(), nil); err != nil {
		b.Fatal(err)
	}
	return task.NewStore(vault.NewWriter(v, vault.WriterOptions{}), ix.Stores(), task.Options{FS: v.FS()}), leaf
}

// p50 reports the median and 99th percentile of lat.
func p50(b *testing.B, lat []time.Duration) {
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[min(len(lat)-1, len(lat)*99/100)].Microseconds())/1000, "p99-ms")
}

// BenchmarkTaskOps times each task operation in process on a vault of
// 10,000 tasks up to 8 deep (each write: the lock, an atomic write with
// fsync, the index refreshed for the note).
func BenchmarkTaskOps(b *testing.B) {
	s, leaf := taskVault(b, 10_000)
	ctx := context.Background()
	i, added := 0, ""
	add := func() error {
		a, err := s.Add(ctx, task.New{Title: fmt.Sprintf("New %d", i), Parent: leaf})
		added = a.Path
		return err
	}
	ops := []struct {
		name      string
		setup, op func() error
	}{
		{"add", nil, add},
		{"start", nil, func() error { _, err := s.Start(ctx, "bench", fmt.Sprintf("t%05d", i%10_000), true); return err }},
		{"event", nil, func() error {
			_, err := s.Event(ctx, "bench", fmt.Sprintf("t%05d", (i*7919)%10_000), "note", fmt.Sprintf("note %d", i))
			return err
		}},
		{"done", add, func() error { _, err := s.Done(ctx, "bench", added, false); return err }},
		{"focus", nil, func() error { _, err := s.Focus(ctx, "bench"); return err }},
		{"context", nil, func() error { _, err := s.Context(ctx, "bench", leaf, 0); return err }},
		{"ready", nil, func() error { _, err := s.Ready(ctx); return err }},
	}
	for _, o := range ops {
		b.Run(o.name, func(b *testing.B) {
			var lat []time.Duration
			for b.Loop() {
				i++
				if o.setup != nil {
					b.StopTimer()
					if err := o.setup(); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
				start := time.Now()
				if err := o.op(); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(start))
			}
			p50(b, lat)
		})
	}
}

// BenchmarkTaskContext times the context of one task 8 deep in vaults of
// 1,000, 10,000 and 50,000 tasks: its cost must not grow with the vault.
func BenchmarkTaskContext(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 50_000} {
		b.Run(fmt.Sprintf("tasks=%d", n), func(b *testing.B) {
			s, leaf := taskVault(b, n)
			ctx := context.Background()
			var lat []time.Duration
			for b.Loop() {
				start := time.Now()
				if _, err := s.Context(ctx, "bench", leaf, 0); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(start))
			}
			p50(b, lat)
		})
	}
}
