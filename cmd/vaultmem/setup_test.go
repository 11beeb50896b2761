package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestSetupClaudeCode: in a subfolder of a git repository (with a space
// in its name) and with HOME elsewhere, `setup claude-code` makes a vault
// in the repository, registers the MCP server and the hooks and adds the
// memory protocol to CLAUDE.md, keeping the user's content and writing
// nothing in HOME; a second run changes nothing; a dry run of the removal
// writes nothing; `--remove` gives back the user's files byte for byte,
// deletes the files setup made and leaves the vault.
func TestSetupClaudeCode(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH")
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home, repo := filepath.Join(root, "home"), filepath.Join(root, "my repo")
	sub := filepath.Join(repo, "src")
	for _, d := range []string{home, sub} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := gitCmd(repo, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	user := map[string]string{
		"CLAUDE.md": "# Rules\n\nUse pnpm.\n",
		".claude/settings.json": `{
  "permissions": { "allow": ["Bash(make test)"] },
  "hooks": {
    "Stop": [{ "hooks": [{ "type": "command", "command": "say done" }] }]
  }
}
`,
	}
	for rel, text := range user {
		p := filepath.Join(repo, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"HOME=" + home, "USERPROFILE=" + home}

	r := vaultmemEnv(t, sub, "", env, "setup", "claude-code")
	if r.code != 0 {
		t.Fatalf("setup: exit %d\n%s", r.code, r.stderr)
	}
	for _, want := range []string{"update CLAUDE.md: memory protocol block (backup: CLAUDE.md.vaultmem-backup-",
		"create .mcp.json: MCP server vaultmem", "update " + filepath.Join(".claude", "settings.json") + ": hooks SessionStart, ",
		"git config merge.vaultmem-note.driver", "Note: Claude Code asks once", "Next: restart Claude Code"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	vault := filepath.Join(repo, "agent-memory")
	if _, err := os.Stat(filepath.Join(vault, ".vaultmem", "config.yaml")); err != nil {
		t.Errorf("no vault made: %v", err)
	}
	var mcp struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(mustRead(t, filepath.Join(repo, ".mcp.json"))), &mcp); err != nil {
		t.Fatal(err)
	}
	server := mcp.MCPServers["vaultmem"]
	if !filepath.IsAbs(server.Command) || !reflect.DeepEqual(server.Args, []string{"--vault", vault, "mcp"}) {
		t.Errorf(".mcp.json: %+v", server)
	}
	settings := mustRead(t, filepath.Join(repo, ".claude", "settings.json"))
	for _, want := range []string{`"say done"`, `"Bash(make test)"`, ` --vault '` + vault + `' hook --client claude-code"`, `"SessionEnd"`} {
		if !strings.Contains(settings, want) {
			t.Errorf("settings.json lacks %s:\n%s", want, settings)
		}
	}
	if !strings.Contains(mustRead(t, filepath.Join(repo, "CLAUDE.md")), "\n<!-- vaultmem:begin -->\n") {
		t.Errorf("CLAUDE.md has no block")
	}
	if entries, _ := os.ReadDir(home); len(entries) > 0 {
		t.Errorf("setup wrote in HOME: %v", entries)
	}

	var again struct {
		Vault   string `json:"vault"`
		Client  string `json:"client"`
		Changes []struct {
			File   string `json:"file"`
			Action string `json:"action"`
		} `json:"changes"`
		Notes []string `json:"notes"`
	}
	r = vaultmemEnv(t, sub, "", env, "setup", "claude-code", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &again); err != nil || r.code != 0 {
		t.Fatalf("setup --json: exit %d, %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	if again.Vault != vault || again.Client != "claude-code" || len(again.Changes) != 3 || len(again.Notes) == 0 {
		t.Errorf("setup --json: %+v", again)
	}
	for _, c := range again.Changes {
		if c.Action != "unchanged" {
			t.Errorf("second run: %+v", c)
		}
	}

	set := snapshot(t, repo)
	if r := vaultmemEnv(t, sub, "", env, "setup", "claude-code", "--remove", "--dry-run"); r.code != 0 || !strings.Contains(r.stdout, "delete .mcp.json") {
		t.Errorf("dry run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if after := snapshot(t, repo); !reflect.DeepEqual(after, set) {
		t.Errorf("the dry run wrote files")
	}

	r = vaultmemEnv(t, sub, "", env, "setup", "claude-code", "--remove")
	if r.code != 0 {
		t.Fatalf("remove: exit %d\n%s", r.code, r.stderr)
	}
	for rel, text := range user {
		if got := mustRead(t, filepath.Join(repo, filepath.FromSlash(rel))); got != text {
			t.Errorf("%s after remove:\n%s\nwant:\n%s", rel, got, text)
		}
	}
	if _, err := os.Stat(filepath.Join(repo, ".mcp.json")); !os.IsNotExist(err) {
		t.Errorf(".mcp.json is still there (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(vault, ".vaultmem")); err != nil {
		t.Errorf("remove touched the vault: %v", err)
	}
}

// TestSetupUsage: a missing or unknown client, or a stray argument, is a
// usage error; a client file that does not parse is an error naming it,
// and nothing is written, the vault neither.
func TestSetupUsage(t *testing.T) {
	dir := t.TempDir()
	env := []string{"HOME=" + dir, "USERPROFILE=" + dir}
	for _, args := range [][]string{{"setup"}, {"setup", "vim"}, {"setup", "codex", "extra"}, {"setup", "cursor", "--bogus"}} {
		if r := vaultmemEnv(t, dir, "", env, args...); r.code != 2 {
			t.Errorf("%v: exit %d, want 2\n%s", args, r.code, r.stderr)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "CLAUDE.md"), []byte("<!-- vaultmem:begin -->\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := vaultmemEnv(t, dir, "", env, "setup", "claude-code")
	if r.code != 1 || !strings.Contains(r.stderr, filepath.Join(dir, "CLAUDE.md")+":1: <!-- vaultmem:begin --> without <!-- vaultmem:end -->") {
		t.Errorf("exit %d\n%s", r.code, r.stderr)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("written despite the error: %v", entries)
	}
}
