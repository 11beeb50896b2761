package watch_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/vault"
	"github.com/vaultmem/vaultmem/watch"
)

// harness runs a watcher over a vault in a temp dir.
type harness struct {
	t       *testing.T
	dir     string
	ix      *index.Index
	cancel  context.CancelFunc
	done    chan error
	mu      sync.Mutex
	batches []watch.Batch
}

func start(t *testing.T, files map[string]string) *harness {
	t.Helper()
	dir := t.TempDir()
	for p, content := range files {
		write(t, dir, p, content)
	}
	ix, err := index.Open(context.Background(), filepath.Join(dir, ".vaultmem", "cache"), index.Options{NoVectors: true})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, dir: dir, ix: ix, done: make(chan error, 1)}
	w, err := watch.New(openVault(t, dir), ix, watch.Options{OnBatch: func(b watch.Batch) {
		h.mu.Lock()
		h.batches = append(h.batches, b)
		h.mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	h.cancel = cancel
	go func() { h.done <- w.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-h.done; err != nil {
			t.Errorf("Run: %v", err)
		}
		w.Close()
		ix.Close()
	})
	h.waitBatches(1) // the initial sync
	return h
}

func write(t *testing.T, dir, p, content string) {
	t.Helper()
	full := filepath.Join(dir, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (h *harness) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.batches)
}

func (h *harness) waitBatches(n int) {
	h.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for h.count() < n {
		if time.Now().After(deadline) {
			h.t.Fatalf("%d batches after 10 s, want %d", h.count(), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// settle waits until the watched index equals a fresh rebuild of the
// vault as it is now (the test has stopped writing).
func (h *harness) settle() {
	h.t.Helper()
	want := rebuild(h.t, h.dir)
	deadline := time.Now().Add(10 * time.Second)
	var got string
	for time.Now().Before(deadline) {
		var err error
		if got, err = h.ix.Digest(context.Background()); err != nil {
			h.t.Fatal(err)
		}
		if got == want {
			return
		}
		time.Sleep(25 * time.Millisecond)
	}
	h.t.Fatalf("watched index differs from a rebuild after 10 s:\n--- watched\n%s\n--- rebuild\n%s", got, want)
}

func rebuild(t *testing.T, dir string) string {
	t.Helper()
	ix, err := index.Open(context.Background(), t.TempDir(), index.Options{NoVectors: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if _, err := ix.Sync(context.Background(), root.FS(), nil); err != nil {
		t.Fatal(err)
	}
	d, err := ix.Digest(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func (h *harness) path(p string) string { return filepath.Join(h.dir, filepath.FromSlash(p)) }

var base = map[string]string{
	"Home.md":           "# Home\n\nSee [[Plans]], [[Deep]] and [[Moved]].\n",
	"Plans.md":          "# Plans\n\nShip it. ^ship\n",
	"notes/Old Name.md": "# Old\n\nlinks to [[Plans#^ship]]\n",
	"notes/keep.md":     "keep [[Old Name]]\n",
}

func TestWatchEdits(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(t *testing.T, h *harness)
	}{
		{"atomic save", func(t *testing.T, h *harness) {
			// As Obsidian, vim and vaultmem's writer do: a temp file renamed over the note.
			write(t, h.dir, "Plans.md.tmp", "# Plans\n\nShip it on Friday. ^ship\n")
			if err := os.Rename(h.path("Plans.md.tmp"), h.path("Plans.md")); err != nil {
				t.Fatal(err)
			}
		}},
		{"append", func(t *testing.T, h *harness) {
			f, err := os.OpenFile(h.path("Plans.md"), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintln(f, "\nAnd a line about [[Nowhere]].")
			f.Close()
		}},
		{"mkdir and write", func(t *testing.T, h *harness) {
			os.Mkdir(h.path("fresh"), 0o755)
			write(t, h.dir, "fresh/Deep.md", "written right after mkdir")
			// Later writes there are seen only if the new folder is watched.
			h.settle()
			write(t, h.dir, "fresh/Later.md", "written once the folder was synced")
		}},
		{"mkdir -p deep and write", func(t *testing.T, h *harness) {
			write(t, h.dir, "a/b/c/d/e/Deep.md", "five folders down [[Home]]")
			write(t, h.dir, "a/b/c/d/e/f/More.md", "six")
			h.settle()
			write(t, h.dir, "a/b/c/d/Later.md", "four folders down, later")
			write(t, h.dir, "a/b/c/d/e/f/More.md", "six, rewritten")
		}},
		{"folder rename", func(t *testing.T, h *harness) {
			if err := os.Rename(h.path("notes"), h.path("archive")); err != nil {
				t.Fatal(err)
			}
			write(t, h.dir, "archive/after.md", "written into the renamed folder")
			h.settle()
			write(t, h.dir, "archive/later.md", "written later into the renamed folder")
			if err := os.Remove(h.path("archive/keep.md")); err != nil {
				t.Fatal(err)
			}
		}},
		{"rm -rf", func(t *testing.T, h *harness) {
			if err := os.RemoveAll(h.path("notes")); err != nil {
				t.Fatal(err)
			}
		}},
		{"file rename", func(t *testing.T, h *harness) {
			// [[Old Name]] goes unresolved, [[Moved]] resolves.
			if err := os.Rename(h.path("notes/Old Name.md"), h.path("notes/Moved.md")); err != nil {
				t.Fatal(err)
			}
		}},
		{"editor temp files and dot-folders are ignored", func(t *testing.T, h *harness) {
			write(t, h.dir, ".obsidian/workspace.json", "{}")
			write(t, h.dir, ".Plans.md.swp", "swap")
			write(t, h.dir, "Plans.md~", "backup")
			write(t, h.dir, "Home.md", "# Home\n\nchanged\n")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := start(t, base)
			tc.edit(t, h)
			h.settle()
		})
	}
}

func TestWatchFileRenameResolution(t *testing.T) {
	h := start(t, base)
	if err := os.Rename(h.path("notes/Old Name.md"), h.path("notes/Moved.md")); err != nil {
		t.Fatal(err)
	}
	h.settle()
	res, err := h.ix.Searcher().Search(context.Background(), index.Query{Text: "links", Mode: index.Keyword})
	if err != nil || len(res) == 0 || res[0].Path != "notes/Moved.md" {
		t.Fatalf("renamed note not found under its new path: %v %v", res, err)
	}
	drift, err := h.ix.Check(context.Background(), os.DirFS(h.dir))
	if err != nil || len(drift) != 0 {
		t.Errorf("drift after rename: %v %v", drift, err)
	}
}

func TestWatchBurstIsBatched(t *testing.T) {
	h := start(t, base)
	before := h.count()
	for i := range 1000 {
		write(t, h.dir, fmt.Sprintf("burst/n%04d.md", i), fmt.Sprintf("note %d links [[n%04d]]", i, (i+1)%1000))
	}
	h.settle()
	h.mu.Lock()
	batches := h.batches[before:]
	h.mu.Unlock()
	parsed := 0
	for _, b := range batches {
		parsed += b.Stats.Parsed
	}
	// One sync per file would be 1,000 batches; bursts are gathered.
	if len(batches) > 20 {
		t.Errorf("1,000 files took %d batches", len(batches))
	}
	if parsed < 1000 {
		t.Errorf("parsed %d notes in %d batches, want at least 1,000", parsed, len(batches))
	}
}

func TestWatchGitBranchSwitch(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	for i := range 300 {
		write(t, dir, fmt.Sprintf("topic/n%03d.md", i), fmt.Sprintf("main %d [[n%03d]]", i, (i+7)%300))
	}
	git("add", ".")
	git("commit", "-q", "-m", "main")
	git("checkout", "-q", "-b", "other")
	for i := range 300 {
		switch {
		case i%3 == 0:
			os.Remove(filepath.Join(dir, fmt.Sprintf("topic/n%03d.md", i)))
		case i%3 == 1:
			write(t, dir, fmt.Sprintf("topic/n%03d.md", i), fmt.Sprintf("other branch %d [[n%03d]]", i, (i+3)%300))
		}
		write(t, dir, fmt.Sprintf("elsewhere/o%03d.md", i), "only on the other branch")
	}
	git("add", "-A")
	git("commit", "-q", "-m", "other")
	git("checkout", "-q", "main")

	ix, err := index.Open(context.Background(), filepath.Join(dir, ".vaultmem", "cache"), index.Options{NoVectors: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	w, err := watch.New(openVault(t, dir), ix, watch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	h := &harness{t: t, dir: dir, ix: ix}
	h.settle()
	git("checkout", "-q", "other")
	h.settle()
	git("checkout", "-q", "main")
	h.settle()
	cancel()
	if err := <-done; err != nil {
		t.Error(err)
	}
}

func TestOneWatcherPerVault(t *testing.T) {
	h := start(t, base)
	running, err := watch.Running(openVault(t, h.dir))
	if err != nil || !running {
		t.Fatalf("Running = %v, %v while a watcher runs", running, err)
	}
	_, err = watch.New(openVault(t, h.dir), h.ix, watch.Options{})
	if !errors.Is(err, watch.ErrRunning) || !strings.Contains(err.Error(), fmt.Sprint(os.Getpid())) {
		t.Errorf("second watcher: %v, want ErrRunning naming pid %d", err, os.Getpid())
	}
	if running, _ := watch.Running(openVault(t, t.TempDir())); running {
		t.Error("Running on a vault without a watcher")
	}
}

// openVault opens the vault in dir for the test.
func openVault(tb testing.TB, dir string) *vault.Vault {
	tb.Helper()
	v, err := vault.Open(dir, vault.Folders{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { v.Close() })
	return v
}

// TestRunningLockFile: Running reads the lock file as vault.FileLock
// would take it: never made, never through a symbolic link, only a
// regular file, and free unless a watcher holds it.
func TestRunningLockFile(t *testing.T) {
	lock := filepath.Join(".vaultmem", "tmp", "watch.lock")
	for _, tt := range []struct {
		name string
		make func(t *testing.T, dir string)
		err  string // "" when Running answers false without error
	}{
		{"no .vaultmem", func(t *testing.T, dir string) {}, ""},
		{"no lock file", func(t *testing.T, dir string) { mkdir(t, filepath.Join(dir, ".vaultmem", "tmp")) }, ""},
		{"a free lock", func(t *testing.T, dir string) { write(t, dir, lock, "123\n") }, ""},
		{"a link", func(t *testing.T, dir string) {
			write(t, dir, "elsewhere.lock", "")
			mkdir(t, filepath.Join(dir, ".vaultmem", "tmp"))
			if err := os.Symlink(filepath.Join(dir, "elsewhere.lock"), filepath.Join(dir, lock)); err != nil {
				t.Fatal(err)
			}
		}, "symbolic link"},
		{"a folder", func(t *testing.T, dir string) { mkdir(t, filepath.Join(dir, lock)) }, "not a regular file"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			tt.make(t, dir)
			running, err := watch.Running(openVault(t, dir))
			if running || (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("Running = %v, %v; want false and an error with %q", running, err, tt.err)
			}
			if tt.name == "no lock file" {
				if _, err := os.Lstat(filepath.Join(dir, lock)); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("Running made the lock file: %v", err)
				}
			}
		})
	}
}

// mkdir makes the folder p and its parents.
func mkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}
