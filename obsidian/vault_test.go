package obsidian

import (
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/session"
	"github.com/vaultmem/vaultmem/task"
	"github.com/vaultmem/vaultmem/vault"
)

// testVault is a vault in a temporary folder, written through the note
// kinds' own stores: what the bases and the canvas are tested on.
type testVault struct {
	t   *testing.T
	ctx context.Context
	dir string
	v   *vault.Vault
	w   *vault.Writer
	ix  *index.Index
	now time.Time

	memories *memory.Store
	tasks    *task.Store
	lessons  *lesson.Store

	// setByTest are the frontmatter keys edit set, by path: not written
	// by a store of this vault.
	setByTest map[string][]string
}

// newTestVault opens an empty vault with an index and the stores over it,
// on a clock that moves a minute per call (no wall clock).
func newTestVault(t *testing.T) *testVault {
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
	ctx := context.Background()
	ix, err := index.Open(ctx, v.Abs(vault.CacheDir), index.Options{NoVectors: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	tv := &testVault{t: t, ctx: ctx, dir: dir, v: v, ix: ix, now: time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)}
	clock := func() time.Time {
		tv.now = tv.now.Add(time.Minute)
		return tv.now
	}
	tv.w = vault.NewWriter(v, vault.WriterOptions{})
	tv.memories = memory.NewStore(tv.w, ix.Stores(), memory.StoreOptions{Now: clock})
	tv.tasks = task.NewStore(tv.w, ix.Stores(), task.Options{FS: v.FS(), Now: clock})
	if tv.lessons, err = lesson.NewStore(tv.w, ix.Stores(), lesson.Options{FS: v.FS(), Now: clock}); err != nil {
		t.Fatal(err)
	}
	tv.sync()
	return tv
}

// sync brings the index up to date with the files, as a command does.
func (tv *testVault) sync() {
	tv.t.Helper()
	if _, err := tv.ix.Sync(tv.ctx, tv.v.FS(), nil); err != nil {
		tv.t.Fatal(err)
	}
}

func (tv *testVault) check(err error) {
	tv.t.Helper()
	if err != nil {
		tv.t.Fatal(err)
	}
}

// edit sets frontmatter keys of the note at p, as the code named with it
// does (markdown.SetFrontmatterKeys through the Writer).
func (tv *testVault) edit(p string, kv ...any) {
	tv.t.Helper()
	if tv.setByTest == nil {
		tv.setByTest = map[string][]string{}
	}
	for i := 0; i < len(kv); i += 2 {
		tv.setByTest[p] = append(tv.setByTest[p], kv[i].(string))
	}
	_, err := tv.w.Update(tv.ctx, p, func(cur []byte) ([]byte, error) {
		return markdown.SetFrontmatterKeys(p, cur, kv...)
	})
	tv.check(err)
	tv.sync()
}

// remember writes a memory through memory.Store.Remember.
func (tv *testVault) remember(typ memory.Type, name string) string {
	tv.t.Helper()
	r, err := tv.memories.Remember(tv.ctx, memory.Memory{Type: typ, Name: name, Description: "about " + name,
		Body: "What there is to know about " + name + "."}, memory.Options{})
	tv.check(err)
	tv.sync()
	return r.Path
}

// addTask writes a task through task.Store.Add.
func (tv *testVault) addTask(n task.New) string {
	tv.t.Helper()
	a, err := tv.tasks.Add(tv.ctx, n)
	tv.check(err)
	tv.sync()
	return a.Path
}

// addLesson writes a lesson through lesson.Store.Add.
func (tv *testVault) addLesson(title, domain string) string {
	tv.t.Helper()
	a, err := tv.lessons.Add(tv.ctx, lesson.New{Title: title, Trigger: []string{strings.ToLower(title)},
		ActionBias: "do what " + title + " says", Domain: domain})
	tv.check(err)
	tv.sync()
	return a.Path
}

// outcome applies outcomes to a lesson through lesson.Store.Outcome.
func (tv *testVault) outcome(p string, success bool, times int) {
	tv.t.Helper()
	for range times {
		_, err := tv.lessons.Outcome(tv.ctx, lesson.Outcome{Lesson: p, Success: success, Agent: "claude"})
		tv.check(err)
		tv.sync()
	}
}

// writeSession writes the note session.State.Render makes, where the
// hook writes it (session.State.NotePath).
func (tv *testVault) writeSession(st session.State) string {
	tv.t.Helper()
	p := st.NotePath(session.DefaultFolder)
	_, err := tv.w.Write(tv.ctx, p, st.Render(func(string) string { return "" }), "")
	tv.check(err)
	tv.sync()
	return p
}

// notes reads every note of the vault (MEMORY.md too) as Bases sees it,
// by path; file.mtime is the order the notes were written in.
func (tv *testVault) notes() map[string]*testNote {
	tv.t.Helper()
	out := map[string]*testNote{}
	err := fs.WalkDir(tv.v.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != "." {
			return fs.SkipDir
		}
		if d.IsDir() || path.Ext(p) != markdown.Ext {
			return nil
		}
		b, err := fs.ReadFile(tv.v.FS(), p)
		if err != nil {
			return err
		}
		out[p] = readTestNote(p, b, time.Time{})
		return nil
	})
	tv.check(err)
	// A stable mtime: the paths' order, so that nothing depends on the clock.
	var paths []string
	for p := range out {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for i, p := range paths {
		out[p].mtime = time.Date(2026, 11, 1, 0, i, 0, 0, time.UTC)
	}
	return out
}
