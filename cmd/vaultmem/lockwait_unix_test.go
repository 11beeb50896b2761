//go:build unix

package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/vault"
)

// TestStoppedLockHolder: a process holding the vault lock is stopped (a
// vaultmem dream suspended with Ctrl-Z); remember does not wait for it
// forever but fails, exit 3, naming the holder's pid, the one the kernel
// says holds the lock, not the stale pid the lock file holds.
func TestStoppedLockHolder(t *testing.T) {
	dir := newVault(t)
	holder := stoppedHolder(t, dir)

	r := vaultmem(t, dir, "", "remember", "--type", "user", "--name", "Editor", "--description", "The user's editor", "Helix.")
	t.Logf("remember said: %s", r.stderr)
	pid := strconv.Itoa(holder)
	if r.code != exitConflict {
		t.Errorf("remember while a stopped process holds the lock: exit %d, want %d\nstderr: %s", r.code, exitConflict, r.stderr)
	}
	if !strings.Contains(r.stderr, "held by pid "+pid) {
		t.Errorf("remember's error does not name the holder, pid %s: %q", pid, r.stderr)
	}
	if runtime.GOOS == "linux" && strings.Contains(r.stderr, "pid 1 ") {
		t.Errorf("remember's error names the stale pid of the lock file: %q", r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "memory", "editor.md")); err == nil {
		t.Error("the memory was written while another process held the lock")
	}
}

// TestMCPStoppedLockHolder: over MCP, a write while a stopped process
// holds the vault lock answers with a tool error naming the holder, and
// the server goes on.
func TestMCPStoppedLockHolder(t *testing.T) {
	dir := newVault(t)
	cs := mcpSession(t, dir)
	call(t, cs, "search", map[string]any{"query": "anything"}, nil) // the server is up
	pid := strconv.Itoa(stoppedHolder(t, dir))
	e := call(t, cs, "remember", map[string]any{"type": "user", "name": "Editor", "description": "The user's editor", "body": "Helix."}, nil)
	if !strings.HasPrefix(e, "busy: ") || !strings.Contains(e, "held by pid "+pid) {
		t.Errorf("remember over MCP while a stopped process holds the lock: %q, want a tool error naming pid %s", e, pid)
	}
	if e := call(t, cs, "search", map[string]any{"query": "anything"}, nil); strings.HasPrefix(e, "protocol error") {
		t.Errorf("the server did not go on: %s", e)
	}
}

// stoppedHolder starts TestHelperLock on the vault in dir, waits until it
// holds the vault lock, stops it (SIGSTOP) and returns its pid; Cleanup
// resumes and kills it.
func stoppedHolder(t *testing.T, dir string) int {
	t.Helper()
	holder := exec.Command(os.Args[0], "-test.run=^TestHelperLock$")
	holder.Env = append(os.Environ(), "VAULTMEM_HELPER_LOCK="+dir)
	stdout, err := holder.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	holder.Stderr = os.Stderr
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		holder.Process.Signal(syscall.SIGCONT)
		holder.Process.Kill()
		holder.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || strings.TrimSpace(line) != "locked" {
		t.Fatalf("the helper said %q (%v), want locked", line, err)
	}
	if err := holder.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	return holder.Process.Pid
}

// TestHelperLock is TestStoppedLockHolder's lock holder: it takes the
// vault lock of $VAULTMEM_HELPER_LOCK, says "locked" and waits to be
// killed. On Linux it writes a stale pid into the lock file, as a
// holder of another user would leave the last one's there.
func TestHelperLock(t *testing.T) {
	dir := os.Getenv("VAULTMEM_HELPER_LOCK")
	if dir == "" {
		t.Skip("a helper process of TestStoppedLockHolder")
	}
	v, err := vault.Open(dir, vault.Folders{})
	if err != nil {
		t.Fatal(err)
	}
	l := v.FileLock(vault.LockFile)
	if err := l.Lock(); err != nil {
		t.Fatal(err)
	}
	pid := strconv.Itoa(os.Getpid())
	if runtime.GOOS == "linux" {
		pid = "1" // the kernel knows better
	}
	if err := os.WriteFile(l.Path(), []byte(pid+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString("locked\n")
	for {
		time.Sleep(time.Hour) // until killed
	}
}
