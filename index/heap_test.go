package index

import (
	"context"
	"math"
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

// TestBoundHeap: the bound is a memory limit above what is live, lifted
// when it ends; a process with a limit of its own keeps it.
func TestBoundHeap(t *testing.T) {
	t.Cleanup(func() { debug.SetMemoryLimit(math.MaxInt64) })
	if debug.SetMemoryLimit(-1) != math.MaxInt64 {
		t.Skip("GOMEMLIMIT is set")
	}
	stop := boundHeap()
	limit := debug.SetMemoryLimit(-1)
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	if live := int64(sample[0].Value.Uint64()); limit == math.MaxInt64 || limit < minHeapBound || limit < live+heapSlack {
		t.Errorf("bound: memory limit %d, live heap %d", limit, live)
	}
	stop()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("after the bound: memory limit %d, want none", got)
	}

	// A cold index (a warm start) bounds the heap while it runs and lifts
	// the bound when the sync ends; so does writing a pack.
	tv := newTestVault(t, "memory-folder", Options{})
	tv.sync()
	if err := tv.ix.Pack(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("after a cold index and a pack: memory limit %d, want none", got)
	}

	debug.SetMemoryLimit(1 << 40)
	boundHeap()()
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Errorf("with a limit of the process's own: %d after the bound, want it kept", got)
	}
}
