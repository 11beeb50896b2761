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
// in its name), with vaultmem on the PATH and HOME elsewhere, `setup
// claude-code` makes a vault in the repository, registers the MCP server
// and the hooks (naming vaultmem and the vault relative to the project)
// and adds the memory protocol to CLAUDE.md, keeping the user's content,
// saying each file is for the team and writing nothing in HOME; a second
// run changes nothing; a dry run of the removal writes nothing;
// `--remove` gives back the user's files byte for byte, deletes the files
// setup made and leaves the vault.
func TestSetupClaudeCode(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH")
	}
	vaultmemOnPath(t)
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
	for _, want := range []string{"update CLAUDE.md: memory protocol block [for the team: commit it] (backup: CLAUDE.md.vaultmem-backup-",
		"create .mcp.json: MCP server vaultmem [for the team: commit it]", "update " + filepath.Join(".claude", "settings.json") + ": hooks SessionStart, ",
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
	if server.Command != "vaultmem" || !reflect.DeepEqual(server.Args, []string{"--vault", "agent-memory", "mcp"}) {
		t.Errorf(".mcp.json: %+v", server)
	}
	settings := mustRead(t, filepath.Join(repo, ".claude", "settings.json"))
	for _, want := range []string{`"say done"`, `"Bash(make test)"`, `"vaultmem --vault agent-memory hook --client claude-code"`, `"SessionEnd"`} {
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
		Shared  bool   `json:"shared"`
		Changes []struct {
			File   string `json:"file"`
			Action string `json:"action"`
			For    string `json:"for"`
		} `json:"changes"`
		Notes []string `json:"notes"`
	}
	r = vaultmemEnv(t, sub, "", env, "setup", "claude-code", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &again); err != nil || r.code != 0 {
		t.Fatalf("setup --json: exit %d, %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	if again.Vault != vault || again.Client != "claude-code" || !again.Shared || len(again.Changes) != 3 || len(again.Notes) == 0 {
		t.Errorf("setup --json: %+v", again)
	}
	for _, c := range again.Changes {
		if c.Action != "unchanged" || c.For != "team" {
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

// TestSetupClaudeCodeMachine: with vaultmem off the PATH, `setup
// claude-code` leaves the team's files alone and puts the MCP server into
// ~/.claude.json for this project and the hooks into
// .claude/settings.local.json, with this binary's absolute path, says so
// per file and why, and that git does not ignore settings.local.json
// until .gitignore says so; another client is refused, writing nothing;
// `--remove` gives back ~/.claude.json byte for byte and deletes what it
// made.
func TestSetupClaudeCodeMachine(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home, proj := filepath.Join(root, "home"), filepath.Join(root, "proj")
	claudeJSON := "{\n  \"numStartups\": 3,\n  \"projects\": {\n    \"" + proj + "\": {\n      \"mcpServers\": {},\n      \"allowedTools\": []\n    }\n  }\n}\n"
	writeFile(t, filepath.Join(home, ".claude.json"), claudeJSON)
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	_, noGit := exec.LookPath("git")
	if noGit == nil {
		if out, err := gitCmd(proj, "init", "-q").CombinedOutput(); err != nil {
			t.Fatalf("git init: %v\n%s", err, out)
		}
	}
	env := []string{"HOME=" + home, "USERPROFILE=" + home, "GIT_CONFIG_GLOBAL=" + os.DevNull, "GIT_CONFIG_NOSYSTEM=1"}

	r := vaultmemEnv(t, proj, "", env, "setup", "claude-code")
	if r.code != 0 {
		t.Fatalf("setup: exit %d\n%s", r.code, r.stderr)
	}
	for _, want := range []string{
		"update " + filepath.Join("~", ".claude.json") + ": MCP server vaultmem for this project [for this machine only: do not commit it]",
		"create " + filepath.Join(".claude", "settings.local.json") + ": hooks SessionStart",
		"create CLAUDE.md: memory protocol block [for the team: commit it]",
		"Note: vaultmem is not on the PATH"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	for _, f := range []string{".mcp.json", filepath.Join(".claude", "settings.json")} {
		if _, err := os.Stat(filepath.Join(proj, f)); err == nil {
			t.Errorf("%s written for the team with this machine's paths", f)
		}
	}
	exe, _ := os.Executable()
	if local := mustRead(t, filepath.Join(proj, ".claude", "settings.local.json")); !strings.Contains(local, exe) {
		t.Errorf("settings.local.json does not run %s:\n%s", exe, local)
	}
	if state := mustRead(t, filepath.Join(home, ".claude.json")); !strings.Contains(state, `"args": [`) || !strings.Contains(state, exe) {
		t.Errorf("~/.claude.json:\n%s", state)
	}

	unignored := "Note: git does not ignore .claude/settings.local.json, which holds this machine's paths"
	if noGit == nil {
		if !strings.Contains(r.stdout, unignored) {
			t.Errorf("no word of the unignored settings.local.json:\n%s", r.stdout)
		}
		writeFile(t, filepath.Join(proj, ".gitignore"), ".claude/settings.local.json\n")
		if r := vaultmemEnv(t, proj, "", env, "setup", "claude-code"); r.code != 0 || strings.Contains(r.stdout, unignored) {
			t.Errorf("setup with settings.local.json ignored: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
	}

	before := snapshot(t, proj)
	if r := vaultmemEnv(t, proj, "", env, "setup", "codex"); r.code != 1 || !strings.Contains(r.stderr, "vaultmem is not on the PATH") {
		t.Errorf("setup codex off the PATH: exit %d\n%s", r.code, r.stderr)
	}
	if after := snapshot(t, proj); !reflect.DeepEqual(after, before) {
		t.Errorf("the refused setup wrote files")
	}

	if r := vaultmemEnv(t, proj, "", env, "setup", "claude-code", "--remove"); r.code != 0 {
		t.Fatalf("remove: exit %d\n%s", r.code, r.stderr)
	}
	if got := mustRead(t, filepath.Join(home, ".claude.json")); got != claudeJSON {
		t.Errorf("~/.claude.json after remove:\n%s\nwant\n%s", got, claudeJSON)
	}
	if _, err := os.Stat(filepath.Join(proj, ".claude")); err == nil {
		t.Errorf(".claude/ left after remove")
	}
}
