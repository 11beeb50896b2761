package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pelletier/go-toml/v2"
)

// vaultmemOnPath makes a folder holding vaultmem, a link to this test
// binary (which runs vaultmem's main with VAULTMEM_RUN_MAIN=1), and puts
// it first on this process's PATH, so that both this process and its
// children find it there; it returns the folder. A link, not a build of
// its own: setup tells vaultmem is on the PATH by the file (os.SameFile),
// and a build per test costs minutes on a busy machine.
func vaultmemOnPath(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(exe, filepath.Join(bin, "vaultmem")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(filepath.ListSeparator)+os.Getenv("PATH"))
	return bin
}

// TestSetupPortable is the team's case: `vaultmem setup` for each client
// in clone A of a repository, committed and pushed; clone B, elsewhere
// (another absolute path), runs without setup what the committed project
// files name, with vaultmem on the PATH: each client's SessionStart hook
// command, as the file writes it, through the shell, from B's top and
// from a subfolder, and each client's MCP server command (an MCP
// initialize, then a remember). All of it works on B's vault, and A's
// vault is untouched. No committed file names A's path, the binary's or
// the home folder. `setup --remove` in A then takes every project file
// out again.
func TestSetupPortable(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("runs the hook commands with sh")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH")
	}
	bin := vaultmemOnPath(t)
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home, origin := filepath.Join(root, "home"), filepath.Join(root, "origin.git")
	a, b := filepath.Join(root, "alice", "code", "app"), filepath.Join(root, "bob", "work", "the app")
	for _, d := range []string{home, filepath.Dir(a), filepath.Dir(b)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := append(os.Environ(), "HOME="+home, "USERPROFILE="+home, "VAULTMEM_VAULT=", "VAULTMEM_RUN_MAIN=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Test", "GIT_AUTHOR_EMAIL=test@example.com", "GIT_COMMITTER_NAME=Test", "GIT_COMMITTER_EMAIL=test@example.com")
	// run runs name (vaultmem: the built one, found on the PATH) in dir.
	run := func(dir, stdin, name string, args ...string) (stdout, stderr string) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env, cmd.Stdin = dir, env, strings.NewReader(stdin)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s %q in %s: %v\n%s%s", name, args, dir, err, out.String(), errb.String())
		}
		return out.String(), errb.String()
	}
	git := func(dir string, args ...string) string {
		t.Helper()
		out, _ := run(dir, "", "git", args...)
		return out
	}

	git(root, "init", "-q", "--bare", "-b", "main", origin)
	git(root, "clone", "-q", origin, a)
	git(a, "symbolic-ref", "HEAD", "refs/heads/main")
	writeFile(t, filepath.Join(a, "README.md"), "# app\n")
	for _, c := range []string{"claude-code", "codex", "gemini-cli", "cursor"} {
		out, _ := run(a, "", "vaultmem", "setup", c)
		if !strings.Contains(out, "[for the team: commit it]") || strings.Contains(out, "for this machine") {
			t.Errorf("setup %s does not say its files are the team's:\n%s", c, out)
		}
	}
	run(a, "", "vaultmem", "--vault", "agent-memory", "remember", "--type", "project", "--name", "Deploy day",
		"--description", "deploys go out on Tuesdays", "Deploys go out on Tuesdays after the standup.")
	git(a, "add", "-A")
	git(a, "commit", "-q", "-m", "vaultmem for the team")
	git(a, "push", "-q", "origin", "main")
	git(filepath.Dir(b), "clone", "-q", "-b", "main", origin, b)
	vaultA, vaultB := filepath.Join(a, "agent-memory"), filepath.Join(b, "agent-memory")
	beforeA := snapshot(t, vaultA)

	// No committed file names this machine's paths.
	for _, f := range strings.Fields(git(b, "ls-files")) {
		text := mustRead(t, filepath.Join(b, f))
		for _, p := range []string{a, bin, home, root} {
			if strings.Contains(text, p) {
				t.Errorf("the committed %s names %s:\n%s", f, p, text)
			}
		}
	}

	// The hooks, as the project files name them.
	sub := filepath.Join(b, "src", "pkg")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	var claude struct {
		Hooks map[string][]struct{ Hooks []struct{ Command string } }
	}
	decodeFile(t, filepath.Join(b, ".claude", "settings.json"), &claude)
	var codex struct {
		Hooks map[string][]struct{ Hooks []struct{ Command string } }
	}
	decodeFile(t, filepath.Join(b, ".codex", "hooks.json"), &codex)
	var gemini struct {
		Hooks      map[string][]struct{ Hooks []struct{ Command string } }
		MCPServers map[string]struct {
			Command string
			Args    []string
		}
	}
	decodeFile(t, filepath.Join(b, ".gemini", "settings.json"), &gemini)
	var cursor struct {
		Hooks map[string][]struct{ Command string }
	}
	decodeFile(t, filepath.Join(b, ".cursor", "hooks.json"), &cursor)
	hooks := []struct {
		client, command, event string
		fields                 map[string]any
	}{
		{"claude-code", claude.Hooks["SessionStart"][0].Hooks[0].Command, "SessionStart", map[string]any{"source": "startup"}},
		{"codex", codex.Hooks["SessionStart"][0].Hooks[0].Command, "SessionStart", map[string]any{"source": "startup"}},
		{"gemini-cli", gemini.Hooks["SessionStart"][0].Hooks[0].Command, "SessionStart", map[string]any{"source": "startup"}},
		{"cursor", cursor.Hooks["sessionStart"][0].Command, "sessionStart", map[string]any{"workspace_roots": []string{b}}},
	}
	for _, h := range hooks {
		for where, cwd := range map[string]string{"top": b, "sub": sub} {
			// The place first: session notes are named by the first 8
			// characters of the id and the minute.
			session := where + "-" + h.client
			in := hookEvent(session, cwd, h.event, h.fields)
			if h.client == "cursor" {
				in = strings.Replace(in, `"cwd":`, `"conversation_id":"`+session+`","x_cwd":`, 1)
			}
			out, errOut := run(cwd, in, "sh", "-c", h.command)
			if !strings.Contains(out, "deploys go out on Tuesdays") {
				t.Errorf("%s: `%s` in %s gave no memory:\nstdout %s\nstderr %s", h.client, h.command, cwd, out, errOut)
			}
			if _, err := os.Stat(filepath.Join(vaultB, ".vaultmem", "state", "sessions", session+".json")); err != nil {
				t.Errorf("%s: `%s` in %s kept no session in clone B's vault: %v", h.client, h.command, cwd, err)
			}
		}
	}

	// The MCP servers, as the project files name them.
	var claudeMCP, cursorMCP struct {
		MCPServers map[string]struct {
			Command string
			Args    []string
		}
	}
	decodeFile(t, filepath.Join(b, ".mcp.json"), &claudeMCP)
	decodeFile(t, filepath.Join(b, ".cursor", "mcp.json"), &cursorMCP)
	var codexCfg struct {
		MCPServers map[string]struct {
			Command string
			Args    []string
		} `toml:"mcp_servers"`
	}
	if err := toml.Unmarshal([]byte(mustRead(t, filepath.Join(b, ".codex", "config.toml"))), &codexCfg); err != nil {
		t.Fatal(err)
	}
	// Cursor replaces ${workspaceFolder} with the project's folder.
	cursorArgs := cursorMCP.MCPServers["vaultmem"].Args
	for i, arg := range cursorArgs {
		cursorArgs[i] = strings.ReplaceAll(arg, "${workspaceFolder}", b)
	}
	servers := []struct {
		client, dir, command string
		args                 []string
	}{
		{"claude-code", b, claudeMCP.MCPServers["vaultmem"].Command, claudeMCP.MCPServers["vaultmem"].Args},
		{"claude-code in a subfolder", sub, claudeMCP.MCPServers["vaultmem"].Command, claudeMCP.MCPServers["vaultmem"].Args},
		{"codex", b, codexCfg.MCPServers["vaultmem"].Command, codexCfg.MCPServers["vaultmem"].Args},
		{"gemini-cli", b, gemini.MCPServers["vaultmem"].Command, gemini.MCPServers["vaultmem"].Args},
		{"cursor", b, cursorMCP.MCPServers["vaultmem"].Command, cursorArgs},
	}
	for i, s := range servers {
		if s.command != "vaultmem" {
			t.Errorf("%s: the MCP server's command is %q, want vaultmem", s.client, s.command)
		}
		cmd := exec.Command(s.command, s.args...)
		cmd.Dir, cmd.Env = s.dir, env
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
			Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			cancel()
			t.Errorf("%s: MCP initialize through %s %q in %s: %v", s.client, s.command, s.args, s.dir, err)
			continue
		}
		name := "Clone B fact " + string(rune('a'+i))
		var rem struct{ Path string }
		if e := call(t, cs, "remember", map[string]any{"type": "project", "name": name,
			"description": "a fact remembered in clone B", "body": "Remembered through " + s.client + "."}, &rem); e != "" {
			t.Errorf("%s: remember: %s", s.client, e)
		} else if _, err := os.Stat(filepath.Join(vaultB, filepath.FromSlash(rem.Path))); err != nil {
			t.Errorf("%s: the MCP server did not write in clone B's vault: %v", s.client, err)
		}
		cs.Close()
		cancel()
	}
	if after := snapshot(t, vaultA); !reflect.DeepEqual(after, beforeA) {
		t.Errorf("clone A's vault changed by clone B's hooks or servers")
	}

	// Taken out again in A: the project holds what it held before setup
	// (the vault stays).
	var project []string
	for _, f := range strings.Split(strings.TrimSpace(git(a, "ls-files")), "\n") {
		if !strings.HasPrefix(f, "agent-memory/") && f != "README.md" {
			project = append(project, f)
		}
	}
	if len(project) != 11 {
		t.Errorf("the project files committed: %q, want 11 (3 of Claude Code's, 3 of Codex's, 2 of Gemini CLI's, 3 of Cursor's)", project)
	}
	for _, c := range []string{"claude-code", "codex", "gemini-cli", "cursor"} {
		run(a, "", "vaultmem", "setup", c, "--remove")
	}
	for _, f := range project {
		if _, err := os.Stat(filepath.Join(a, f)); err == nil {
			t.Errorf("%s is still there after remove", f)
		}
	}
	if got := mustRead(t, filepath.Join(a, "README.md")); got != "# app\n" {
		t.Errorf("README.md after remove: %q", got)
	}
	if entries, _ := os.ReadDir(home); len(entries) > 0 {
		t.Errorf("the team's set-up wrote in the home folder: %v", entries)
	}
}

// decodeFile decodes the JSON file p into v.
func decodeFile(t *testing.T, p string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(mustRead(t, p)), v); err != nil {
		t.Fatalf("%s: %v", p, err)
	}
}

// TestVaultPath: a relative --vault is the first vault of that name at or
// above the folder, up to the top of the git repository; an absolute one,
// or one found nowhere, is as given.
func TestVaultPath(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	for _, d := range []string{
		filepath.Join(root, "agent-memory", ".vaultmem"), // above the repository: never reached from inside it
		filepath.Join(root, "shelf", ".vaultmem"),        // above a folder that is no repository
		filepath.Join(repo, ".git"),
		filepath.Join(repo, "agent-memory", ".vaultmem"),
		filepath.Join(repo, "docs", "notes", ".vaultmem"),
		filepath.Join(repo, "src", "pkg", "agent-memory"), // a folder of that name that is no vault
		filepath.Join(root, "loose", "deep"),
		filepath.Join(root, "other", ".git"), // another repository, without the vault
	} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	abs := filepath.Join(root, "elsewhere")
	tests := []struct {
		name, flag string
		dirs       []string
		want       string
	}{
		{"none", "", []string{repo}, ""},
		{"absolute", abs, []string{repo}, abs},
		{"at the top", "agent-memory", []string{repo}, filepath.Join(repo, "agent-memory")},
		{"from a subfolder", "agent-memory", []string{filepath.Join(repo, "src", "pkg")}, filepath.Join(repo, "agent-memory")},
		{"deeper path", "docs/notes", []string{filepath.Join(repo, "src")}, filepath.Join(repo, "docs", "notes")},
		{"the project itself", ".", []string{filepath.Join(repo, "agent-memory", "memory")}, filepath.Join(repo, "agent-memory")},
		{"not above the repository", "shelf", []string{filepath.Join(repo, "src")}, "shelf"},
		{"outside any repository", "shelf", []string{filepath.Join(root, "loose", "deep")}, filepath.Join(root, "shelf")},
		{"the second folder", "agent-memory", []string{filepath.Join(root, "other"), filepath.Join(repo, "src")}, filepath.Join(repo, "agent-memory")},
		{"found nowhere", "no-such", []string{filepath.Join(repo, "src")}, "no-such"},
		{"no folder", "agent-memory", []string{""}, "agent-memory"},
	}
	for _, tt := range tests {
		if got := vaultPath(filepath.FromSlash(tt.flag), tt.dirs...); got != tt.want {
			t.Errorf("%s: vaultPath(%q, %q) = %q, want %q", tt.name, tt.flag, tt.dirs, got, tt.want)
		}
	}
}
