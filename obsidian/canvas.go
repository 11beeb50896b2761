package obsidian

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/vaultmem/vaultmem/task"
	"github.com/vaultmem/vaultmem/vault"
)

// The task canvas follows JSON Canvas 1.0 (https://jsoncanvas.org/spec/1.0/):
// a file node per task (the note's vault path, so that it opens in place),
// an edge from each parent to each child and one labelled "depends on"
// from a task to each task it depends on, coloured by status with the
// preset colours, laid out as a tidy tree (parents above their children,
// no two nodes overlapping). Its own nodes and edges have ids that start
// with IDPrefix and are derived from the tasks' paths, so that a second
// run finds them: it updates them, keeps where a person moved or resized
// its nodes, and keeps every node, edge and group a person added. A card
// of its own that a person's edge joins stays when its task leaves the
// tree, and a card whose file a rename rewrote keeps its id (see follow).

// IDPrefix starts the id of every node and edge vaultmem puts on a canvas.
const IDPrefix = "vaultmem-"

// ErrNotCanvas: a file that should be a canvas does not parse as JSON
// Canvas; it is never overwritten.
var ErrNotCanvas = errors.New("not a JSON Canvas file")

// ErrOtherTree: the canvas holds the cards of another task tree (none of
// its task cards is one of this tree's): writing this tree there would
// drop that one and the arrows a person drew to it, so it is refused.
var ErrOtherTree = errors.New("the canvas of another task tree")

// The layout, in canvas pixels.
const (
	nodeWidth   = 360
	nodeHeight  = 220
	gapX        = 60
	gapY        = 140
	legendWidth = 320
	legendHigh  = 380
)

// statusColors are the preset colours ("1" red, "2" orange, "3" yellow,
// "4" green, "5" cyan, "6" purple) of the task statuses; a status vaultmem
// does not know is purple.
var statusColors = map[string]string{task.Todo: "5", task.Doing: "3", task.Blocked: "1", task.Done: "4"}

const unknownColor = "6"

// legendID is the id of the canvas's legend, a text node.
const legendID = IDPrefix + "legend"

const legendText = "## Tasks\n\nWritten by `vaultmem task tree --canvas`. Colours:\n\n" +
	"- cyan: todo\n- yellow: doing\n- red: blocked\n- green: done\n- purple: a status vaultmem does not know\n\n" +
	"An arrow goes from a parent to each child; one labelled *depends on* from a task to what it waits for.\n\n" +
	"Run it again after changes: it updates its cards and arrows, and keeps yours and where you moved its cards."

// CanvasResult is what WriteCanvas did.
type CanvasResult struct {
	// Path is the canvas's vault path.
	Path string `json:"path"`
	// Nodes and Edges count the tasks and the edges on it that vaultmem
	// made (the legend aside).
	Nodes int `json:"nodes"`
	Edges int `json:"edges"`
	// Kept counts the nodes and edges of a person's it kept.
	Kept int `json:"kept"`
	// Dropped lists the ids of a person's edges it removed because a node
	// they joined is not in the file (deleted by hand).
	Dropped []string `json:"dropped,omitempty"`
}

// WriteCanvas writes the task tree under top (a top node without a path
// stands for the roots, its children) to the canvas file p, with an edge
// for each of deps (task -> the tasks it depends on) whose two tasks are
// on it, merged into the canvas there (see above). It refuses, with an
// error matching ErrNotCanvas that names the file and line, a file that
// does not parse as JSON Canvas. The write is compared with the file as
// read: a save meanwhile is a conflict (vault.ErrConflict), nothing
// written.
func WriteCanvas(ctx context.Context, w *vault.Writer, p string, top *task.Node, deps map[string][]string) (CanvasResult, error) {
	res := CanvasResult{Path: p}
	old, hash, err := w.ReadView(p)
	if errors.Is(err, vault.ErrNotFound) {
		old, hash = nil, ""
	} else if err != nil {
		return res, err
	}
	next, st, err := UpdateCanvas(p, old, top, deps)
	if err != nil {
		return res, err
	}
	res.Nodes, res.Edges, res.Kept, res.Dropped = st.Nodes, st.Edges, st.Kept, st.Dropped
	if hash != "" && bytes.Equal(next, old) {
		return res, nil
	}
	if _, err := w.WriteView(ctx, p, next, hash); err != nil {
		return res, err
	}
	return res, nil
}

// rawNode is what a canvas node must have (JSON Canvas 1.0); the rest
// of it is kept as it is.
type rawNode struct {
	ID     *string      `json:"id"`
	Type   *string      `json:"type"`
	File   *string      `json:"file"`
	X      *json.Number `json:"x"`
	Y      *json.Number `json:"y"`
	Width  *json.Number `json:"width"`
	Height *json.Number `json:"height"`
}

// rawEdge is what a canvas edge must have.
type rawEdge struct {
	ID       *string `json:"id"`
	FromNode *string `json:"fromNode"`
	ToNode   *string `json:"toNode"`
}

// canvasNode is a node vaultmem writes.
type canvasNode struct {
	ID     string      `json:"id"`
	Type   string      `json:"type"`
	File   string      `json:"file,omitempty"`
	Text   string      `json:"text,omitempty"`
	X      json.Number `json:"x"`
	Y      json.Number `json:"y"`
	Width  json.Number `json:"width"`
	Height json.Number `json:"height"`
	Color  string      `json:"color,omitempty"`
}

// canvasEdge is an edge vaultmem writes.
type canvasEdge struct {
	ID       string `json:"id"`
	FromNode string `json:"fromNode"`
	FromSide string `json:"fromSide,omitempty"`
	ToNode   string `json:"toNode"`
	ToSide   string `json:"toSide,omitempty"`
	Label    string `json:"label,omitempty"`
}

// maxCoordinate bounds a node's place and size on a canvas read: far
// past any canvas a person draws, far from int overflow.
const maxCoordinate = 1_000_000_000

// rect is a node's place.
type rect struct{ x, y, w, h int }

func (a rect) overlaps(b rect) bool {
	return a.x < b.x+b.w && b.x < a.x+a.w && a.y < b.y+b.h && b.y < a.y+a.h
}

// CanvasStats are what UpdateCanvas made.
type CanvasStats struct {
	Nodes, Edges, Kept int
	Dropped            []string
}

// UpdateCanvas returns the canvas old (nil or empty for none) with the
// task tree under top and its dependencies deps on it (see WriteCanvas);
// file names the canvas in errors.
func UpdateCanvas(file string, old []byte, top *task.Node, deps map[string][]string) ([]byte, CanvasStats, error) {
	var st CanvasStats
	doc, nodes, edges, err := parseCanvas(file, old)
	if err != nil {
		return nil, st, err
	}
	pl := planCanvas(top, deps)
	pl.follow(nodes)
	if pl.otherTree(nodes) {
		return nil, st, fmt.Errorf("%s: %w (none of its task cards is in this tree): it is left as it is; give another file with --canvas FILE, or delete it", file, ErrOtherTree)
	}
	st.Nodes, st.Edges = len(pl.order)-1, len(pl.edges)
	outNodes, have, kept := pl.mergeNodes(nodes, personsEnds(edges))
	outEdges, keptEdges, dropped := pl.mergeEdges(edges, have)
	st.Kept, st.Dropped = kept+keptEdges, dropped
	return formatCanvas(doc, outNodes, outEdges), st, nil
}

// otherTree reports whether nodes (a canvas read) hold task cards of
// vaultmem's and none of them is on this plan's tree.
func (pl *canvasPlan) otherTree(nodes []parsedNode) bool {
	cards := 0
	for _, n := range nodes {
		id := *n.node.ID
		if !ours(id) || !strings.HasPrefix(id, IDPrefix+"task-") {
			continue
		}
		if _, ok := pl.want[id]; ok {
			return false
		}
		cards++
	}
	return cards > 0
}

// canvasPlan is the task tree's nodes and edges as they should be now.
type canvasPlan struct {
	want     map[string]canvasNode // our nodes by id
	order    []string              // our node ids, legend first, then the tasks in tree order
	place    map[string]rect       // where the tidy tree puts each
	parentOf map[string]string     // node id -> its parent's node id
	pathOf   map[string]string     // node id -> its task's path
	edges    []canvasEdge          // our edges
}

// planCanvas lays out the tree under top (see WriteCanvas) and its
// dependencies deps.
func planCanvas(top *task.Node, deps map[string][]string) *canvasPlan {
	var roots []*task.Node
	if top.Path == "" {
		roots = top.Children
	} else {
		roots = []*task.Node{top}
	}
	lay := layout(roots)
	pl := &canvasPlan{want: map[string]canvasNode{}, place: map[string]rect{}, parentOf: map[string]string{}, pathOf: map[string]string{}}
	pl.want[legendID] = canvasNode{ID: legendID, Type: "text", Text: legendText}
	pl.order = append(pl.order, legendID)
	pl.place[legendID] = rect{-legendWidth - gapX, 0, legendWidth, legendHigh}
	var walk func(n *task.Node, parent string)
	walk = func(n *task.Node, parent string) {
		id := nodeID(n.Path)
		if _, dup := pl.want[id]; dup {
			return
		}
		color, ok := statusColors[n.Status]
		if !ok {
			color = unknownColor
		}
		pl.want[id] = canvasNode{ID: id, Type: "file", File: n.Path, Color: color}
		pl.order = append(pl.order, id)
		pl.place[id], pl.parentOf[id], pl.pathOf[id] = lay[n.Path], parent, n.Path
		for _, c := range n.Children {
			walk(c, id)
		}
	}
	for _, r := range roots {
		walk(r, "")
	}
	for _, id := range pl.order[1:] {
		if p := pl.parentOf[id]; p != "" {
			pl.edges = append(pl.edges, canvasEdge{ID: IDPrefix + "child-" + short(pl.pathOf[p]+"\n"+pl.pathOf[id]), FromNode: p,
				FromSide: "bottom", ToNode: id, ToSide: "top"})
		}
	}
	for _, id := range pl.order[1:] {
		from := pl.pathOf[id]
		for _, to := range deps[from] {
			if _, on := pl.want[nodeID(to)]; on {
				pl.edges = append(pl.edges, canvasEdge{ID: IDPrefix + "dep-" + short(from+"\n"+to), FromNode: id, ToNode: nodeID(to),
					Label: "depends on"})
			}
		}
	}
	return pl
}

// personsEnds are the ids of the nodes a person's edges join.
func personsEnds(edges []parsedEdge) map[string]bool {
	out := map[string]bool{}
	for _, e := range edges {
		if !ours(*e.edge.ID) {
			out[*e.edge.FromNode], out[*e.edge.ToNode] = true, true
		}
	}
	return out
}

// follow makes the plan's card of a task the canvas's card whose file is
// the task's path when that card's id is another's: the task was renamed
// or moved (Obsidian rewrites a canvas's file nodes when a note is
// renamed), and the card keeps its id, so that the arrows a person drew
// to it still join it.
func (pl *canvasPlan) follow(nodes []parsedNode) {
	present := map[string]bool{}
	for _, n := range nodes {
		present[*n.node.ID] = true
	}
	alias := map[string]string{} // the plan's id -> the card's
	for _, n := range nodes {
		id := *n.node.ID
		if !ours(id) || !strings.HasPrefix(id, IDPrefix+"task-") || n.node.File == nil {
			continue
		}
		if _, wanted := pl.want[id]; wanted {
			continue
		}
		to := nodeID(*n.node.File)
		if _, wanted := pl.want[to]; !wanted || present[to] || alias[to] != "" {
			continue
		}
		alias[to] = id
	}
	if len(alias) == 0 {
		return
	}
	re := func(id string) string {
		if a, ok := alias[id]; ok {
			return a
		}
		return id
	}
	want, place, parentOf, pathOf := map[string]canvasNode{}, map[string]rect{}, map[string]string{}, map[string]string{}
	for id, n := range pl.want {
		n.ID = re(id)
		want[n.ID] = n
	}
	for id, r := range pl.place {
		place[re(id)] = r
	}
	for id, p := range pl.parentOf {
		parentOf[re(id)] = re(p)
	}
	for id, p := range pl.pathOf {
		pathOf[re(id)] = p
	}
	for i, id := range pl.order {
		pl.order[i] = re(id)
	}
	for i := range pl.edges {
		pl.edges[i].FromNode, pl.edges[i].ToNode = re(pl.edges[i].FromNode), re(pl.edges[i].ToNode)
	}
	pl.want, pl.place, pl.parentOf, pl.pathOf = want, place, parentOf, pathOf
}

// mergeNodes merges our nodes with the canvas's nodes: ours keep their
// place and size, a person's stay as they are, new ones go where the
// tree puts them. One of ours no longer on the tree (its branch folded,
// or outside the subtree written) goes, unless a person's edge joins it
// (an id of joined): then it stays as it is, with the edge. It returns
// the nodes, the ids on the canvas, and how many of a person's it kept.
func (pl *canvasPlan) mergeNodes(nodes []parsedNode, joined map[string]bool) ([]json.RawMessage, map[string]bool, int) {
	var out []json.RawMessage
	have := map[string]bool{}
	var taken []rect // the places of the nodes kept
	at := map[string]rect{}
	kept := 0
	for _, n := range nodes {
		id := *n.node.ID
		r := n.rect()
		if !ours(id) {
			out = append(out, n.raw)
			have[id] = true
			taken = append(taken, r)
			kept++
			continue
		}
		wn, ok := pl.want[id]
		if have[id] {
			continue // twice in the file
		}
		if !ok {
			if joined[id] { // off the tree, but a person's arrow joins it
				out = append(out, n.raw)
				have[id] = true
				taken = append(taken, r)
			}
			continue
		}
		wn.X, wn.Y, wn.Width, wn.Height = *n.node.X, *n.node.Y, *n.node.Width, *n.node.Height
		out = append(out, encodeJSON(wn))
		have[id] = true
		taken = append(taken, r)
		at[id] = r
	}
	for _, id := range pl.order {
		if have[id] {
			continue
		}
		r := pl.newPlace(id, at, taken)
		wn := pl.want[id]
		wn.X, wn.Y, wn.Width, wn.Height = number(r.x), number(r.y), number(r.w), number(r.h)
		out = append(out, encodeJSON(wn))
		have[id] = true
		taken = append(taken, r)
		at[id] = r
	}
	return out, have, kept
}

// newPlace is where a new node goes: where the tree puts it, relative to
// its parent's place at when the parent was there already, moved down
// past any node of taken it would overlap. Each pass moves it below the
// lowest node it overlaps, so it never overlaps that one again: at most
// len(taken) passes (the places are bounded: see maxCoordinate).
func (pl *canvasPlan) newPlace(id string, at map[string]rect, taken []rect) rect {
	r := pl.place[id]
	if p := pl.parentOf[id]; p != "" {
		if pa, ok := at[p]; ok {
			r.x, r.y = pa.x+(r.x-pl.place[p].x), pa.y+(r.y-pl.place[p].y)
		}
	}
	for range len(taken) + 1 {
		below := r.y
		for _, t := range taken {
			if r.overlaps(t) {
				below = max(below, t.y+t.h+gapY/2)
			}
		}
		if below == r.y {
			break
		}
		r.y = below
	}
	return r
}

// mergeEdges merges our edges with the canvas's: a person's stay unless
// a node they join is not in have (dropped); ours are written as they
// should be now, in their place, new ones last.
func (pl *canvasPlan) mergeEdges(edges []parsedEdge, have map[string]bool) ([]json.RawMessage, int, []string) {
	want := map[string]canvasEdge{}
	for _, e := range pl.edges {
		want[e.ID] = e
	}
	var out []json.RawMessage
	var dropped []string
	kept := 0
	written := map[string]bool{}
	for _, e := range edges {
		id := *e.edge.ID
		if !ours(id) {
			if !have[*e.edge.FromNode] || !have[*e.edge.ToNode] {
				dropped = append(dropped, id)
				continue
			}
			out = append(out, e.raw)
			kept++
			continue
		}
		if we, ok := want[id]; ok && !written[id] {
			out = append(out, encodeJSON(we))
			written[id] = true
		}
	}
	for _, e := range pl.edges {
		if !written[e.ID] {
			out = append(out, encodeJSON(e))
			written[e.ID] = true
		}
	}
	return out, kept, dropped
}

// nodeID is the id of the node of the task at path p.
func nodeID(p string) string { return IDPrefix + "task-" + short(p) }

// ours reports whether id is the id of a node or edge vaultmem makes (the
// legend, or IDPrefix, a kind and a short hash): any other id, even one a
// person started with IDPrefix, is a person's.
func ours(id string) bool {
	if id == legendID {
		return true
	}
	rest, ok := strings.CutPrefix(id, IDPrefix)
	if !ok {
		return false
	}
	for _, kind := range []string{"task-", "child-", "dep-"} {
		if h, ok := strings.CutPrefix(rest, kind); ok {
			_, err := hex.DecodeString(h)
			return len(h) == 16 && err == nil && strings.ToLower(h) == h
		}
	}
	return false
}

// short is a stable short hash of s.
func short(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:8])
}

func number(i int) json.Number { return json.Number(fmt.Sprint(i)) }

// A parent's children are laid out in rows, wrapped so that a wide
// level does not make the canvas a strip (300 tasks in one row are over
// 100,000 px wide and 940 high: nothing reads when fitted to a screen).
// A row holds at least rowCards cards' width, else as much as makes the
// group about layoutAspect times as wide as high.
const (
	rowCards     = 6
	layoutAspect = 2.0
)

// subtree is the box a task's subtree takes, and its children's rows.
type subtree struct {
	w, h  int
	rows  [][]*task.Node
	rowsW []int // each row's width
	rowsH []int // each row's height
}

// layout places the trees under roots, each a tidy tree: a parent
// centred over its children, its children in rows (wrapped, see
// rowCards), each subtree in a box of its own, so that no two nodes
// overlap. The roots are wrapped into rows alike. It returns each task's
// place by path.
func layout(roots []*task.Node) map[string]rect {
	boxes := map[*task.Node]*subtree{}
	var size func(n *task.Node, depth int) *subtree
	size = func(n *task.Node, depth int) *subtree {
		if b, ok := boxes[n]; ok {
			return b
		}
		b := &subtree{w: nodeWidth, h: nodeHeight}
		boxes[n] = b // a cycle written by hand ends here
		if len(n.Children) > 0 && depth < maxLayoutDepth {
			for _, c := range n.Children {
				size(c, depth+1)
			}
			b.rows, b.rowsW, b.rowsH = wrapRows(n.Children, boxes)
			rw, rh := rowsBox(b.rowsW, b.rowsH)
			b.w, b.h = max(nodeWidth, rw), nodeHeight+gapY+rh
		}
		return b
	}
	for _, r := range roots {
		size(r, 0)
	}
	at := map[string]rect{}
	var put func(n *task.Node, left, top int)
	put = func(n *task.Node, left, top int) {
		if _, done := at[n.Path]; done {
			return
		}
		b := boxes[n]
		at[n.Path] = rect{left + (b.w-nodeWidth)/2, top, nodeWidth, nodeHeight}
		putRows(b.rows, b.rowsW, b.rowsH, boxes, left, b.w, top+nodeHeight+gapY, put)
	}
	rows, rowsW, rowsH := wrapRows(roots, boxes)
	w, _ := rowsBox(rowsW, rowsH)
	putRows(rows, rowsW, rowsH, boxes, 0, w, 0, put)
	return at
}

// maxLayoutDepth bounds how deep layout walks (a tree is never this deep;
// a parent cycle written by hand must not make it endless).
const maxLayoutDepth = 512

// wrapRows puts the subtrees of nodes (sized in boxes) into rows: as many
// as fit in a row as wide as the larger of rowCards cards, the widest
// subtree, and what makes the whole about layoutAspect times as wide as
// high.
func wrapRows(nodes []*task.Node, boxes map[*task.Node]*subtree) (rows [][]*task.Node, rowsW, rowsH []int) {
	area, widest := 0.0, 0
	for _, n := range nodes {
		b := boxes[n]
		area += float64(b.w+gapX) * float64(b.h+gapY)
		widest = max(widest, b.w)
	}
	limit := max(widest, rowCards*(nodeWidth+gapX)-gapX, int(math.Sqrt(area*layoutAspect)))
	for _, n := range nodes {
		b := boxes[n]
		last := len(rows) - 1
		if last < 0 || rowsW[last]+gapX+b.w > limit {
			rows, rowsW, rowsH = append(rows, []*task.Node{n}), append(rowsW, b.w), append(rowsH, b.h)
			continue
		}
		rows[last] = append(rows[last], n)
		rowsW[last] += gapX + b.w
		rowsH[last] = max(rowsH[last], b.h)
	}
	return rows, rowsW, rowsH
}

// rowsBox is the width and height of rows of those widths and heights.
func rowsBox(rowsW, rowsH []int) (w, h int) {
	for i := range rowsW {
		w = max(w, rowsW[i])
		if i > 0 {
			h += gapY
		}
		h += rowsH[i]
	}
	return w, h
}

// putRows places rows of subtrees from top down, each row centred in the
// band from left, width wide.
func putRows(rows [][]*task.Node, rowsW, rowsH []int, boxes map[*task.Node]*subtree, left, width, top int, put func(n *task.Node, left, top int)) {
	for i, row := range rows {
		x := left + (width-rowsW[i])/2
		for _, c := range row {
			put(c, x, top)
			x += boxes[c].w + gapX
		}
		top += rowsH[i] + gapY
	}
}

// parsedNode is a node of a canvas read: its bytes and what it must have.
type parsedNode struct {
	raw  json.RawMessage
	node rawNode
}

func (n parsedNode) rect() rect {
	i := func(v *json.Number) int {
		f, _ := v.Float64()
		return int(f)
	}
	return rect{i(n.node.X), i(n.node.Y), i(n.node.Width), i(n.node.Height)}
}

type parsedEdge struct {
	raw  json.RawMessage
	edge rawEdge
}

// parseCanvas reads a canvas: its top level (every key kept), its nodes
// and edges. Empty content is an empty canvas. Content that is not JSON
// Canvas is an error matching ErrNotCanvas naming file and line.
func parseCanvas(file string, b []byte) (map[string]json.RawMessage, []parsedNode, []parsedEdge, error) {
	doc := map[string]json.RawMessage{}
	if len(bytes.TrimSpace(b)) == 0 {
		return doc, nil, nil, nil
	}
	bad := func(at []byte, format string, args ...any) error {
		line := 1
		if i := bytes.Index(b, at); len(at) > 0 && i >= 0 {
			line += bytes.Count(b[:i], []byte("\n"))
		}
		return fmt.Errorf("%s:%d: %w: %s; it is left as it is (fix it, move it away, or give another file)", file, line, ErrNotCanvas,
			fmt.Sprintf(format, args...))
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		off := int64(0)
		switch {
		case errors.As(err, &se):
			off = se.Offset
		case errors.As(err, &te):
			off = te.Offset
		}
		return nil, nil, nil, bad(b[:0], "%v", lineOf(b, off, err))
	}
	if dec.More() {
		return nil, nil, nil, bad(b[:0], "more than one JSON value")
	}
	var rawNodes, rawEdges []json.RawMessage
	if v, ok := doc["nodes"]; ok {
		if err := json.Unmarshal(v, &rawNodes); err != nil {
			return nil, nil, nil, bad(v, "nodes is not an array of objects")
		}
	}
	if v, ok := doc["edges"]; ok {
		if err := json.Unmarshal(v, &rawEdges); err != nil {
			return nil, nil, nil, bad(v, "edges is not an array of objects")
		}
	}
	nodes, err := parseNodes(rawNodes, bad)
	if err != nil {
		return nil, nil, nil, err
	}
	edges, err := parseEdges(rawEdges, bad)
	if err != nil {
		return nil, nil, nil, err
	}
	return doc, nodes, edges, nil
}

// badCanvas makes the error of a canvas that is not JSON Canvas, at the
// line of at.
type badCanvas func(at []byte, format string, args ...any) error

// parseNodes reads a canvas's nodes: each must have an id (no two the
// same), a type, and numbers x, y, width and height.
func parseNodes(rawNodes []json.RawMessage, bad badCanvas) ([]parsedNode, error) {
	ids := map[string]bool{}
	var nodes []parsedNode
	for i, raw := range rawNodes {
		var n rawNode
		d := json.NewDecoder(bytes.NewReader(raw))
		d.UseNumber()
		if err := d.Decode(&n); err != nil {
			return nil, bad(raw, "node %d: %v", i+1, err)
		}
		for _, f := range []struct {
			name string
			ok   bool
		}{{"id", n.ID != nil && *n.ID != ""}, {"type", n.Type != nil}, {"x", n.X != nil}, {"y", n.Y != nil}, {"width", n.Width != nil}, {"height", n.Height != nil}} {
			if !f.ok {
				return nil, bad(raw, "node %d has no %s", i+1, f.name)
			}
		}
		for j, v := range []*json.Number{n.X, n.Y, n.Width, n.Height} {
			f, err := v.Float64()
			if err != nil {
				return nil, bad(raw, "node %d: %s is not a number", i+1, *v)
			}
			if f < -maxCoordinate || f > maxCoordinate || j >= 2 && f < 0 {
				return nil, bad(raw, "node %d: %s %s is out of range (0 to ±%d)", i+1, []string{"x", "y", "width", "height"}[j], *v, maxCoordinate)
			}
		}
		if ids[*n.ID] {
			return nil, bad(raw, "node %d: the id %q is taken by another node", i+1, *n.ID)
		}
		ids[*n.ID] = true
		nodes = append(nodes, parsedNode{raw, n})
	}
	return nodes, nil
}

// parseEdges reads a canvas's edges: each must have an id, a fromNode
// and a toNode.
func parseEdges(rawEdges []json.RawMessage, bad badCanvas) ([]parsedEdge, error) {
	var edges []parsedEdge
	for i, raw := range rawEdges {
		var e rawEdge
		if err := json.Unmarshal(raw, &e); err != nil {
			return nil, bad(raw, "edge %d: %v", i+1, err)
		}
		switch {
		case e.ID == nil || *e.ID == "":
			return nil, bad(raw, "edge %d has no id", i+1)
		case e.FromNode == nil || e.ToNode == nil:
			return nil, bad(raw, "edge %d has no fromNode or toNode", i+1)
		}
		edges = append(edges, parsedEdge{raw, e})
	}
	return edges, nil
}

// lineOf words a JSON error at byte offset off of b with its line.
func lineOf(b []byte, off int64, err error) string {
	if off <= 0 || off > int64(len(b)) {
		return err.Error()
	}
	return fmt.Sprintf("%v (line %d)", err, 1+bytes.Count(b[:off], []byte("\n")))
}

// encodeJSON is v as one line of JSON, HTML characters as they are.
func encodeJSON(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // our own types always encode
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}

// formatCanvas writes a canvas as Obsidian does: tabs, a node or edge per
// line; the top level's other keys after nodes and edges, as they were.
func formatCanvas(doc map[string]json.RawMessage, nodes, edges []json.RawMessage) []byte {
	var b bytes.Buffer
	list := func(name string, items []json.RawMessage) {
		b.WriteString("\t" + `"` + name + `":[`)
		for i, it := range items {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString("\n\t\t")
			var c bytes.Buffer
			if err := json.Compact(&c, it); err != nil {
				c.Reset()
				c.Write(it)
			}
			b.Write(c.Bytes())
		}
		if len(items) > 0 {
			b.WriteString("\n\t")
		}
		b.WriteString("]")
	}
	b.WriteString("{\n")
	list("nodes", nodes)
	b.WriteString(",\n")
	list("edges", edges)
	var others []string
	for k := range doc {
		if k != "nodes" && k != "edges" {
			others = append(others, k)
		}
	}
	slices.Sort(others)
	for _, k := range others {
		key, _ := json.Marshal(k)
		var c bytes.Buffer
		if err := json.Compact(&c, doc[k]); err != nil {
			c.Reset()
			c.Write(doc[k])
		}
		b.WriteString(",\n\t")
		b.Write(key)
		b.WriteString(":")
		b.Write(c.Bytes())
	}
	b.WriteString("\n}\n")
	return b.Bytes()
}
