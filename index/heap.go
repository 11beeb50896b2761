package index

import (
	"math"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// A cold index holds a large heap for a short while (the chunks waiting
// for the writer, the embedder's counts and vectors), and the collector's
// default lets the heap grow to twice what is live: at 50,000 notes a
// peak RSS of 510 MB for 190 MB live. While it runs (and while a pack is
// written from every vector), boundHeap keeps the Go heap within half of
// what is live, plus heapSlack, by a memory limit that follows the live
// heap, so that it never falls under it and makes the collector run
// without end: peak RSS 355 MB at 50,000 notes and 256 MB at 13,400
// instead of 510 and 325, for more frequent collections (the cold index
// took 0-20 % longer in interleaved runs on a noisy machine).
const (
	heapSlack    = 32 << 20
	minHeapBound = 64 << 20
)

// boundHeap bounds the heap until the returned function is called. It
// does nothing when the process has a memory limit of its own
// (GOMEMLIMIT) or another bound is in force. While it bounds the heap,
// the collector runs at its default pace (GOGC 100): a long-running
// process keeps a lower one for its resident index, which would make a
// cold index in it collect four times as often as in `vaultmem index`.
func boundHeap() (stop func()) {
	if debug.SetMemoryLimit(-1) != math.MaxInt64 {
		return func() {}
	}
	pace := debug.SetGCPercent(100)
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	bound := func() {
		metrics.Read(sample)
		live := int64(sample[0].Value.Uint64())
		debug.SetMemoryLimit(max(minHeapBound, live+live/2+heapSlack))
	}
	bound()
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				bound()
			}
		}
	})
	return func() {
		close(done)
		wg.Wait()
		debug.SetMemoryLimit(math.MaxInt64)
		debug.SetGCPercent(pace)
	}
}
