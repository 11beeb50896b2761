package main

import (
	"os"
	"runtime/debug"
)

// The binary, and nothing else, sets the runtime's collection pace: a
// long-running process and a one-shot query want different ones.

// longRunning tunes the garbage collector for a process that keeps the
// index in memory for hours (watch, mcp): a collection when the heap grew
// by a quarter of what is live, not by all of it, keeps its memory near
// what it holds, for a little more CPU. On a vault of 13,400 notes,
// `vaultmem mcp` with a new memory every 100 requests: 135-138 MB RSS at
// GOGC 25, 143-146 at 35, 153-157 at 50; BenchmarkRecall's p50 is 3-5 %
// higher at 25 than at 50 (see BENCHMARKS.md). A memory limit that
// follows the live heap reached the same RSS but doubled the p50 of
// recalls run back to back. A cold index in such a process runs at the
// default pace under its own bound (see index's boundHeap). A GOGC set
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
// index within the command bounds the heap its own way meanwhile (index's
// boundHeap). A GOGC or GOMEMLIMIT set in the environment is kept.
func oneShotQuery() {
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetGCPercent(400)
		debug.SetMemoryLimit(160 << 20)
	}
}
