package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/obsidian"
)

// initViews is what `init --json` says of the views.
type initViews struct {
	Views []obsidian.Written `json:"views"`
}

func initViewsJSON(t *testing.T, dir string) map[string]obsidian.Written {
	t.Helper()
	var res initViews
	if err := json.Unmarshal([]byte(ok(t, dir, "init", "--json")), &res); err != nil {
		t.Fatal(err)
	}
	out := map[string]obsidian.Written{}
	for _, v := range res.Views {
		out[v.Path] = v
	}
	return out
}

// TestInitWritesBases: init writes the four bases into views/, each as
// obsidian.Bases makes it; a second init leaves them unchanged; after a
// person edits one, init keeps the edit and says so in --json's views,
// and deleting the file gets vaultmem's back.
func TestInitWritesBases(t *testing.T) {
	dir := t.TempDir()
	got := initViewsJSON(t, dir)
	want := map[string]obsidian.Written{}
	for _, f := range obsidian.Bases(obsidian.Options{}) {
		p := "views/" + f.Name
		want[p] = obsidian.Written{Path: p, Status: obsidian.Created}
		if b := mustRead(t, filepath.Join(dir, "views", f.Name)); b != string(f.Content) {
			t.Errorf("%s is not what obsidian.Bases makes:\n%s", p, b)
		}
	}
	if len(want) != 4 || !reflect.DeepEqual(got, want) {
		t.Errorf("first init: views %v, want %v", got, want)
	}
	for p, v := range initViewsJSON(t, dir) {
		if v.Status != obsidian.Unchanged {
			t.Errorf("second init: %s %s, want unchanged", p, v.Status)
		}
	}

	tasks := filepath.Join(dir, "views", obsidian.TasksBase)
	edited := mustRead(t, tasks) + "# my own note on this base\n"
	if err := os.WriteFile(tasks, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	views := initViewsJSON(t, dir)
	if v := views["views/"+obsidian.TasksBase]; v.Status != obsidian.Kept || v.Reason == "" {
		t.Errorf("init after an edit: %+v, want kept with a reason", v)
	}
	if got := mustRead(t, tasks); got != edited {
		t.Errorf("init overwrote the edited base:\n%s", got)
	}
	if out := ok(t, dir, "init"); !strings.Contains(out, "kept views/"+obsidian.TasksBase) {
		t.Errorf("init does not say it kept the edited base:\n%s", out)
	}
	if err := os.Remove(tasks); err != nil {
		t.Fatal(err)
	}
	if v := initViewsJSON(t, dir)["views/"+obsidian.TasksBase]; v.Status != obsidian.Created {
		t.Errorf("init after the edited base was deleted: %+v, want created", v)
	}
}

// canvasJSON is what `task tree --canvas --json` prints.
type canvasJSON struct {
	Path  string `json:"path"`
	Nodes int    `json:"nodes"`
	Edges int    `json:"edges"`
	Kept  int    `json:"kept"`
}

// TestTaskTreeCanvas: task tree ROOT --canvas writes <views>/<ROOT>.canvas
// and --json says {path, nodes, edges, kept}; a second run keeps a
// person's node; a file that is not a canvas is refused with exit 3 and
// left as it was.
func TestTaskTreeCanvas(t *testing.T) {
	dir := newVault(t)
	ok(t, dir, "task", "add", "Ship views")
	ok(t, dir, "task", "add", "Write bases", "--parent", "Ship views")
	ok(t, dir, "task", "add", "Write docs", "--parent", "Ship views", "--depends-on", "Write bases")

	out := ok(t, dir, "task", "tree", "Ship views", "--canvas")
	if !strings.Contains(out, "views/Ship views.canvas") {
		t.Errorf("task tree --canvas: %q", out)
	}
	var res canvasJSON
	var raw map[string]any
	js := ok(t, dir, "task", "tree", "Ship views", "--canvas", "--json")
	if err := json.Unmarshal([]byte(js), &res); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(js), &raw); err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if !reflect.DeepEqual(keys, []string{"edges", "kept", "nodes", "path"}) ||
		res != (canvasJSON{Path: "views/Ship views.canvas", Nodes: 3, Edges: 3}) {
		t.Errorf("--json: %s, want {path, nodes: 3, edges: 3, kept: 0}", js)
	}

	// A person's node stays.
	file := filepath.Join(dir, "views", "Ship views.canvas")
	b := mustRead(t, file)
	mine := `{"id":"mine","type":"text","text":"hi","x":-5000,"y":-5000,"width":100,"height":60}`
	b = strings.Replace(b, `"nodes":[`, `"nodes":[`+mine+",", 1)
	if err := os.WriteFile(file, []byte(b), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(ok(t, dir, "task", "tree", "Ship views", "--canvas", "--json")), &res); err != nil || res.Kept != 1 {
		t.Errorf("after a person's node: %+v %v", res, err)
	}
	if !strings.Contains(mustRead(t, file), mine) {
		t.Errorf("the person's node is gone:\n%s", mustRead(t, file))
	}

	// A file that is not a canvas: exit 3, untouched.
	notes := filepath.Join(dir, "views", "Notes.canvas")
	if err := os.WriteFile(notes, []byte("my notes, not JSON\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := vaultmem(t, dir, "", "task", "tree", "--canvas", "views/Notes.canvas")
	if r.code != exitConflict || !strings.Contains(r.stderr, "views/Notes.canvas") {
		t.Errorf("a non-canvas file: exit %d, stderr %s", r.code, r.stderr)
	}
	if got := mustRead(t, notes); got != "my notes, not JSON\n" {
		t.Errorf("the non-canvas file changed:\n%s", got)
	}
}

// TestCanvasMergeThroughGit: two clones change views/Tasks.canvas (one
// adds a card and an arrow of a person's, the other writes the tree again
// after a new task) and pull through git with the canvas driver that init
// routes the views folder's canvases to: the merge is clean, valid JSON,
// and holds both changes.
func TestCanvasMergeThroughGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH")
	}
	tmp := t.TempDir()
	driver := testDriver(t, tmp)
	remote, a, b := filepath.Join(tmp, "remote.git"), filepath.Join(tmp, "a"), filepath.Join(tmp, "b")
	gitIn(t, tmp, "init", "-q", "--bare", "-b", "main", remote)
	cloneWithDrivers(t, "", a, driver)
	gitIn(t, a, "config", "merge.vaultmem-canvas.driver", driver+" merge-canvas %O %A %B %P")
	ok(t, a, "init")
	if !strings.Contains(mustRead(t, filepath.Join(a, ".gitattributes")), "/views/*.canvas merge=vaultmem-canvas\n") {
		t.Fatalf(".gitattributes:\n%s", mustRead(t, filepath.Join(a, ".gitattributes")))
	}
	ok(t, a, "task", "add", "Ship it")
	ok(t, a, "task", "add", "Write docs", "--parent", "Ship it")
	ok(t, a, "task", "tree", "--canvas")
	gitIn(t, a, "add", "-A")
	gitIn(t, a, "commit", "-q", "-m", "plan")
	gitIn(t, a, "remote", "add", "origin", remote)
	gitIn(t, a, "push", "-q", "-u", "origin", "main")
	cloneWithDrivers(t, remote, b, driver)
	gitIn(t, b, "config", "merge.vaultmem-canvas.driver", driver+" merge-canvas %O %A %B %P")

	canvas := filepath.Join("views", "Tasks.canvas")
	mine := `{"id":"mine","type":"text","text":"ask Bob","x":-5000,"y":-5000,"width":200,"height":100}`
	var docs string
	for _, n := range readCanvasNodes(t, filepath.Join(a, canvas)) {
		if n["file"] == "tasks/Write docs.md" {
			docs = n["id"].(string)
		}
	}
	arrow := `{"id":"my-arrow","fromNode":"mine","toNode":"` + docs + `"}`
	body := mustRead(t, filepath.Join(a, canvas))
	body = strings.Replace(body, `"nodes":[`, `"nodes":[`+mine+",", 1)
	body = strings.Replace(body, `"edges":[`, `"edges":[`+arrow+",", 1)
	writeFile(t, filepath.Join(a, canvas), body)
	ok(t, b, "task", "add", "Tag the release", "--parent", "Ship it")
	ok(t, b, "task", "tree", "--canvas")
	for _, dir := range []string{a, b} {
		gitIn(t, dir, "add", "-A")
		gitIn(t, dir, "commit", "-q", "-m", "canvas on "+filepath.Base(dir))
	}
	gitIn(t, a, "push", "-q")
	gitIn(t, b, "pull", "-q", "--no-edit")
	got := mustRead(t, filepath.Join(b, canvas))
	files := map[string]bool{}
	for _, n := range readCanvasNodes(t, filepath.Join(b, canvas)) {
		if f, ok := n["file"].(string); ok {
			files[f] = true
		}
	}
	if !strings.Contains(got, `"id":"mine"`) || !strings.Contains(got, `"id":"my-arrow"`) || !files["tasks/Tag the release.md"] ||
		!files["tasks/Write docs.md"] || strings.Contains(got, "<<<<<<<") {
		t.Errorf("merged canvas:\n%s", got)
	}
	if st := gitIn(t, b, "status", "--porcelain"); st != "" {
		t.Errorf("git status after the pull:\n%s", st)
	}
}

// readCanvasNodes reads the nodes of the canvas file p.
func readCanvasNodes(t *testing.T, p string) []map[string]any {
	t.Helper()
	var doc struct {
		Nodes []map[string]any `json:"nodes"`
	}
	if err := json.Unmarshal([]byte(mustRead(t, p)), &doc); err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return doc.Nodes
}

// TestTaskTreeCanvasPaths: --canvas takes an absolute path inside the
// vault, a path relative to the working folder, and (from outside the
// vault) a vault path; an absolute path outside the vault is a usage
// error saying so, and nothing is written there.
func TestTaskTreeCanvasPaths(t *testing.T) {
	dir := newVault(t)
	ok(t, dir, "task", "add", "Ship it")
	outside := filepath.Join(t.TempDir(), "map.canvas")
	for _, c := range []struct {
		name, cwd string
		args      []string
		want      string // the file written, relative to the vault
	}{
		{"absolute in the vault", dir, []string{"--canvas", filepath.Join(dir, "maps", "map.canvas")}, "maps/map.canvas"},
		{"relative to a subfolder", filepath.Join(dir, "views"), []string{"--canvas", "Sub.canvas"}, "views/Sub.canvas"},
		{"relative, up and down", filepath.Join(dir, "views"), []string{"--canvas=../maps/Up"}, "maps/Up.canvas"},
		{"a vault path from outside", filepath.Dir(dir), []string{"--vault", dir, "--canvas", "views/Old.canvas"}, "views/Old.canvas"},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"task", "tree"}, c.args...)
			if c.args[0] == "--vault" {
				args = append([]string{"--vault", dir, "task", "tree"}, c.args[2:]...)
			}
			r := vaultmem(t, c.cwd, "", args...)
			if r.code != 0 || !strings.Contains(r.stdout, "wrote "+c.want) {
				t.Fatalf("%v in %s: exit %d\n%s%s", args, c.cwd, r.code, r.stdout, r.stderr)
			}
			if len(readCanvasNodes(t, filepath.Join(dir, filepath.FromSlash(c.want)))) != 2 {
				t.Errorf("%s: not the tree's canvas", c.want)
			}
		})
	}
	r := vaultmem(t, dir, "", "task", "tree", "--canvas", outside)
	if r.code != exitUsage || !strings.Contains(r.stderr, "is outside the vault") {
		t.Errorf("outside the vault: exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(outside); !os.IsNotExist(err) {
		t.Errorf("written outside the vault: %v", err)
	}
}
