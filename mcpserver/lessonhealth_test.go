package mcpserver_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vaultmem/vaultmem/app"
	"github.com/vaultmem/vaultmem/mcpserver"
)

// TestLessonHealthResource: vaultmem://lessons/health gives the server's
// live lesson health as JSON, as 'lesson stats --live --json' prints it:
// the lesson_match calls made through the server are counted, and a lesson
// failing three times in a row is listed from the outcome log.
func TestLessonHealthResource(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".vaultmem"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".vaultmem", "config.yaml"), []byte("embedder:\n  provider: none\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := app.Open(context.Background(), dir, app.Options{Resident: true}) // as vaultmem mcp opens it
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	srv, err := mcpserver.New(mcpserver.Options{App: a})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	st, ct := mcp.NewInMemoryTransports()
	go srv.Run(ctx, st)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })

	mustCall(t, cs, "lesson_add", map[string]any{"title": "Run migrations first", "trigger": []any{"integration tests"},
		"action_bias": "run make migrate before the integration tests"}, nil)
	for range 2 {
		mustCall(t, cs, "lesson_match", map[string]any{"text": "run the integration tests"}, nil)
	}
	for range 3 {
		mustCall(t, cs, "lesson_outcome", map[string]any{"lesson": "Run migrations first", "success": false}, nil)
	}
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: mcpserver.LessonHealthURI})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Contents) != 1 || res.Contents[0].MIMEType != "application/json" {
		t.Fatalf("contents %+v", res.Contents)
	}
	var h app.LessonHealth
	if err := json.Unmarshal([]byte(res.Contents[0].Text), &h); err != nil {
		t.Fatalf("%v\n%s", err, res.Contents[0].Text)
	}
	if !h.Live || h.Latency == nil || h.Latency.Matches != 2 || len(h.Lessons) != 1 || h.Lessons[0].Shown != 2 ||
		h.Lessons[0].Outcomes != 3 || h.Lessons[0].Followed != 1 || len(h.Failing) != 1 || h.Failing[0].Failures != 3 {
		t.Errorf("health: %s", res.Contents[0].Text)
	}
}
