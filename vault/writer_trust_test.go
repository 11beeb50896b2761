package vault_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gofrs/flock"
	"github.com/vaultmem/vaultmem/vault"
)

// TestWriterSeesEditDuringWrite saves a "human" edit at the worst moment of
// every kind of write, after the writer read the note and before it
// renames its new content over it: the edit must survive and the write
// must report a conflict.
func TestWriterSeesEditDuringWrite(t *testing.T) {
	ctx := context.Background()
	const human = "---\nname: Mine\n---\nThe human's edit.\n"
	for _, tc := range []struct {
		name  string
		write func(w *vault.Writer, hash string) error
	}{
		{"update", func(w *vault.Writer, _ string) error {
			_, err := w.Update(ctx, "a.md", func(b []byte) ([]byte, error) { return append(b, "agent line\n"...), nil })
			return err
		}},
		{"write with the hash read", func(w *vault.Writer, hash string) error {
			_, err := w.Write(ctx, "a.md", []byte("agent\n"), hash)
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, w := newVault(t)
			p := filepath.Join(dir, "a.md")
			writeFile(t, p, "original\n")
			_, hash, err := w.Read("a.md")
			if err != nil {
				t.Fatal(err)
			}
			vault.SetBeforeCommit(w, func() { writeFile(t, p, human) })
			err = tc.write(w, hash)
			if !errors.Is(err, vault.ErrConflict) {
				t.Fatalf("got %v, want a conflict", err)
			}
			if got := readFile(t, p); got != human {
				t.Fatalf("the note is %q, want the human's edit %q", got, human)
			}
			assertDir(t, dir, ".vaultmem", "a.md") // no temp file left beside the note
		})
	}
}

// TestWriterCreateSeesNoteAppear creates a note while a human saves one of
// the same name: the human's note stays.
func TestWriterCreateSeesNoteAppear(t *testing.T) {
	dir, w := newVault(t)
	p := filepath.Join(dir, "new.md")
	vault.SetBeforeCommit(w, func() { writeFile(t, p, "human\n") })
	_, err := w.Write(context.Background(), "new.md", []byte("agent\n"), "")
	if !errors.Is(err, vault.ErrExists) {
		t.Fatalf("got %v, want ErrExists", err)
	}
	if got := readFile(t, p); got != "human\n" {
		t.Fatalf("the note is %q, want the human's", got)
	}
}

func TestWriterCaseClash(t *testing.T) {
	ctx := context.Background()
	dir, w := newVault(t)
	writeFile(t, filepath.Join(dir, "Projects", "normal.md"), "lower\n")
	for _, tc := range []struct{ path, other string }{
		{"Projects/NORMAL.md", "Projects/normal.md"},
		{"projects/normal.md", "Projects"},
		{"PROJECTS/Normal.md", "Projects"},
	} {
		_, err := w.Write(ctx, tc.path, []byte("upper\n"), "")
		var ce *vault.ConflictError
		if !errors.As(err, &ce) || !errors.Is(err, vault.ErrExists) || ce.Other != tc.other {
			t.Errorf("create %s: got %v, want a conflict with %s", tc.path, err, tc.other)
		}
		if err != nil && !strings.Contains(err.Error(), tc.other) {
			t.Errorf("create %s: the error %q does not name %s", tc.path, err, tc.other)
		}
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, ",") != ".vaultmem,Projects" {
		t.Fatalf("the vault holds %v, want only .vaultmem and Projects", names)
	}
	if got := readFile(t, filepath.Join(dir, "Projects", "normal.md")); got != "lower\n" {
		t.Fatalf("normal.md is %q", got)
	}
}

func TestWriterResolve(t *testing.T) {
	dir, w := newVault(t)
	writeFile(t, filepath.Join(dir, "Projects", "normal.md"), "x\n")
	writeFile(t, filepath.Join(dir, "Clash", "a.md"), "x\n")
	writeFile(t, filepath.Join(dir, "Clash", "A.md"), "x\n")
	for _, tc := range []struct{ in, want, err string }{
		{"Projects/normal.md", "Projects/normal.md", ""},
		{"projects/NORMAL", "Projects/normal.md", ""},
		{"PROJECTS/new note", "Projects/new note.md", ""},
		{"elsewhere/new.md", "elsewhere/new.md", ""},
		{"Clash/a.md", "Clash/a.md", ""},
		{"Clash/A.md", "Clash/A.md", ""},
		{"clash/a.MD", "", "ambiguous"},
		{"../x.md", "", ".."},
	} {
		got, err := w.Resolve(tc.in)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("Resolve(%q) = %q, %v; want an error saying %q", tc.in, got, err, tc.err)
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("Resolve(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestWriterRefusesTooLarge(t *testing.T) {
	dir := t.TempDir()
	w, err := openWriter(t, dir, vault.WriterOptions{MaxNoteSize: 100})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	big := []byte(strings.Repeat("x", 101))
	if _, err := w.Write(ctx, "big.md", big, ""); !errors.Is(err, vault.ErrTooLarge) || !strings.Contains(err.Error(), "big.md") {
		t.Fatalf("write 101 bytes: got %v, want ErrTooLarge naming big.md", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "big.md")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("big.md was written: %v", err)
	}
	h, err := w.Write(ctx, "small.md", []byte("ok\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	_ = h
	if _, err := w.Update(ctx, "small.md", func([]byte) ([]byte, error) { return big, nil }); !errors.Is(err, vault.ErrTooLarge) {
		t.Fatalf("update to 101 bytes: got %v, want ErrTooLarge", err)
	}
}

// TestWriterMakesGitignoreFirst: a write into a folder that never saw
// `vaultmem init` creates .vaultmem with its .gitignore, so git never sees
// the lock or temp files.
func TestWriterMakesGitignoreFirst(t *testing.T) {
	dir, w := newVault(t)
	if _, err := w.Write(context.Background(), "a.md", []byte("x\n"), ""); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(dir, ".vaultmem", ".gitignore")); got != vault.GitignoreText {
		t.Fatalf(".gitignore = %q", got)
	}
	// A human's own .gitignore is kept.
	writeFile(t, filepath.Join(dir, ".vaultmem", ".gitignore"), "mine\n")
	if _, err := w.Write(context.Background(), "b.md", []byte("x\n"), ""); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(dir, ".vaultmem", ".gitignore")); got != "mine\n" {
		t.Fatalf(".gitignore = %q, want the human's", got)
	}
}

// TestWriterSaysWhoHoldsTheLock holds the vault lock as another process
// would, and checks that a waiting write names the holder and then goes
// through once the lock is free.
func TestWriterSaysWhoHoldsTheLock(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".vaultmem"), 0o755); err != nil {
		t.Fatal(err)
	}
	lockPath := filepath.Join(dir, filepath.FromSlash(vault.LockFile))
	held := flock.New(lockPath)
	if err := held.Lock(); err != nil {
		t.Fatal(err)
	}
	writeFile(t, lockPath, "4242\n")
	var mu sync.Mutex
	var holders []string
	w, err := openWriter(t, dir, vault.WriterOptions{LockWait: func(holder string) {
		mu.Lock()
		holders = append(holders, holder)
		mu.Unlock()
		held.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(context.Background(), "a.md", []byte("x\n"), ""); err != nil {
		t.Fatal(err)
	}
	// The pid in the file is only what some holder once wrote: where the
	// kernel says who holds the lock (Linux), its answer is the holder,
	// this process.
	want := "4242"
	if runtime.GOOS == "linux" {
		want = strconv.Itoa(os.Getpid())
	}
	if len(holders) != 1 || holders[0] != want {
		t.Fatalf("LockWait got %q, want one call with %s", holders, want)
	}
}

// TestWriterReadSymlinks: a link to a note of the vault is read through;
// a link out of the vault is refused as outside it, never read.
func TestWriterReadSymlinks(t *testing.T) {
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "secret.md"), "secret\n")
	dir, w := newVault(t)
	writeFile(t, filepath.Join(dir, "real.md"), "real\n")
	for name, target := range map[string]string{
		"inside.md":  filepath.Join(dir, "real.md"),
		"escape.md":  filepath.Join(outside, "secret.md"),
		"dangle.md":  filepath.Join(dir, "missing.md"),
		"dotlink.md": filepath.Join(dir, ".obsidian", "x.md"),
	} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Skip("symbolic links:", err)
		}
	}
	writeFile(t, filepath.Join(dir, ".obsidian", "x.md"), "settings\n")
	if b, _, err := w.Read("inside.md"); err != nil || string(b) != "real\n" {
		t.Errorf("read inside.md: %q, %v", b, err)
	}
	for _, p := range []string{"escape.md", "dotlink.md"} {
		if b, _, err := w.Read(p); !errors.Is(err, vault.ErrOutside) {
			t.Errorf("read %s: got %q, %v; want ErrOutside", p, b, err)
		}
	}
	if _, _, err := w.Read("dangle.md"); !errors.Is(err, vault.ErrNotFound) {
		t.Errorf("read dangle.md: %v, want ErrNotFound", err)
	}
	if _, err := w.Write(context.Background(), "inside.md", []byte("x\n"), vault.AnyHash); !errors.Is(err, vault.ErrInvalidPath) {
		t.Errorf("write through inside.md: %v, want a refusal", err)
	}
}

// TestWriterState: vaultmem's own state files are written with the same
// atomicity and compare-before-write as notes, and only under
// .vaultmem/state.
func TestWriterState(t *testing.T) {
	dir, w := newVault(t)
	ctx := context.Background()
	h, err := w.WriteState(ctx, "focus/agent.yaml", []byte("task: a.md\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(dir, ".vaultmem", "state", "focus", "agent.yaml")); got != "task: a.md\n" {
		t.Fatalf("state file: %q", got)
	}
	if _, err := w.WriteState(ctx, "focus/agent.yaml", []byte("task: b.md\n"), "stale"); !errors.Is(err, vault.ErrConflict) {
		t.Errorf("stale hash: %v", err)
	}
	if _, err := w.WriteState(ctx, "focus/agent.yaml", []byte("task: b.md\n"), h); err != nil {
		t.Fatal(err)
	}
	if b, _, err := w.ReadState("focus/agent.yaml"); err != nil || string(b) != "task: b.md\n" {
		t.Errorf("ReadState: %q, %v", b, err)
	}
	if _, _, err := w.ReadState("missing.yaml"); !errors.Is(err, vault.ErrNotFound) {
		t.Errorf("ReadState(missing): %v", err)
	}
	for _, name := range []string{"../config.yaml", "/etc/x", "a/../../x", ".hidden", ""} {
		if _, err := w.WriteState(ctx, name, []byte("x"), vault.AnyHash); !errors.Is(err, vault.ErrInvalidPath) {
			t.Errorf("WriteState(%q): %v, want ErrInvalidPath", name, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".vaultmem", ".gitignore")); err != nil {
		t.Errorf("no .gitignore beside the state: %v", err)
	}
}
