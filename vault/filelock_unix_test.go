//go:build unix

package vault_test

import (
	"os"
	"path/filepath"
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
