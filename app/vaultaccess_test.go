package app

import (
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/internal/obsidiancli"
)

// TestConfigVaultAccess: vault.access is auto when unset, takes direct,
// cli and auto, and fails at load, naming the file and line, for any
// other value.
func TestConfigVaultAccess(t *testing.T) {
	for _, tc := range []struct {
		yaml string
		want obsidiancli.Mode
		err  string
	}{
		{"", obsidiancli.Auto, ""},
		{DefaultConfigText, obsidiancli.Auto, ""},
		{"vault:\n  access: direct\n", obsidiancli.Direct, ""},
		{"vault:\n  access: cli\n", obsidiancli.CLI, ""},
		{"vault:\n  access: auto\n", obsidiancli.Auto, ""},
		{"vault:\n  access: obsidian\n", "", `config.yaml:2: vault.access: "obsidian" is not one of direct, cli, auto`},
		{"vault:\n  access: \"\"\n", "", `config.yaml:2: vault.access: "" is not one of direct, cli, auto`},
	} {
		c, err := LoadConfig(vaultWithConfig(t, tc.yaml))
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("config %q: %v, want an error with %q", tc.yaml, err, tc.err)
		case tc.err == "" && (err != nil || c.Vault.Access != tc.want):
			t.Errorf("config %q: access %q, %v; want %q", tc.yaml, c.Vault.Access, err, tc.want)
		}
	}
}
