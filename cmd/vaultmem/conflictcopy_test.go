package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/app"
)

// TestDoctorConflictCopies: doctor names each sync service's copy of a
// memory, a task and a lesson with what to do, as a warning (exit 0), and
// leaves alone a note whose name only looks like a copy's.
func TestDoctorConflictCopies(t *testing.T) {
	dir := newVault(t)
	files := map[string]string{
		"memory/Use pnpm.md":   "---\nname: Use pnpm\ndescription: pnpm\ntype: feedback\n---\nUse pnpm.\n",
		"memory/Use pnpm 2.md": "---\nname: Use pnpm\ndescription: pnpm\ntype: feedback\n---\nUse pnpm.\n",
		"memory/Chapter 2.md":  "---\nname: Chapter 2\ndescription: c\ntype: project\n---\nThe second chapter.\n",
		"tasks/Ship it.md":     "---\ntype: task\nname: Ship it\n---\n",
		"tasks/Ship it (Ann's conflicted copy 2026-11-29).md":          "---\ntype: task\nname: Ship it\n---\n",
		"lessons/Check flags.md":                                       "---\ntype: lesson\ntrigger: deploy\naction_bias: check the flags\n---\n",
		"lessons/Check flags.sync-conflict-20261129-101010-ABCDEFG.md": "---\ntype: lesson\ntrigger: deploy\naction_bias: check the flags\n---\n",
	}
	for p, c := range files {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(p)), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ok(t, dir, "index")
	out := ok(t, dir, "doctor")
	for _, want := range []string{
		"memory/Use pnpm 2.md: memory: Use pnpm 2.md is a conflict copy of Use pnpm.md made by iCloud: compare them, keep one\n",
		"tasks/Ship it (Ann's conflicted copy 2026-11-29).md: task: Ship it (Ann's conflicted copy 2026-11-29).md is a conflict copy of Ship it.md made by Dropbox: compare them, keep one\n",
		"lessons/Check flags.sync-conflict-20261129-101010-ABCDEFG.md: lesson: Check flags.sync-conflict-20261129-101010-ABCDEFG.md is a conflict copy of Check flags.md made by Syncthing",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Chapter 2.md") {
		t.Errorf("doctor names Chapter 2.md:\n%s", out)
	}
	r := vaultmem(t, dir, "", "doctor", "--json")
	var rep app.Checkup
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("doctor --json: %v\n%s", err, r.stdout)
	}
	if r.code != 0 || len(rep.ConflictCopies) != 3 {
		t.Fatalf("doctor --json: exit %d, conflict_copies %+v", r.code, rep.ConflictCopies)
	}
	if c := rep.ConflictCopies[0]; c.Path != "lessons/Check flags.sync-conflict-20261129-101010-ABCDEFG.md" || c.Original != "lessons/Check flags.md" || c.Service != "Syncthing" || c.Kind != "lesson" {
		t.Errorf("first copy: %+v", c)
	}
}
