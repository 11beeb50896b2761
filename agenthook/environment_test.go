package agenthook

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/vaultmem/vaultmem/setup"
)

// TestAnsweredElsewhere: a Claude Code hook says nothing only inside
// Cursor with Cursor's own vaultmem hooks set up (the project's or the
// user's); other clients, and Claude Code outside Cursor, always answer.
func TestAnsweredElsewhere(t *testing.T) {
	cursorHooks := `{"hooks": {"sessionStart": [{"command": "vaultmem hook --client cursor"}]}}`
	for _, tc := range []struct {
		name                string
		client              setup.Client
		cursor              string // CURSOR_VERSION
		projectHooks, hooks string // .cursor/hooks.json of the project, of the user
		want                bool
	}{
		{"claude code in cursor with the project's cursor hooks", setup.ClaudeCode, "1.7", cursorHooks, "", true},
		{"claude code in cursor with the user's cursor hooks", setup.ClaudeCode, "1.7", "", cursorHooks, true},
		{"claude code in cursor without cursor hooks", setup.ClaudeCode, "1.7", "", "", false},
		{"claude code in cursor with other hooks", setup.ClaudeCode, "1.7", `{"hooks": {}}`, "", false},
		{"claude code outside cursor", setup.ClaudeCode, "", cursorHooks, cursorHooks, false},
		{"cursor's own hook", setup.Cursor, "1.7", cursorHooks, cursorHooks, false},
		{"codex in cursor", setup.Codex, "1.7", cursorHooks, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			project, home := t.TempDir(), t.TempDir()
			t.Setenv("HOME", home)
			t.Setenv("CURSOR_VERSION", tc.cursor)
			for dir, text := range map[string]string{project: tc.projectHooks, home: tc.hooks} {
				if text == "" {
					continue
				}
				if err := os.MkdirAll(filepath.Join(dir, ".cursor"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, ".cursor", "hooks.json"), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if got := AnsweredElsewhere(tc.client, project); got != tc.want {
				t.Errorf("AnsweredElsewhere(%s) = %v, want %v", tc.client, got, tc.want)
			}
		})
	}
}

// TestPluginVault reads the plugin's option from its variable.
func TestPluginVault(t *testing.T) {
	t.Setenv(PluginVaultEnv, "notes/vault")
	if got := PluginVault(); got != "notes/vault" {
		t.Errorf("PluginVault() = %q, want notes/vault", got)
	}
	t.Setenv(PluginVaultEnv, "")
	if got := PluginVault(); got != "" {
		t.Errorf("PluginVault() unset = %q, want \"\"", got)
	}
}
