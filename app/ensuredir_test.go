package app

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestOpenReturnsTheCacheGuardsError: when the .gitignore that keeps the
// index cache out of git cannot be written (here a symbolic link stands
// where it goes, which vaultmem never writes through), opening the vault
// says so, naming the file, instead of writing a cache git would see.
func TestOpenReturnsTheCacheGuardsError(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".vaultmem"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(t.TempDir(), "elsewhere"), filepath.Join(dir, ".vaultmem", ".gitignore")); err != nil {
		t.Fatal(err)
	}
	a, err := Open(t.Context(), dir, Options{})
	if err == nil {
		a.Close()
		t.Fatal("the vault opened without its cache's .gitignore")
	}
	if !strings.Contains(err.Error(), "index cache") || !strings.Contains(err.Error(), ".gitignore") {
		t.Errorf("error %q names neither the cache nor its .gitignore", err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".vaultmem", "cache")); err == nil {
		t.Error("the cache folder was made all the same")
	}
}
