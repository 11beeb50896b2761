package obsidian

import (
	"fmt"
	"testing"

	"github.com/vaultmem/vaultmem/task"
)

// treeOf builds a tree of n-ary levels: fanout[0] roots, each with
// fanout[1] children, and so on.
func treeOf(fanout ...int) []*task.Node {
	count := 0
	var level func(depth int) []*task.Node
	level = func(depth int) []*task.Node {
		if depth == len(fanout) {
			return nil
		}
		var out []*task.Node
		for range fanout[depth] {
			count++
			out = append(out, &task.Node{Path: fmt.Sprintf("tasks/T%d.md", count), Children: level(depth + 1)})
		}
		return out
	}
	return level(0)
}

// TestLayoutAspect: trees of about 300 tasks, wide or flat, are laid out
// within 4:1 (the 113:1 strip of one row per level is what this
// replaced), with no two cards overlapping and each parent above its
// children; a small tree keeps its children in one row.
func TestLayoutAspect(t *testing.T) {
	for _, c := range []struct {
		name   string
		roots  []*task.Node
		tasks  int
		oneRow bool
	}{
		{"one root, 299 children", treeOf(1, 299), 300, false},
		{"one root, 10 children of 29 each", treeOf(1, 10, 29), 301, false},
		{"300 roots", treeOf(300), 300, false},
		{"3 roots, 10 children, 9 grandchildren each", treeOf(3, 10, 9), 303, false},
		{"12 roots of 24", treeOf(12, 24), 300, false},
		{"a root with 5 children", treeOf(1, 5), 6, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			at := layout(c.roots)
			if len(at) != c.tasks {
				t.Fatalf("%d places, want %d", len(at), c.tasks)
			}
			minX, minY, maxX, maxY := 1<<30, 1<<30, -1<<30, -1<<30
			var rects []rect
			for _, r := range at {
				minX, minY, maxX, maxY = min(minX, r.x), min(minY, r.y), max(maxX, r.x+r.w), max(maxY, r.y+r.h)
				rects = append(rects, r)
			}
			w, h := float64(maxX-minX), float64(maxY-minY)
			if ratio := max(w/h, h/w); ratio > 4 {
				t.Errorf("%.0f × %.0f px: %.1f:1, want within 4:1", w, h, ratio)
			}
			t.Logf("%.0f × %.0f px (%.2f:1)", w, h, w/h)
			for i := range rects {
				for j := i + 1; j < len(rects); j++ {
					if rects[i].overlaps(rects[j]) {
						t.Fatalf("cards overlap: %v %v", rects[i], rects[j])
					}
				}
			}
			var walk func(n *task.Node)
			walk = func(n *task.Node) {
				ys := map[int]bool{}
				for _, k := range n.Children {
					if at[k.Path].y < at[n.Path].y+nodeHeight {
						t.Errorf("%s is not below its parent %s", k.Path, n.Path)
					}
					ys[at[k.Path].y] = true
					walk(k)
				}
				if c.oneRow && len(ys) > 1 {
					t.Errorf("the children of %s are in %d rows, want one", n.Path, len(ys))
				}
			}
			for _, r := range c.roots {
				walk(r)
			}
		})
	}
}
