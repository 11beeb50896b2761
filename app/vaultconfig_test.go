package app

import (
	"os"
	"path/filepath"
	"testing"
)

// vaultWithConfig is a vault folder whose config holds text, read with
// a user config folder of the test's own (HOME and XDG_CONFIG_HOME set to
// temporary folders: no test reads the real user's config). config's
// tests have their own: a test helper cannot be shared across packages
// without exporting it.
func vaultWithConfig(t *testing.T, text string) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".vaultmem"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".vaultmem", "config.yaml"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}
