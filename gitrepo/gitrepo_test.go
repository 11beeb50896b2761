package gitrepo_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/vaultmem/vaultmem/gitrepo"
)

// gitRepo makes a repository in a new folder, with an identity and no
// configuration of the machine's or user's.
func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	home := t.TempDir()
	for k, v := range map[string]string{
		"HOME": home, "XDG_CONFIG_HOME": home, "GIT_CONFIG_NOSYSTEM": "1",
		"GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com",
		"GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.com",
	} {
		t.Setenv(k, v)
	}
	dir := t.TempDir()
	if out, err := exec.Command("git", "-C", dir, "init", "--quiet").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	return dir
}

// TestCommitRunsNoHook: a vault is shared, and its .git may be writable
// by others: a hook there (each of those a commit runs) must never run as
// the user whose vaultmem commits.
func TestCommitRunsNoHook(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the hooks here are shell scripts")
	}
	dir := gitRepo(t)
	marker := filepath.Join(t.TempDir(), "hook-ran")
	hooks := filepath.Join(dir, ".git", "hooks")
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, hook := range []string{"pre-commit", "prepare-commit-msg", "commit-msg", "post-commit"} {
		script := "#!/bin/sh\necho " + hook + " >> '" + marker + "'\n"
		if err := os.WriteFile(filepath.Join(hooks, hook), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The hooks do run for a plain git commit: the test can fail.
	if err := os.WriteFile(filepath.Join(dir, "first.md"), []byte("first\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "-C", dir, "add", "first.md").CombinedOutput(); err != nil {
		t.Fatalf("git add: %v: %s", err, out)
	}
	if out, err := exec.Command("git", "-C", dir, "commit", "--quiet", "-m", "first").CombinedOutput(); err != nil {
		t.Fatalf("git commit: %v: %s", err, out)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatalf("the hooks did not run for git itself (%v): the test proves nothing", err)
	}
	if err := os.Remove(marker); err != nil {
		t.Fatal(err)
	}

	if err := os.WriteFile(filepath.Join(dir, "note.md"), []byte("a note\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	id, err := gitrepo.Commit(context.Background(), dir, []string{"note.md"}, "dream: a run")
	if err != nil {
		t.Fatal(err)
	}
	if id == "" {
		t.Fatal("no commit id")
	}
	if b, err := os.ReadFile(marker); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("vaultmem's commit ran the repository's hooks: %q", b)
	}
	if out, err := gitrepo.Run(context.Background(), dir, "log", "-1", "--format=%s"); err != nil || out != "dream: a run" {
		t.Errorf("last commit: %q, %v; want vaultmem's", out, err)
	}
}

// TestEmail: git's user.email in a folder: none set (GIT_*_EMAIL
// variables are not git config), the repository's, and outside any
// repository the user's global one.
func TestEmail(t *testing.T) {
	ctx := context.Background()
	dir := gitRepo(t)
	if got := gitrepo.Email(ctx, dir); got != "" {
		t.Errorf("nothing set: %q", got)
	}
	if out, err := exec.Command("git", "-C", dir, "config", "user.email", "repo@example.com").CombinedOutput(); err != nil {
		t.Fatalf("git config: %v: %s", err, out)
	}
	if got := gitrepo.Email(ctx, dir); got != "repo@example.com" {
		t.Errorf("the repository's: %q", got)
	}
	if err := os.WriteFile(filepath.Join(os.Getenv("HOME"), ".gitconfig"), []byte("[user]\n\temail = me@example.com\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := gitrepo.Email(ctx, t.TempDir()); got != "me@example.com" {
		t.Errorf("the global one outside a repository: %q", got)
	}
	if got := gitrepo.Email(ctx, dir); got != "repo@example.com" {
		t.Errorf("the repository's before the global one: %q", got)
	}
}
