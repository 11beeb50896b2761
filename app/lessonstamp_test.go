package app

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/session"
	"github.com/vaultmem/vaultmem/vault"
)

// lessonNote is a lesson as a person writes it in Obsidian.
func lessonNote(trigger, bias string) string {
	return "---\ntype: lesson\ntrigger: " + trigger + "\naction_bias: " + bias + "\nstrength: 0.6\n---\n\n# Lesson\n\n" + bias + "\n"
}

// stampVault is an initialised vault (the user's config folders the
// test's own) with a lesson and a note outside the lessons folder.
func stampVault(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	dir := t.TempDir()
	if _, err := Init(t.Context(), dir); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "lessons", "Run migrations first.md"), lessonNote("db/migrations/**", "run make migrate first"))
	write(t, filepath.Join(dir, "notes", "Importer.md"), "# Importer\n\nThe importer reads CSV exports.\n")
	return dir
}

func write(t *testing.T, p, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// openSynced opens dir with o, after a full sync by another process's
// App (what the last command or prompt hook did).
func openSynced(t *testing.T, dir string, o Options) *App {
	t.Helper()
	first, err := Open(t.Context(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := first.Sync(t.Context(), SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	first.Close()
	a, err := Open(t.Context(), dir, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

// TestLessonsOnlySync: a tool call's hook (Options.LessonsOnly) leaves
// the index as it is while the lessons folder is as the last sync saw
// it, and syncs at any change of it: a lesson edited in place (its size,
// or only its time), added, removed or renamed; with no stamp; with an
// index rebuilt since.
func TestLessonsOnlySync(t *testing.T) {
	lessonPath := filepath.Join("lessons", "Run migrations first.md")
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, a *App, dir string)
		synced bool
	}{
		{"nothing changed", func(t *testing.T, a *App, dir string) {}, false},
		{"a note outside the lessons folder edited", func(t *testing.T, a *App, dir string) {
			write(t, filepath.Join(dir, "notes", "Importer.md"), "# Importer\n\nThe importer reads JSON exports too.\n")
		}, false},
		{"a lesson edited in place", func(t *testing.T, a *App, dir string) {
			write(t, filepath.Join(dir, lessonPath), lessonNote("db/migrations/**", "run make migrate-all first"))
		}, true},
		{"a lesson's time changed, its size not", func(t *testing.T, a *App, dir string) {
			p := filepath.Join(dir, lessonPath)
			info, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			write(t, p, lessonNote("db/migrations/**", "run make migrate FIRST"))
			later := info.ModTime().Add(3e9)
			if err := os.Chtimes(p, later, later); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"a lesson added", func(t *testing.T, a *App, dir string) {
			write(t, filepath.Join(dir, "lessons", "Lint first.md"), lessonNote("tool:Bash", "run the linter first"))
		}, true},
		{"a lesson removed", func(t *testing.T, a *App, dir string) {
			if err := os.Remove(filepath.Join(dir, lessonPath)); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"a lesson renamed", func(t *testing.T, a *App, dir string) {
			if err := os.Rename(filepath.Join(dir, lessonPath), filepath.Join(dir, "lessons", "Migrate first.md")); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"no stamp", func(t *testing.T, a *App, dir string) {
			if err := os.Remove(filepath.Join(dir, filepath.FromSlash(vault.CacheDir), lessonsStampFile)); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"the index's lessons changed since (a lesson vaultmem wrote)", func(t *testing.T, a *App, dir string) {
			st, err := a.openLessons()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := st.Add(context.Background(), lesson.New{Title: "Check the schema", Trigger: []string{"db/schema.sql"}, ActionBias: "diff the schema first"}); err != nil {
				t.Fatal(err)
			}
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := stampVault(t)
			ageVault(t, dir)
			a := openSynced(t, dir, Options{LessonsOnly: true})
			tc.change(t, a, dir)
			// A change outside the lessons folder is what shows whether
			// the sync walked the vault.
			write(t, filepath.Join(dir, "notes", "Other.md"), "# Other\n\nwritten after the last sync\n")
			st, err := a.Sync(t.Context(), SyncOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if synced := st.Parsed+st.Removed > 0; synced != tc.synced {
				t.Errorf("synced: %v (parsed %d, removed %d), want %v", synced, st.Parsed, st.Removed, tc.synced)
			}
			// Whatever a tool call's hook left, the next full sync (a
			// prompt's hook) reads it.
			b, err := Open(t.Context(), dir, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			if _, err := b.Sync(t.Context(), SyncOptions{}); err != nil {
				t.Fatal(err)
			}
			hits, err := b.Index().Searcher().Search(t.Context(), index.Query{Text: "written after the last sync", Mode: index.Keyword, Paths: []string{"notes/Other.md"}})
			if err != nil {
				t.Fatal(err)
			}
			if len(hits) == 0 {
				t.Errorf("the full sync after it did not index notes/Other.md: %v", hits)
			}
		})
	}
}

// TestLessonsStampNamesTheListing: the stamp changes with the lessons
// folder and with the index's lessons version, and not otherwise.
func TestLessonsStampNamesTheListing(t *testing.T) {
	dir := stampVault(t)
	ageVault(t, dir)
	a := openSynced(t, dir, Options{LessonsOnly: true})
	if !a.lessonStamp().unchanged(t.Context()) {
		t.Fatal("right after a sync the lessons are not unchanged")
	}
	before, _, err := a.lessonStamp().listing(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "notes", "Importer.md"), "# Importer\n\nchanged\n")
	if after, _, _ := a.lessonStamp().listing(t.Context()); after != before {
		t.Error("a note outside the lessons folder changed the listing")
	}
	write(t, filepath.Join(dir, "lessons", ".hidden.md"), "hidden")
	if after, _, _ := a.lessonStamp().listing(t.Context()); after != before {
		t.Error("a hidden file changed the listing")
	}
	write(t, filepath.Join(dir, "lessons", "sub", "Nested.md"), lessonNote("tool:Read", "read it all"))
	if after, _, _ := a.lessonStamp().listing(t.Context()); after == before {
		t.Error("a lesson in a subfolder did not change the listing")
	}
	if a.lessonStamp().unchanged(t.Context()) {
		t.Error("a new lesson left the lessons unchanged")
	}
	if !strings.HasPrefix(lessonsStamp("x", "v"), "lessons x\n") {
		t.Errorf("stamp: %q", lessonsStamp("x", "v"))
	}
}

// TestFoldersChanged: the folders' stamp says a sync will change the
// index when a note was added, removed or renamed, or a folder made or
// removed, and cannot see a note edited in place (which WhileSyncing
// finds by the index's version); its incremental listing is the full
// one.
func TestFoldersChanged(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, dir string)
		want   bool
	}{
		{"nothing", func(t *testing.T, dir string) {}, false},
		{"a note edited in place", func(t *testing.T, dir string) {
			editFile(t, filepath.Join(dir, "notes", "Importer.md"), "The importer reads JSON exports too.\n")
		}, false},
		{"a note added", func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, "notes", "New.md"), "# New\n")
		}, true},
		{"a note removed", func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, "notes", "Importer.md")); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"a note written as vaultmem writes (renamed over)", func(t *testing.T, dir string) {
			tmp := filepath.Join(dir, "notes", ".Importer.md.tmp")
			write(t, tmp, "# Importer\n\nrewritten\n")
			if err := os.Rename(tmp, filepath.Join(dir, "notes", "Importer.md")); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"a folder made deep down", func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, "notes", "a", "b", "Deep.md"), "# Deep\n")
		}, true},
		{"a folder removed", func(t *testing.T, dir string) {
			if err := os.RemoveAll(filepath.Join(dir, "notes")); err != nil {
				t.Fatal(err)
			}
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := stampVault(t)
			write(t, filepath.Join(dir, "notes", "x", "Nested.md"), "# Nested\n")
			ageVault(t, dir)
			a := openSynced(t, dir, Options{})
			if _, err := a.Sync(t.Context(), SyncOptions{Vectors: true}); err != nil {
				t.Fatal(err)
			}
			if a.folderStamp().changed() {
				t.Fatal("right after a sync the folders changed")
			}
			tc.change(t, dir)
			if got := a.folderStamp().changed(); got != tc.want {
				t.Errorf("foldersChanged: %v, want %v", got, tc.want)
			}
			got, err := a.folderStamp().times(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			full, err := a.folderStamp().timesFrom(t.Context(), nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got != full {
				t.Errorf("the listing after the stamp:\n%s\nis not the full one:\n%s", got, full)
			}
		})
	}
}

// editFile rewrites a file in place (same inode: its folder's time
// stays).
func editFile(t *testing.T, p, text string) {
	t.Helper()
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// ageVault sets the times of dir's folders and notes a day back: a
// change made within the file system's clock tick of a stamp still shows,
// and the index does not take the notes for ones written as it read them
// (which it reads again at the next sync).
func ageVault(t *testing.T, dir string) {
	t.Helper()
	old := time.Now().Add(-24 * time.Hour)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == vault.DotDir {
			return filepath.SkipDir
		}
		return os.Chtimes(p, old, old)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestWhileSyncingOrder: with a folder changed since the last sync, the
// search runs once, after the sync; with none, beside it, and again when
// the sync changed the index after all (a note edited in place). Each
// time the answer holds the note as it is now.
func TestWhileSyncingOrder(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(t *testing.T, dir string)
		calls []bool // the early flag of each call of find
	}{
		{"nothing changed", func(t *testing.T, dir string) {}, []bool{true}},
		{"a note added", func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, "notes", "Zebrafinch.md"), "# Zebrafinch\n\nzebrafinch notes\n")
		}, []bool{false}},
		{"a note edited in place", func(t *testing.T, dir string) {
			editFile(t, filepath.Join(dir, "notes", "Importer.md"), "# Importer\n\nzebrafinch reads the exports\n")
		}, []bool{true, false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := stampVault(t)
			ageVault(t, dir)
			a := openSynced(t, dir, Options{})
			if _, err := a.Sync(t.Context(), SyncOptions{Vectors: true}); err != nil { // the stamps of a sync with vectors
				t.Fatal(err)
			}
			tc.edit(t, dir)
			var calls []bool
			hits, _, err := WhileSyncing(t.Context(), a, func(ctx context.Context, early bool) ([]index.Result, error) {
				calls = append(calls, early)
				return a.Index().Searcher().Search(ctx, index.Query{Text: "zebrafinch", Mode: index.Keyword})
			})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(calls, tc.calls) {
				t.Errorf("find's calls (early?): %v, want %v", calls, tc.calls)
			}
			if found := len(hits) > 0; found != (len(tc.calls) > 1 || !tc.calls[0]) {
				t.Errorf("hits for the edit: %v", hits)
			}
		})
	}
}

// TestOpenForHook: the outcome of a tool call no lesson was shown for is
// answered without the index; every other event, and any doubt, opens it.
func TestOpenForHook(t *testing.T) {
	dir := stampVault(t)
	openSynced(t, dir, Options{}) // the index holds the lesson
	state := func(t *testing.T, text string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(vault.DotDir), "state", filepath.FromSlash(session.StateName("s1")))
		write(t, p, text)
	}
	shown := `{"id":"s1","calls":[{"id":"toolu_1","tool":"Bash","lessons":[{"path":"lessons/Run migrations first.md","name":"Run migrations first"}]},{"id":"toolu_2","tool":"Bash","lessons":[]}]}`
	for _, tc := range []struct {
		name  string
		state string // "" for none
		ev    HookEvent
		index bool
	}{
		{"a call's outcome, no state", "", HookEvent{Kind: HookAfterTool, Session: "s1", ToolUseID: "toolu_1"}, false},
		{"a call's outcome, lessons shown", shown, HookEvent{Kind: HookAfterTool, Session: "s1", ToolUseID: "toolu_1"}, true},
		{"a call's outcome, none shown", shown, HookEvent{Kind: HookAfterTool, Session: "s1", ToolUseID: "toolu_2"}, false},
		{"another call's outcome", shown, HookEvent{Kind: HookAfterTool, Session: "s1", ToolUseID: "toolu_9"}, false},
		{"a call's outcome without an id", shown, HookEvent{Kind: HookAfterTool, Session: "s1"}, false},
		{"a state that does not decode", "{", HookEvent{Kind: HookAfterTool, Session: "s1", ToolUseID: "toolu_1"}, true},
		{"before a call", "", HookEvent{Kind: HookBeforeTool, Session: "s1", ToolUseID: "toolu_1"}, true},
		{"a prompt", "", HookEvent{Kind: HookPrompt, Session: "s1", Prompt: "hi"}, true},
		{"a stop", "", HookEvent{Kind: HookStop, Session: "s1"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			os.RemoveAll(filepath.Join(dir, filepath.FromSlash(vault.DotDir), "state", "sessions"))
			if tc.state != "" {
				state(t, tc.state)
			}
			h, err := OpenForHook(t.Context(), dir, tc.ev, Options{NoIndex: true})
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			if got := h.Index() != nil; got != tc.index {
				t.Errorf("index opened: %v, want %v", got, tc.index)
			}
			if tc.ev.Kind == HookAfterTool && tc.state != "{" {
				// It answers either way, and takes the call's lessons.
				if _, err := h.Hook(t.Context(), tc.ev); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// TestLessonsStampNotRacy: a sync that read a lesson written a moment
// before (which a second edit within the clock's tick could change
// keeping its size and time) leaves no stamp: the next tool call's hook
// syncs.
func TestLessonsStampNotRacy(t *testing.T) {
	dir := stampVault(t)
	ageVault(t, dir)
	p := filepath.Join(dir, "lessons", "Run migrations first.md")
	write(t, p, lessonNote("db/migrations/**", "run make migrate at once"))
	// A time the sync cannot trust however long it takes to come: a
	// minute ahead (a time within the racy window of the sync's own clock
	// would make this test depend on how fast the machine is).
	now := time.Now()
	ahead := now.Add(time.Minute + time.Millisecond)
	if err := os.Chtimes(p, ahead, ahead); err != nil {
		t.Fatal(err)
	}
	a := openSynced(t, dir, Options{LessonsOnly: true})
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(vault.CacheDir), lessonsStampFile)); err == nil {
		t.Fatal("a sync of a lesson written at once left a stamp")
	}
	if a.lessonStamp().unchanged(t.Context()) {
		t.Error("no stamp, yet the lessons are unchanged")
	}
	for _, tc := range []struct {
		mtime int64
		racy  bool
	}{
		{now.UnixNano(), true},
		{now.Add(-50 * time.Millisecond).UnixNano(), true},
		{now.Add(-time.Second).UnixNano(), false},
		{now.Truncate(time.Second).Add(-time.Second).UnixNano(), true}, // whole seconds: 2 s
		{now.Truncate(time.Second).Add(-3 * time.Second).UnixNano(), false},
	} {
		if got := index.Racy(tc.mtime, now); got != tc.racy {
			t.Errorf("Racy(%v before now): %v, want %v", now.Sub(time.Unix(0, tc.mtime)), got, tc.racy)
		}
	}
}

// TestFoldersStampAfterVectors: a sync without vectors (a session's
// start, a command that reads no vectors) takes a new note in, leaving
// its vectors to the next sync with them: the folders still count as
// changed for that one, which changes the index.
func TestFoldersStampAfterVectors(t *testing.T) {
	dir := stampVault(t)
	ageVault(t, dir)
	a := openSynced(t, dir, Options{})
	if _, err := a.Sync(t.Context(), SyncOptions{Vectors: true}); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "notes", "New.md"), "# New\n\nzebrafinch\n")
	if _, err := a.Sync(t.Context(), SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	if !a.folderStamp().changed() {
		t.Error("after a sync without vectors the folders are unchanged")
	}
	if _, err := a.Sync(t.Context(), SyncOptions{Vectors: true}); err != nil {
		t.Fatal(err)
	}
	if a.folderStamp().changed() {
		t.Error("after the sync with vectors the folders still changed")
	}
}

// TestHookMatchesLessonsByWords: an App opened for one hook event matches
// lessons by their words alone (the vault's model is not loaded in a
// hook's own process); any other App by meaning too.
func TestHookMatchesLessonsByWords(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if _, err := Init(ctx, dir); err != nil {
		t.Fatal(err)
	}
	a, err := Open(ctx, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if a.lessonMeaning() == nil {
		t.Error("an App for commands and servers matches lessons by words alone")
	}
	h, err := OpenForHook(ctx, dir, HookEvent{Kind: HookBeforeTool, Session: "s1", Tool: "Edit"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if h.lessonMeaning() != nil {
		t.Error("a hook's own process loads the vault's model to match lessons by meaning")
	}
}
