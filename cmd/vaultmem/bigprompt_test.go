package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// goTrace is a Go stack trace of about n bytes.
func goTrace(n int) string {
	var b strings.Builder
	b.WriteString("panic: runtime error: invalid memory address or nil pointer dereference\ngoroutine 1 [running]:\n")
	for i := 0; b.Len() < n; i++ {
		b.WriteString("github.com/acme/importer/internal/csv.(*Reader).readRecord(0xc000123456, 0x0)\n\t/home/ann/src/importer/internal/csv/reader.go:211 +0x1a5\n")
	}
	return b.String()
}

// TestBigPrompts: a question around a pasted stack trace or log of any
// size up to the input limit gets recall on the question (the prompt was
// refused over 10,000 bytes, on stderr where nobody saw it); an input
// over the limit is answered with nothing, the hook exiting 0.
func TestBigPrompts(t *testing.T) {
	dir := t.TempDir()
	ok(t, dir, "init")
	ok(t, dir, "remember", "--type", "project", "--name", "CSV reader empty rows", "--description", "why the CSV reader crashed",
		"The CSV reader crashed on empty rows until v2.3; upgrade the importer to v2.3 or later to fix it.")
	ok(t, dir, "index")
	// The 50 MB case must not depend on this machine's speed: its own
	// time limit is raised, and what is asserted is the answer.
	cfg := filepath.Join(dir, ".vaultmem", "config.yaml")
	b, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, cfg, strings.Replace(string(b), "timeout: 8s", "timeout: 10m", 1))
	question := "Why does the CSV reader crash on empty rows?"
	for _, tt := range []struct {
		name, prompt string
	}{
		{"13 KB trace", "I ran the importer on the March export and got this:\n" + goTrace(13<<10) + "\n" + question},
		{"1 MB trace", question + "\n" + goTrace(1<<20)},
		{"50 MB log", "Build log below.\n" + strings.Repeat("2026-11-29T10:00:00Z INFO build step 42 done in 12ms\n", (50<<20)/52) + question},
	} {
		ev := hookEvent("s-"+tt.name, dir, "UserPromptSubmit", map[string]any{"prompt": tt.prompt}) // a session each: a memory is given once a session
		r := vaultmemGuarded(t, dir, ev, nil, "hook", "--client", "claude-code")
		if r.code != 0 || !strings.Contains(r.stdout, "crashed on empty rows until v2.3") || strings.Contains(r.stderr, "limit") {
			t.Errorf("%s: exit %d, stderr %q, stdout:\n%.600s", tt.name, r.code, r.stderr, r.stdout)
		}
	}
	huge := hookEvent("s-huge", dir, "UserPromptSubmit", map[string]any{"prompt": question + "\n" + strings.Repeat("x", 65<<20)})
	r := vaultmemGuarded(t, dir, huge, nil, "hook", "--client", "claude-code")
	if r.code != 0 || r.stdout != "" || !strings.Contains(r.stderr, "over the limit") {
		t.Errorf("an input over the limit: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}
