package main

import (
	"math"
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

// TestBoundHeap: the bound is a memory limit above what is live, with the
// collector at its default pace, both lifted when the last bound ends; a
// limit set in the environment is kept.
func TestBoundHeap(t *testing.T) {
	t.Cleanup(func() { debug.SetMemoryLimit(math.MaxInt64) })
	if debug.SetMemoryLimit(-1) != math.MaxInt64 {
		t.Skip("GOMEMLIMIT is set")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(25))
	stop := boundHeap()
	if pace := debug.SetGCPercent(-1); pace != 100 {
		t.Errorf("under the bound: GOGC %d, want 100", pace)
	}
	debug.SetGCPercent(100)
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
	if pace := debug.SetGCPercent(25); pace != 25 {
		t.Errorf("after the bound: GOGC %d, want the process's 25 back", pace)
	}

	// A process's own pace and limit (a one-shot query's) come back after
	// the last of two bounds that overlap, not after the first.
	debug.SetMemoryLimit(1 << 40)
	debug.SetGCPercent(400)
	first, second := boundHeap(), boundHeap()
	first()
	first() // lifting a bound twice lifts it once
	if got := debug.SetMemoryLimit(-1); got == 1<<40 {
		t.Error("one of two bounds lifted: the process's limit is back, want the bound still in force")
	}
	second()
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Errorf("after both bounds: memory limit %d, want the process's %d", got, int64(1<<40))
	}
	if pace := debug.SetGCPercent(25); pace != 400 {
		t.Errorf("after both bounds: GOGC %d, want the process's 400", pace)
	}

	// A limit of the process's own below the last bound gives way to it:
	// a heap still near the bound does not make the collector run without
	// end.
	debug.SetMemoryLimit(1)
	stop = boundHeap()
	bound := debug.SetMemoryLimit(-1)
	stop()
	if got := debug.SetMemoryLimit(-1); got != bound {
		t.Errorf("with a process limit of 1 byte: %d after the bound, want the bound's %d", got, bound)
	}
	debug.SetMemoryLimit(1 << 40)

	// A limit from the environment is the user's: no bound replaces it.
	t.Setenv("GOMEMLIMIT", "1TiB")
	stop = boundHeap()
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Errorf("with GOMEMLIMIT set: memory limit %d under the bound, want the user's", got)
	}
	stop()
}
