package vault_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/vaultmem/vaultmem/vault"
)

// TestListState: the files under a state folder, by name as ReadState
// takes them, in byte order; none for a folder not there; a symbolic link
// inside neither listed nor followed; a name leaving the state folder
// refused.
func TestListState(t *testing.T) {
	dir := t.TempDir()
	v, err := vault.Open(dir, vault.Folders{})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	w := vault.NewWriter(v, vault.WriterOptions{})
	ctx := context.Background()
	for _, name := range []string{"log/b/2026-11.jsonl", "log/a/2026-12.jsonl", "log/a/2026-11.jsonl"} {
		if err := w.AppendState(ctx, name, []byte(`{}`)); err != nil {
			t.Fatal(err)
		}
	}
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "x.jsonl"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, ".vaultmem", "state", "log", "c")); err != nil {
		t.Fatal(err)
	}
	got, err := w.ListState("log")
	if want := []string{"log/a/2026-11.jsonl", "log/a/2026-12.jsonl", "log/b/2026-11.jsonl"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("ListState = %q, %v; want %q", got, err, want)
	}
	if got, err := w.ListState("none"); err != nil || len(got) != 0 {
		t.Errorf("a folder not there: %q, %v", got, err)
	}
	if _, err := w.ListState("../cache"); err == nil {
		t.Error("a name outside the state folder listed")
	}
}
