package mcpserver_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vaultmem/vaultmem/mcpserver"
)

// TestSyncFailureIsSaid: when the sync before a read fails (here the
// vault's folder moved away from under the server), the read still
// answers from the index as it was, and the failure is said: to the
// server's log (OnSyncError), and to the agent as the result's last text.
func TestSyncFailureIsSaid(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "vault")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	var mu sync.Mutex
	var logged []error
	srv, err := mcpserver.New(mcpserver.Options{App: openApp(t, dir, ""),
		OnSyncError: func(err error) { mu.Lock(); logged = append(logged, err); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	go srv.Run(ctx, st)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	if msg, ok := callTool(t, cs, "write_note", map[string]any{"path": "quokka", "body": "the quokka telemetry note"}, nil); !ok {
		t.Fatal(msg)
	}
	search := func() *mcp.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"query": "quokka telemetry"}})
		if err != nil || res.IsError {
			t.Fatalf("search: %v %+v", err, res)
		}
		return res
	}
	warned := func(res *mcp.CallToolResult) bool {
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok && strings.HasPrefix(tc.Text, "warning: the index could not be brought up to date") {
				return true
			}
		}
		return false
	}
	if res := search(); warned(res) || len(logged) != 0 {
		t.Fatalf("a warning while the vault was there: %+v, %v", res.Content, logged)
	}
	if err := os.Rename(dir, dir+"-moved"); err != nil {
		t.Fatal(err)
	}
	res := search()
	mu.Lock()
	defer mu.Unlock()
	if len(logged) == 0 {
		t.Fatal("the sync did not fail (the test has nothing to check)")
	}
	if !warned(res) {
		t.Errorf("the agent was not told the sync failed: %+v", res.Content)
	}
	if s, _ := res.StructuredContent.(map[string]any); s == nil || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "quokka.md") {
		t.Errorf("the search did not answer from the index as it was: %+v", res.Content)
	}
}
