package dream

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/vault"
)

// testVault is a real vault and index in a temporary folder, with a
// Dreamer whose clock stands at 2026-03-02 09:00 UTC.
type testVault struct {
	t   testing.TB
	dir string
	v   *vault.Vault
	ix  *index.Index
	d   *Dreamer
	now time.Time
}

func newTestVault(t testing.TB, files map[string]string) *testVault {
	t.Helper()
	dir := t.TempDir()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return openTestVault(t, dir)
}

// openTestVault is the test vault of the folder dir.
func openTestVault(t testing.TB, dir string) *testVault {
	t.Helper()
	tv := &testVault{t: t, dir: dir, now: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)}
	v, err := vault.Open(dir, vault.Folders{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	ix, err := index.Open(context.Background(), v.Abs(vault.CacheDir), index.Options{NoVectors: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	tv.v, tv.ix = v, ix
	tv.d = tv.dreamer(Options{})
	return tv
}

// dreamer returns a Dreamer of the vault with o, on the test's clock.
// A memory folder other than "memory" reopens the index with it, as the
// app opens it.
func (tv *testVault) dreamer(o Options) *Dreamer {
	if o.Folder != "" && o.Folder != "memory" {
		tv.ix.Close()
		ix, err := index.Open(context.Background(), tv.v.Abs(vault.CacheDir), index.Options{NoVectors: true, MemoryFolder: o.Folder})
		if err != nil {
			tv.t.Fatal(err)
		}
		tv.t.Cleanup(func() { ix.Close() })
		tv.ix = ix
	}
	w := vault.NewWriter(tv.v, vault.WriterOptions{})
	clock := func() time.Time { return tv.now }
	o.Now = clock
	return New(tv.v, w, tv.ix.Stores(), memory.NewStore(w, tv.ix.Stores(), memory.StoreOptions{Folder: o.Folder, Now: clock}), o)
}

func (tv *testVault) write(p, content string) {
	tv.t.Helper()
	full := filepath.Join(tv.dir, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		tv.t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		tv.t.Fatal(err)
	}
}

func (tv *testVault) read(p string) string {
	tv.t.Helper()
	b, err := os.ReadFile(filepath.Join(tv.dir, filepath.FromSlash(p)))
	if err != nil {
		tv.t.Fatal(err)
	}
	return string(b)
}

func (tv *testVault) sync() {
	tv.t.Helper()
	if _, err := tv.ix.Sync(context.Background(), tv.v.FS(), nil); err != nil {
		tv.t.Fatal(err)
	}
}

// run syncs the index (as the CLI does) and runs Dream.
func (tv *testVault) run(ro RunOptions) *Report {
	tv.t.Helper()
	tv.sync()
	rep, err := tv.d.Run(context.Background(), ro)
	if err != nil {
		tv.t.Fatal(err)
	}
	return rep
}

// snapshot returns every file of the vault outside .vaultmem.
func (tv *testVault) snapshot() map[string]string {
	tv.t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(tv.dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(tv.dir, p)
		if d.IsDir() && rel == vault.DotDir {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[filepath.ToSlash(rel)] = string(b)
		}
		return nil
	})
	if err != nil {
		tv.t.Fatal(err)
	}
	return out
}

// memoryNote is a memory note's text.
func memoryNote(name, typ, desc, extra, body string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\ntype: " + typ + "\n" + extra + "---\n" + body
}
