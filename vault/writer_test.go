package vault_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/vault"
)

// newVault returns a vault directory inside its own parent directory (so
// that tests can check nothing lands beside it) and a Writer for it.
func newVault(t *testing.T) (string, *vault.Writer) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "vault")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := openWriter(t, dir, vault.WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return dir, w
}

// openWriter opens the vault in dir and returns its Writer; the vault is
// closed when the test ends (t is nil in a helper process, which exits).
func openWriter(t testing.TB, dir string, o vault.WriterOptions) (*vault.Writer, error) {
	v, err := vault.Open(dir, vault.Folders{})
	if err != nil {
		return nil, err
	}
	if t != nil {
		t.Cleanup(func() { v.Close() })
	}
	return vault.NewWriter(v, o), nil
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func wantConflict(t *testing.T, err error, expected, actual string) {
	t.Helper()
	var ce *vault.ConflictError
	if !errors.As(err, &ce) || !errors.Is(err, vault.ErrConflict) {
		t.Fatalf("got %v, want a *ConflictError", err)
	}
	if ce.Expected != expected || ce.Actual != actual {
		t.Fatalf("conflict expected %q actual %q, want %q and %q", ce.Expected, ce.Actual, expected, actual)
	}
}

func TestNewWriter(t *testing.T) {
	if _, err := vault.Open(filepath.Join(t.TempDir(), "missing"), vault.Folders{}); err == nil {
		t.Error("Open on a missing directory: no error")
	}
	file := filepath.Join(t.TempDir(), "file")
	writeFile(t, file, "x")
	if _, err := vault.Open(file, vault.Folders{}); err == nil {
		t.Error("Open on a file: no error")
	}
	dir, _ := newVault(t)
	if _, err := os.Stat(filepath.Join(dir, ".vaultmem")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("NewWriter created .vaultmem: %v", err)
	}
}

func TestWriterCreate(t *testing.T) {
	dir, w := newVault(t)
	ctx := context.Background()
	content := []byte("---\ntype: user\n---\n\nPrefers pnpm.\n")
	h, err := w.Write(ctx, "memory/deep/pnpm", content, "")
	if err != nil {
		t.Fatal(err)
	}
	if h != markdown.Hash(content) {
		t.Errorf("hash %s, want %s", h, markdown.Hash(content))
	}
	name := filepath.Join(dir, "memory", "deep", "pnpm.md")
	if got := readFile(t, name); got != string(content) {
		t.Errorf("file holds %q", got)
	}
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm()&^0o022 != 0o644 {
		t.Errorf("new note has mode %v, want 0666 less the umask", fi.Mode().Perm())
	}
	got, gotHash, err := w.Read("memory/deep/pnpm.md")
	if err != nil || string(got) != string(content) || gotHash != h {
		t.Errorf("Read = %q, %s, %v", got, gotHash, err)
	}
	// The temp file went away with the rename; the folder holds the note only.
	assertDir(t, dir, ".vaultmem", "memory")
	assertDir(t, filepath.Join(dir, "memory", "deep"), "pnpm.md")
}

// assertDir checks that a directory holds exactly the names given.
func assertDir(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if strings.Join(got, ",") != strings.Join(names, ",") {
		t.Errorf("%s holds %v, want %v", dir, got, names)
	}
}

func TestWriterCreateExists(t *testing.T) {
	dir, w := newVault(t)
	ctx := context.Background()
	writeFile(t, filepath.Join(dir, "a.md"), "human's note")
	_, err := w.Write(ctx, "a.md", []byte("agent's note"), "")
	if !errors.Is(err, vault.ErrExists) {
		t.Errorf("got %v, want ErrExists", err)
	}
	wantConflict(t, err, "", markdown.Hash([]byte("human's note")))
	if got := readFile(t, filepath.Join(dir, "a.md")); got != "human's note" {
		t.Errorf("note overwritten: %q", got)
	}
}

func TestWriterCompareBeforeWrite(t *testing.T) {
	dir, w := newVault(t)
	ctx := context.Background()
	name := filepath.Join(dir, "n.md")
	h1, err := w.Write(ctx, "n.md", []byte("v1"), "")
	if err != nil {
		t.Fatal(err)
	}
	h2, err := w.Write(ctx, "n.md", []byte("v2"), h1)
	if err != nil || h2 != markdown.Hash([]byte("v2")) || readFile(t, name) != "v2" {
		t.Fatalf("write with the right hash: %s, %v, file %q", h2, err, readFile(t, name))
	}

	// An agent reads the note; a human saves it in Obsidian; the agent's
	// write must not win.
	_, read, err := w.Read("n.md")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, name, "human edit")
	_, err = w.Write(ctx, "n.md", []byte("agent edit"), read)
	wantConflict(t, err, read, markdown.Hash([]byte("human edit")))
	if errors.Is(err, vault.ErrExists) {
		t.Error("a stale-hash conflict matches ErrExists")
	}
	if got := readFile(t, name); got != "human edit" {
		t.Fatalf("human's bytes changed: %q", got)
	}

	// Deleted since read.
	_, read, _ = w.Read("n.md")
	if err := os.Remove(name); err != nil {
		t.Fatal(err)
	}
	_, err = w.Write(ctx, "n.md", []byte("agent edit"), read)
	wantConflict(t, err, read, "")
	if _, err := os.Stat(name); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("deleted note came back: %v", err)
	}

	// AnyHash writes whatever is there, or is not.
	if _, err := w.Write(ctx, "n.md", []byte("forced"), vault.AnyHash); err != nil || readFile(t, name) != "forced" {
		t.Fatalf("AnyHash on a missing note: %v", err)
	}
	writeFile(t, name, "human again")
	if _, err := w.Write(ctx, "n.md", []byte("forced 2"), vault.AnyHash); err != nil || readFile(t, name) != "forced 2" {
		t.Fatalf("AnyHash on a changed note: %v", err)
	}
}

func TestWriterKeepsPermissions(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permissions")
	}
	dir, w := newVault(t)
	name := filepath.Join(dir, "private.md")
	writeFile(t, name, "secret")
	if err := os.Chmod(name, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(context.Background(), "private.md", []byte("still secret"), vault.AnyHash); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(name); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode after write: %v, %v; want 0600", fi.Mode(), err)
	}
}

func TestWriterSameContentWritesNothing(t *testing.T) {
	dir, w := newVault(t)
	ctx := context.Background()
	name := filepath.Join(dir, "n.md")
	writeFile(t, name, "same")
	before, _ := os.Stat(name)
	if h, err := w.Write(ctx, "n.md", []byte("same"), markdown.Hash([]byte("same"))); err != nil || h != markdown.Hash([]byte("same")) {
		t.Fatal(h, err)
	}
	if _, err := w.Update(ctx, "n.md", func(b []byte) ([]byte, error) { return []byte("same"), nil }); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(name)
	if !os.SameFile(before, after) {
		t.Error("an unchanged note was replaced")
	}
}

func TestWriterRead(t *testing.T) {
	_, w := newVault(t)
	if _, _, err := w.Read("missing.md"); !errors.Is(err, vault.ErrNotFound) {
		t.Errorf("Read of a missing note: %v, want ErrNotFound", err)
	}
	if _, _, err := w.Read("../x.md"); !errors.Is(err, vault.ErrInvalidPath) {
		t.Errorf("Read of ../x.md: %v, want ErrInvalidPath", err)
	}
}

func TestWriterUpdate(t *testing.T) {
	dir, w := newVault(t)
	ctx := context.Background()
	called := false
	_, err := w.Update(ctx, "missing.md", func(b []byte) ([]byte, error) { called = true; return b, nil })
	if !errors.Is(err, vault.ErrNotFound) || called {
		t.Fatalf("Update of a missing note: %v (fn called: %v)", err, called)
	}
	name := filepath.Join(dir, "n.md")
	writeFile(t, name, "---\nstatus: todo\n---\nbody\n")
	h, err := w.Update(ctx, "n.md", func(b []byte) ([]byte, error) {
		return markdown.SetFrontmatter("n.md", b, "status", "done")
	})
	if want := "---\nstatus: done\n---\nbody\n"; err != nil || readFile(t, name) != want || h != markdown.Hash([]byte(want)) {
		t.Fatalf("Update: %s, %v, file %q", h, err, readFile(t, name))
	}
	// fn may change the slice it is given in place.
	if _, err := w.Update(ctx, "n.md", func(b []byte) ([]byte, error) { b[0] = '+'; return b, nil }); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, name); !strings.HasPrefix(got, "+--") {
		t.Errorf("in-place change not written: %q", got)
	}
	boom := errors.New("boom")
	if _, err := w.Update(ctx, "n.md", func(b []byte) ([]byte, error) { return nil, boom }); !errors.Is(err, boom) {
		t.Errorf("fn's error: got %v", err)
	}
}

func TestWriterRemove(t *testing.T) {
	dir, w := newVault(t)
	ctx := context.Background()
	name := filepath.Join(dir, "n.md")
	writeFile(t, name, "v1")
	if err := w.Remove(ctx, "n.md", ""); err == nil {
		t.Error("Remove without a hash: no error")
	}
	wantConflict(t, w.Remove(ctx, "n.md", markdown.Hash([]byte("v0"))), markdown.Hash([]byte("v0")), markdown.Hash([]byte("v1")))
	if err := w.Remove(ctx, "n.md", markdown.Hash([]byte("v1"))); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(name); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("note still there: %v", err)
	}
	wantConflict(t, w.Remove(ctx, "n.md", markdown.Hash([]byte("v1"))), markdown.Hash([]byte("v1")), "")
	if err := w.Remove(ctx, "n.md", vault.AnyHash); !errors.Is(err, vault.ErrNotFound) {
		t.Errorf("Remove AnyHash of a missing note: %v, want ErrNotFound", err)
	}
	writeFile(t, name, "v2")
	if err := w.Remove(ctx, "n.md", vault.AnyHash); err != nil {
		t.Fatal(err)
	}
}

func TestWriterRefusesUnsafePaths(t *testing.T) {
	dir, w := newVault(t)
	ctx := context.Background()
	parent := filepath.Dir(dir)
	outside := filepath.Join(parent, "outside")
	if err := os.Mkdir(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(outside, "secret.md")
	writeFile(t, secret, "outside the vault")
	writeFile(t, filepath.Join(dir, ".obsidian", "app.json"), "{}")
	if err := os.Mkdir(filepath.Join(dir, "real"), 0o755); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		"escape":         outside,                              // folder outside
		"escape-note.md": secret,                               // note outside
		"settings":       filepath.Join(dir, ".obsidian"),      // dot-folder inside
		"inner-note.md":  filepath.Join(dir, "real", "x.md"),   // note inside, still a link
		"inner":          filepath.Join(dir, "real"),           // folder inside: allowed
		"dangling":       filepath.Join(parent, "nonexistent"), // broken link
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Skipf("cannot make symbolic links: %v", err)
		}
	}
	writeFile(t, filepath.Join(dir, "real", "x.md"), "x")

	for _, p := range []string{
		"../x.md", "../outside/secret.md", "/etc/x.md", ".obsidian/x.md", "a\x00b.md", `..\x.md`,
		"escape/x.md", "escape/new/deeper/x.md", "escape/secret.md", "escape-note.md",
		"settings/x.md", "inner-note.md", "dangling/x.md",
	} {
		if _, err := w.Write(ctx, p, []byte("pwned"), vault.AnyHash); !errors.Is(err, vault.ErrInvalidPath) {
			t.Errorf("Write(%q): %v, want ErrInvalidPath", p, err)
		}
		if _, err := w.Update(ctx, p, func(b []byte) ([]byte, error) { return []byte("pwned"), nil }); !errors.Is(err, vault.ErrInvalidPath) {
			t.Errorf("Update(%q): %v, want ErrInvalidPath", p, err)
		}
		if err := w.Remove(ctx, p, vault.AnyHash); !errors.Is(err, vault.ErrInvalidPath) {
			t.Errorf("Remove(%q): %v, want ErrInvalidPath", p, err)
		}
		if _, _, err := w.Read(p); !errors.Is(err, vault.ErrInvalidPath) && p != "inner-note.md" { // reads follow links inside the vault
			t.Errorf("Read(%q): %v, want ErrInvalidPath", p, err)
		}
	}
	var pe *vault.PathError
	if _, err := w.Write(ctx, "escape-note.md", nil, vault.AnyHash); !errors.As(err, &pe) || !strings.Contains(pe.Reason, "symbolic link") {
		t.Errorf("write through a linked note: %v", err)
	}
	assertDir(t, parent, "outside", "vault")
	assertDir(t, outside, "secret.md")
	if got := readFile(t, secret); got != "outside the vault" {
		t.Errorf("file outside the vault changed: %q", got)
	}
	assertDir(t, filepath.Join(dir, ".obsidian"), "app.json")

	// A link to a folder inside the vault is followed.
	if _, err := w.Write(ctx, "inner/y.md", []byte("y"), ""); err != nil {
		t.Errorf("write through a link inside the vault: %v", err)
	}
	if got := readFile(t, filepath.Join(dir, "real", "y.md")); got != "y" {
		t.Errorf("real/y.md = %q", got)
	}
}

func TestWriterContext(t *testing.T) {
	dir, w := newVault(t)
	writeFile(t, filepath.Join(dir, "n.md"), "x")
	other, err := openWriter(t, dir, vault.WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	holding, release := make(chan struct{}), make(chan struct{})
	done := make(chan error)
	go func() {
		_, err := w.Update(context.Background(), "n.md", func(b []byte) ([]byte, error) {
			close(holding)
			<-release
			return b, nil
		})
		done <- err
	}()
	<-holding
	// Another Writer (as another process would) and the same Writer (another
	// goroutine) both give up when ctx ends.
	for name, wr := range map[string]*vault.Writer{"other writer": other, "same writer": w} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
		_, err := wr.Write(ctx, "n.md", []byte("y"), vault.AnyHash)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: got %v, want context.DeadlineExceeded", name, err)
		}
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := other.Write(context.Background(), "n.md", []byte("y"), vault.AnyHash); err != nil {
		t.Fatalf("after release: %v", err)
	}
}

// increment adds one to the "count: N" note.
func increment(b []byte) ([]byte, error) {
	n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(string(b), "count:")))
	if err != nil {
		return nil, fmt.Errorf("bad counter %q: %w", b, err)
	}
	return fmt.Appendf(nil, "count: %d\n", n+1), nil
}

func TestWriterConcurrentGoroutines(t *testing.T) {
	dir, w := newVault(t)
	other, err := openWriter(t, dir, vault.WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "counter.md"), "count: 0\n")
	var wg sync.WaitGroup
	for i := range 8 {
		wr := w
		if i%2 == 1 {
			wr = other
		}
		wg.Go(func() {
			for range 25 {
				if _, err := wr.Update(context.Background(), "counter.md", increment); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if got := readFile(t, filepath.Join(dir, "counter.md")); got != "count: 200\n" {
		t.Fatalf("counter = %q, want 200 (lost updates)", got)
	}
}

const (
	helperEnv   = "VAULTMEM_WRITER_HELPER"
	helperDir   = "VAULTMEM_WRITER_HELPER_DIR"
	helperID    = "VAULTMEM_WRITER_HELPER_ID"
	bigSize     = 256 << 10
	bigWrites   = 6
	helperProcs = 8
)

// bigContent is what helper process id writes in the no-partial-file test.
func bigContent(id int) []byte {
	b := bytes.Repeat([]byte{byte('a' + id)}, bigSize)
	copy(b, fmt.Sprintf("writer %d\n", id))
	return b
}

// TestHelperProcess is not a test: the multi-process tests run the test
// binary again with helperEnv set, and then it does one process's share.
func TestHelperProcess(t *testing.T) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		t.Skip("run by the multi-process tests")
	}
	if err := helper(mode, os.Getenv(helperDir), os.Getenv(helperID)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

func helper(mode, dir, idStr string) error {
	id, err := strconv.Atoi(idStr)
	if err != nil {
		return err
	}
	w, err := openWriter(nil, dir, vault.WriterOptions{})
	if err != nil {
		return err
	}
	ctx := context.Background()
	switch mode {
	case "count":
		for range 25 {
			if _, err := w.Update(ctx, "counter.md", increment); err != nil {
				return err
			}
		}
	case "big":
		for range bigWrites {
			if _, err := w.Write(ctx, "big.md", bigContent(id), vault.AnyHash); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("unknown helper mode %q", mode)
	}
	return nil
}

// runHelpers starts helperProcs copies of the test binary in mode and
// returns a function that waits for them and fails the test if any failed.
func runHelpers(t *testing.T, mode, dir string) (wait func()) {
	t.Helper()
	if testing.Short() {
		t.Skip("multi-process test")
	}
	var cmds []*exec.Cmd
	var outs []*bytes.Buffer
	for i := range helperProcs {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
		cmd.Env = append(os.Environ(), helperEnv+"="+mode, helperDir+"="+dir, helperID+"="+strconv.Itoa(i))
		out := new(bytes.Buffer)
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, cmd), append(outs, out)
	}
	return func() {
		t.Helper()
		for i, cmd := range cmds {
			if err := cmd.Wait(); err != nil {
				t.Errorf("helper %d: %v\n%s", i, err, outs[i])
			}
		}
	}
}

func TestWriterMultiProcessNoLostUpdate(t *testing.T) {
	t.Parallel()
	dir, _ := newVault(t)
	writeFile(t, filepath.Join(dir, "counter.md"), "count: 0\n")
	runHelpers(t, "count", dir)()
	if got := readFile(t, filepath.Join(dir, "counter.md")); got != fmt.Sprintf("count: %d\n", helperProcs*25) {
		t.Fatalf("counter = %q, want %d: updates were lost", got, helperProcs*25)
	}
	assertDir(t, dir, ".vaultmem", "counter.md") // no temp file left beside the note
}

func TestWriterMultiProcessNoPartialFile(t *testing.T) {
	t.Parallel()
	dir, w := newVault(t)
	initial := []byte("initial\n")
	writeFile(t, filepath.Join(dir, "big.md"), string(initial))
	valid := map[string]bool{string(initial): true}
	for i := range helperProcs {
		valid[string(bigContent(i))] = true
	}
	wait := runHelpers(t, "big", dir)
	done := make(chan struct{})
	go func() { wait(); close(done) }()
	reads, seen := 0, map[string]bool{}
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
		}
		b, h, err := w.Read("big.md")
		if err != nil {
			t.Fatalf("read %d: %v", reads, err)
		}
		if !valid[string(b)] || h != markdown.Hash(b) {
			t.Fatalf("read %d: %d bytes starting %q: not one of the complete contents", reads, len(b), b[:min(len(b), 16)])
		}
		seen[string(b[:min(len(b), 9)])] = true
		reads++
	}
	t.Logf("%d reads saw %d distinct contents", reads, len(seen))
	assertDir(t, dir, ".vaultmem", "big.md")
}

func TestUpdateState(t *testing.T) {
	dir := t.TempDir()
	v, err := vault.Open(dir, vault.Folders{})
	if err != nil {
		t.Fatal(err)
	}
	w := vault.NewWriter(v, vault.WriterOptions{})
	ctx := context.Background()
	add := func(current []byte) ([]byte, error) { return append(current, 'x'), nil }
	// Concurrent updates, each under the lock: none is lost.
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if _, err := w.UpdateState(ctx, "sessions/s1.json", add); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	got, hash, err := w.ReadState("sessions/s1.json")
	if err != nil || string(got) != "xxxxxxxx" {
		t.Fatalf("after 8 updates: %q, %v; want 8 x", got, err)
	}
	// The same content back writes nothing and returns the hash.
	if h, err := w.UpdateState(ctx, "sessions/s1.json", func(c []byte) ([]byte, error) { return c, nil }); err != nil || h != hash {
		t.Errorf("unchanged update: %s, %v; want the hash %s", h, err, hash)
	}
	boom := errors.New("boom")
	if _, err := w.UpdateState(ctx, "sessions/s1.json", func([]byte) ([]byte, error) { return nil, boom }); !errors.Is(err, boom) {
		t.Errorf("fn's error: %v", err)
	}
	if _, err := w.UpdateState(ctx, "../escape.json", add); !errors.Is(err, vault.ErrInvalidPath) {
		t.Errorf("a name out of the state folder: %v, want ErrInvalidPath", err)
	}
}
