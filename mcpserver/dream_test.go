package mcpserver_test

import (
	"testing"

	"github.com/vaultmem/vaultmem/dream"
)

// TestDreamSeesWhatWasJustRemembered: dream plans from the memories on
// disk, a memory remembered a moment before included, even when no sync
// runs before each read (a watcher keeps the index current, and has not
// caught up yet).
func TestDreamSeesWhatWasJustRemembered(t *testing.T) {
	cs, _, _ := serveVault(t, nil, true, nil)
	for _, name := range []string{"Uses pnpm", "Uses pnpm always"} {
		mustCall(t, cs, "remember", map[string]any{"type": "feedback", "name": name,
			"description": "the package manager", "body": "Use pnpm, never npm, in this repository."}, nil)
	}
	var rep dream.Report
	mustCall(t, cs, "dream", map[string]any{"dry_run": true}, &rep)
	if rep.Memories != 2 || len(rep.Merged) != 1 {
		t.Errorf("dream saw %d memories and merged %v; want the 2 just remembered, merged", rep.Memories, rep.Merged)
	}
}
