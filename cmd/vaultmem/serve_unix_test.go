//go:build !windows

package main

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/app"
)

// ownerOnly says why the socket at addr is not for its owner alone.
func ownerOnly(addr string) error {
	info, err := os.Stat(addr)
	if err != nil {
		return err
	}
	if info.Mode().Perm() != 0o600 {
		return fmt.Errorf("socket %s: %v, want owner-only", addr, info.Mode())
	}
	return nil
}

// TestStaleSocket: a socket left by a server that died is not answered;
// commands answer in process, and the next server takes its place.
func TestStaleSocket(t *testing.T) {
	dir := newVault(t)
	ok(t, dir, "remember", "--type", "user", "--name", "Editor", "--description", "The user's editor", "Helix.")
	sock := app.ServerAddress(dir)
	os.MkdirAll(filepath.Dir(sock), 0o700)
	if err := os.WriteFile(sock, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if r := vaultmem(t, dir, "", "search", "helix"); r.code != 0 || !strings.Contains(r.stdout, "editor") {
		t.Errorf("with a stale socket: %+v", r)
	}
	startWatch(t, dir)
	for i := 0; ; i++ {
		if r := vaultmemEnv(t, dir, "", []string{"VAULTMEM_SERVER=require"}, "search", "helix"); r.code == 0 {
			break
		}
		if i == 300 {
			t.Fatal("the new server never answered")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestSocketOfAnotherUser: a socket another user owns is not taken for
// the vault's server.
func TestSocketOfAnotherUser(t *testing.T) {
	addr := app.ServerAddress(t.TempDir())
	l, err := app.Listen(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	acceptEach(l, func(c net.Conn) { c.Close() })
	if err := os.Lchown(addr, 4242, 4242); err != nil {
		t.Skipf("cannot give the socket to another user: %v", err) // not root
	}
	if c, err := app.Dial(t.Context(), addr); err == nil || !strings.Contains(err.Error(), "belongs to user 4242") {
		if c != nil {
			c.Close()
		}
		t.Errorf("dial another user's socket: %v, want a refusal", err)
	}
	if err := os.Lchown(addr, os.Getuid(), os.Getgid()); err != nil {
		t.Fatal(err)
	}
	c, err := app.Dial(t.Context(), addr)
	if err != nil {
		t.Fatalf("dial this user's socket: %v", err)
	}
	c.Close()
}

// TestSocketInTheTemporaryFolder: a vault whose path is too long for a
// socket has its socket in a folder of this user's under the temporary
// folder, which must be closed to others.
func TestSocketInTheTemporaryFolder(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	vault := filepath.Join(t.TempDir(), strings.Repeat("long-folder-name/", 6))
	addr := app.ServerAddress(vault)
	if !strings.HasPrefix(addr, tmp) {
		t.Fatalf("address %s for a vault at %s (%d bytes), want one under %s", addr, vault, len(vault), tmp)
	}
	if err := os.MkdirAll(filepath.Dir(addr), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Dir(addr), 0o777); err != nil {
		t.Fatal(err)
	}
	if l, err := app.Listen(addr); err == nil {
		l.Close()
		t.Errorf("listened in %s, open to others", filepath.Dir(addr))
	}
	if err := os.Chmod(filepath.Dir(addr), 0o700); err != nil {
		t.Fatal(err)
	}
	l, err := app.Listen(addr)
	if err != nil {
		t.Fatal(err)
	}
	// Another server's socket put in its place (two started at once) is
	// not removed when this one stops.
	other, err := app.Listen(addr)
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	if _, err := os.Lstat(addr); err != nil {
		t.Errorf("the other server's socket is gone: %v", err)
	}
	other.Close()
	if _, err := os.Lstat(addr); err == nil {
		t.Error("the socket is left after its server stopped")
	}
}

// TestSocketOutOfAnOpenTmp: a .vaultmem/tmp that others may change (open
// to the group or to all, or another user's, in a vault shared with other
// local users) holds no socket of the server's: its address is in this
// user's folder under the temporary folder, and no server listens in such
// a .vaultmem/tmp.
func TestSocketOutOfAnOpenTmp(t *testing.T) {
	for _, tt := range []struct {
		name  string
		mode  os.FileMode
		owner int // -1: this user
		there bool
	}{
		{"not made yet", 0, -1, true},
		{"this user's", 0o755, -1, true},
		{"open to the group", 0o775, -1, false},
		{"open to all", 0o777, -1, false},
		{"another user's", 0o755, 4242, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("TMPDIR", t.TempDir())
			dir := t.TempDir()
			tmp := filepath.Join(dir, ".vaultmem", "tmp")
			if tt.mode != 0 {
				if err := os.MkdirAll(tmp, 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(tmp, tt.mode); err != nil {
					t.Fatal(err)
				}
			}
			if tt.owner >= 0 {
				if err := os.Chown(tmp, tt.owner, tt.owner); err != nil {
					t.Skipf("cannot give the folder to another user: %v", err) // not root
				}
			}
			addr := app.ServerAddress(dir)
			if got := filepath.Dir(addr) == tmp; got != tt.there {
				t.Errorf("the socket is %s; in .vaultmem/tmp: %v, want %v", addr, got, tt.there)
			}
			inTmp := filepath.Join(tmp, "serve.sock")
			l, err := app.Listen(inTmp)
			if err == nil {
				l.Close()
			}
			if (err == nil) != tt.there {
				t.Errorf("listen in %s: %v; want it only in a folder of this user's closed to others", tmp, err)
			}
		})
	}
}

// TestStoppedServer: a watcher stopped (kill -STOP) still has its
// connections accepted by the kernel, and never takes a request: a hook
// and a search answer in process, at once, not after the answer's bound.
func TestStoppedServer(t *testing.T) {
	dir := newVault(t)
	ok(t, dir, "lesson", "add", "Pin versions", "--trigger", "add a dependency", "--action-bias", "pin the version")
	w := startWatch(t, dir)
	for i := 0; ; i++ { // a hang guard, not a timing
		if r := vaultmemEnv(t, dir, "", []string{"VAULTMEM_SERVER=require"}, "search", "pin"); r.code == 0 {
			break
		}
		if i == 3000 {
			t.Fatalf("the watcher never served; it said:\n%s", w.output())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := w.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.cmd.Process.Signal(syscall.SIGCONT) })
	hook := `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"t1","tool_input":{"command":"pnpm add zod","description":"add a dependency"}}`
	want := vaultmemEnv(t, dir, hook, []string{"VAULTMEM_SERVER=off"}, "lesson", "match", "--hook")
	for _, args := range [][]string{{"lesson", "match", "--hook"}, {"search", "pin"}} {
		r := vaultmemGuarded(t, dir, hook, nil, args...)
		if r.code != 0 || !strings.Contains(r.stderr, "did not take the request within") {
			t.Errorf("%v beside a stopped server: %+v", args, r)
		}
		if args[0] == "lesson" && r.stdout != want.stdout {
			t.Errorf("hook beside a stopped server: %q, want %q", r.stdout, want.stdout)
		}
	}
}
