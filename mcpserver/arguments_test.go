package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolsOf lists a server's tools by name, as a client sees them.
func toolsOf(t *testing.T, cs *mcp.ClientSession) map[string]*mcp.Tool {
	t.Helper()
	tools := map[string]*mcp.Tool{}
	for tool, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		tools[tool.Name] = tool
	}
	return tools
}

// schemaProblems lists what a strict client cannot take in the input
// schema s (as JSON) of a property at where: a type that admits null, and
// a required property that is nullable.
func schemaProblems(where string, s map[string]any) []string {
	var out []string
	if types, ok := s["type"].([]any); ok && slices.Contains(types, any("null")) {
		out = append(out, fmt.Sprintf("%s: type %v admits null", where, types))
	}
	props, _ := s["properties"].(map[string]any)
	required, _ := s["required"].([]any)
	for _, r := range required {
		p, _ := props[r.(string)].(map[string]any)
		if types, ok := p["type"].([]any); ok && slices.Contains(types, any("null")) {
			out = append(out, fmt.Sprintf("%s.%s: required yet nullable", where, r))
		}
	}
	for name, p := range props {
		out = append(out, schemaProblems(where+"."+name, p.(map[string]any))...)
	}
	for _, key := range []string{"items", "additionalProperties"} {
		if sub, ok := s[key].(map[string]any); ok {
			out = append(out, schemaProblems(where+"."+key, sub)...)
		}
	}
	return out
}

// TestInputSchemasNeverNull: no argument of any tool is typed with null
// (an array is "array", not ["null","array"]), and none that is required
// is nullable, so that strict clients and inspectors can fill them.
func TestInputSchemasNeverNull(t *testing.T) {
	cs, _, _ := serve(t, nil, nil)
	tools := toolsOf(t, cs)
	if _, ok := tools["dream"]; !ok {
		t.Fatal("the dream tool is not served")
	}
	arrays := 0
	for name, tool := range tools {
		b, err := json.Marshal(tool.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var s map[string]any
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		for _, p := range schemaProblems(name, s) {
			t.Error(p)
		}
		props, _ := s["properties"].(map[string]any)
		for _, p := range props {
			if p.(map[string]any)["type"] == "array" {
				arrays++
			}
		}
	}
	if arrays == 0 {
		t.Error("no tool has an argument of type array; want lesson_add.trigger among them")
	}
}

// worded are the keywords of an argument's schema whose breach the
// server words itself; the SDK's validator would word any other.
var worded = []string{"type", "description", "items", "enum", "minimum", "maximum", "additionalProperties"}

// unworded lists the keywords of the argument schema s at where, and of
// its items, that are not worded.
func unworded(where string, s map[string]any) []string {
	var out []string
	for k, v := range s {
		switch {
		case !slices.Contains(worded, k):
			out = append(out, where+": "+k)
		case k == "type":
			if _, ok := v.(string); !ok {
				out = append(out, fmt.Sprintf("%s: type %v", where, v))
			}
		case k == "items":
			out = append(out, unworded(where+".items", v.(map[string]any))...)
		case k == "additionalProperties" && v != true:
			out = append(out, fmt.Sprintf("%s: additionalProperties %v", where, v))
		}
	}
	return out
}

// TestArgumentErrorsInWords: an argument against the tool's schema is
// refused with an error naming the argument and what it must be, in
// words, never the schema validator's text; every problem of a call is
// named. Every keyword of every tool's arguments is one the server words.
func TestArgumentErrorsInWords(t *testing.T) {
	cs, _, _ := serve(t, map[string]string{"a.md": "alpha\n"}, nil)
	for name, tool := range toolsOf(t, cs) {
		b, _ := json.Marshal(tool.InputSchema)
		var s struct{ Properties map[string]map[string]any }
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		for arg, p := range s.Properties {
			for _, k := range unworded(name+"."+arg, p) {
				t.Errorf("%s: the server does not word it", k)
			}
		}
	}
	for _, tc := range []struct {
		tool string
		args any
		want string
	}{
		{"search", map[string]any{"query": "alpha", "limit": 100000}, `invalid argument "limit": must be at most 100 (got 100000)`},
		{"recall", map[string]any{"query": "alpha", "budget": 1_000_000_000_000}, `invalid argument "budget": must be at most 100000 (got 1000000000000)`},
		{"recall", map[string]any{"query": "alpha", "budget": -1}, `invalid argument "budget": must be at least 0 (got -1)`},
		{"search", map[string]any{"query": "alpha", "limit": "ten"}, `invalid argument "limit": must be an integer (got "ten")`},
		{"search", map[string]any{"query": "alpha", "limit": strings.Repeat("x", 100)}, `invalid argument "limit": must be an integer (got "` + strings.Repeat("x", 59) + `…)`},
		{"search", map[string]any{"query": "alpha", "limit": 2.5}, `invalid argument "limit": must be an integer (got 2.5)`},
		{"search", map[string]any{"query": "alpha", "mode": "fuzzy"}, `invalid argument "mode": must be one of keyword, vector, hybrid (got "fuzzy")`},
		{"search", map[string]any{"limit": 5}, `missing argument "query"`},
		{"search", map[string]any{"query": "alpha", "qeury": "x"}, `unknown argument "qeury" (the tool takes cursor, folder, limit, mode, query, tag, type)`},
		{"links", map[string]any{"path": "a.md", "depth": 50, "direction": "up"},
			`invalid argument "depth": must be at most 5 (got 50); invalid argument "direction": must be one of out, in, both (got "up")`},
		{"lesson_match", map[string]any{"paths": "a.md"}, `invalid argument "paths": must be an array of strings (got "a.md")`},
		{"lesson_match", map[string]any{"paths": []any{"a.md", 3}}, `invalid argument "paths": item 2 must be a string (got 3)`},
		{"lesson_add", map[string]any{"title": "t", "action_bias": "b", "trigger": nil}, `invalid argument "trigger": must be an array of strings (got null)`},
		{"lesson_add", map[string]any{"title": "t", "action_bias": "b"}, `missing argument "trigger"`},
		{"write_note", map[string]any{"path": "a.md", "body": nil}, `invalid argument "body": must be a string (got null)`},
		{"write_note", map[string]any{"path": "a.md", "frontmatter": "x: 1"}, `invalid argument "frontmatter": must be an object (got "x: 1")`},
		{"remember", map[string]any{"type": "fact", "name": "n", "description": "d", "body": "b", "update": "yes"},
			`invalid argument "type": must be one of user, feedback, project, reference (got "fact"); invalid argument "update": must be true or false (got "yes")`},
		{"dream", map[string]any{"dry_run": 1}, `invalid argument "dry_run": must be true or false (got 1)`},
		{"task_ready", map[string]any{"limit": json.RawMessage("1e3")}, ""},
		{"task_ready", map[string]any{"limit": json.RawMessage("10.0")}, ""},
		{"task_ready", map[string]any{"limit": json.RawMessage("1e400")}, `invalid argument "limit": must be at most 1000 (got 1e400)`},
		{"read_note", []any{"a.md"}, `invalid arguments: must be an object of named arguments (got ["a.md"])`},
	} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args})
		if err != nil {
			t.Errorf("%s %v: %v", tc.tool, tc.args, err)
			continue
		}
		got := ""
		if res.IsError {
			got = res.Content[0].(*mcp.TextContent).Text
		}
		if got != tc.want {
			t.Errorf("%s %v:\ngot  %s\nwant %s", tc.tool, tc.args, got, tc.want)
		}
	}
}
