package main

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/vaultmem/vaultmem/dream"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/watch"
)

// keeper is what the long-running commands (watch, mcp) do beside the
// watcher: keep MEMORY.md listing the memories as they are now, whoever
// edited them (Obsidian, git, an agent), and run Dream when its gate
// opens.
type keeper struct {
	store *memory.Store
	// dreamer, when set, runs Dream on its own when gate opens.
	dreamer *dream.Dreamer
	gate    dream.Gate
	logf    func(format string, args ...any)
	// onDream, when set, is told of each run that changed something.
	onDream func(*dream.Report)

	mu       sync.Mutex
	lastEdit time.Time // of the last batch that changed a note
}

// afterBatch notes when the vault was last edited, and lists the memories
// again when the batch changed a note other than MEMORY.md itself (whose
// own change is vaultmem's write, or a human's edit outside the region,
// which listing again keeps).
func (k *keeper) afterBatch(ctx context.Context, b watch.Batch) {
	if b.Err != nil || b.Stats.Parsed+b.Stats.Removed == 0 {
		return
	}
	k.mu.Lock()
	k.lastEdit = b.Time
	k.mu.Unlock()
	if len(b.Paths) == 1 && b.Paths[0] == k.store.IndexFile() {
		return
	}
	if _, err := k.store.Reindex(ctx); err != nil {
		k.logf("%s not updated: %v", k.store.IndexFile(), err)
	}
}

// dreamWhenDue asks the gate every little while, and runs Dream when it
// opens, until ctx ends.
func (k *keeper) dreamWhenDue(ctx context.Context) {
	if k.dreamer == nil {
		return
	}
	every := min(max(k.gate.Quiet/2, 100*time.Millisecond), time.Minute)
	if k.gate.Quiet <= 0 {
		every = 30 * time.Second
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			k.dreamIfDue(ctx)
		}
	}
}

// dreamIfDue runs Dream once if the gate is open.
func (k *keeper) dreamIfDue(ctx context.Context) {
	k.mu.Lock()
	last := k.lastEdit
	k.mu.Unlock()
	due, _, err := k.dreamer.Due(ctx, k.gate, last)
	if err != nil || !due {
		if err != nil && ctx.Err() == nil {
			k.logf("dream: %v", err)
		}
		return
	}
	rep, err := k.dreamer.Run(ctx, dream.RunOptions{})
	switch {
	case errors.Is(err, dream.ErrRunning), ctx.Err() != nil:
	case err != nil:
		k.logf("dream: %v", err)
	case len(rep.Changed) > 0 && k.onDream != nil:
		k.onDream(rep)
	}
}
