package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/agenthook"
	"github.com/vaultmem/vaultmem/mcpserver"
	"github.com/vaultmem/vaultmem/setup"
)

// TestClaudeCodePlugin checks the plugin this repository ships against
// what the code does: the marketplace's plugin is there, its hooks are
// events the hook answers, run as the hook command, its MCP server runs
// the server, and its skill teaches the protocol the server gives.
func TestClaudeCodePlugin(t *testing.T) {
	root := filepath.Join("..", "..")
	read := func(p string, v any) {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
	}
	var market struct {
		Name    string
		Plugins []struct{ Name, Source string }
	}
	read(".claude-plugin/marketplace.json", &market)
	if len(market.Plugins) != 1 || market.Plugins[0].Name != "vaultmem" {
		t.Fatalf("marketplace plugins %+v", market.Plugins)
	}
	plugin := filepath.ToSlash(market.Plugins[0].Source)
	var manifest struct{ Name, Hooks string }
	read(plugin+"/.claude-plugin/plugin.json", &manifest)
	if manifest.Name != "vaultmem" || manifest.Hooks != "" {
		t.Errorf("plugin.json: name %q, hooks %q (hooks/hooks.json loads by itself; naming it again is an error)", manifest.Name, manifest.Hooks)
	}
	var hooks struct {
		Hooks map[string][]struct {
			Hooks []struct {
				Type, Command string
				Timeout       int
			}
		}
	}
	read(plugin+"/hooks/hooks.json", &hooks)
	if len(hooks.Hooks) < 8 {
		t.Errorf("hooks on %d events", len(hooks.Hooks))
	}
	for event, groups := range hooks.Hooks {
		if _, err := agenthook.Read(setup.ClaudeCode, strings.NewReader(`{"hook_event_name":"`+event+`","session_id":"s"}`), time.Now()); err != nil {
			t.Errorf("hook on %s, which the hook does not answer: %v", event, err)
		}
		for _, g := range groups {
			for _, h := range g.Hooks {
				if h.Type != "command" || h.Command != "vaultmem hook --client claude-code" || h.Timeout < 1 {
					t.Errorf("%s: %+v", event, h)
				}
			}
		}
	}
	var mcpConfig struct {
		MCPServers map[string]struct {
			Command string
			Args    []string
		}
	}
	read(plugin+"/.mcp.json", &mcpConfig)
	if s := mcpConfig.MCPServers["vaultmem"]; s.Command != "vaultmem" || len(s.Args) == 0 || s.Args[len(s.Args)-1] != "mcp" {
		t.Errorf(".mcp.json: %+v", mcpConfig)
	}
	skill, err := os.ReadFile(filepath.Join(root, plugin, "skills", "vaultmem", "SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(skill), "---\nname: vaultmem\ndescription: ") ||
		!strings.Contains(strings.Join(strings.Fields(string(skill)), " "), mcpserver.Instructions) {
		t.Errorf("the skill does not teach the server's instructions word for word:\n%s", skill)
	}
}
