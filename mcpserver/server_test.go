package mcpserver_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/mcpserver"
)

// connect serves a vault in a temp dir to an in-process client.
func connect(t *testing.T) (*mcp.ClientSession, string) {
	t.Helper()
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	srv, err := mcpserver.New(mcpserver.Options{App: openApp(t, dir, "")})
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
	return cs, dir
}

func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, out any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		return res.Content[0].(*mcp.TextContent).Text, false
	}
	if out != nil {
		b, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(b, out)
	}
	return "", true
}

// TestConcurrentWritesWithOneHash: eight agents read the same note and
// write it back at once with the hash they read; exactly one wins, the
// others get a conflict, and the note holds the winner's body whole.
func TestConcurrentWritesWithOneHash(t *testing.T) {
	cs, dir := connect(t)
	var created struct{ Hash string }
	if msg, ok := callTool(t, cs, "write_note", map[string]any{"path": "shared", "body": "v0"}, &created); !ok {
		t.Fatal(msg)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var wins, conflicts int
	var winner string
	for i := range 8 {
		wg.Go(func() {
			body := strings.Repeat(string(rune('a'+i)), 2000)
			msg, ok := callTool(t, cs, "write_note", map[string]any{"path": "shared.md", "body": body, "expected_hash": created.Hash}, nil)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case ok:
				wins++
				winner = body
			case strings.HasPrefix(msg, "conflict:"):
				conflicts++
			default:
				t.Errorf("write %d: %s", i, msg)
			}
		})
	}
	wg.Wait()
	if wins != 1 || conflicts != 7 {
		t.Errorf("%d writes won, %d conflicts; want 1 and 7", wins, conflicts)
	}
	b, err := os.ReadFile(filepath.Join(dir, "shared.md"))
	if err != nil || strings.TrimSpace(string(b)) != winner {
		t.Errorf("note holds %q..., want the winner's body", string(b)[:min(len(b), 20)])
	}
}

// TestReadAfterWriteSeesHumanEdits: L1 serves a note this server wrote,
// but never once a human changed the file.
func TestReadAfterWriteSeesHumanEdits(t *testing.T) {
	cs, dir := connect(t)
	if msg, ok := callTool(t, cs, "write_note", map[string]any{"path": "n.md", "body": "agent text"}, nil); !ok {
		t.Fatal(msg)
	}
	var n struct{ Body, Hash string }
	callTool(t, cs, "read_note", map[string]any{"path": "n.md"}, &n)
	if strings.TrimSpace(n.Body) != "agent text" {
		t.Fatalf("read after write: %q", n.Body)
	}
	if err := os.WriteFile(filepath.Join(dir, "n.md"), []byte("human text, longer than before\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	callTool(t, cs, "read_note", map[string]any{"path": "n.md"}, &n)
	if strings.TrimSpace(n.Body) != "human text, longer than before" || n.Hash != markdown.Hash([]byte("human text, longer than before\n")) {
		t.Errorf("read after a human edit: %+v", n)
	}
}
