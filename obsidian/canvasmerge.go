package obsidian

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
)

// MergeCanvas merges two versions of a JSON Canvas file (ours, theirs)
// from their common base (empty when both sides added the file): what
// git's merge driver for canvases does. Nodes and edges are merged by id,
// and within a node or edge its keys one by one: a node or edge one side
// added is kept; one a side removed is dropped, unless the other side
// changed it (then the change is kept); a key one side changed takes the
// change; a key both sides changed differently takes ours. The canvas is
// a view that task tree --canvas recomputes from the notes, so taking
// ours for a clash loses nothing the notes hold: a person's own cards
// and arrows are kept from both sides. A node an arrow joins is kept
// even when a side removed it, so that no arrow is left dangling. The
// top level's other keys are merged alike. The result is written as
// vaultmem writes canvases (a node or edge per line, tab-indented).
//
// Errors: a version that does not parse as JSON Canvas, matching
// ErrNotCanvas and naming path, the side and the line; the merge is then
// for a person to make.
func MergeCanvas(path string, base, ours, theirs []byte) ([]byte, error) {
	var v [3]canvasVersion
	for i, side := range []struct {
		name string
		b    []byte
	}{{"base", base}, {"ours", ours}, {"theirs", theirs}} {
		doc, nodes, edges, err := parseCanvas(path, side.b)
		if err != nil {
			return nil, fmt.Errorf("%s version: %w", side.name, err)
		}
		v[i] = canvasVersion{doc: doc, nodes: map[string]json.RawMessage{}, edges: map[string]json.RawMessage{}}
		for _, n := range nodes {
			v[i].nodes[*n.node.ID] = n.raw
			v[i].nodeOrder = append(v[i].nodeOrder, *n.node.ID)
		}
		for _, e := range edges {
			if _, dup := v[i].edges[*e.edge.ID]; !dup {
				v[i].edges[*e.edge.ID] = e.raw
				v[i].edgeOrder = append(v[i].edgeOrder, *e.edge.ID)
			}
		}
	}
	b, o, t := v[0], v[1], v[2]
	nodes, nodeIDs, err := mergeItems(b.nodes, o.nodes, t.nodes, o.nodeOrder, t.nodeOrder)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	edges, _, err := mergeItems(b.edges, o.edges, t.edges, o.edgeOrder, t.edgeOrder)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	// An arrow joins nodes on the canvas: a node one side removed while
	// the other drew an arrow to it comes back.
	for _, raw := range edges {
		var e rawEdge
		if json.Unmarshal(raw, &e) != nil || e.FromNode == nil || e.ToNode == nil {
			continue
		}
		for _, id := range []string{*e.FromNode, *e.ToNode} {
			if nodeIDs[id] {
				continue
			}
			for _, side := range []canvasVersion{o, t, b} {
				if n, ok := side.nodes[id]; ok {
					nodes, nodeIDs[id] = append(nodes, n), true
					break
				}
			}
		}
	}
	doc := mergeObject(b.doc, o.doc, t.doc, slices.Sorted(maps.Keys(o.doc)), slices.Sorted(maps.Keys(t.doc)))
	return formatCanvas(doc.values, nodes, edges), nil
}

// canvasVersion is one side of a canvas merge: its top level, its nodes
// and edges by id, and their ids in the file's order.
type canvasVersion struct {
	doc                  map[string]json.RawMessage
	nodes, edges         map[string]json.RawMessage
	nodeOrder, edgeOrder []string
}

// mergeItems merges nodes or edges by id (see MergeCanvas): the result
// is in ours' order, then theirs' additions in theirs' order. It returns
// the items and the ids kept.
func mergeItems(base, ours, theirs map[string]json.RawMessage, oursOrder, theirsOrder []string) ([]json.RawMessage, map[string]bool, error) {
	var out []json.RawMessage
	kept := map[string]bool{}
	for _, order := range [][]string{oursOrder, theirsOrder} {
		for _, id := range order {
			if kept[id] {
				continue
			}
			b, inBase := base[id]
			o, inOurs := ours[id]
			t, inTheirs := theirs[id]
			var item json.RawMessage
			switch {
			case inOurs && inTheirs:
				if !inBase {
					b = nil // both added it: a key both wrote differently is ours'
				}
				m, err := mergeRawObjects(b, o, t)
				if err != nil {
					return nil, nil, fmt.Errorf("id %q: %w", id, err)
				}
				item = m
			case inOurs: // theirs removed it, or ours added it
				if inBase && sameJSON(b, o) {
					continue
				}
				item = o
			default: // ours removed it, or theirs added it
				if inBase && sameJSON(b, t) {
					continue
				}
				item = t
			}
			out, kept[id] = append(out, item), true
		}
	}
	return out, kept, nil
}

// mergeRawObjects merges three versions of one JSON object key by key
// (see mergeObject); base is nil when both sides added it.
func mergeRawObjects(base, ours, theirs json.RawMessage) (json.RawMessage, error) {
	if sameJSON(ours, theirs) || base != nil && sameJSON(base, theirs) {
		return ours, nil
	}
	if base != nil && sameJSON(base, ours) {
		return theirs, nil
	}
	var b, o, t map[string]json.RawMessage
	if base != nil {
		if err := json.Unmarshal(base, &b); err != nil {
			return nil, err
		}
	}
	if err := json.Unmarshal(ours, &o); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(theirs, &t); err != nil {
		return nil, err
	}
	m := mergeObject(b, o, t, objectKeys(ours), objectKeys(theirs))
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, k := range m.keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		key, _ := json.Marshal(k)
		buf.Write(key)
		buf.WriteByte(':')
		buf.Write(m.values[k])
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// orderedObject is a JSON object's keys in order and their values.
type orderedObject struct {
	keys   []string
	values map[string]json.RawMessage
}

// mergeObject merges three versions of an object's keys: a key one side
// changed (or added, or removed) takes the change; one both changed
// differently takes ours. Keys are in ours' order, then theirs' new ones.
func mergeObject(base, ours, theirs map[string]json.RawMessage, oursKeys, theirsKeys []string) orderedObject {
	out := orderedObject{values: map[string]json.RawMessage{}}
	seen := map[string]bool{}
	for _, keys := range [][]string{oursKeys, theirsKeys} {
		for _, k := range keys {
			if seen[k] {
				continue
			}
			seen[k] = true
			b, inBase := base[k]
			o, inOurs := ours[k]
			t, inTheirs := theirs[k]
			var v json.RawMessage
			switch {
			case inOurs && inTheirs:
				v = o
				if inBase && sameJSON(b, o) {
					v = t
				}
			case inOurs:
				if inBase && sameJSON(b, o) {
					continue // theirs removed it
				}
				v = o
			default:
				if inBase && sameJSON(b, t) {
					continue // ours removed it
				}
				v = t
			}
			out.keys, out.values[k] = append(out.keys, k), v
		}
	}
	return out
}

// objectKeys are the keys of the JSON object raw in their order (none
// for a value that is no object).
func objectKeys(raw json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return keys
		}
		k, _ := tok.(string)
		keys = append(keys, k)
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return keys
		}
	}
	return keys
}

// sameJSON reports whether a and b are the same JSON value, whatever
// their spacing and the order of their keys.
func sameJSON(a, b json.RawMessage) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var x, y any
	da, db := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	da.UseNumber()
	db.UseNumber()
	if da.Decode(&x) != nil || db.Decode(&y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
