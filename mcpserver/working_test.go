package mcpserver_test

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// recallText calls the recall tool and returns its text and items.
func recallText(t *testing.T, cs *mcp.ClientSession, args map[string]any) (string, []map[string]any) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "recall", Arguments: args})
	if err != nil || res.IsError {
		t.Fatalf("recall: %v %+v", err, res)
	}
	out, _ := res.StructuredContent.(map[string]any)
	var items []map[string]any
	for _, it := range out["items"].([]any) {
		items = append(items, it.(map[string]any))
	}
	return res.Content[0].(*mcp.TextContent).Text, items
}

// TestRecallKnowsTheSession: within one server (one agent session), what
// recall gave is not given again unless asked, and a memory the agent
// just wrote is ranked as written in this session.
func TestRecallKnowsTheSession(t *testing.T) {
	cs, _ := connect(t)
	for _, m := range []map[string]any{
		{"type": "project", "name": "deploy day", "description": "when deploys go out", "body": "Deploys go out on Tuesdays after the freeze."},
		{"type": "project", "name": "rollback", "description": "how deploys are rolled back", "body": "Deploys are rolled back with make rollback when the canary fails."},
	} {
		if msg, ok := callTool(t, cs, "remember", m, nil); !ok {
			t.Fatal(msg)
		}
	}
	q := map[string]any{"query": "when do deploys go out and how are they rolled back?", "no_focus": true}
	text, items := recallText(t, cs, q)
	if len(items) == 0 || !strings.Contains(text, "Tuesdays") {
		t.Fatalf("first recall: %q", text)
	}
	for _, it := range items {
		if !strings.Contains(it["why"].(string), "written in this session") {
			t.Errorf("%s: why = %q, want the boost of a memory just written", it["path"], it["why"])
		}
	}
	text, again := recallText(t, cs, q)
	if len(again) != 0 || strings.Contains(text, "Tuesdays") || !strings.Contains(text, "given earlier in this session") {
		t.Errorf("second recall gave %d items again: %q", len(again), text)
	}
	q["repeat"] = true
	text, repeated := recallText(t, cs, q)
	if len(repeated) != len(items) || !strings.Contains(text, "Tuesdays") {
		t.Errorf("repeat: true gave %d of %d items: %q", len(repeated), len(items), text)
	}
}
