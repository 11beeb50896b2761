package app

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// notesApp is a vault with notes that share a name, linked to each
// other, opened as o says and synced once.
func notesApp(t *testing.T, o Options) (*App, string) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	if _, err := Init(ctx, dir); err != nil {
		t.Fatal(err)
	}
	for p, text := range map[string]string{
		"a/dup.md":                "first dup, see [[Hub]]\n",
		"b/dup.md":                "second dup\n",
		"Hub.md":                  "the hub links [[Alpha notes]] and [[b/dup]]\n",
		"projects/Alpha notes.md": "---\ntype: project\n---\nalpha notes\n",
	} {
		writeFile(t, filepath.Join(dir, p), text)
	}
	a, err := Open(ctx, dir, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	if _, err := a.Sync(ctx, SyncOptions{Always: true}); err != nil {
		t.Fatal(err)
	}
	return a, dir
}

func writeFile(t *testing.T, p, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestNoteNameRule: ReadNote, Show, Links and WalkLinks name a note by
// one rule — a vault path (any case), else a wikilink name (brackets,
// label, path suffix); an ambiguous name is refused as Invalid, listing
// the notes, and a name no note has is ErrNotFound — whichever use case
// asks.
func TestNoteNameRule(t *testing.T) {
	ctx := context.Background()
	a, _ := notesApp(t, Options{})
	for _, tc := range []struct {
		name, want, err string
		class           Class
	}{
		{"Hub.md", "Hub.md", "", 0},
		{"hub.MD", "Hub.md", "", 0},
		{"Hub", "Hub.md", "", 0},
		{"[[alpha notes|the alpha]]", "projects/Alpha notes.md", "", 0},
		{"a/dup", "a/dup.md", "", 0},
		{"b/dup.md", "b/dup.md", "", 0},
		{"dup", "", `ambiguous: "dup" names 2 notes: a/dup.md, b/dup.md`, Invalid},
		{"nowhere", "", `no note has the path or name "nowhere"`, NotFound},
	} {
		read, rerr := a.Notes().Read(ctx, ReadNoteRequest{Note: tc.name})
		view, serr := a.Notes().Show(ctx, NoteRequest{Note: tc.name})
		links, lerr := a.Notes().Links(ctx, LinksRequest{Note: tc.name})
		_, werr := a.Notes().Walk(ctx, WalkRequest{Note: tc.name})
		for use, got := range map[string]struct {
			path string
			err  error
		}{"ReadNote": {read.Path, rerr}, "Show": {view.Path, serr}, "Links": {links.Note, lerr}, "WalkLinks": {"", werr}} {
			if tc.err == "" {
				if got.err != nil {
					t.Errorf("%s(%q): %v", use, tc.name, got.err)
				} else if use != "WalkLinks" && got.path != tc.want {
					t.Errorf("%s(%q) = %q, want %q", use, tc.name, got.path, tc.want)
				}
				continue
			}
			if got.err == nil || !strings.Contains(got.err.Error(), tc.err) || ClassOf(got.err) != tc.class {
				t.Errorf("%s(%q): error %v (class %d), want one holding %q, class %d", use, tc.name, got.err, ClassOf(got.err), tc.err, tc.class)
			}
			if tc.class == NotFound && !errors.Is(got.err, ErrNotFound) {
				t.Errorf("%s(%q): %v does not match ErrNotFound", use, tc.name, got.err)
			}
		}
	}
}

// TestReadNoteNoSyncFindsANewNote: with NoSync, a name the index does not
// know yet (a note written a moment before, which a watcher indexes only
// after a pause) is found by one more sync; PathOnly never looks a name
// up.
func TestReadNoteNoSyncFindsANewNote(t *testing.T) {
	ctx := context.Background()
	a, dir := notesApp(t, Options{})
	writeFile(t, filepath.Join(dir, "inbox", "Fresh idea.md"), "just written\n")
	n, err := a.Notes().Read(ctx, ReadNoteRequest{Note: "fresh idea", NoSync: true})
	if err != nil || n.Path != "inbox/Fresh idea.md" || strings.TrimSpace(n.Body) != "just written" {
		t.Fatalf("ReadNote(fresh idea) = %+v, %v", n, err)
	}
	if _, err := a.Notes().Read(ctx, ReadNoteRequest{Note: "fresh idea", PathOnly: true}); !errors.Is(err, ErrNotFound) {
		t.Errorf("ReadNote(fresh idea, PathOnly) = %v, want ErrNotFound", err)
	}
	if n, err := a.Notes().Read(ctx, ReadNoteRequest{Note: "inbox/fresh IDEA.md", PathOnly: true}); err != nil || n.Path != "inbox/Fresh idea.md" {
		t.Errorf("ReadNote(path, PathOnly) = %+v, %v", n, err)
	}
}

// TestReadNoteCacheSeesChanges: a resident App serves a note from its
// cache only while the file is unchanged; a change on disk is read.
func TestReadNoteCacheSeesChanges(t *testing.T) {
	ctx := context.Background()
	a, dir := notesApp(t, Options{Resident: true})
	first, err := a.Notes().Read(ctx, ReadNoteRequest{Note: "Hub.md"})
	if err != nil {
		t.Fatal(err)
	}
	if again, err := a.Notes().Read(ctx, ReadNoteRequest{Note: "Hub.md"}); err != nil || again.Hash != first.Hash {
		t.Fatalf("second read = %+v, %v", again, err)
	}
	writeFile(t, filepath.Join(dir, "Hub.md"), "the hub, rewritten at length by another editor\n")
	n, err := a.Notes().Read(ctx, ReadNoteRequest{Note: "Hub.md"})
	if err != nil || n.Hash == first.Hash || !strings.Contains(n.Body, "rewritten") {
		t.Errorf("read after a change = %+v, %v; want the new text", n, err)
	}
}

// TestWriteNoteRelists: WriteNote lists a note written as a memory in
// MEMORY.md at once, and drops it when an edit makes it no memory; a note
// that is no memory leaves MEMORY.md alone.
func TestWriteNoteRelists(t *testing.T) {
	ctx := context.Background()
	a, dir := notesApp(t, Options{})
	list := func() string {
		b, err := os.ReadFile(filepath.Join(dir, MemoryListFile))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	body := "Deploys go out from the release branch."
	res, err := a.Notes().Write(ctx, WriteNoteRequest{Path: "memory/deploys.md",
		Frontmatter: map[string]any{"type": "project", "name": "Deploys", "description": "how deploys go out"}, Body: &body})

	if err != nil || res.ListError != "" || res.Status != "created" {
		t.Fatalf("WriteNote(memory) = %+v, %v", res, err)
	}
	if !strings.Contains(list(), "deploys") {
		t.Errorf("MEMORY.md does not list the memory written as a note:\n%s", list())
	}
	if _, err := a.Notes().Write(ctx, WriteNoteRequest{Path: "memory/deploys.md", Frontmatter: map[string]any{"type": "draft"},
		ExpectedHash: res.Hash}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(list(), "deploys") {
		t.Errorf("MEMORY.md still lists a note that is no memory any more:\n%s", list())
	}
	before := list()
	if _, err := a.Notes().Write(ctx, WriteNoteRequest{Path: "scratch.md", Body: &body}); err != nil {
		t.Fatal(err)
	}
	if list() != before {
		t.Errorf("a note that is no memory changed MEMORY.md")
	}
	if _, err := a.Notes().Write(ctx, WriteNoteRequest{Path: "scratch.md", Body: &body, ExpectedHash: "stale"}); ClassOf(err) != Conflict {
		t.Errorf("WriteNote with a stale hash: %v (class %d), want a Conflict", err, ClassOf(err))
	}
}

// TestWalkLinks: a walk's direction, depth and page are checked once, in
// app (Invalid), and a page of the links found comes with where it is.
func TestWalkLinks(t *testing.T) {
	ctx := context.Background()
	a, _ := notesApp(t, Options{})
	for _, tc := range []struct {
		req  WalkRequest
		want []string // source>target
		err  string
	}{
		{WalkRequest{Note: "Hub", Direction: "out"}, []string{"Hub.md>projects/Alpha notes.md", "Hub.md>b/dup.md"}, ""},
		{WalkRequest{Note: "Hub", Direction: "in"}, []string{"a/dup.md>Hub.md"}, ""},
		{WalkRequest{Note: "Hub", Direction: "out", Page: Page{Limit: 1}}, []string{"Hub.md>projects/Alpha notes.md"}, ""},
		{WalkRequest{Note: "Hub", Direction: "sideways"}, nil, `invalid direction "sideways"`},
		{WalkRequest{Note: "Hub", Depth: MaxLinkDepth + 1}, nil, "invalid depth"},
		{WalkRequest{Note: "Hub", Page: Page{Limit: MaxLimit + 1}}, nil, "page"},
	} {
		w, err := a.Notes().Walk(ctx, tc.req)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || ClassOf(err) != Invalid {
				t.Errorf("WalkLinks(%+v): %v (class %d), want an Invalid error holding %q", tc.req, err, ClassOf(err), tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("WalkLinks(%+v): %v", tc.req, err)
			continue
		}
		var got []string
		for _, h := range w.Links {
			got = append(got, h.Source+">"+h.Target)
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("WalkLinks(%+v) = %v, want %v", tc.req, got, tc.want)
		}
		if tc.req.Page.Limit == 1 && w.NextCursor == "" {
			t.Errorf("WalkLinks(%+v): no next cursor for a page of one of two", tc.req)
		}
	}
}

// TestFramedNoteSource: a note handed to an agent as context wears the
// frame with its kind as its source: MEMORY.md as the list, a memory as a
// memory, any other note as a note.
func TestFramedNoteSource(t *testing.T) {
	ctx := context.Background()
	a, _ := notesApp(t, Options{})
	body := "Deploys go out from the release branch."
	if _, err := a.Notes().Write(ctx, WriteNoteRequest{Path: "memory/deploys.md",
		Frontmatter: map[string]any{"type": "project", "name": "Deploys", "description": "how deploys go out"}, Body: &body}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, source string }{
		{MemoryListFile, `source="MEMORY.md"`},
		{"memory/deploys.md", `source="memory"`},
		{"Hub.md", `source="note"`},
	} {
		n, err := a.Notes().Read(ctx, ReadNoteRequest{Note: tc.path, PathOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		got := a.Notes().Framed("A note:", n)
		if !strings.HasPrefix(got, "A note:") || !strings.Contains(got, tc.source) || !strings.Contains(got, tc.path) {
			t.Errorf("FramedNote(%s) = %q, want the preamble, %s and the path", tc.path, got, tc.source)
		}
	}
}

// TestOrphans: the notes no link joins to another, after a sync that
// sees a note added since (unless NoSync).
func TestOrphans(t *testing.T) {
	ctx := context.Background()
	a, dir := notesApp(t, Options{})
	writeFile(t, filepath.Join(dir, "alone.md"), "nobody links here\n")
	stale, err := a.Notes().Orphans(ctx, OrphansRequest{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.Join(stale, " "), "alone.md") {
		t.Errorf("Orphans(NoSync) = %v: it synced", stale)
	}
	got, err := a.Notes().Orphans(ctx, OrphansRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(got, " "), "alone.md") || strings.Contains(strings.Join(got, " "), "Hub.md") {
		t.Errorf("Orphans() = %v, want alone.md and not Hub.md", got)
	}
}

// TestGitIgnores runs git: a file the repository's rules ignore, one they
// do not, and a folder in no repository.
func TestGitIgnores(t *testing.T) {
	ctx := context.Background()
	repo, outside := t.TempDir(), t.TempDir()
	if out, err := exec.Command("git", "-C", repo, "init", "-q").CombinedOutput(); err != nil {
		t.Skipf("git init: %v: %s", err, out)
	}
	writeFile(t, filepath.Join(repo, ".gitignore"), ".claude/settings.local.json\n")
	for _, tc := range []struct {
		project, rel    string
		ignored, inRepo bool
	}{
		{repo, ".claude/settings.local.json", true, true},
		{repo, ".mcp.json", false, true},
		{outside, ".mcp.json", false, false},
	} {
		ignored, inRepo := GitIgnores(ctx, tc.project, tc.rel)
		if ignored != tc.ignored || inRepo != tc.inRepo {
			t.Errorf("GitIgnores(%s) = %v, %v; want %v, %v", tc.rel, ignored, inRepo, tc.ignored, tc.inRepo)
		}
	}
	if top, err := GitTopLevel(ctx, repo); err != nil || top == "" {
		t.Errorf("GitTopLevel(repo) = %q, %v", top, err)
	}
}
