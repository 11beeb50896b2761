//go:build unix

package vault_test

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"

	"github.com/gofrs/flock"
	"github.com/vaultmem/vaultmem/vault"
)

// files is every file and folder under dir, by path, with its content
// (a link's target): what must not change outside a vault.
func files(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			out[p] = "-> " + target
			return err
		case d.IsDir():
			out[p] = "/"
		default:
			b, err := os.ReadFile(p)
			out[p] = string(b)
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// unchanged fails the test when dir no longer holds what before did.
func unchanged(t *testing.T, dir string, before map[string]string) {
	t.Helper()
	after := files(t, dir)
	for p, b := range before {
		if a, ok := after[p]; !ok {
			t.Errorf("%s was deleted", p)
		} else if a != b {
			t.Errorf("%s changed: %q, was %q", p, a, b)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s was made", p)
		}
	}
}

// TestOwnFilesNeverThroughALink: each file vaultmem keeps for itself
// (state, views, the lock, the cache, .gitattributes), with a symbolic
// link in its place or in place of a folder on its path, leading out of
// the vault or to another place in it: every write refuses with a
// *LinkError naming the link, and what the link leads to is unchanged.
func TestOwnFilesNeverThroughALink(t *testing.T) {
	ctx := context.Background()
	const victim = "# the victim's file\n"
	for _, tc := range []struct {
		name string
		// link is the vault path made a link to target: a file or folder
		// outside the vault, or, with inside, the vault path target.
		link, target string
		inside       bool
		write        func(v *vault.Vault, w *vault.Writer) error
	}{
		{"a state file", ".vaultmem/state/focus/default.yaml", "victim.txt", false, func(v *vault.Vault, w *vault.Writer) error {
			_, err := w.WriteState(ctx, "focus/default.yaml", []byte("task: x\n"), vault.AnyHash)
			return err
		}},
		{"a state folder", ".vaultmem/state/focus", "folder", false, func(v *vault.Vault, w *vault.Writer) error {
			_, err := w.WriteState(ctx, "focus/default.yaml", []byte("task: x\n"), "")
			return err
		}},
		{"the state folder, to the notes", ".vaultmem/state", "memory", true, func(v *vault.Vault, w *vault.Writer) error {
			return w.AppendState(ctx, "lessons/outcomes.jsonl", []byte(`{"x":1}`))
		}},
		{"the state folder, updated", ".vaultmem/state", "folder", false, func(v *vault.Vault, w *vault.Writer) error {
			_, err := w.UpdateState(ctx, "dream.yaml", func([]byte) ([]byte, error) { return []byte("x: 1\n"), nil })
			return err
		}},
		{"the views folder, to the notes", "views", "memory", true, func(v *vault.Vault, w *vault.Writer) error {
			_, err := w.WriteView(ctx, "views/Tasks.canvas", []byte("{}"), "")
			return err
		}},
		{"a canvas", "views/Tasks.canvas", "victim.txt", false, func(v *vault.Vault, w *vault.Writer) error {
			_, err := w.WriteView(ctx, "views/Tasks.canvas", []byte("{}"), vault.AnyHash)
			return err
		}},
		{"the lock", ".vaultmem/lock", "victim.txt", false, func(v *vault.Vault, w *vault.Writer) error {
			_, err := w.Write(ctx, "memory/a.md", []byte("a\n"), "")
			return err
		}},
		{"the tmp folder", ".vaultmem/tmp", "folder", false, func(v *vault.Vault, w *vault.Writer) error {
			_, err := w.Write(ctx, "memory/a.md", []byte("a\n"), "")
			return err
		}},
		{"the cache folder", ".vaultmem/cache", "folder", false, func(v *vault.Vault, w *vault.Writer) error {
			return v.EnsureDir(vault.CacheDir)
		}},
		{"a cache file's folder", ".vaultmem/cache", "folder", false, func(v *vault.Vault, w *vault.Writer) error {
			return vault.WriteCacheFile(v.Abs(vault.CacheDir+"/router.json"), func(w io.Writer) error { _, err := w.Write([]byte("{}")); return err })
		}},
		{"a cache file", ".vaultmem/cache/router.json", "victim.txt", false, func(v *vault.Vault, w *vault.Writer) error {
			return vault.WriteCacheFile(v.Abs(vault.CacheDir+"/router.json"), func(w io.Writer) error { _, err := w.Write([]byte("{}")); return err })
		}},
		{".gitattributes", ".gitattributes", "victim.txt", false, func(v *vault.Vault, w *vault.Writer) error {
			return v.Append(".gitattributes", []byte("/x merge=union\n"))
		}},
		{"a folder made", "memory", "folder", false, func(v *vault.Vault, w *vault.Writer) error {
			_, err := v.MkdirAll("memory/sub")
			return err
		}},
		{"a new file's folder", ".vaultmem/state", "folder", false, func(v *vault.Vault, w *vault.Writer) error {
			_, err := v.WriteNew(".vaultmem/state/new.txt", []byte("x"))
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			writeFile(t, filepath.Join(out, "victim.txt"), victim)
			writeFile(t, filepath.Join(out, "folder", "keep.txt"), victim)
			dir := filepath.Join(t.TempDir(), "vault")
			for _, d := range []string{".vaultmem/state", ".vaultmem/tmp", ".vaultmem/cache", "memory", "views"} {
				if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(d)), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			at := filepath.Join(dir, filepath.FromSlash(tc.link))
			if err := os.MkdirAll(filepath.Dir(at), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.RemoveAll(at); err != nil {
				t.Fatal(err)
			}
			target, watched := filepath.Join(out, tc.target), out
			if tc.inside {
				target = filepath.Join(dir, filepath.FromSlash(tc.target))
				watched = target
			}
			if err := os.Symlink(target, at); err != nil {
				t.Fatal(err)
			}
			before := files(t, watched)
			v, err := vault.Open(dir, vault.Folders{})
			if err != nil {
				t.Fatal(err)
			}
			defer v.Close()
			err = tc.write(v, vault.NewWriter(v, vault.WriterOptions{}))
			var le *vault.LinkError
			if !errors.As(err, &le) || !errors.Is(err, vault.ErrLink) || le.Path != at {
				t.Errorf("got %v, want a *LinkError naming %s", err, at)
			}
			unchanged(t, watched, before)
		})
	}
}

// TestOwnFilesNeverOutside: paths that leave the vault ("..", absolute)
// are refused by MkdirAll and WriteNew, whatever a config names, and
// nothing is made outside.
func TestOwnFilesNeverOutside(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "a", "vault")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	v, err := vault.Open(dir, vault.Folders{})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	before := files(t, top)
	for _, rel := range []string{"../../x", "../x/y", filepath.Join(top, "abs"), "memory/../../z"} {
		if _, err := v.MkdirAll(rel); !errors.Is(err, vault.ErrOutside) {
			t.Errorf("MkdirAll(%q): %v, want ErrOutside", rel, err)
		}
		if _, err := v.WriteNew(rel+"/f", []byte("x")); !errors.Is(err, vault.ErrOutside) {
			t.Errorf("WriteNew(%q): %v, want ErrOutside", rel+"/f", err)
		}
	}
	unchanged(t, top, before)
}

// TestAppendRefusesAHardLink: .gitattributes hard-linked to a file of the
// victim's (same disk) is not appended to.
func TestAppendRefusesAHardLink(t *testing.T) {
	top := t.TempDir()
	victim := filepath.Join(top, "bashrc")
	writeFile(t, victim, "# theirs\n")
	dir := filepath.Join(top, "vault")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(victim, filepath.Join(dir, ".gitattributes")); err != nil {
		t.Skip("no hard links here:", err)
	}
	v, err := vault.Open(dir, vault.Folders{})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if err := v.Append(".gitattributes", []byte("/x merge=union\n")); err == nil {
		t.Error("appended to a file with another name")
	}
	if got := readFile(t, victim); got != "# theirs\n" {
		t.Errorf("the victim's file holds %q", got)
	}
}

// TestOpenRefusesLinkedDotDir: a .vaultmem, or a config, that is a
// symbolic link is refused when the vault is opened, trusted or not.
func TestOpenRefusesLinkedDotDir(t *testing.T) {
	for _, link := range []string{".vaultmem", ".vaultmem/config.yaml"} {
		out := t.TempDir()
		writeFile(t, filepath.Join(out, "config.yaml"), "folders:\n  memory: memory\n")
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, ".vaultmem"), 0o755); err != nil {
			t.Fatal(err)
		}
		at := filepath.Join(dir, filepath.FromSlash(link))
		os.Remove(at)
		target := out
		if link != ".vaultmem" {
			target = filepath.Join(out, "config.yaml")
		}
		if err := os.Symlink(target, at); err != nil {
			t.Fatal(err)
		}
		if _, err := vault.Open(dir, vault.Folders{}); !errors.Is(err, vault.ErrLink) {
			t.Errorf("%s a link: Open gave %v, want ErrLink", link, err)
		}
	}
}

// TestOpenRefusesDotDirOthersCanChange: a .vaultmem or config writable by
// the group or everyone is refused (ErrUntrusted, naming the command
// that allows it) until the user trusts the vault, in their own list
// under $XDG_CONFIG_HOME.
func TestOpenRefusesDotDirOthersCanChange(t *testing.T) {
	for _, tc := range []struct {
		path string
		mode os.FileMode
	}{
		{".vaultmem", 0o777},
		{".vaultmem", 0o775},
		{".vaultmem/config.yaml", 0o666},
		{".vaultmem/config.yaml", 0o664},
	} {
		t.Setenv("XDG_CONFIG_HOME", t.TempDir())
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, ".vaultmem", "config.yaml"), "")
		if err := os.Chmod(filepath.Join(dir, filepath.FromSlash(tc.path)), tc.mode); err != nil {
			t.Fatal(err)
		}
		real, err := filepath.EvalSymlinks(dir)
		if err != nil {
			t.Fatal(err)
		}
		_, err = vault.Open(dir, vault.Folders{})
		var ue *vault.UntrustedError
		if !errors.As(err, &ue) || !errors.Is(err, vault.ErrUntrusted) || ue.Vault != real {
			t.Fatalf("%s mode %v: Open gave %v, want an *UntrustedError", tc.path, tc.mode, err)
		}
		if p, added, err := vault.Trust(dir); err != nil || !added || p != real {
			t.Fatalf("Trust: %q %v %v", p, added, err)
		}
		v, err := vault.Open(dir, vault.Folders{})
		if err != nil {
			t.Fatalf("%s mode %v, trusted: %v", tc.path, tc.mode, err)
		}
		v.Close()
		if _, removed, err := vault.Untrust(dir); err != nil || !removed {
			t.Fatalf("Untrust: %v %v", removed, err)
		}
		if _, err := vault.Open(dir, vault.Folders{}); !errors.Is(err, vault.ErrUntrusted) {
			t.Errorf("%s mode %v, no longer trusted: Open gave %v", tc.path, tc.mode, err)
		}
	}
}

// TestWriterLockTimeout: a write never waits past its lock timeout for a
// lock another holder keeps: it fails with a *LockError naming the
// holder, as the kernel knows it where it can say (Linux), not the pid
// written in the lock file.
func TestWriterLockTimeout(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".vaultmem"), 0o755); err != nil {
		t.Fatal(err)
	}
	lockPath := filepath.Join(dir, filepath.FromSlash(vault.LockFile))
	held := flock.New(lockPath)
	if err := held.Lock(); err != nil {
		t.Fatal(err)
	}
	defer held.Unlock()
	writeFile(t, lockPath, "4242\n") // stale: not the holder
	w, err := openWriter(t, dir, vault.WriterOptions{LockTimeout: 1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.Write(context.Background(), "a.md", []byte("x\n"), "")
	var le *vault.LockError
	if !errors.As(err, &le) || !errors.Is(err, vault.ErrLockTimeout) {
		t.Fatalf("got %v, want a *LockError", err)
	}
	want := 4242
	if runtime.GOOS == "linux" {
		want = os.Getpid()
	}
	if le.PID != want || le.Path != lockPath || le.User == "" {
		t.Errorf("LockError %+v, want pid %d, the lock %s and a user", le, want, lockPath)
	}
}

// TestFIFOsNeverHang: a FIFO put where vaultmem opens one of its own
// files (the lock, .gitattributes, the config) would block the open
// forever: each is refused instead.
func TestFIFOsNeverHang(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".vaultmem"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{vault.LockFile, ".gitattributes"} {
		if err := syscall.Mkfifo(filepath.Join(dir, filepath.FromSlash(rel)), 0o644); err != nil {
			t.Skip("no FIFOs here:", err)
		}
	}
	v, err := vault.Open(dir, vault.Folders{})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	w := vault.NewWriter(v, vault.WriterOptions{})
	if _, err := w.Write(context.Background(), "a.md", []byte("a\n"), ""); err == nil {
		t.Error("a write took a FIFO for the lock")
	}
	if _, err := v.ReadOwn(".gitattributes"); err == nil {
		t.Error("ReadOwn read a FIFO")
	}
	if err := syscall.Mkfifo(filepath.Join(dir, ".vaultmem", "config.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := vault.Open(dir, vault.Folders{}); err == nil {
		t.Error("Open took a FIFO for the config")
	}
}
