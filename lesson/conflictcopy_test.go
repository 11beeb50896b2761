package lesson_test

import (
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/lesson"
)

// TestConflictCopyLessons: a lesson beside a sync service's copy of it is
// matched once (the original), and review lists the copy with what to do;
// a lesson whose name only looks like a copy's is matched as any other.
func TestConflictCopyLessons(t *testing.T) {
	f := newFixture(t)
	const note = "---\ntype: lesson\ntrigger: deploy\naction_bias: check the flags first\n---\n"
	for _, p := range []string{
		"lessons/Check flags.md",
		"lessons/Check flags 2.md",
		"lessons/Check flags (conflict 2026-11-29).md",
		"lessons/Check flags.sync-conflict-20261129-101010-ABCDEFG.md",
		"lessons/Release 2.md", // no "Release.md": a lesson of its own
	} {
		f.write(p, note)
	}
	f.sync()
	got := paths(f.match(lesson.Situation{Text: "deploy the app"}))
	if want := "lessons/Check flags.md,lessons/Release 2.md"; strings.Join(got, ",") != want && strings.Join(got, ",") != "lessons/Release 2.md,lessons/Check flags.md" {
		t.Errorf("matched %v, want %s", got, want)
	}
	rev, err := f.s.Review(f.ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]string{}
	for _, r := range rev {
		listed[r.Path] = strings.Join(r.Reasons, "; ")
	}
	for p, service := range map[string]string{
		"lessons/Check flags 2.md":                                     "iCloud",
		"lessons/Check flags (conflict 2026-11-29).md":                 "Obsidian Sync",
		"lessons/Check flags.sync-conflict-20261129-101010-ABCDEFG.md": "Syncthing",
	} {
		if !strings.Contains(listed[p], "is a conflict copy of Check flags.md made by "+service+": compare them, keep one") {
			t.Errorf("review of %s: %q", p, listed[p])
		}
	}
	for _, p := range []string{"lessons/Check flags.md", "lessons/Release 2.md"} {
		if r, ok := listed[p]; ok {
			t.Errorf("review lists %s: %q", p, r)
		}
	}
}
