package lesson_test

import (
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/vault"
)

// TestOutcomeLogRedacted: the outcome log is committed, so the situation
// an agent gave is written with its secrets masked: the command, the tool,
// the paths and the agent's name. The lesson still matches as before.
func TestOutcomeLogRedacted(t *testing.T) {
	f := newFixture(t)
	l, err := f.s.Add(f.ctx, lesson.New{Title: "Run migrations first", Trigger: []string{"integration tests"},
		ActionBias: "run make migrate before the integration tests"})
	if err != nil {
		t.Fatal(err)
	}
	const tok = "ghp_abcdefghijklmnopqrstuvwxyz0123456789AB"
	_, err = f.s.Outcome(f.ctx, lesson.Outcome{Lesson: l.Path, Success: false,
		Context: "GITHUB_TOKEN=" + tok + " go test ./integration tests",
		Tool:    "Bash", Paths: []string{"db/" + tok + "/0042.sql", "README.md"}, Agent: "agent password=hunter2"})
	if err != nil {
		t.Fatal(err)
	}
	log := f.read(vault.StateDir + "/" + lesson.LogName("", f.clock()))
	for _, secret := range []string{tok[:12], "hunter2"} {
		if strings.Contains(log, secret) {
			t.Errorf("the outcome log holds %q:\n%s", secret, log)
		}
	}
	recs, err := f.s.ReadLog()
	if err != nil || len(recs) != 1 {
		t.Fatalf("log: %v, %v", recs, err)
	}
	r := recs[0]
	if r.Context != "GITHUB_TOKEN=[REDACTED:github-token] go test ./integration tests" || r.Tool != "Bash" ||
		strings.Join(r.Paths, " ") != "db/[REDACTED:github-token]/0042.sql README.md" || r.Agent != "agent password=[REDACTED:password]" {
		t.Errorf("record: %+v", r)
	}
	if len(r.Shown) != 1 || r.Shown[0].Path != l.Path {
		t.Errorf("the lesson was not shown for the situation: %+v", r.Shown)
	}
}
