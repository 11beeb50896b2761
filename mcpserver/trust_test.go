package mcpserver_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vaultmem/vaultmem/app"
	"github.com/vaultmem/vaultmem/mcpserver"
	"github.com/vaultmem/vaultmem/recall"
	"github.com/vaultmem/vaultmem/text"
	"github.com/vaultmem/vaultmem/watch"
)

// hostileNames are file names real vaults have: '%', '?', '#', spaces,
// emoji, names that differ only in case.
var hostileNames = []string{
	"Security/51% Attack.md", "Q3 10% growth.md", "Why? Because.md", "C# notes.md",
	"emoji 🚀 launch.md", "normal.md", "Normal.md", "dir with space/naïve café.md",
}

// serve starts a server over a vault holding files and connects a client;
// setup, if not nil, changes the options first.
func serve(t *testing.T, files map[string]string, setup func(*mcpserver.Options)) (*mcp.ClientSession, *mcpserver.Server, string) {
	t.Helper()
	return serveVault(t, files, false, setup)
}

// serveVault is serve; with watched, a watcher holds the vault (not
// running: its syncs are late), so that reads do not sync first, as in
// `vaultmem mcp`.
func serveVault(t *testing.T, files map[string]string, watched bool, setup func(*mcpserver.Options)) (*mcp.ClientSession, *mcpserver.Server, string) {
	t.Helper()
	dir := t.TempDir()
	for p, body := range files {
		writeNote(t, dir, p, body)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	a := openApp(t, dir, "max_note_size: 1048576\n")
	if _, err := a.Sync(ctx, app.SyncOptions{Always: true}); err != nil {
		t.Fatal(err)
	}
	if watched {
		holdWatcher(t, a)
	}
	opts := mcpserver.Options{App: a}
	if setup != nil {
		setup(&opts)
	}
	srv, err := mcpserver.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	go srv.Run(ctx, st)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, srv, dir
}

// openApp opens the vault in dir as the server's App: no vectors (the
// tests search by keyword), recall stages run to their end, and more
// config lines.
func openApp(t *testing.T, dir, config string) *app.App {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, ".vaultmem"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := "embedder:\n  provider: none\nrecall:\n  stage_deadlines: false\n" + config
	if err := os.WriteFile(filepath.Join(dir, ".vaultmem", "config.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := app.Open(context.Background(), dir, app.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

// holdWatcher holds the vault's watcher lock for the test, as a watcher
// that keeps the index current does: reads then do not sync first.
func holdWatcher(t *testing.T, a *app.App) {
	t.Helper()
	w, err := watch.New(a.Vault, a.Index(), watch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
}

func writeNote(t *testing.T, dir, p, body string) {
	t.Helper()
	full := filepath.Join(dir, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestResourcesWithHostileNames: every note is listed under a URI that
// parses and that Node's new URL() leaves as it is (checked by hand:
// percent-encoding each name gives exactly what WHATWG URLs keep), and
// reads back by that URI and by one a client re-encoded in lower case.
func TestResourcesWithHostileNames(t *testing.T) {
	files := map[string]string{}
	for _, p := range hostileNames {
		files[p] = "# " + p + "\n\nbody of " + p + "\n"
	}
	cs, _, dir := serve(t, files, nil)
	ctx := context.Background()
	listed := map[string]string{} // URI -> name
	for r, err := range cs.Resources(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		listed[r.URI] = r.Name
	}
	for _, p := range hostileNames {
		u := mcpserver.URI(p)
		if listed[u] != p {
			t.Errorf("%s is not listed as %s (listed: %v)", p, u, listed)
			continue
		}
		lower := regexp.MustCompile(`%[0-9A-F]{2}`).ReplaceAllStringFunc(u, strings.ToLower)
		for _, asked := range []string{u, lower} {
			res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: asked})
			if err != nil {
				t.Errorf("read %s: %v", asked, err)
				continue
			}
			if got := res.Contents[0].Text; !strings.Contains(got, "body of "+p) {
				t.Errorf("read %s gave %q", asked, got)
			}
		}
	}
	// The list is read from the notes as they are: one that appears while
	// the server runs is listed and reads back, one that goes is not.
	writeNote(t, dir, "Later 100% sure.md", "later\n")
	os.Remove(filepath.Join(dir, "Q3 10% growth.md"))
	listed = map[string]string{}
	for r, err := range cs.Resources(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		listed[r.URI] = r.Name
	}
	if _, ok := listed[mcpserver.URI("Later 100% sure.md")]; !ok {
		t.Errorf("the new note is not listed: %v", listed)
	}
	if _, ok := listed[mcpserver.URI("Q3 10% growth.md")]; ok {
		t.Errorf("the removed note is still listed")
	}
	if res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: mcpserver.URI("Later 100% sure.md")}); err != nil || !strings.Contains(res.Contents[0].Text, "\nlater\n</note>\n") {
		t.Errorf("read the new note: %v %+v", err, res)
	}
}

// TestCaseInsensitiveNotes: a read finds a note whatever the case of its
// name; a write never makes a second note whose name differs only in case.
func TestCaseInsensitiveNotes(t *testing.T) {
	cs, _, dir := serve(t, map[string]string{"projects/normal.md": "lower\n"}, nil)
	var n struct{ Path, Body string }
	if msg, ok := callTool(t, cs, "read_note", map[string]any{"path": "Projects/NORMAL.md"}, &n); !ok || n.Path != "projects/normal.md" {
		t.Errorf("read NORMAL.md: %q %+v", msg, n)
	}
	msg, ok := callTool(t, cs, "write_note", map[string]any{"path": "projects/Normal.md", "body": "upper"}, nil)
	if !ok {
		t.Fatalf("write Normal.md (an update of normal.md): %s", msg)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "projects"))
	if len(entries) != 1 || entries[0].Name() != "normal.md" {
		t.Errorf("projects/ holds %v, want normal.md alone", entries)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "projects", "normal.md"))
	if string(b) != "upper\n" {
		t.Errorf("normal.md = %q", b)
	}
}

// TestRecallTextIsTheContext: the tool's text is the context alone; the
// rest (items, scores, stages) is in the structured result.
func TestRecallTextIsTheContext(t *testing.T) {
	cs, _, _ := serve(t, map[string]string{
		"deploys.md": "# Deploys\n\nDeploys go out on Tuesdays after the freeze.\n",
		"other.md":   "# Other\n\nUnrelated words about gardening.\n",
	}, nil)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "recall", Arguments: map[string]any{"query": "when do deploys go out?", "budget": 500}})
	if err != nil || res.IsError {
		t.Fatalf("recall: %v %v", err, res)
	}
	var out recall.Result
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	content := res.Content[0].(*mcp.TextContent).Text
	if len(res.Content) != 1 || content != out.Context || !strings.Contains(content, "Tuesdays") {
		t.Errorf("text content %q, want the context %q alone", content, out.Context)
	}
	if text.EstimateTokens(content) > 500 {
		t.Errorf("the text costs %d tokens, over the budget", text.EstimateTokens(content))
	}
}

// TestToolBounds: sizes out of bounds are refused with a clear error,
// never attempted.
func TestToolBounds(t *testing.T) {
	cs, _, _ := serve(t, map[string]string{"a.md": "alpha beta\n"}, nil)
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"recall", map[string]any{"query": "alpha", "budget": 1_000_000_000_000}, "budget"},
		{"recall", map[string]any{"query": "???"}, "no words"},
		{"search", map[string]any{"query": "alpha", "limit": 5000}, "limit"},
		{"search", map[string]any{"query": ""}, "no words"},
		{"links", map[string]any{"path": "a.md", "depth": 50}, "depth"},
		{"list_notes", map[string]any{"limit": 1_000_000}, "limit"},
		{"list_notes", map[string]any{"cursor": "not-mine"}, "cursor"},
		{"write_note", map[string]any{"path": "big.md", "body": strings.Repeat("x", 2<<20)}, "too large"},
	} {
		if msg, ok := callTool(t, cs, tc.tool, tc.args, nil); ok || !strings.Contains(msg, tc.want) {
			t.Errorf("%s %.80v: %q, want an error about %q", tc.tool, tc.args, msg, tc.want)
		}
	}
}

// TestListNotesPages: list_notes pages through every note and says how
// many are left; file_name is the file's, title the frontmatter's.
func TestListNotesPages(t *testing.T) {
	files := map[string]string{"titled.md": "---\nname: A Title\n---\nx\n"}
	for i := range 23 {
		files["n/"+strings.Repeat("z", i+1)+".md"] = "note\n"
	}
	cs, _, _ := serve(t, files, nil)
	var seen []string
	cursor := ""
	for pages := 0; ; pages++ {
		var out struct {
			Notes []struct {
				Path, Title string
				FileName    string `json:"file_name"`
			}
			Total, More int
			NextCursor  string `json:"next_cursor"`
		}
		args := map[string]any{"limit": 10}
		if cursor != "" {
			args["cursor"] = cursor
		}
		if msg, ok := callTool(t, cs, "list_notes", args, &out); !ok {
			t.Fatal(msg)
		}
		for _, n := range out.Notes {
			seen = append(seen, n.Path)
			if n.Path == "titled.md" && (n.FileName != "titled" || n.Title != "A Title") {
				t.Errorf("titled.md: file_name %q, title %q", n.FileName, n.Title)
			}
		}
		if out.Total != 24 || out.More != 24-len(seen) {
			t.Fatalf("page %d: total %d, more %d after %d", pages, out.Total, out.More, len(seen))
		}
		if out.NextCursor == "" {
			break
		}
		cursor = out.NextCursor
	}
	if len(seen) != 24 || !slices.IsSorted(seen) {
		t.Errorf("pages gave %d notes: %v", len(seen), seen)
	}
}

// TestReadNoteDates: dates stay as written in JSON, and come back
// unquoted when written back; keys JSON cannot hold as they are do not
// break the read.
func TestReadNoteDates(t *testing.T) {
	cs, _, dir := serve(t, map[string]string{
		"d.md": "---\ncreated: 2024-01-02\nyears: {2023: 5}\nodd: .nan\n---\nbody\n",
	}, nil)
	var n struct {
		Frontmatter map[string]any
		Hash        string
	}
	if msg, ok := callTool(t, cs, "read_note", map[string]any{"path": "d.md"}, &n); !ok {
		t.Fatal(msg)
	}
	if n.Frontmatter["created"] != "2024-01-02" || n.Frontmatter["odd"] != ".nan" {
		t.Errorf("frontmatter %v", n.Frontmatter)
	}
	if msg, ok := callTool(t, cs, "write_note", map[string]any{"path": "d.md", "expected_hash": n.Hash,
		"frontmatter": map[string]any{"created": n.Frontmatter["created"], "updated": "2024-02-03"}}, nil); !ok {
		t.Fatal(msg)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "d.md"))
	for _, line := range []string{"created: 2024-01-02\n", "updated: 2024-02-03\n"} {
		if !strings.Contains(string(b), line) {
			t.Errorf("written back:\n%s\nwant %q", b, line)
		}
	}
}

// TestSymlinkOutOfTheVault: a note that links outside the vault is
// refused as outside it.
func TestSymlinkOutOfTheVault(t *testing.T) {
	cs, _, dir := serve(t, map[string]string{"a.md": "a\n"}, nil)
	secret := filepath.Join(t.TempDir(), "secret.md")
	os.WriteFile(secret, []byte("secret\n"), 0o644)
	if err := os.Symlink(secret, filepath.Join(dir, "link.md")); err != nil {
		t.Skip(err)
	}
	if msg, ok := callTool(t, cs, "read_note", map[string]any{"path": "link.md"}, nil); ok || !strings.HasPrefix(msg, "outside the vault:") {
		t.Errorf("read link.md: %q", msg)
	}
}

// TestToolSchemas: enums, bounds and a plain string body, as strict
// clients want them, and annotations that say what a tool does.
func TestToolSchemas(t *testing.T) {
	cs, _, _ := serve(t, nil, nil)
	tools := map[string]*mcp.Tool{}
	for tool, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		tools[tool.Name] = tool
	}
	prop := func(tool, name string) map[string]any {
		b, _ := json.Marshal(tools[tool].InputSchema)
		var s struct{ Properties map[string]map[string]any }
		json.Unmarshal(b, &s)
		return s.Properties[name]
	}
	if e := prop("remember", "type")["enum"]; len(e.([]any)) != 4 {
		t.Errorf("remember.type enum %v", e)
	}
	if e := prop("search", "mode")["enum"]; len(e.([]any)) != 3 {
		t.Errorf("search.mode enum %v", e)
	}
	if e := prop("links", "direction")["enum"]; len(e.([]any)) != 3 {
		t.Errorf("links.direction enum %v", e)
	}
	if ty := prop("write_note", "body")["type"]; ty != "string" {
		t.Errorf("write_note.body type %v, want string", ty)
	}
	for _, name := range []string{"recall", "search", "read_note", "links", "list_notes"} {
		if a := tools[name].Annotations; a == nil || !a.ReadOnlyHint {
			t.Errorf("%s is not marked read-only", name)
		}
	}
	if a := tools["write_note"].Annotations; a == nil || a.DestructiveHint == nil || !*a.DestructiveHint {
		t.Errorf("write_note is not marked destructive")
	}
	if !strings.Contains(tools["recall"].Description, "search") || !strings.Contains(tools["remember"].Description, "feedback") {
		t.Errorf("descriptions do not say when to use which tool")
	}
}

// TestToolsWaitForTheFirstIndex: the server answers at once while its
// first sync runs; a tool that reads the index waits for the sync.
func TestToolsWaitForTheFirstIndex(t *testing.T) {
	startup := mcpserver.NewStartup()
	cs, _, _ := serve(t, map[string]string{"a.md": "alpha\n"}, func(o *mcpserver.Options) { o.Startup = startup })
	ctx := context.Background()
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatalf("tools/list while indexing: %v", err)
	}
	done := make(chan string)
	go func() {
		msg, _ := callTool(t, cs, "search", map[string]any{"query": "alpha"}, nil)
		done <- msg
	}()
	select {
	case <-done:
		t.Fatal("search answered before the first index was done")
	case <-startup.Done():
		t.Fatal("startup finished by itself")
	default:
	}
	startup.Finish(nil)
	if msg := <-done; msg != "" {
		t.Errorf("search after the first index: %s", msg)
	}
}
