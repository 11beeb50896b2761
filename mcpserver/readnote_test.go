package mcpserver_test

import (
	"strings"
	"testing"
)

// TestReadNoteByName: read_note takes a note's name as a [[wikilink]]
// names it (case-insensitive, a path suffix for a path-qualified name) as
// well as its path; a name several notes share, or none, is refused with
// an error that names them, or it. A note remembered a moment before is
// found by name though the index has not caught up (no sync before each
// read: a watcher keeps it current, after a pause).
func TestReadNoteByName(t *testing.T) {
	cs, _, _ := serveVault(t, map[string]string{
		"memory/pnpm.md":          "uses pnpm\n",
		"projects/Alpha/notes.md": "alpha notes\n",
		"a/dup.md":                "first dup\n",
		"b/dup.md":                "second dup\n",
	}, true, nil)
	mustCall(t, cs, "remember", map[string]any{"type": "project", "name": "Release train",
		"description": "when releases go out", "body": "Releases go out on Tuesdays."}, nil)
	for _, tc := range []struct {
		arg, path, body string
	}{
		{"pnpm", "memory/pnpm.md", "uses pnpm"},
		{"PNPM", "memory/pnpm.md", "uses pnpm"},
		{"[[pnpm]]", "memory/pnpm.md", "uses pnpm"},
		{"alpha/NOTES", "projects/Alpha/notes.md", "alpha notes"},
		{"a/dup", "a/dup.md", "first dup"},
		{"memory/pnpm.md", "memory/pnpm.md", "uses pnpm"},
		{"Release-Train", "memory/release-train.md", "Releases go out on Tuesdays."},
	} {
		var n struct{ Path, Body string }
		mustCall(t, cs, "read_note", map[string]any{"path": tc.arg}, &n)
		if n.Path != tc.path || strings.TrimSpace(n.Body) != tc.body {
			t.Errorf("read_note %q: %s %q, want %s %q", tc.arg, n.Path, n.Body, tc.path, tc.body)
		}
	}
	for _, tc := range []struct{ arg, want string }{
		{"dup", `ambiguous: "dup" names 2 notes: a/dup.md, b/dup.md; give the path of the one meant`},
		{"nowhere", `not found: no note has the path or name "nowhere"`},
		{"c/dup", `not found: no note has the path or name "c/dup"`},
	} {
		if got := mustFail(t, cs, "read_note", map[string]any{"path": tc.arg}); !strings.HasPrefix(got, tc.want) {
			t.Errorf("read_note %q: %q, want it to start with %q", tc.arg, got, tc.want)
		}
	}
}
