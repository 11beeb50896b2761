package app

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFind: the nearest vault at or above the folder, else the project's
// agent-memory/ vault at its repository's top (what setup makes), else an
// error saying what to do.
func TestFind(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "project")
	sub := filepath.Join(repo, "src", "pkg")
	for _, d := range []string{filepath.Join(repo, ".git"), sub, filepath.Join(repo, "agent-memory", ".vaultmem")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := Find(sub, ""); err != nil || got != filepath.Join(repo, "agent-memory") {
		t.Errorf("from a subfolder of the project: %q, %v", got, err)
	}
	// A nearer vault wins.
	if err := os.MkdirAll(filepath.Join(repo, "src", ".vaultmem"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := Find(sub, ""); err != nil || got != filepath.Join(repo, "src") {
		t.Errorf("with a vault nearer: %q, %v", got, err)
	}
	// Outside any repository and vault: an error that says what to do.
	if _, err := Find(root, ""); err == nil {
		t.Error("a folder with no vault found one")
	}
}
