package agenthook

import (
	"bytes"
	"os"
	"path/filepath"

	"github.com/vaultmem/vaultmem/setup"
)

// PluginVaultEnv is the variable through which Claude Code hands a hook
// the plugin's vault_dir option (Claude Code sets CLAUDE_PLUGIN_OPTION_
// and the option's name, upper case, for a plugin's commands).
const PluginVaultEnv = "CLAUDE_PLUGIN_OPTION_VAULT_DIR"

// PluginVault is the vault folder the Claude Code plugin's vault_dir
// option names, as given (relative or not); "" when the hook runs outside
// the plugin or the option is unset.
func PluginVault() string { return os.Getenv(PluginVaultEnv) }

// AnsweredElsewhere reports whether an event of client c, in the agent's
// folder cwd, is answered by another of vaultmem's hooks, so that this
// one must say nothing and no event is answered twice: a Claude Code hook
// run by Cursor (which runs Claude Code's hooks too, and sets
// CURSOR_VERSION) while Cursor has vaultmem's own hooks set up, in the
// project's .cursor/hooks.json or the user's.
func AnsweredElsewhere(c setup.Client, cwd string) bool {
	if c != setup.ClaudeCode || os.Getenv("CURSOR_VERSION") == "" {
		return false
	}
	home, _ := os.UserHomeDir()
	for _, p := range []string{filepath.Join(cwd, ".cursor", "hooks.json"), filepath.Join(home, ".cursor", "hooks.json")} {
		if b, err := os.ReadFile(p); err == nil && bytes.Contains(b, []byte("hook --client cursor")) {
			return true
		}
	}
	return false
}
