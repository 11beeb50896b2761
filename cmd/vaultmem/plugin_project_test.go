package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPluginInASetUpProject (issue 39, item 7 of Why): a project whose
// vault `setup` made in agent-memory/ at its git top, and the Claude Code
// plugin installed without vault_dir (its commands get --vault ""): run
// from a folder inside the project through the plugin's launcher, the MCP
// server starts and answers, and the hooks answer from that vault.
func TestPluginInASetUpProject(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	launcher, err := filepath.Abs(filepath.Join("..", "..", "plugins", "vaultmem", "bin", "vaultmem-run"))
	if err != nil {
		t.Fatal(err)
	}
	project := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", project).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	vaultDir := filepath.Join(project, "agent-memory")
	if err := os.MkdirAll(vaultDir, 0o755); err != nil {
		t.Fatal(err)
	}
	ok(t, vaultDir, "init")
	ok(t, vaultDir, "remember", "--type", "feedback", "--name", "Use pnpm", "--description", "The user wants pnpm, not npm",
		"Always use pnpm for package installs in this repository.")
	work := filepath.Join(project, "src", "importer")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	testDriver(t, bin)
	run := func(stdin string, args ...string) (string, string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(t.Context(), hangGuard)
		defer cancel()
		cmd := exec.CommandContext(ctx, sh, append([]string{launcher, "--vault", ""}, args...)...)
		cmd.Dir = work
		home := t.TempDir()
		cmd.Env = []string{"PATH=" + bin + ":/usr/bin:/bin", "HOME=" + home, "GOPATH=" + filepath.Join(home, "go"), "VAULTMEM_SERVER=off"}
		cmd.Stdin = strings.NewReader(stdin)
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("%v: %v; stderr %s", args, err, errb.String())
		}
		return out.String(), errb.String()
	}
	// The MCP server, as Claude Code starts it: stdin stays open until the
	// answers came.
	ctx, cancel := context.WithTimeout(t.Context(), hangGuard)
	defer cancel()
	mcp := exec.CommandContext(ctx, sh, launcher, "--vault", "", "mcp")
	mcp.Dir = work
	home := t.TempDir()
	mcp.Env = []string{"PATH=" + bin + ":/usr/bin:/bin", "HOME=" + home, "GOPATH=" + filepath.Join(home, "go"), "VAULTMEM_SERVER=off"}
	in, _ := mcp.StdinPipe()
	stdout, _ := mcp.StdoutPipe()
	var errb strings.Builder
	mcp.Stderr = &errb
	if err := mcp.Start(); err != nil {
		t.Fatal(err)
	}
	io.WriteString(in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"claude-code","version":"2.1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"recall","arguments":{"query":"which package manager for installs?"}}}
`)
	var answer string
	sc := bufio.NewScanner(stdout)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.Contains(sc.Text(), `"id":2`) {
			answer = sc.Text()
			break
		}
	}
	in.Close()
	mcp.Wait()
	if !strings.Contains(answer, "Always use pnpm") {
		t.Errorf("the MCP server through the plugin's launcher answered the recall with %.500q; stderr %s", answer, errb.String())
	}
	out, errOut := run(hookEvent("s-plugin", work, "SessionStart", map[string]any{"source": "startup"}), "hook", "--client", "claude-code")
	if !strings.Contains(out, "Use pnpm") || errOut != "" {
		t.Errorf("SessionStart through the plugin's launcher: stdout %.300s, stderr %q", out, errOut)
	}
}
