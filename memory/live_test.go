package memory_test

import (
	"testing"

	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/memory"
)

// TestIsLive: the one rule for a live memory, which MEMORY.md's list,
// adoption and remember share (adoption once listed a memory merged into
// another by Dream when it had no archived key).
func TestIsLive(t *testing.T) {
	for _, tt := range []struct {
		name, note string
		live       bool
	}{
		{"a memory", "---\ntype: feedback\nname: Use pnpm\n---\nbody\n", true},
		{"archived", "---\ntype: feedback\narchived: 2026-11-01\n---\nbody\n", false},
		{"merged by Dream, no archived key", "---\ntype: project\nmerged_into: \"[[memory/other]]\"\n---\nbody\n", false},
		{"proposed", "---\ntype: user\nstatus: proposed\n---\nbody\n", false},
		{"proposed, written by hand", "---\ntype: user\nstatus: ' Proposed '\n---\nbody\n", false},
		{"accepted", "---\ntype: user\nstatus: accepted\n---\nbody\n", true},
		{"not a memory", "---\ntype: lesson\n---\nbody\n", false},
		{"no frontmatter", "just text\n", false},
	} {
		if got := memory.IsLive(markdown.Parse("memory/x.md", []byte(tt.note))); got != tt.live {
			t.Errorf("%s: IsLive = %v, want %v", tt.name, got, tt.live)
		}
	}
}
