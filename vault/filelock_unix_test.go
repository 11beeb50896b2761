//go:build unix

package vault_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/vaultmem/vaultmem/vault"
)

// TestFileLockIsNeverALink: the watcher's and Dream's lock files under
// .vaultmem/tmp, like the writer's, are never written through a link
// another user put there: a symbolic link is not followed, a hard link's
// target is not overwritten with a pid.
func TestFileLockIsNeverALink(t *testing.T) {
	for _, tt := range []struct {
		name string
		link func(target, at string) error
	}{
		{"symbolic", os.Symlink},
		{"hard", os.Link},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			target := filepath.Join(dir, "MEMORY.md")
			writeFile(t, target, "# Memory\n")
			if err := os.MkdirAll(filepath.Join(dir, ".vaultmem", "tmp"), 0o755); err != nil {
				t.Fatal(err)
			}
			v, err := vault.Open(dir, vault.Folders{})
			if err != nil {
				t.Fatal(err)
			}
			defer v.Close()
			for _, rel := range []string{vault.TmpDir + "/watch.lock", vault.TmpDir + "/dream.lock"} {
				if err := tt.link(target, v.Abs(rel)); err != nil {
					t.Fatal(err)
				}
				l := v.FileLock(rel)
				if ok, err := l.TryLock(); err == nil && ok {
					l.NoteHolder()
					l.Unlock()
				}
				if got := readFile(t, target); got != "# Memory\n" {
					t.Errorf("%s: the %s link's target holds %q", rel, tt.name, got)
				}
			}
		})
	}
}

// TestLockAtOpensNoLinkNorFIFO: a lock at a path of the caller's choosing
// (the index's cache lock) is not taken through a symbolic link put in
// its place, which would create the file it points at, and does not wait
// on a FIFO put there.
func TestLockAtOpensNoLinkNorFIFO(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "elsewhere", "created-by-the-lock")
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "index.db.lock")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if ok, err := vault.NewLockAt(link).TryLock(); ok || err == nil {
		t.Errorf("locked through a symbolic link: %v, %v", ok, err)
	}
	if _, err := os.Lstat(target); !os.IsNotExist(err) {
		t.Errorf("the link's target was created: %v", err)
	}
	fifo := filepath.Join(dir, "fifo.lock")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	// Opening a FIFO for reading without O_NONBLOCK waits for a writer
	// forever: this returns at all only because it does not wait.
	l := vault.NewLockAt(fifo)
	l.TryLock()
	l.Unlock()
}
