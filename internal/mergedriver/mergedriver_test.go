package mergedriver

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/vaultmem/vaultmem/lesson"
)

// TestLessonRulesAt: the note driver computes a lesson's strength by the
// rule of the vault that holds the note (found above the note's path),
// so that a merge agrees with the vault's own writers; the defaults
// outside a vault or with a config that does not read.
func TestLessonRulesAt(t *testing.T) {
	repo := t.TempDir()
	vaultDir := filepath.Join(repo, "agent-memory")
	if err := os.MkdirAll(filepath.Join(vaultDir, ".vaultmem"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(vaultDir, ".vaultmem", "config.yaml"), []byte("lessons:\n  success: 0.2\n  decay_after_days: 10\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := lessonRulesAt(filepath.Join(vaultDir, "lessons", "Run migrations first.md"))
	if got.Success != 0.2 || got.DecayAfterDays != 10 || got.Failure != lesson.DefaultRules().Failure {
		t.Errorf("the vault's rules: %+v", got)
	}
	if got := lessonRulesAt(filepath.Join(repo, "notes", "x.md")); got != lesson.DefaultRules() {
		t.Errorf("outside a vault: %+v, want the defaults", got)
	}
	if err := os.WriteFile(filepath.Join(vaultDir, ".vaultmem", "config.yaml"), []byte("lessons: [broken\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := lessonRulesAt(filepath.Join(vaultDir, "lessons", "x.md")); got != lesson.DefaultRules() {
		t.Errorf("a config that does not read: %+v, want the defaults", got)
	}
}
