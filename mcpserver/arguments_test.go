package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vaultmem/vaultmem/dream"
	"github.com/vaultmem/vaultmem/mcpserver"
)

// withDream serves the dream tool too.
func withDream(o *mcpserver.Options) {
	o.Dream = dream.New(o.Vault, o.Writer, o.Index, nil, dream.Options{})
}

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
	cs, _, _ := serve(t, nil, withDream)
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
