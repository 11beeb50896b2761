package obsidian

import (
	"errors"
	"strings"
	"testing"
)

// canvasOf writes a canvas of the nodes and edges given, one JSON object
// each, as Obsidian does.
func canvasOf(nodes, edges []string) string {
	nl := func(items []string) string {
		if len(items) == 0 {
			return "[]"
		}
		return "[\n\t\t" + strings.Join(items, ",\n\t\t") + "\n\t]"
	}
	return "{\n\t\"nodes\":" + nl(nodes) + ",\n\t\"edges\":" + nl(edges) + "\n}\n"
}

// TestMergeCanvas: the canvas merge driver's rule, node by node, edge by
// edge and key by key; the result is valid JSON Canvas in vaultmem's
// layout.
func TestMergeCanvas(t *testing.T) {
	task1 := `{"id":"vaultmem-task-0000000000000001","type":"file","file":"tasks/A.md","x":0,"y":0,"width":360,"height":220,"color":"5"}`
	task1Moved := `{"id":"vaultmem-task-0000000000000001","type":"file","file":"tasks/A.md","x":500,"y":40,"width":360,"height":220,"color":"5"}`
	task1Done := `{"id":"vaultmem-task-0000000000000001","type":"file","file":"tasks/A.md","x":0,"y":0,"width":360,"height":220,"color":"4"}`
	task1MovedDone := `{"id":"vaultmem-task-0000000000000001","type":"file","file":"tasks/A.md","x":500,"y":40,"width":360,"height":220,"color":"4"}`
	task1Elsewhere := `{"id":"vaultmem-task-0000000000000001","type":"file","file":"tasks/A.md","x":-300,"y":40,"width":360,"height":220,"color":"5"}`
	task2 := `{"id":"vaultmem-task-0000000000000002","type":"file","file":"tasks/B.md","x":0,"y":360,"width":360,"height":220,"color":"5"}`
	mine := `{"id":"my-note","type":"text","text":"ask Bob","x":900,"y":0,"width":200,"height":100}`
	theirsNote := `{"id":"their-note","type":"text","text":"ship by Friday","x":900,"y":300,"width":200,"height":100}`
	child := `{"id":"vaultmem-child-0000000000000003","fromNode":"vaultmem-task-0000000000000001","fromSide":"bottom","toNode":"vaultmem-task-0000000000000002","toSide":"top"}`
	myArrow := `{"id":"my-arrow","fromNode":"my-note","toNode":"vaultmem-task-0000000000000002"}`
	theirArrow := `{"id":"their-arrow","fromNode":"their-note","toNode":"vaultmem-task-0000000000000002"}`
	base := canvasOf([]string{task1, task2}, []string{child})
	for _, c := range []struct {
		name               string
		base, ours, theirs string
		want               string
	}{
		{"each side added a card and an arrow of a person's",
			base, canvasOf([]string{task1, task2, mine}, []string{child, myArrow}), canvasOf([]string{task1, task2, theirsNote}, []string{child, theirArrow}),
			canvasOf([]string{task1, task2, mine, theirsNote}, []string{child, myArrow, theirArrow})},
		{"one side moved a card, the other recoloured it: both",
			base, canvasOf([]string{task1Moved, task2}, []string{child}), canvasOf([]string{task1Done, task2}, []string{child}),
			canvasOf([]string{task1MovedDone, task2}, []string{child})},
		{"both moved it differently: ours",
			base, canvasOf([]string{task1Moved, task2}, []string{child}), canvasOf([]string{task1Elsewhere, task2}, []string{child}),
			canvasOf([]string{task1Moved, task2}, []string{child})},
		{"one side removed a card and its arrow",
			base, canvasOf([]string{task1}, nil), base,
			canvasOf([]string{task1}, nil)},
		{"removed on one side, moved on the other: kept, moved",
			base, canvasOf([]string{task2}, nil), canvasOf([]string{task1Moved, task2}, []string{child}),
			canvasOf([]string{task2, task1Moved}, nil)},
		{"an arrow drawn to a card the other side removed: the card stays",
			base, canvasOf([]string{task1}, []string{}), canvasOf([]string{task1, task2, theirsNote}, []string{child, theirArrow}),
			canvasOf([]string{task1, theirsNote, task2}, []string{theirArrow})},
		{"both added the file",
			"", canvasOf([]string{task1, mine}, nil), canvasOf([]string{task1Done, theirsNote}, []string{}),
			canvasOf([]string{task1, mine, theirsNote}, nil)},
		{"top-level keys of a person's",
			base, strings.Replace(base, "\n}\n", ",\n\t\"mine\":1\n}\n", 1), base,
			strings.Replace(base, "\n}\n", ",\n\t\"mine\":1\n}\n", 1)},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := MergeCanvas("views/Tasks.canvas", []byte(c.base), []byte(c.ours), []byte(c.theirs))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
			validateCanvas(t, got, "mine")
		})
	}
}

// TestMergeCanvasRefusesNonCanvas: a side with conflict markers (or any
// text that is no canvas) is an error naming the side, the file and the
// line: the merge is a person's to make.
func TestMergeCanvasRefusesNonCanvas(t *testing.T) {
	ok := canvasOf(nil, nil)
	marked := "{\n<<<<<<< ours\n\t\"nodes\":[]\n=======\n\t\"nodes\":[{}]\n>>>>>>> theirs\n}\n"
	_, err := MergeCanvas("views/Tasks.canvas", []byte(ok), []byte(ok), []byte(marked))
	if !errors.Is(err, ErrNotCanvas) || !strings.Contains(err.Error(), "theirs version: views/Tasks.canvas:") {
		t.Errorf("err = %v", err)
	}
}
