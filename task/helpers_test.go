package task_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/task"
	"github.com/vaultmem/vaultmem/vault"
)

// fixture is a task Store over a real vault and index in a temporary
// folder, with a clock that moves a minute per call.
type fixture struct {
	t   *testing.T
	ctx context.Context
	dir string
	v   *vault.Vault
	ix  *index.Index
	s   *task.Store
	now time.Time
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, vault.DotDir), 0o755); err != nil {
		t.Fatal(err)
	}
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
	f := &fixture{t: t, ctx: context.Background(), dir: dir, v: v, ix: ix, now: time.Date(2026, 11, 23, 14, 0, 0, 0, time.UTC)}
	clock := func() time.Time {
		f.now = f.now.Add(time.Minute)
		return f.now
	}
	f.s = task.NewStore(vault.NewWriter(v, vault.WriterOptions{}), ix.Stores(), task.Options{FS: v.FS(), Now: clock})
	f.sync()
	return f
}

// sync brings the index up to date with the files, as a command does.
func (f *fixture) sync() {
	f.t.Helper()
	if _, err := f.ix.Sync(f.ctx, f.v.FS(), nil); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) write(p, content string) {
	f.t.Helper()
	full := filepath.Join(f.dir, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) read(p string) string {
	f.t.Helper()
	b, err := os.ReadFile(filepath.Join(f.dir, filepath.FromSlash(p)))
	if err != nil {
		f.t.Fatal(err)
	}
	return string(b)
}

func (f *fixture) add(n task.New) task.Added {
	f.t.Helper()
	a, err := f.s.Add(f.ctx, n)
	if err != nil {
		f.t.Fatal(err)
	}
	return a
}

func must[T any](t *testing.T) func(v T, err error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}
