package markdown

import (
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// maxJSONNodes bounds how many nodes [Frontmatter.JSON] turns into values,
// aliases expanded: a YAML alias bomb expands exponentially.
const maxJSONNodes = 100_000

// JSON returns the frontmatter as values for JSON: strings, float64 and
// int64 numbers, bools, nil, []any and map[string]any. Unlike decoding to
// Go values, it keeps what a round trip through JSON would lose: a date
// stays the text it is in the note ("2024-01-02", not a time), a number
// JSON cannot hold (.nan, .inf, an integer over 64 bits) stays its text,
// and a key that is not a string (2023: 5) becomes its text. Aliases are
// expanded, at most maxJSONNodes nodes in all (the rest become nil), and
// merge keys (<<) merged. A nil Frontmatter gives an empty map.
func (f *Frontmatter) JSON() map[string]any {
	m := map[string]any{}
	if f == nil || f.Node == nil {
		return m
	}
	budget := maxJSONNodes
	if v, ok := jsonValue(f.Node, &budget, 0).(map[string]any); ok {
		return v
	}
	return m
}

// jsonValue turns n into a JSON value, spending one of budget per node.
func jsonValue(n *yaml.Node, budget *int, depth int) any {
	n = resolveAlias(n)
	if n == nil || *budget <= 0 || depth > maxValueDepth {
		return nil
	}
	*budget--
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil
		}
		return jsonValue(n.Content[0], budget, depth+1)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			out = append(out, jsonValue(c, budget, depth+1))
		}
		return out
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2)
		var merged []map[string]any
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := resolveAlias(n.Content[i]), n.Content[i+1]
			if k != nil && k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
				switch mv := jsonValue(v, budget, depth+1).(type) {
				case map[string]any:
					merged = append(merged, mv)
				case []any:
					for _, e := range mv {
						if em, ok := e.(map[string]any); ok {
							merged = append(merged, em)
						}
					}
				}
				continue
			}
			out[jsonKey(k)] = jsonValue(v, budget, depth+1)
		}
		for _, mm := range merged { // explicit keys win, then earlier merges
			for k, v := range mm {
				if _, ok := out[k]; !ok {
					out[k] = v
				}
			}
		}
		return out
	case yaml.ScalarNode:
		return jsonScalar(n)
	}
	return nil
}

// jsonKey is a mapping key as text: a scalar's text, else the key in
// YAML's flow style.
func jsonKey(k *yaml.Node) string {
	if k == nil {
		return ""
	}
	if k.Kind == yaml.ScalarNode {
		return k.Value
	}
	flow := *k
	flow.Style |= yaml.FlowStyle
	b, err := yaml.Marshal(&flow)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// jsonScalar turns a scalar into a JSON value by its resolved tag.
func jsonScalar(n *yaml.Node) any {
	switch n.ShortTag() {
	case "!!null":
		return nil
	case "!!bool":
		var b bool
		if n.Decode(&b) == nil {
			return b
		}
	case "!!int":
		var i int64
		if n.Decode(&i) == nil {
			return i
		}
	case "!!float":
		var f float64
		// An integer too large for int64 reads as a float: keep its digits.
		exact := strings.ContainsAny(n.Value, ".eE")
		if n.Decode(&f) == nil && !math.IsNaN(f) && !math.IsInf(f, 0) && exact {
			return f
		}
	}
	return n.Value // strings, dates, binary, custom tags, and what JSON cannot hold
}

// FromJSON turns a value decoded from JSON (an agent's frontmatter) into a
// value to write with [Format] or [SetFrontmatter]: a string holding a
// YAML date or time ("2024-01-02", "2024-01-02T10:00:00Z") is written
// unquoted, so that YAML and Obsidian read it as a date again, as it was
// before [Frontmatter.JSON] turned it into text; maps and lists are
// converted throughout; everything else is returned as it is.
func FromJSON(v any) any {
	switch x := v.(type) {
	case string:
		if isYAMLDate(x) {
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!timestamp", Value: x}
		}
		return x
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = FromJSON(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = FromJSON(e)
		}
		return out
	}
	return v
}

// isYAMLDate reports whether YAML reads s, unquoted, as a timestamp and
// writes it back as the same text.
func isYAMLDate(s string) bool {
	if len(s) < len("2006-1-2") || len(s) > 40 || s[0] < '0' || s[0] > '9' {
		return false
	}
	if _, err := strconv.Atoi(s[:4]); err != nil || s[4] != '-' {
		return false
	}
	var doc yaml.Node
	if yaml.Unmarshal([]byte(s), &doc) != nil || len(doc.Content) != 1 {
		return false
	}
	c := doc.Content[0]
	return c.Kind == yaml.ScalarNode && c.ShortTag() == "!!timestamp" && c.Value == s
}
