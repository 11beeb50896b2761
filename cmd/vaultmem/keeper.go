package main

import (
	"context"

	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/watch"
)

// keeper is what the long-running commands (watch, mcp) do after each
// batch the watcher syncs: keep MEMORY.md listing the memories as they
// are now, whoever edited them (Obsidian, git, an agent).
type keeper struct {
	store *memory.Store
	logf  func(format string, args ...any)
}

// afterBatch lists the memories again when the batch changed a note other
// than MEMORY.md itself (whose own change is vaultmem's write, or a
// human's edit outside the region, which listing again keeps).
func (k *keeper) afterBatch(ctx context.Context, b watch.Batch) {
	if b.Err != nil || b.Stats.Parsed+b.Stats.Removed == 0 {
		return
	}
	if len(b.Paths) == 1 && b.Paths[0] == k.store.IndexFile() {
		return
	}
	if _, err := k.store.Reindex(ctx); err != nil {
		k.logf("%s not updated: %v", k.store.IndexFile(), err)
	}
}
