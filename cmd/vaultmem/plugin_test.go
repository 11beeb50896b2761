package main

import (
	"encoding/json"
	"os"
	"os/exec"
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
				if h.Type != "command" || h.Command != `"${CLAUDE_PLUGIN_ROOT}/bin/vaultmem-run" hook --client claude-code` || h.Timeout < 1 {
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
	if s := mcpConfig.MCPServers["vaultmem"]; s.Command != "${CLAUDE_PLUGIN_ROOT}/bin/vaultmem-run" || len(s.Args) == 0 || s.Args[len(s.Args)-1] != "mcp" {
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

// TestPluginLauncher: the plugin's hooks and server run vaultmem through
// its launcher, which finds vaultmem where it is installed; without it, a
// session's start is told in one line how to install it, every other
// event gets nothing, and the hook exits 0: never an error in the client.
func TestPluginLauncher(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	launcher, err := filepath.Abs(filepath.Join("..", "..", "plugins", "vaultmem", "bin", "vaultmem-run"))
	if err != nil {
		t.Fatal(err)
	}
	vaultDir, project := hookVaultFor(t)
	start := hookEvent("s-plugin", project, "SessionStart", map[string]any{"source": "startup"})
	prompt := hookEvent("s-plugin", project, "UserPromptSubmit", map[string]any{"prompt": "which package manager for installs?"})
	run := func(path, stdin string) (string, string, int) {
		cmd := exec.Command(sh, launcher, "--vault", vaultDir, "hook", "--client", "claude-code")
		cmd.Dir = project
		home := t.TempDir()
		cmd.Env = []string{"PATH=" + path, "HOME=" + home, "GOPATH=" + filepath.Join(home, "go"), "VAULTMEM_SERVER=off"}
		cmd.Stdin = strings.NewReader(stdin)
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		code := 0
		if err := cmd.Run(); err != nil {
			ee, ok := err.(*exec.ExitError)
			if !ok {
				t.Fatal(err)
			}
			code = ee.ExitCode()
		}
		return out.String(), errb.String(), code
	}
	// With vaultmem on the PATH: the launcher runs it.
	bin := t.TempDir()
	testDriver(t, bin)
	if out, errOut, code := run(bin+":/usr/bin:/bin", start); code != 0 || !strings.Contains(out, "Use pnpm") {
		t.Errorf("with vaultmem installed: exit %d, stderr %q, stdout %.300s", code, errOut, out)
	}
	if _, err := os.Stat("/usr/local/bin/vaultmem"); err == nil {
		t.Skip("vaultmem is installed in /usr/local/bin: the launcher would find it")
	}
	// Without it: one line at the start, nothing else, exit 0.
	out, errOut, code := run("/usr/bin:/bin", start)
	if code != 0 || errOut != "" || !strings.Contains(out, "go install github.com/vaultmem/vaultmem/cmd/vaultmem@latest") {
		t.Errorf("SessionStart without vaultmem: exit %d, stderr %q, stdout %q", code, errOut, out)
	}
	var answer map[string]any
	if err := json.Unmarshal([]byte(out), &answer); err != nil {
		t.Errorf("the answer is not JSON: %v", err)
	}
	if out, errOut, code := run("/usr/bin:/bin", prompt); code != 0 || out != "" || errOut != "" {
		t.Errorf("a prompt without vaultmem: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
