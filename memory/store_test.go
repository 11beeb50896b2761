package memory_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/vault"
)

// testStore is a Store over a real vault and index in a temporary folder.
type testStore struct {
	t   *testing.T
	dir string
	v   *vault.Vault
	ix  *index.Index
	s   *memory.Store
}

func newTestStore(t *testing.T, folder string) *testStore {
	t.Helper()
	dir := t.TempDir()
	v := openVault(t, dir)
	ix, err := index.Open(context.Background(), v.Abs(vault.CacheDir), index.Options{NoVectors: true, MemoryFolder: folder})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	clock := func() time.Time { return time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC) }
	return &testStore{t: t, dir: dir, v: v, ix: ix,
		s: memory.NewStore(vault.NewWriter(v, vault.WriterOptions{}), ix.Stores(), memory.StoreOptions{Folder: folder, Now: clock})}
}

func (ts *testStore) write(p, content string) {
	ts.t.Helper()
	full := filepath.Join(ts.dir, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		ts.t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		ts.t.Fatal(err)
	}
}

func (ts *testStore) read(p string) string {
	ts.t.Helper()
	b, err := os.ReadFile(filepath.Join(ts.dir, filepath.FromSlash(p)))
	if err != nil {
		ts.t.Fatal(err)
	}
	return string(b)
}

func (ts *testStore) sync() {
	ts.t.Helper()
	if _, err := ts.ix.Sync(context.Background(), ts.v.FS(), nil); err != nil {
		ts.t.Fatal(err)
	}
}

func TestStoreRemember(t *testing.T) {
	ctx := context.Background()
	ts := newTestStore(t, "")
	ts.write("MEMORY.md", "# What I keep\n\nWritten by hand.\n")
	ts.sync()
	res, err := ts.s.Remember(ctx, memory.Memory{Type: memory.User, Name: "User role", Description: "senior Go engineer", Body: "Ana is a senior Go engineer."}, memory.Options{})
	if err != nil || res.Status != "created" || res.ListError != "" {
		t.Fatalf("%+v %v", res, err)
	}
	if want := "- [User role](memory/user-role.md) — senior Go engineer"; res.ListLine != want {
		t.Errorf("line %q, want %q", res.ListLine, want)
	}
	note := ts.read("memory/user-role.md")
	if !strings.Contains(note, "\ncreated: 2026-03-02\n") {
		t.Errorf("no created date:\n%s", note)
	}
	want := "# What I keep\n\nWritten by hand.\n\n" + memory.Begin + "\n## User\n\n" + res.ListLine + "\n\n" + memory.End + "\n"
	if got := ts.read("MEMORY.md"); got != want {
		t.Errorf("MEMORY.md:\n%s\nwant:\n%s", got, want)
	}

	// The index has not seen the memory yet: another one keeps it listed.
	res2, err := ts.s.Remember(ctx, memory.Memory{Type: memory.Feedback, Name: "Terse", Description: "short answers", Body: "Keep answers short."}, memory.Options{})
	if err != nil || res2.ListError != "" {
		t.Fatalf("%+v %v", res2, err)
	}
	got := ts.read("MEMORY.md")
	if !strings.Contains(got, res.ListLine) || !strings.Contains(got, res2.ListLine) {
		t.Errorf("a memory dropped out:\n%s", got)
	}
	ts.sync()
	st, err := ts.s.Relist(ctx)
	if err != nil || st.Lines != strings.Count(got, "\n") || ts.read("MEMORY.md") != got {
		t.Errorf("Relist after sync changed a current MEMORY.md (%+v, %v):\n%s", st, err, ts.read("MEMORY.md"))
	}

	// Identity is the name: "user ROLE" is the same memory.
	_, err = ts.s.Remember(ctx, memory.Memory{Type: memory.User, Name: "user ROLE", Description: "staff engineer", Body: "Ana is a staff engineer."}, memory.Options{})
	var taken *memory.TakenError
	if !errors.As(err, &taken) || taken.Path != "memory/user-role.md" {
		t.Fatalf("same name without Update: %v", err)
	}
	res3, err := ts.s.Remember(ctx, memory.Memory{Type: memory.User, Name: "user ROLE", Description: "staff engineer", Body: "Ana is a staff engineer."}, memory.Options{Update: true})
	if err != nil || res3.Path != "memory/user-role.md" || res3.Status != "updated" {
		t.Fatalf("%+v %v", res3, err)
	}
	if got := ts.read("MEMORY.md"); !strings.Contains(got, "- [user ROLE](memory/user-role.md) — staff engineer\n") || strings.Contains(got, "senior") {
		t.Errorf("the line was not replaced:\n%s", got)
	}
}

// TestStoreBrokenMarkers: a MEMORY.md whose markers are broken is left as
// it is; the memory is still written, and the result says why MEMORY.md
// is not.
func TestStoreBrokenMarkers(t *testing.T) {
	ts := newTestStore(t, "")
	broken := "# Memory\n\n" + memory.Begin + "\n- [x](x.md)\n"
	ts.write("MEMORY.md", broken)
	res, err := ts.s.Remember(context.Background(), memory.Memory{Type: memory.Project, Name: "Freeze", Description: "d", Body: "b"}, memory.Options{})
	if err != nil || res.Status != "created" {
		t.Fatalf("%+v %v", res, err)
	}
	if !strings.Contains(res.ListError, "MEMORY.md:3") || res.ListLine != "" {
		t.Errorf("index error %q, line %q", res.ListError, res.ListLine)
	}
	if got := ts.read("MEMORY.md"); got != broken {
		t.Errorf("a broken MEMORY.md was written:\n%s", got)
	}
}

// TestStoreConcurrent: memories remembered at once, none seen by the
// index yet, are all listed.
func TestStoreConcurrent(t *testing.T) {
	ts := newTestStore(t, "")
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Go(func() {
			res, err := ts.s.Remember(context.Background(), memory.Memory{Type: memory.Project, Name: fmt.Sprintf("Memory %02d", i), Description: "d", Body: "b"}, memory.Options{})
			if err != nil || res.ListError != "" {
				t.Errorf("%d: %+v %v", i, res, err)
			}
		})
	}
	wg.Wait()
	got := ts.read("MEMORY.md")
	for i := range 12 {
		if !strings.Contains(got, fmt.Sprintf("[Memory %02d](memory/memory-%02d.md)", i, i)) {
			t.Errorf("memory %d not listed:\n%s", i, got)
		}
	}
}

// TestStoreReindex: archived memories leave MEMORY.md; the pairs Dream
// flagged are listed under Needs review while both are live.
func TestStoreReindex(t *testing.T) {
	ctx := context.Background()
	ts := newTestStore(t, ".") // a Claude Code memory folder: memories beside MEMORY.md
	ts.write("feedback_tabs.md", "---\nname: Tabs\ndescription: always tabs\ntype: feedback\n---\nAlways use tabs.\n")
	ts.write("feedback_spaces.md", "---\nname: Spaces\ndescription: never tabs\ntype: feedback\n---\nNever use tabs.\n")
	ts.write("old.md", "---\nname: Old\ndescription: gone\ntype: feedback\narchived: 2026-01-01\n---\nOld.\n")
	ts.sync()
	if err := ts.s.SetFlags(ctx, []memory.Flag{{A: "feedback_tabs.md", B: "feedback_spaces.md", Reason: "always / never: use tabs"}}, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := ts.s.Relist(ctx); err != nil {
		t.Fatal(err)
	}
	want := "# Memory\n\n" + memory.Begin + "\n## Feedback\n\n" +
		"- [Spaces](feedback_spaces.md) — never tabs\n- [Tabs](feedback_tabs.md) — always tabs\n\n" +
		"## Needs review\n\n- [Tabs](feedback_tabs.md) and [Spaces](feedback_spaces.md) may contradict each other: always / never: use tabs\n\n" +
		memory.End + "\n"
	if got := ts.read("MEMORY.md"); got != want {
		t.Errorf("MEMORY.md:\n%s\nwant:\n%s", got, want)
	}
	res, err := ts.s.Remember(ctx, memory.Memory{Type: memory.User, Name: "Role", Description: "d", Body: "b"}, memory.Options{})
	if err != nil || res.Path != "role.md" {
		t.Errorf("a new memory in a Claude Code folder goes beside MEMORY.md: %+v %v", res, err)
	}
	ts.write("feedback_spaces.md", "---\nname: Spaces\ndescription: never tabs\ntype: feedback\narchived: 2026-03-02\n---\nNever use tabs.\n")
	ts.sync()
	if _, err := ts.s.Relist(ctx); err != nil {
		t.Fatal(err)
	}
	if got := ts.read("MEMORY.md"); strings.Contains(got, "Spaces") || strings.Contains(got, "Needs review") || !strings.Contains(got, "[Role](role.md)") {
		t.Errorf("after archiving:\n%s", got)
	}
}

// TestStoreNeverWritesArchived: a memory remembered under the name of one
// Dream archived is a new note beside it; the archived note is history and
// is never written over, with or without Update.
func TestStoreNeverWritesArchived(t *testing.T) {
	ts := newTestStore(t, "")
	archived := "---\nname: Testing\ndescription: old\ntype: feedback\nmerged_into: \"[[race-tests]]\"\narchived: 2026-03-01\n---\nUse mocks.\n"
	ts.write("memory/testing.md", archived)
	ts.sync()
	for _, update := range []bool{false, true} {
		res, err := ts.s.Remember(context.Background(), memory.Memory{Type: memory.Feedback, Name: "Testing", Description: "new", Body: "Fuzz the parser."}, memory.Options{Update: update})
		if err != nil || res.Path != "memory/testing-2.md" {
			t.Fatalf("update %v: %+v %v", update, res, err)
		}
	}
	if got := ts.read("memory/testing.md"); got != archived {
		t.Errorf("the archived note was written:\n%s", got)
	}
}

// TestStoreLinksReport: with something to review, MEMORY.md links Dream's
// report once the note exists, and never a report that is not there.
func TestStoreLinksReport(t *testing.T) {
	ctx := context.Background()
	ts := newTestStore(t, "")
	ts.s = memory.NewStore(vault.NewWriter(ts.v, vault.WriterOptions{}), ts.ix.Stores(), memory.StoreOptions{ReportFile: "memory/dream-log.md"})
	ts.write("memory/terse.md", "---\nname: Terse\ntype: user\nstatus: proposed\n---\nTerse answers.\n")
	ts.sync()
	if _, err := ts.s.Relist(ctx); err != nil {
		t.Fatal(err)
	}
	if got := ts.read("MEMORY.md"); !strings.Contains(got, "[Terse](memory/terse.md) proposed by Dream") || strings.Contains(got, "Dream's report") {
		t.Fatalf("without the report:\n%s", got)
	}
	ts.write("memory/dream-log.md", "---\ntype: dream-log\n---\n\n## 2026-03-02\n")
	if _, err := ts.s.Relist(ctx); err != nil {
		t.Fatal(err)
	}
	if got := ts.read("MEMORY.md"); !strings.Contains(got, "- [Dream's report](memory/dream-log.md): ") {
		t.Errorf("with the report:\n%s", got)
	}
	ts.write("memory/terse.md", "---\nname: Terse\ntype: user\n---\nTerse answers.\n")
	ts.sync()
	if _, err := ts.s.Relist(ctx); err != nil {
		t.Fatal(err)
	}
	if got := ts.read("MEMORY.md"); strings.Contains(got, "Needs review") {
		t.Errorf("nothing to review, yet:\n%s", got)
	}
}
