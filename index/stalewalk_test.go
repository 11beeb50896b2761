package index

import (
	"context"
	"os"
	"testing"
	"time"
)

// TestStaleWalkKeepsANoteWrittenSince: a sync walks the vault; before it
// applies what it found, another writer of the process writes a note and
// indexes it (Refresh). The sync's walk does not list that note, and
// must not remove it from the index as gone: an agent's session note,
// looked up a moment later as a lesson outcome's episode, was "not found"
// when eight sessions ran on one server. A note really deleted since the
// last sync is still removed.
func TestStaleWalkKeepsANoteWrittenSince(t *testing.T) {
	ctx := context.Background()
	tv := newTestVault(t, "", Options{})
	tv.write("a.md", "# A\n\nThe first note.\n")
	tv.write("gone.md", "# Gone\n\nDeleted before the walk.\n")
	tv.sync()
	fsys := os.DirFS(tv.dir)

	tv.remove("gone.md")
	start := time.Now()
	files, _, err := walk(ctx, fsys)
	if err != nil {
		t.Fatal(err)
	}
	// Between the walk and its apply: another writer's note, indexed.
	tv.write("sessions/s1.md", "---\ntype: session\n---\n# Session\n\nworking on the importer\n")
	if err := tv.ix.Refresh(ctx, fsys, "sessions/s1.md"); err != nil {
		t.Fatal(err)
	}
	if err := tv.ix.update(ctx, fsys, files, start, nil, false, &Stats{}); err != nil {
		t.Fatal(err)
	}
	if p, err := tv.ix.Graph().Lookup(ctx, "sessions/s1.md"); err != nil || p != "sessions/s1.md" {
		t.Errorf("the note written during the walk: %q, %v", p, err)
	}
	if _, err := tv.ix.Graph().Lookup(ctx, "gone.md"); err == nil {
		t.Error("the note deleted before the walk is still indexed")
	}
	// The next sync, whose walk lists it, keeps it too.
	tv.sync()
	if _, err := tv.ix.Graph().Lookup(ctx, "sessions/s1.md"); err != nil {
		t.Errorf("after the next sync: %v", err)
	}
}
