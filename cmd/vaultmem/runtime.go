package main

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// The binary, and nothing else, sets the runtime's collection pace: a
// long-running process and a one-shot query want different ones.

// longRunning tunes the garbage collector for a process that keeps the
// index in memory for hours (watch, mcp): a collection when the heap grew
// by a quarter of what is live, not by all of it, keeps its memory near
// what it holds, for a little more CPU. On a vault of 13,400 notes,
// `vaultmem mcp` with a new memory every 100 requests: 135-138 MB RSS at
// GOGC 25, 143-146 at 35, 153-157 at 50; BenchmarkRecall's p50 is 3-5 %
// higher at 25 than at 50. A memory limit that
// follows the live heap reached the same RSS but doubled the p50 of
// recalls run back to back. A cold index in such a process runs at the
// default pace under its own bound (see boundHeap). A GOGC set
// in the environment is kept.
func longRunning() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(25)
	}
}

// oneShotQuery tunes the garbage collector for a query answered in this
// process (one of servedCommands, with no server running): it walks the
// vault and searches for tens of milliseconds, and at the default pace it
// collects two or three times on the way, for a heap of tens of
// megabytes. GOGC 400 lets the heap grow to five times what is live
// before a collection, and a memory limit of 160 MiB brings collections
// back as it nears that, for the few queries that hold more (a recall
// with a budget of 100,000 tokens). On a vault of 13,400 notes a whole
// `vaultmem recall` took 0.99 times as long as `rg -l -i` against 1.03 at
// the default pace, its peak RSS 55 MB against 45; the largest recall
// 178-218 MB against 154-226, and at 50,000 notes no slower. A cold
// index within the command bounds the heap its own way meanwhile (see
// boundHeap). A GOGC or GOMEMLIMIT set in the environment is kept.
func oneShotQuery() {
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetGCPercent(400)
		debug.SetMemoryLimit(160 << 20)
	}
}

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

// boundHeap bounds the heap until the returned function is called (the
// function does its work once). It does nothing when the environment
// sets a memory limit (GOMEMLIMIT). While it bounds the heap, the
// collector runs at its default pace (GOGC 100): a long-running process
// keeps a lower one for its resident index, which would make a cold index
// in it collect four times as often as in `vaultmem index`. Bounds nest:
// the heap stays bounded until the last is lifted, and then the process's
// own pace and memory limit (a one-shot query's, see the command) are
// back, the limit at least the last bound.
func boundHeap() (stop func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	bounds.Lock()
	defer bounds.Unlock()
	if bounds.n == 0 {
		bounds.pace = debug.SetGCPercent(100)
		bounds.limit = debug.SetMemoryLimit(-1)
		boundToLive()
		bounds.done = make(chan struct{})
		bounds.wg.Go(func() {
			tick := time.NewTicker(100 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-bounds.done:
					return
				case <-tick.C:
					boundToLive()
				}
			}
		})
	}
	bounds.n++
	var once sync.Once
	return func() {
		once.Do(func() {
			bounds.Lock()
			defer bounds.Unlock()
			if bounds.n--; bounds.n > 0 {
				return
			}
			close(bounds.done)
			bounds.wg.Wait()
			// A limit of the process's own below the last bound would
			// make the collector run without end if the heap has not
			// shrunk yet: the larger of the two stays.
			debug.SetMemoryLimit(max(bounds.limit, debug.SetMemoryLimit(-1)))
			debug.SetGCPercent(bounds.pace)
		})
	}
}

// bounds are the heap bounds in force (see boundHeap): how many, and the
// process's pace and memory limit to restore after the last.
var bounds struct {
	sync.Mutex
	n     int
	pace  int
	limit int64
	done  chan struct{} // closed when the last bound is lifted
	wg    sync.WaitGroup
}

// boundToLive sets the memory limit to half again the live heap, plus
// heapSlack.
func boundToLive() {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	live := int64(sample[0].Value.Uint64())
	debug.SetMemoryLimit(max(minHeapBound, live+live/2+heapSlack))
}
