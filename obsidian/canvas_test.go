package obsidian

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/task"
)

// The JSON Canvas 1.0 schema (canvasSpecDoc), checked in Go.
var (
	canvasNodeTypes = []string{"text", "file", "link", "group"}
	canvasSides     = []string{"top", "right", "bottom", "left"}
	canvasEnds      = []string{"none", "arrow"}
	canvasColor     = regexp.MustCompile(`^([1-6]|#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6})$`)
	canvasTopKeys   = []string{"nodes", "edges"}
)

// canvasDoc is a canvas as the checks read it.
type canvasDoc struct {
	Nodes []map[string]any `json:"nodes"`
	Edges []map[string]any `json:"edges"`
}

// validateCanvas checks b against JSON Canvas 1.0 and returns it. extra
// are top-level keys allowed besides nodes and edges (a person's).
func validateCanvas(t *testing.T, b []byte, extra ...string) canvasDoc {
	t.Helper()
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b)
	}
	for k := range top {
		if !slices.Contains(canvasTopKeys, k) && !slices.Contains(extra, k) {
			t.Errorf("top-level key %q is not nodes or edges", k)
		}
	}
	var doc canvasDoc
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("nodes or edges do not decode: %v", err)
	}
	ids := map[string]bool{}
	for i, n := range doc.Nodes {
		if err := checkCanvasNode(n); err != nil {
			t.Errorf("node %d: %v: %v", i+1, err, n)
		}
		id, _ := n["id"].(string)
		if ids[id] {
			t.Errorf("node %d: id %q taken", i+1, id)
		}
		ids[id] = true
	}
	for i, e := range doc.Edges {
		if err := checkCanvasEdge(e, ids); err != nil {
			t.Errorf("edge %d: %v: %v", i+1, err, e)
		}
	}
	return doc
}

func isString(v any) bool { s, ok := v.(string); return ok && s != "" }

// checkCanvasNode checks a node: id, type, integer x, y, width, height, a
// preset or hex colour, and what its type needs.
func checkCanvasNode(n map[string]any) error {
	if !isString(n["id"]) {
		return errors.New("no id")
	}
	typ, _ := n["type"].(string)
	if !slices.Contains(canvasNodeTypes, typ) {
		return fmt.Errorf("type %q is not one of %v", typ, canvasNodeTypes)
	}
	for _, k := range []string{"x", "y", "width", "height"} {
		num, ok := n[k].(json.Number)
		if !ok {
			return fmt.Errorf("%s is not a number", k)
		}
		if _, err := num.Int64(); err != nil {
			return fmt.Errorf("%s = %s is not an integer", k, num)
		}
	}
	if c, ok := n["color"]; ok && !canvasColor.MatchString(fmt.Sprint(c)) {
		return fmt.Errorf("color %v is neither 1..6 nor #hex", c)
	}
	switch typ {
	case "text":
		if _, ok := n["text"].(string); !ok {
			return errors.New("a text node has no text")
		}
	case "file":
		if !isString(n["file"]) {
			return errors.New("a file node has no file")
		}
		if s, ok := n["subpath"]; ok && !strings.HasPrefix(fmt.Sprint(s), "#") {
			return errors.New("subpath does not start with #")
		}
	case "link":
		if !isString(n["url"]) {
			return errors.New("a link node has no url")
		}
	case "group":
		if s, ok := n["backgroundStyle"]; ok && !slices.Contains([]string{"cover", "ratio", "repeat"}, fmt.Sprint(s)) {
			return fmt.Errorf("backgroundStyle %v", s)
		}
	}
	return nil
}

// checkCanvasEdge checks an edge: id, fromNode and toNode among ids,
// sides, ends, colour and label.
func checkCanvasEdge(e map[string]any, ids map[string]bool) error {
	if !isString(e["id"]) {
		return errors.New("no id")
	}
	for _, k := range []string{"fromNode", "toNode"} {
		if s, _ := e[k].(string); !ids[s] {
			return fmt.Errorf("%s %v is no node", k, e[k])
		}
	}
	for _, k := range []string{"fromSide", "toSide"} {
		if s, ok := e[k]; ok && !slices.Contains(canvasSides, fmt.Sprint(s)) {
			return fmt.Errorf("%s %v is not one of %v", k, s, canvasSides)
		}
	}
	for _, k := range []string{"fromEnd", "toEnd"} {
		if s, ok := e[k]; ok && !slices.Contains(canvasEnds, fmt.Sprint(s)) {
			return fmt.Errorf("%s %v is not one of %v", k, s, canvasEnds)
		}
	}
	if c, ok := e["color"]; ok && !canvasColor.MatchString(fmt.Sprint(c)) {
		return fmt.Errorf("color %v", c)
	}
	if l, ok := e["label"]; ok {
		if _, ok := l.(string); !ok {
			return errors.New("label is not a string")
		}
	}
	return nil
}

func nodeRect(n map[string]any) rect {
	i := func(k string) int {
		v, _ := n[k].(json.Number).Int64()
		return int(v)
	}
	return rect{i("x"), i("y"), i("width"), i("height")}
}

// checkLayout checks that no two nodes but groups overlap and that every
// file node names a note of the vault dir.
func checkLayout(t *testing.T, doc canvasDoc, dir string) {
	t.Helper()
	for i, a := range doc.Nodes {
		if a["type"] == "file" {
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(a["file"].(string)))); err != nil {
				t.Errorf("file node %v names no note: %v", a["id"], err)
			}
		}
		for _, b := range doc.Nodes[i+1:] {
			if a["type"] != "group" && b["type"] != "group" && nodeRect(a).overlaps(nodeRect(b)) {
				t.Errorf("nodes %v %v and %v %v overlap", a["id"], nodeRect(a), b["id"], nodeRect(b))
			}
		}
	}
}

// canvasVault is the test vault and the canvas of its whole task tree.
func canvasVault(t *testing.T) (*testVault, func() (CanvasResult, error)) {
	tv := buildVault(t)
	write := func() (CanvasResult, error) {
		top, err := tv.tasks.Tree(tv.ctx, "", true)
		tv.check(err)
		deps, err := tv.tasks.Dependencies(tv.ctx)
		tv.check(err)
		return WriteCanvas(tv.ctx, tv.w, "views/Tasks.canvas", top, deps)
	}
	return tv, write
}

func (tv *testVault) readFile(p string) []byte {
	tv.t.Helper()
	b, err := os.ReadFile(filepath.Join(tv.dir, filepath.FromSlash(p)))
	tv.check(err)
	return b
}

func (tv *testVault) writeFile(p string, b []byte) {
	tv.t.Helper()
	full := filepath.Join(tv.dir, filepath.FromSlash(p))
	tv.check(os.MkdirAll(filepath.Dir(full), 0o755))
	tv.check(os.WriteFile(full, b, 0o644))
}

// notesBytes are the vault's notes' contents, by path.
func (tv *testVault) notesBytes() map[string]string {
	out := map[string]string{}
	tv.check(fs.WalkDir(tv.v.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			b, err := fs.ReadFile(tv.v.FS(), p)
			out[p] = string(b)
			return err
		}
		return err
	}))
	return out
}

// TestCanvasSchema: the task canvas holds to JSON Canvas 1.0, has a file
// node per task and the edges of the tree and its dependencies, no two
// nodes overlapping, each file node a note of the vault; a second run
// changes nothing; the notes are never written.
func TestCanvasSchema(t *testing.T) {
	tv, write := canvasVault(t)
	before := tv.notesBytes()
	res, err := write()
	if err != nil {
		t.Fatal(err)
	}
	// Ship views and its five children; five child edges, two depends-on.
	if res.Nodes != 6 || res.Edges != 7 || res.Kept != 0 || res.Path != "views/Tasks.canvas" {
		t.Errorf("WriteCanvas = %+v, want 6 nodes, 7 edges", res)
	}
	b := tv.readFile(res.Path)
	doc := validateCanvas(t, b)
	checkLayout(t, doc, tv.dir)
	files, labelled := 0, 0
	for _, n := range doc.Nodes {
		if !strings.HasPrefix(n["id"].(string), IDPrefix) {
			t.Errorf("node %v: id without %s", n["id"], IDPrefix)
		}
		if n["type"] == "file" {
			files++
		}
	}
	for _, e := range doc.Edges {
		if e["label"] == "depends on" {
			labelled++
		}
	}
	if files != 6 || len(doc.Edges) != 7 || labelled != 2 {
		t.Errorf("%d file nodes, %d edges (%d depends on), want 6, 7, 2:\n%s", files, len(doc.Edges), labelled, b)
	}
	if _, err := write(); err != nil {
		t.Fatal(err)
	}
	if again := tv.readFile(res.Path); !bytes.Equal(again, b) {
		t.Errorf("a second run changed the canvas:\n%s\nthen\n%s", b, again)
	}
	if after := tv.notesBytes(); !mapsEqual(before, after) {
		t.Errorf("writing the canvas changed notes")
	}
	// One task's tree: only its subtree.
	top, err := tv.tasks.Tree(tv.ctx, "Write canvas", false)
	tv.check(err)
	sub, _, err := UpdateCanvas("x.canvas", nil, top, nil)
	tv.check(err)
	if d := validateCanvas(t, sub); len(d.Nodes) != 2 || len(d.Edges) != 0 {
		t.Errorf("the tree of one leaf task = %d nodes, %d edges; want the legend and the task", len(d.Nodes), len(d.Edges))
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestCanvasKeepsEdits: after a person moved a node, added a node, an
// edge, a group and a top-level key, and edited their own node, a second
// run (with a new task) keeps all of it, byte for byte, and places the
// new task's node where it overlaps nothing.
func TestCanvasKeepsEdits(t *testing.T) {
	tv, write := canvasVault(t)
	res, err := write()
	tv.check(err)
	doc := validateCanvas(t, tv.readFile(res.Path))
	moved := nodeID("tasks/Publish.md")
	var nodes []string
	for _, n := range doc.Nodes {
		if n["id"] == moved {
			n["x"], n["y"] = json.Number("-2000"), json.Number("1500")
		}
		b, _ := json.Marshal(n)
		nodes = append(nodes, string(b))
	}
	// A person's ids may start as vaultmem's do: only vaultmem's own
	// shapes (see ours) are vaultmem's.
	note := `{"id":"vaultmem-mine","type":"text","text":"Ask Alice about the key","x":-2000,"y":1900,"width":300,"height":120,"color":"#ff8800"}`
	group := `{"id":"my-group","type":"group","label":"Release","x":-2100,"y":1400,"width":700,"height":700}`
	nodes = append(nodes, note, group)
	var edges []string
	for _, e := range doc.Edges {
		b, _ := json.Marshal(e)
		edges = append(edges, string(b))
	}
	edge := `{"id":"vaultmem-my-edge","fromNode":"vaultmem-mine","toNode":"` + moved + `","toEnd":"arrow","label":"why"}`
	edges = append(edges, edge)
	edited := "{\"nodes\":[\n" + strings.Join(nodes, ",\n") + "],\n\"edges\":[\n" + strings.Join(edges, ",\n") +
		"],\n\"x-mine\":{\"zoom\":2}}\n"
	tv.writeFile(res.Path, []byte(edited))

	tv.addTask(task.New{Title: "Announce", Parent: "tasks/Publish.md"})
	res, err = write()
	if err != nil {
		t.Fatal(err)
	}
	if res.Nodes != 7 || res.Kept != 3 {
		t.Errorf("second run = %+v, want 7 task nodes and 3 of yours kept (a node, a group, an edge)", res)
	}
	b := tv.readFile(res.Path)
	for _, mine := range []string{note, group, edge, `"x-mine":{"zoom":2}`} {
		if !bytes.Contains(b, []byte(mine)) {
			t.Errorf("the second run lost %s:\n%s", mine, b)
		}
	}
	doc = validateCanvas(t, b, "x-mine")
	checkLayout(t, doc, tv.dir)
	found := false
	for _, n := range doc.Nodes {
		if n["id"] == moved {
			found = true
			if r := nodeRect(n); r.x != -2000 || r.y != 1500 {
				t.Errorf("the moved node is at %d,%d, want -2000,1500", r.x, r.y)
			}
		}
	}
	if !found {
		t.Errorf("the moved node is gone:\n%s", b)
	}
}

// TestCanvasRefusesNonCanvas: a file that is not JSON Canvas is refused
// with ErrNotCanvas naming it, and left byte for byte as it was.
func TestCanvasRefusesNonCanvas(t *testing.T) {
	tv, write := canvasVault(t)
	for _, bad := range []string{
		"# My plan\n\nnot JSON at all\n",
		`[{"id":"a"}]`,
		`{"nodes": 3}`,
		`{"nodes":[{"id":"a","type":"text","x":0,"y":0,"width":10}]}`,
		`{"nodes":[{"id":"a","type":"text","x":"left","y":0,"width":10,"height":10}]}`,
		`{"nodes":[],"edges":[{"id":"e","fromNode":"a"}]}`,
		`{"nodes":[]} {"nodes":[]}`,
		// Sizes that would overflow the layout's arithmetic.
		`{"nodes":[{"id":"a","type":"text","x":-1000,"y":1000,"width":3000,"height":9223372036854774784}]}`,
		`{"nodes":[{"id":"a","type":"text","x":0,"y":0,"width":-10,"height":10}]}`,
		`{"nodes":[{"id":"a","type":"text","x":1e300,"y":0,"width":10,"height":10}]}`,
	} {
		tv.writeFile("views/Tasks.canvas", []byte(bad))
		_, err := write()
		if !errors.Is(err, ErrNotCanvas) || !strings.Contains(fmt.Sprint(err), "views/Tasks.canvas") {
			t.Errorf("%s: err = %v, want ErrNotCanvas naming the file", bad, err)
		}
		if got := tv.readFile("views/Tasks.canvas"); string(got) != bad {
			t.Errorf("%s: the file was changed to\n%s", bad, got)
		}
	}
}

// TestCanvasRefusesAnotherTree: a canvas holding the cards of another task
// tree (two tasks of one name share a default file) is refused and left
// as it is; a canvas holding some of this tree's cards is merged.
func TestCanvasRefusesAnotherTree(t *testing.T) {
	tv := buildVault(t)
	a := tv.addTask(task.New{Title: "Set up the lab"})
	b := tv.addTask(task.New{Title: "Set up the office"})
	write := func(root string) (CanvasResult, error) {
		top, err := tv.tasks.Tree(tv.ctx, root, true)
		tv.check(err)
		deps, err := tv.tasks.Dependencies(tv.ctx)
		tv.check(err)
		return WriteCanvas(tv.ctx, tv.w, "views/Setup.canvas", top, deps)
	}
	if _, err := write(a); err != nil {
		t.Fatal(err)
	}
	before := tv.readFile("views/Setup.canvas")
	_, err := write(b)
	if !errors.Is(err, ErrOtherTree) || !strings.Contains(err.Error(), "views/Setup.canvas") {
		t.Fatalf("another tree's canvas: err = %v", err)
	}
	if got := tv.readFile("views/Setup.canvas"); !bytes.Equal(got, before) {
		t.Errorf("the canvas was changed:\n%s", got)
	}
	if _, err := write(a); err != nil {
		t.Errorf("the same tree again: %v", err)
	}
}
