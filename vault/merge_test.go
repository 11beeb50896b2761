package vault_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/vault"
)

// wholeText merges texts whole: a side that did not change takes the
// other's; both changing is a conflict.
func wholeText(base, ours, theirs []byte) ([]byte, bool, error) {
	switch {
	case bytes.Equal(ours, theirs), bytes.Equal(theirs, base):
		return ours, true, nil
	case bytes.Equal(ours, base):
		return theirs, true, nil
	}
	return ours, false, nil
}

func TestMergeNote(t *testing.T) {
	task := "---\ntype: task\nname: Ship\nstatus: doing\n---\n\nShip it.\n\n## Log\n\n- 2026-11-23 10:00 note: start\n"
	lesson := "---\ntype: lesson\ntrigger: deploy\nstrength: 0.5\napplication_count: 2\nlast_applied: 2026-11-20\n---\n\nBody.\n\n## History\n\n- 2026-11-01 10:00 created at 0.5\n"
	for _, tt := range []struct {
		name               string
		base, ours, theirs string
		want               string
		clean              bool
	}{
		{"both append events, ordered by time", task,
			task + "- 2026-11-23 11:00 decision: a\n  because a\n",
			task + "- 2026-11-23 10:30 note: b\n",
			"---\ntype: task\nname: Ship\nstatus: doing\n---\n\nShip it.\n\n## Log\n\n- 2026-11-23 10:00 note: start\n- 2026-11-23 10:30 note: b\n- 2026-11-23 11:00 decision: a\n  because a\n", true},
		{"one side finishes, the other logs", task,
			strings.Replace(task, "status: doing", "status: done\nfinished: 2026-11-23", 1),
			task + "- 2026-11-23 10:30 milestone: b\n",
			"---\ntype: task\nname: Ship\nstatus: done\nfinished: 2026-11-23\n---\n\nShip it.\n\n## Log\n\n- 2026-11-23 10:00 note: start\n- 2026-11-23 10:30 milestone: b\n", true},
		{"a removed event stays removed", task + "- 2026-11-23 10:05 note: typo\n",
			task + "- 2026-11-23 11:00 note: a\n",
			task + "- 2026-11-23 10:05 note: typo\n- 2026-11-23 12:00 note: b\n",
			task + "- 2026-11-23 11:00 note: a\n- 2026-11-23 12:00 note: b\n", true},
		{"two outcomes on one lesson add up", lesson,
			strings.NewReplacer("strength: 0.5", "strength: 0.55", "application_count: 2", "application_count: 3", "last_applied: 2026-11-20", "last_applied: 2026-11-22").Replace(lesson) + "- 2026-11-22 09:00 success: 0.5 → 0.55\n",
			strings.NewReplacer("strength: 0.5", "strength: 0.4", "application_count: 2", "application_count: 3", "last_applied: 2026-11-20", "last_applied: 2026-11-23").Replace(lesson) + "- 2026-11-23 09:00 failure: 0.5 → 0.4\n",
			"---\ntype: lesson\ntrigger: deploy\nstrength: 0.45\napplication_count: 4\nlast_applied: 2026-11-23\n---\n\nBody.\n\n## History\n\n- 2026-11-01 10:00 created at 0.5\n- 2026-11-22 09:00 success: 0.5 → 0.55\n- 2026-11-23 09:00 failure: 0.5 → 0.4\n", true},
		{"the same key changed both ways is a conflict", task,
			strings.Replace(task, "status: doing", "status: done", 1),
			strings.Replace(task, "status: doing", "status: blocked", 1),
			strings.Replace(task, "status: doing", "status: done", 1), false},
		{"the body changed both ways is a conflict", task,
			strings.Replace(task, "Ship it.", "Ship it now.", 1),
			strings.Replace(task, "Ship it.", "Ship it later.", 1),
			strings.Replace(task, "Ship it.", "Ship it now.", 1), false},
		{"the same line added on both sides is kept twice", task,
			task + "- 2026-11-23 11:00 note: same\n",
			task + "- 2026-11-23 11:00 note: same\n",
			task + "- 2026-11-23 11:00 note: same\n- 2026-11-23 11:00 note: same\n", true},
		{"a key only theirs added", task, task, strings.Replace(task, "status: doing", "status: doing\nassignee: b", 1),
			strings.Replace(task, "status: doing", "status: doing\nassignee: b", 1), true},
		{"a section only theirs has", "---\ntype: task\n---\n\nX.\n", "---\ntype: task\n---\n\nX.\n",
			"---\ntype: task\n---\n\nX.\n\n## Log\n\n- 2026-11-23 10:00 note: b\n", "---\ntype: task\n---\n\nX.\n\n## Log\n\n- 2026-11-23 10:00 note: b\n", true},
	} {
		got, clean, err := vault.MergeNote("n.md", []byte(tt.base), []byte(tt.ours), []byte(tt.theirs), wholeText)
		if err != nil || clean != tt.clean || string(got) != tt.want {
			t.Errorf("%s: clean %v, err %v:\n%s\nwant clean %v:\n%s", tt.name, clean, err, got, tt.clean, tt.want)
		}
	}
}

// FuzzMergeNote: merging never panics, and merging a note with itself
// gives it back unchanged.
func FuzzMergeNote(f *testing.F) {
	f.Add("---\ntype: task\nstatus: doing\n---\n\n## Log\n\n- 2026-11-23 10:00 note: a\n", "- 2026-11-23 11:00 note: b\n", "strength: 0.5\n")
	f.Add("", "## History\n- x\n  y\n", "---\n---\n")
	f.Fuzz(func(t *testing.T, base, add1, add2 string) {
		n := []byte(base)
		got, clean, err := vault.MergeNote("n.md", n, n, n, wholeText)
		if err == nil && (!clean || !bytes.Equal(got, n)) {
			t.Fatalf("merging %q with itself: %v %q", base, clean, got)
		}
		vault.MergeNote("n.md", n, []byte(base+add1), []byte(base+add2), wholeText)
		vault.MergeNote("n.md", []byte(add1), n, []byte(add2), wholeText)
	})
}
