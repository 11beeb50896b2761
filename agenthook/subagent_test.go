package agenthook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSubagentResult(t *testing.T) {
	dir := t.TempDir()
	transcript := filepath.Join(dir, "agent-a1.jsonl")
	os.WriteFile(transcript, []byte(strings.Join([]string{
		`{"type":"user","message":{"role":"user","content":"find the importer's entry point"}}`,
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Looking."},{"type":"tool_use","name":"Grep"}]}}`,
		`not json`,
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"The importer starts in\ncmd/import/main.go."}]}}`,
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","name":"Read"}]}}`,
	}, "\n")+"\n"), 0o644)
	long := strings.Repeat("word ", 1000)
	for _, tt := range []struct {
		name, last, transcript, want string
	}{
		{"the client's last message", "Found it:\n  cmd/import/main.go", transcript, "Found it: cmd/import/main.go"},
		{"the transcript's last text", "", transcript, "The importer starts in cmd/import/main.go."},
		{"neither", "", filepath.Join(dir, "missing.jsonl"), ""},
		{"a folder", "", dir, ""},
	} {
		if got := subagentResult(tt.last, tt.transcript); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
	if got := subagentResult(long, ""); len(got) > maxSubagentResult+4 || !strings.HasSuffix(got, "word …") {
		t.Errorf("a long answer: %d bytes, ends %q", len(got), got[len(got)-10:])
	}
}
