package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSearchAll: Dream's log is left out of search and recall, though it
// holds the memories' words; search --all finds it.
func TestSearchAll(t *testing.T) {
	dir := fixtureVault(t, "memory-folder")
	log := "---\ntype: dream-log\n---\n\n# Dream log\n\n## 2026-03-06 02:00 UTC\n\n" +
		"- Merged the release freeze memories into [[project_freeze]] (merge freeze for the mobile release branch)\n"
	if err := os.WriteFile(filepath.Join(dir, "memory", "dream-log.md"), []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	paths := func(args ...string) []string {
		t.Helper()
		var out struct {
			Results []struct{ Path string } `json:"results"`
			Items   []struct{ Path string } `json:"items"`
		}
		if err := json.Unmarshal([]byte(ok(t, dir, append([]string{"--vault", dir}, args...)...)), &out); err != nil {
			t.Fatal(err)
		}
		var ps []string
		for _, r := range append(out.Results, out.Items...) {
			ps = append(ps, r.Path)
		}
		return ps
	}
	const want = "memory/dream-log.md"
	if got := paths("search", "--json", "release freeze merged"); slices.Contains(got, want) || len(got) == 0 {
		t.Errorf("search: %v, want hits without %s", got, want)
	}
	if got := paths("search", "--all", "--json", "release freeze merged"); !slices.Contains(got, want) {
		t.Errorf("search --all: %v, want %s among them", got, want)
	}
	if got := paths("recall", "--json", "release freeze merged"); slices.Contains(got, want) || len(got) == 0 {
		t.Errorf("recall: %v, want items without %s", got, want)
	}
}

func TestListFolder(t *testing.T) {
	dir := newVault(t)
	for p, body := range map[string]string{
		"projects/acme/plan.md":  "# Plan\n",
		"projects/acme 2/x.md":   "# Beside, not under\n",
		"projects/other/note.md": "# Other\n",
		"top.md":                 "# Top\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := ok(t, dir, "list", "--folder", "projects/acme"); got != "projects/acme/plan.md\n" {
		t.Errorf("list --folder projects/acme:\n%s", got)
	}
	if got := ok(t, dir, "list", "--folder", "projects"); !strings.Contains(got, "projects/acme/plan.md") || !strings.Contains(got, "projects/acme 2/x.md") || !strings.Contains(got, "projects/other/note.md") || strings.Contains(got, "top.md") {
		t.Errorf("list --folder projects:\n%s", got)
	}
}
