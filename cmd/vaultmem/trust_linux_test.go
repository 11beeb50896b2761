//go:build linux

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/app"
)

// mountTmpfs mounts a small file system of its own for the test (a disk
// that can be filled, or made read-only). It needs the right to mount
// (root in the sandbox, CI's container); elsewhere the test is skipped.
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v): run as root to test full and read-only disks", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}

// remount makes the tmpfs at dir read-only (or writable again).
func remount(t *testing.T, dir string, readOnly bool) {
	t.Helper()
	flags := uintptr(syscall.MS_REMOUNT)
	if readOnly {
		flags |= syscall.MS_RDONLY
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", flags, ""); err != nil {
		t.Fatalf("remount %s: %v", dir, err)
	}
}

// fill writes a file until the disk is full, and returns it.
func fill(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "filler.bin")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	block := make([]byte, 64<<10)
	for {
		if _, err := f.Write(block); err != nil {
			break
		}
	}
	return p
}

func searchHits(t *testing.T, dir string, args ...string) (int, result) {
	t.Helper()
	r := vaultmem(t, dir, "", append([]string{"search", "--json"}, args...)...)
	var out struct{ Results []json.RawMessage }
	if r.code == 0 {
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
			t.Fatalf("search output: %v\n%s", err, r.stdout)
		}
	}
	return len(out.Results), r
}

// TestFullDiskKeepsTheCache: a disk that fills up makes `index` fail with
// an error, never shrink the cache; searches keep answering from it, and
// once there is room again everything works.
func TestFullDiskKeepsTheCache(t *testing.T) {
	dir := mountTmpfs(t, "16M")
	ok(t, dir, "init")
	writeNotes(t, dir, 200)
	ok(t, dir, "index")
	db := filepath.Join(dir, ".vaultmem", "cache", "index.db")
	before, err := os.Stat(db)
	if err != nil || before.Size() == 0 {
		t.Fatalf("no cache after index: %v", err)
	}
	if n, r := searchHits(t, dir, "--no-sync", "harbour"); n == 0 {
		t.Fatalf("search before: %d hits, exit %d %s", n, r.code, r.stderr)
	}
	// New notes to index, then no room to index them.
	for i := range 50 {
		os.WriteFile(filepath.Join(dir, "notes", fmt.Sprintf("Extra %d.md", i)), []byte(strings.Repeat("dredger quay ", 200)), 0o644)
	}
	filler := fill(t, dir)
	if r := vaultmem(t, dir, "", "index"); r.code == 0 {
		t.Errorf("index on a full disk succeeded: %s", r.stdout)
	} else if !strings.Contains(r.stderr, "index.db") && !strings.Contains(r.stderr, ".vaultmem") {
		t.Errorf("the error names no file: %q", r.stderr)
	}
	if after, err := os.Stat(db); err != nil || after.Size() < before.Size() {
		t.Fatalf("the cache shrank on a full disk: %v -> %v (%v)", before.Size(), after.Size(), err)
	}
	if n, r := searchHits(t, dir, "--no-sync", "harbour"); n == 0 {
		t.Errorf("search --no-sync on a full disk: %d hits, exit %d %s", n, r.code, r.stderr)
	}
	os.Remove(filler)
	if n, r := searchHits(t, dir, "--no-sync", "harbour"); n == 0 {
		t.Errorf("search --no-sync after freeing space: %d hits, exit %d %s", n, r.code, r.stderr)
	}
	ok(t, dir, "index")
	if n, r := searchHits(t, dir, "dredger"); n == 0 {
		t.Errorf("the new notes are not found once there is room: exit %d %s", r.code, r.stderr)
	}
}

// TestReadOnlyVault: a vault on a read-only disk (a mounted backup) can be
// searched and recalled from its cache, or from an index in memory when it
// has none; writes fail with a clear message, and nothing is deleted.
func TestReadOnlyVault(t *testing.T) {
	t.Run("with a cache", func(t *testing.T) {
		dir := mountTmpfs(t, "16M")
		ok(t, dir, "init")
		writeNotes(t, dir, 50)
		ok(t, dir, "index")
		db := filepath.Join(dir, ".vaultmem", "cache", "index.db")
		before, _ := os.Stat(db)
		remount(t, dir, true)
		if n, r := searchHits(t, dir, "harbour"); n == 0 || r.code != 0 {
			t.Errorf("search: %d hits, exit %d %s", n, r.code, r.stderr)
		}
		if r := vaultmem(t, dir, "", "recall", "what does the harbour crane lift?"); r.code != 0 || !strings.Contains(r.stdout, "containers") {
			t.Errorf("recall: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
		}
		r := vaultmem(t, dir, "", "remember", "--type", "user", "--name", "n", "--description", "d", "body")
		if r.code == 0 || !strings.Contains(r.stderr, "read-only") {
			t.Errorf("remember on a read-only vault: exit %d, %q", r.code, r.stderr)
		}
		if after, err := os.Stat(db); err != nil || after.Size() != before.Size() {
			t.Errorf("the cache changed: %v", err)
		}
	})
	t.Run("without a cache", func(t *testing.T) {
		dir := mountTmpfs(t, "16M")
		writeNotes(t, dir, 50)
		remount(t, dir, true)
		n, r := searchHits(t, dir, "--vault", dir, "harbour")
		if n == 0 || r.code != 0 || !strings.Contains(r.stderr, "in memory") {
			t.Errorf("search: %d hits, exit %d %s", n, r.code, r.stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, ".vaultmem")); err == nil {
			t.Error(".vaultmem appeared on a read-only disk")
		}
	})
}

// asAnotherUser is the uid (and gid) TestServerOfAnotherUser runs its
// fake server as.
const asAnotherUser = 12345

// TestServerOfAnotherUser: another local user who can change the vault's
// .vaultmem (a shared vault) listens at its socket, and wins the race
// between the CLI's look at the socket's owner and its connection (here:
// their socket is given to this user once they listen). The CLI asks the
// kernel who listens, and never takes their answer for the vault's.
func TestServerOfAnotherUser(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root, to run a server as another user")
	}
	dir := newVault(t)
	ok(t, dir, "remember", "--type", "user", "--name", "Editor", "--description", "The user's editor", "Helix.")
	// The other user's program: this test binary, where they may run it.
	bin := filepath.Join(t.TempDir(), "vaultmem.test")
	copyFile(t, os.Args[0], bin, 0o755)
	for _, d := range []string{filepath.Dir(bin), filepath.Dir(filepath.Dir(bin)), dir, filepath.Dir(dir)} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tmp := filepath.Join(dir, ".vaultmem", "tmp")
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	addr := app.ServerAddress(dir)
	if filepath.Dir(addr) != tmp {
		t.Fatalf("the socket is %s, want one in %s", addr, tmp)
	}
	if err := os.Chmod(tmp, 0o777); err != nil { // for the other user to listen there
		t.Fatal(err)
	}
	fake := exec.Command(bin, "-test.run=^TestFakeServerHelper$")
	fake.Env = append(os.Environ(), "VAULTMEM_FAKE_SERVER="+addr)
	fake.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: asAnotherUser, Gid: asAnotherUser}}
	var out strings.Builder
	fake.Stdout, fake.Stderr = &out, &out
	if err := fake.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		fake.Process.Kill()
		fake.Wait()
	})
	for i := 0; ; i++ { // a hang guard, not a timing
		if info, err := os.Lstat(addr); err == nil && info.Sys().(*syscall.Stat_t).Uid == asAnotherUser {
			break
		}
		if i == 3000 {
			t.Fatalf("the fake server never listened at %s:\n%s", addr, out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	// Their socket now looks like this user's, in a folder of this user's.
	if err := os.Lchown(addr, os.Getuid(), os.Getgid()); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	r := vaultmemEnv(t, dir, "", []string{"VAULTMEM_SERVER=require"}, "search", "helix")
	if strings.Contains(r.stdout, "HIJACKED") || r.code == 0 {
		t.Errorf("VAULTMEM_SERVER=require beside another user's server: %+v, want no server taken", r)
	}
	if r := vaultmem(t, dir, "", "search", "helix"); r.code != 0 || strings.Contains(r.stdout, "HIJACKED") || !strings.Contains(r.stdout, "editor") {
		t.Errorf("search beside another user's server: %+v, want the answer of this process", r)
	}
}

// TestFakeServerHelper is TestServerOfAnotherUser's fake server, run as
// another user: it answers every request with "HIJACKED".
func TestFakeServerHelper(t *testing.T) {
	addr := os.Getenv("VAULTMEM_FAKE_SERVER")
	if addr == "" {
		t.Skip("a helper process of TestServerOfAnotherUser")
	}
	l, err := net.Listen("unix", addr)
	if err != nil {
		t.Fatal(err)
	}
	for {
		c, err := l.Accept()
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			defer c.Close()
			bufio.NewReader(c).ReadString('\n')
			c.Write([]byte("\n")) // taken
			json.NewEncoder(c).Encode(map[string]any{"result": map[string]any{"results": []map[string]any{{"path": "HIJACKED", "snippet": "HIJACKED"}}}})
		}()
	}
}

// copyFile copies the file from to a new file to with the mode given.
func copyFile(t *testing.T, from, to string, mode os.FileMode) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, mode); err != nil {
		t.Fatal(err)
	}
}
