package vault

import (
	"slices"
	"testing"
)

// TestConflictCopy holds the recogniser to each sync service's names of a
// copy, and to names a person gives notes that look like them.
func TestConflictCopy(t *testing.T) {
	notes := []string{"memory/Use pnpm.md", "tasks/Ship it.md", "Deploy.md", "Q3.md"}
	exists := func(p string) bool { return slices.Contains(notes, p) }
	for _, c := range []struct {
		path, original, service string
	}{
		{"memory/Use pnpm (conflict 2026-11-29).md", "memory/Use pnpm.md", ServiceObsidianSync},
		{"memory/Use pnpm (Conflicted copy MacBook 202611291010).md", "memory/Use pnpm.md", ServiceObsidianSync},
		{"memory/Use pnpm 2.md", "memory/Use pnpm.md", ServiceICloud},
		{"memory/Use pnpm 3.md", "memory/Use pnpm.md", ServiceICloud},
		{"memory/Use pnpm (Ann's conflicted copy 2026-11-29).md", "memory/Use pnpm.md", ServiceDropbox},
		{"memory/Use pnpm (conflicted copy 2026-11-29).md", "memory/Use pnpm.md", ServiceDropbox},
		{"memory/Use pnpm (Case Conflict).md", "memory/Use pnpm.md", ServiceDropbox},
		{"memory/Use pnpm.sync-conflict-20261129-101010-ABCDEFG.md", "memory/Use pnpm.md", ServiceSyncthing},
		{"memory/Use pnpm-LAPTOP.md", "memory/Use pnpm.md", ServiceOneDrive},
		{"Deploy-DESKTOP-AB12CD.md", "Deploy.md", ServiceOneDrive},
		{"memory/Use pnpm (1).md", "memory/Use pnpm.md", ServiceGoogleDrive},
		{"memory/Use pnpm (conflicted copy 2026-11-29 101010).md", "memory/Use pnpm.md", ServiceNextcloud},
		{"tasks/Ship it 2.md", "tasks/Ship it.md", ServiceICloud},
		// The unambiguous names are copies even when the original is gone.
		{"memory/Gone (conflict 2026-11-29).md", "memory/Gone.md", ServiceObsidianSync},
		{"Gone.sync-conflict-20261129-101010-ABCDEFG.md", "Gone.md", ServiceSyncthing},
		// Not copies.
		{"Chapter 2.md", "", ""},        // no Chapter.md: a note of its own
		{"Chapter 1.md", "", ""},        // 1 is no copy number of iCloud
		{"Part 2.md", "", ""},           // no Part.md
		{"Q3 (draft).md", "", ""},       // a person's parentheses
		{"Q3 (2).md", "", ""},           // Q3.md exists: see below
		{"Deploy-staging.md", "", ""},   // a machine's name is in capitals
		{"Plan-B.md", "", ""},           // no Plan.md
		{"Use pnpm.md", "", ""},         // an original
		{"Notes (conflict).md", "", ""}, // no date or device number
	} {
		o, s, ok := ConflictCopy(c.path, exists)
		want := c.original != ""
		if c.path == "Q3 (2).md" {
			// Q3.md exists: "Q3 (2).md" is Google Drive's copy of it.
			want, c.original, c.service = true, "Q3.md", ServiceGoogleDrive
		}
		if ok != want || o != c.original || s != c.service {
			t.Errorf("ConflictCopy(%q) = %q, %q, %v; want %q, %q, %v", c.path, o, s, ok, c.original, c.service, want)
		}
	}
	// Without exists, the names a person may give are never copies.
	for _, p := range []string{"memory/Use pnpm 2.md", "memory/Use pnpm (1).md", "memory/Use pnpm-LAPTOP.md"} {
		if o, s, ok := ConflictCopy(p, nil); ok {
			t.Errorf("ConflictCopy(%q, nil) = %q, %q: want no copy", p, o, s)
		}
	}
}
