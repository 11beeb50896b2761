package main

import (
	"strings"
	"testing"
)

// TestShowAmbiguousName: show names a note by app's one rule, as the MCP
// server's read_note and links do: a name several notes share is refused
// (exit 2), naming them, where show once picked the nearest; a path, or a
// name only one note has, is shown.
func TestShowAmbiguousName(t *testing.T) {
	dir := fixtureVault(t, "resolution")
	r := vaultmem(t, dir, "", "--vault", dir, "show", "Dup")
	if r.code != exitUsage || !strings.Contains(r.stderr, `ambiguous: "Dup" names 3 notes: a/Dup.md, b/Dup.md, b/deep/Dup.md`) {
		t.Errorf("show Dup: exit %d, stderr %q; want exit 2 naming the three notes", r.code, r.stderr)
	}
	for arg, want := range map[string]string{"b/Dup.md": `"path": "b/Dup.md"`, "deep/dup": `"path": "b/deep/Dup.md"`, "unique": `"path": "c/Unique.md"`} {
		if out := ok(t, dir, "--vault", dir, "show", arg, "--json"); !strings.Contains(out, want) {
			t.Errorf("show %s: %s, want %s", arg, out, want)
		}
	}
}
