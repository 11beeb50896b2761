package obsidian

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/task"
)

// addMine adds a person's text card and an arrow from it to the node to
// on the canvas at p; it returns the card's and the arrow's JSON.
func (tv *testVault) addMine(p, to string) (card, arrow string) {
	tv.t.Helper()
	card = `{"id":"my-card","type":"text","text":"Ask Alice","x":-4000,"y":-4000,"width":200,"height":100}`
	arrow = `{"id":"my-arrow","fromNode":"my-card","toNode":"` + to + `"}`
	b := string(tv.readFile(p))
	b = strings.Replace(b, `"nodes":[`, `"nodes":[`+card+",", 1)
	b = strings.Replace(b, `"edges":[`, `"edges":[`+arrow+",", 1)
	tv.writeFile(p, []byte(b))
	return card, arrow
}

// writeTree writes the tree under root ("" for all of it) to the canvas
// at p, finished branches folded unless all.
func (tv *testVault) writeTree(p, root string, all bool) CanvasResult {
	tv.t.Helper()
	top, err := tv.tasks.Tree(tv.ctx, root, all)
	tv.check(err)
	deps, err := tv.tasks.Dependencies(tv.ctx)
	tv.check(err)
	res, err := WriteCanvas(tv.ctx, tv.w, p, top, deps)
	tv.check(err)
	return res
}

// TestCanvasKeepsAPersonsArrows: a person's card and the arrow they drew
// to a task's card survive every rewrite: after the task was renamed in
// Obsidian (its card follows the rename, keeping its id), after its
// finished branch was folded, and after a subtree was written into the
// whole tree's file (the card the arrow joins stays).
func TestCanvasKeepsAPersonsArrows(t *testing.T) {
	const file = "views/Tasks.canvas"
	for _, c := range []struct {
		name string
		// setup adds tasks and returns the one the arrow goes to; change
		// makes the change after the arrow was drawn and writes the
		// canvas again.
		setup  func(tv *testVault) string
		change func(tv *testVault, target string) CanvasResult
		// followed is the path the target's card names after the change.
		followed func(target string) string
	}{
		{
			name:  "renamed in Obsidian",
			setup: func(tv *testVault) string { return tv.addTask(task.New{Title: "Draft", Parent: "tasks/Ship views.md"}) },
			change: func(tv *testVault, target string) CanvasResult {
				renamed := "tasks/First draft.md"
				tv.check(os.Rename(filepath.Join(tv.dir, filepath.FromSlash(target)), filepath.Join(tv.dir, filepath.FromSlash(renamed))))
				// Obsidian rewrites the canvas's file nodes on a rename.
				tv.writeFile(file, []byte(strings.ReplaceAll(string(tv.readFile(file)), `"file":"`+target+`"`, `"file":"`+renamed+`"`)))
				tv.sync()
				return tv.writeTree(file, "", true)
			},
			followed: func(string) string { return "tasks/First draft.md" },
		},
		{
			name: "its finished branch folded",
			setup: func(tv *testVault) string {
				p := tv.addTask(task.New{Title: "Old branch", Parent: "tasks/Ship views.md"})
				leaf := tv.addTask(task.New{Title: "Old leaf", Parent: p})
				for _, d := range []string{leaf, p} {
					_, err := tv.tasks.Done(tv.ctx, "claude", d, false)
					tv.check(err)
				}
				tv.sync()
				return leaf
			},
			change: func(tv *testVault, target string) CanvasResult {
				return tv.writeTree(file, "", false)
			},
			followed: func(target string) string { return target },
		},
		{
			name:  "a subtree written into the whole tree's file",
			setup: func(tv *testVault) string { return tv.addTask(task.New{Title: "Elsewhere"}) },
			change: func(tv *testVault, target string) CanvasResult {
				return tv.writeTree(file, "tasks/Ship views.md", true)
			},
			followed: func(target string) string { return target },
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			tv := buildVault(t)
			target := c.setup(tv)
			tv.writeTree(file, "", true)
			id := nodeID(target)
			card, arrow := tv.addMine(file, id)
			res := c.change(tv, target)
			b := string(tv.readFile(file))
			if !strings.Contains(b, card) || !strings.Contains(b, arrow) || len(res.Dropped) > 0 {
				t.Fatalf("the person's card or arrow is gone (dropped %v):\n%s", res.Dropped, b)
			}
			doc := validateCanvas(t, []byte(b))
			found := 0
			for _, n := range doc.Nodes {
				if n["id"] == id {
					found++
					if n["file"] != c.followed(target) {
						t.Errorf("the card names %v, want %s", n["file"], c.followed(target))
					}
				}
				if f, _ := n["file"].(string); f == c.followed(target) && n["id"] != id {
					t.Errorf("a second card %v for %s", n["id"], f)
				}
			}
			if found != 1 {
				t.Errorf("%d cards with the arrow's id %s, want 1:\n%s", found, id, b)
			}
		})
	}
}
