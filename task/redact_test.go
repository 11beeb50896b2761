package task_test

import (
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/task"
)

// TestEventRedacted: an event's text, most often an agent's, is written
// with its secrets masked, in the note and in what Event returns, and
// Block's reason too; the rest of the text is kept.
func TestEventRedacted(t *testing.T) {
	f := newFixture(t)
	a := f.add(task.New{Title: "Deploy"})
	const tok = "ghp_abcdefghijklmnopqrstuvwxyz0123456789AB"
	logged, err := f.s.Event(f.ctx, "claude", a.Path, "note", "ran GITHUB_TOKEN="+tok+" make deploy\nthen psql postgres://app:hunter2@db/app")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.s.Block(f.ctx, "claude", a.Path, "the login fails with --password hunter2"); err != nil {
		t.Fatal(err)
	}
	note := f.read(a.Path)
	for _, secret := range []string{tok[:12], "hunter2"} {
		if strings.Contains(note, secret) || strings.Contains(logged.Line, secret) {
			t.Errorf("%q is in the log:\n%s", secret, note)
		}
	}
	for _, kept := range []string{"note: ran GITHUB_TOKEN=[REDACTED:github-token] make deploy\n  then psql postgres://app:[REDACTED:password]@db/app\n",
		"blocker: the login fails with --password [REDACTED:password]\n"} {
		if !strings.Contains(note, kept) {
			t.Errorf("the log lacks %q:\n%s", kept, note)
		}
	}
}
