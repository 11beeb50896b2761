//go:build unix

package vault_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/vaultmem/vaultmem/vault"
)

// TestWriterTempFileNotInASharedFolder: another local user who can change
// .vaultmem/tmp (in a shared vault they renamed .vaultmem and made it anew,
// open to everyone) swaps their own file for every temp file there at the
// worst moment, between the temp file's write and its move onto the note.
// Their text must never become the note: the temp file is made beside the
// note, hidden, and never in .vaultmem/tmp.
func TestWriterTempFileNotInASharedFolder(t *testing.T) {
	const theirs = "the other user's text\n"
	dir, w := newVault(t)
	ctx := context.Background()
	tmp := filepath.Join(dir, ".vaultmem", "tmp")
	if err := os.MkdirAll(tmp, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(tmp, 0o777)
	other := os.Chown(tmp, 12345, 12345) == nil // as root: theirs indeed
	var besides []string                        // what the note's folder held at that moment
	vault.SetBeforeCommit(w, func() {
		entries, err := os.ReadDir(tmp)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			p := filepath.Join(tmp, e.Name())
			os.Remove(p)
			os.WriteFile(p, []byte(theirs), 0o666)
			if other {
				os.Chown(p, 12345, 12345)
			}
		}
		entries, err = os.ReadDir(filepath.Join(dir, "notes"))
		if err != nil {
			t.Fatal(err)
		}
		besides = besides[:0]
		for _, e := range entries {
			besides = append(besides, e.Name())
		}
	})
	p := filepath.Join(dir, "notes", "a.md")
	h := ""
	for _, text := range []string{"mine\n", "mine, again\n"} { // created, then replaced
		var err error
		if h, err = w.Write(ctx, "notes/a.md", []byte(text), h); err != nil {
			t.Fatal(err)
		}
		if got := readFile(t, p); got != text {
			t.Fatalf("the note holds %q, want what this user wrote, %q", got, text)
		}
	}
	if fi, err := os.Stat(p); err == nil {
		if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
			t.Errorf("the note belongs to user %d, not this one", st.Uid)
		}
	}
	assertDir(t, tmp)
	assertDir(t, filepath.Join(dir, "notes"), "a.md")
	// The temp file, beside the note while it was written, is hidden: a
	// killed writer's leftover is never taken for a note.
	if len(besides) != 2 || besides[1] != "a.md" || !strings.HasPrefix(besides[0], ".a.md") || !vault.IsHidden("notes/"+besides[0]) || strings.HasSuffix(besides[0], ".md") {
		t.Errorf("the note's folder held %q while it was written, want a.md and a hidden temp file beside it", besides)
	}
}

// TestWriterNewNoteFollowsTheUmask: a new note gets 0666 less the umask,
// as any program's new file would; a note that exists keeps its mode
// (TestWriterKeepsPermissions).
func TestWriterNewNoteFollowsTheUmask(t *testing.T) {
	dir, w := newVault(t)
	for _, tt := range []struct {
		umask int
		want  os.FileMode
	}{
		{0o022, 0o644},
		{0o077, 0o600},
		{0o002, 0o664},
	} {
		old := syscall.Umask(tt.umask)
		name := fmt.Sprintf("n%o.md", tt.umask)
		_, err := w.Write(context.Background(), name, []byte("x\n"), "")
		syscall.Umask(old)
		if err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != tt.want {
			t.Errorf("umask %04o: a new note has mode %04o, want %04o", tt.umask, got, tt.want)
		}
	}
}

// TestWriterLockFileIsALink: whoever can change .vaultmem (another user,
// in a shared vault) may put a symbolic or a hard link at its lock file;
// what a write notes there of who holds the lock never goes through the
// link into the file it leads to, in the vault or out of it. A symbolic
// link is not locked through: the write fails, naming the lock file.
func TestWriterLockFileIsALink(t *testing.T) {
	for _, tt := range []struct {
		name  string
		link  func(target, at string) error
		fails bool
	}{
		{"symbolic", os.Symlink, true},
		{"hard", os.Link, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir, w := newVault(t)
			for _, target := range []string{filepath.Join(dir, "MEMORY.md"), filepath.Join(filepath.Dir(dir), "profile")} {
				writeFile(t, target, "# Memory\n")
				lock := filepath.Join(dir, ".vaultmem", "lock")
				os.Remove(lock)
				if err := os.MkdirAll(filepath.Dir(lock), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := tt.link(target, lock); err != nil {
					t.Fatal(err)
				}
				_, err := w.Write(context.Background(), "a.md", []byte(target+"\n"), vault.AnyHash)
				if tt.fails != (err != nil) || err != nil && !strings.Contains(err.Error(), lock) {
					t.Errorf("write with a %s link at the lock file: %v, want an error naming it: %v", tt.name, err, tt.fails)
				}
				if got := readFile(t, target); got != "# Memory\n" {
					t.Errorf("%s, the lock's %s link target, holds %q, want it untouched", target, tt.name, got)
				}
			}
		})
	}
	// A lock file of its own says who holds it.
	dir, w := newVault(t)
	if _, err := w.Write(context.Background(), "a.md", []byte("x\n"), ""); err != nil {
		t.Fatal(err)
	}
	if got, want := readFile(t, filepath.Join(dir, ".vaultmem", "lock")), fmt.Sprintf("%d\n", os.Getpid()); got != want {
		t.Errorf("the lock file holds %q, want %q", got, want)
	}
}

// TestWriterExists: a note, a link to a note, a missing note and a folder;
// unsafe and outside paths are errors.
func TestWriterExists(t *testing.T) {
	dir, w := newVault(t)
	writeFile(t, filepath.Join(dir, "a note.md"), "x")
	if err := os.Symlink("a note.md", filepath.Join(dir, "link.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(t.TempDir(), filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		p       string
		want    bool
		wantErr bool
	}{
		{"a note.md", true, false},
		{"link.md", true, false},
		{"missing.md", false, false},
		{"sub/missing.md", false, false},
		{"../escape.md", false, true},
		{"out/x.md", false, true},
	} {
		got, err := w.Exists(tc.p)
		if got != tc.want || (err != nil) != tc.wantErr {
			t.Errorf("Exists(%q) = %v, %v; want %v, error %v", tc.p, got, err, tc.want, tc.wantErr)
		}
	}
}
