package app

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/vaultmem/vaultmem/config"
)

// TestInitWritesDefaultConfigFile: init writes config.DefaultConfigFile,
// in a new folder and in a Claude Code memory folder (config's
// TestDefaultConfigFileLoadsToDefaultConfig holds that file to the
// defaults it loads to).
func TestInitWritesDefaultConfigFile(t *testing.T) {
	for _, tc := range []struct {
		name       string
		claudeCode bool
		files      map[string]string
	}{
		{"a new folder", false, nil},
		{"a Claude Code memory folder", true, map[string]string{
			"MEMORY.md": "- [Prefs](prefs.md) — how the user works\n",
			"prefs.md":  "---\nname: Prefs\ndescription: how the user works\ntype: user\n---\nUses pnpm.\n",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			t.Setenv("HOME", home)
			t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
			dir := t.TempDir()
			for name, text := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			res, err := Init(t.Context(), dir)
			if err != nil {
				t.Fatal(err)
			}
			if res.ClaudeCode != tc.claudeCode {
				t.Fatalf("init took the folder for a Claude Code one: %v, want %v", res.ClaudeCode, tc.claudeCode)
			}
			written, err := os.ReadFile(filepath.Join(dir, ".vaultmem", "config.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			if string(written) != config.DefaultConfigFile(tc.claudeCode) {
				t.Errorf("init wrote another config than DefaultConfigFile(%v):\n%s", tc.claudeCode, written)
			}
		})
	}
}
