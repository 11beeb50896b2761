package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/fixtures/gen"
)

// indexStats is the JSON of `vaultmem index --json`.
type indexStats struct {
	Notes, Chunks, Parsed, Removed, Embedded int
	Skipped                                  []struct{ Path, Error string }
	MS                                       *int64 `json:"ms"`
}

func indexJSON(t *testing.T, dir string, args ...string) indexStats {
	t.Helper()
	var st indexStats
	out := ok(t, dir, append([]string{"--vault", dir, "index", "--json"}, args...)...)
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("index --json: %v\n%s", err, out)
	}
	if st.MS == nil {
		t.Fatalf("index --json lacks ms: %s", out)
	}
	return st
}

func TestIndexAndSearch(t *testing.T) {
	dir := fixtureVault(t, "memory-folder")
	st := indexJSON(t, dir)
	if st.Notes != 5 || st.Parsed != 5 || st.Chunks < 5 {
		t.Errorf("first index: %+v", st)
	}
	if st := indexJSON(t, dir); st.Parsed != 0 && st.Notes != 5 {
		t.Errorf("second index: %+v", st)
	}
	if st := indexJSON(t, dir, "--rebuild"); st.Parsed != 5 {
		t.Errorf("rebuild: %+v", st)
	}
	for _, mode := range []string{"keyword", "vector", "hybrid"} {
		out := ok(t, dir, "--vault", dir, "search", "--mode", mode, "--json", "real", "database", "mocks")
		var res struct {
			Results []struct {
				Path, Heading, Block, Snippet string
				Line                          int
				Score                         float64
			}
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%s: %v\n%s", mode, err, out)
		}
		if len(res.Results) == 0 || res.Results[0].Path != "memory/feedback_testing.md" {
			t.Errorf("%s: top result %+v", mode, res.Results)
		}
	}
	// Filters.
	out := ok(t, dir, "--vault", dir, "search", "--mode", "keyword", "--type", "project", "--json", "freeze")
	if !strings.Contains(out, "project_freeze.md") || strings.Contains(out, "MEMORY.md") {
		t.Errorf("--type project: %s", out)
	}
	// A note written after the last index is found: search syncs first.
	if err := os.WriteFile(filepath.Join(dir, "memory", "new.md"), []byte("---\nname: Zebra\ndescription: zebra crossing\ntype: user\n---\nStripes.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := ok(t, dir, "--vault", dir, "search", "zebra"); !strings.Contains(out, "memory/new.md") {
		t.Errorf("new note not found: %s", out)
	}
	// The search runs while the sync does, and again when the sync
	// changed the index: an edit and a deletion are seen at once.
	if err := os.WriteFile(filepath.Join(dir, "memory", "new.md"), []byte("---\nname: Okapi\ndescription: okapi crossing\ntype: user\n---\nStripes.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := ok(t, dir, "--vault", dir, "search", "--mode", "keyword", "zebra"); strings.Contains(out, "memory/new.md") {
		t.Errorf("edited note found by its old word: %s", out)
	}
	if out := ok(t, dir, "--vault", dir, "search", "okapi"); !strings.Contains(out, "memory/new.md") {
		t.Errorf("edited note not found by its new word: %s", out)
	}
	if err := os.Remove(filepath.Join(dir, "memory", "new.md")); err != nil {
		t.Fatal(err)
	}
	if out := ok(t, dir, "--vault", dir, "search", "okapi"); strings.Contains(out, "memory/new.md") {
		t.Errorf("deleted note found: %s", out)
	}
	r := vaultmem(t, dir, "", "--vault", dir, "search", "--mode", "fuzzy", "x")
	if r.code != 2 || !strings.Contains(r.stderr, "unknown search mode") {
		t.Errorf("bad mode: %d %s", r.code, r.stderr)
	}
}

func TestSearchCJK(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"zh.md": "# 数据库\n\n数据库连接池的大小应该根据并发量调整。\n",
		"ja.md": "# 機械学習\n\n機械学習のモデルを評価する方法について。\n",
		"en.md": "# Pools\n\nConnection pool sizing.\n",
	}
	for p, c := range files {
		if err := os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for q, want := range map[string]string{"连接池": "zh.md", "并发": "zh.md", "学習": "ja.md", "モデル": "ja.md", "数": "zh.md"} {
		out := ok(t, dir, "--vault", dir, "search", "--mode", "keyword", "--json", q)
		var res struct{ Results []struct{ Path string } }
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		if len(res.Results) == 0 || res.Results[0].Path != want {
			t.Errorf("search %q: %+v, want %s first", q, res.Results, want)
		}
	}
}

// TestIndexSurvivesKill kills `vaultmem index` in the middle of a cold
// index of a generated vault; the next command must work and give a
// complete index.
func TestIndexSurvivesKill(t *testing.T) {
	dir := t.TempDir()
	if _, _, err := gen.Write(dir, gen.Options{Notes: 1000}); err != nil {
		t.Fatal(err)
	}
	for _, delay := range []time.Duration{100 * time.Millisecond, 400 * time.Millisecond} {
		cmd := exec.Command(os.Args[0], "--vault", dir, "index", "--rebuild")
		cmd.Env = append(os.Environ(), "VAULTMEM_RUN_MAIN=1")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(delay)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
	}
	st := indexJSON(t, dir)
	if st.Notes != 1000 {
		t.Errorf("after kill, index has %d notes, want 1000: %+v", st.Notes, st)
	}
	if st := indexJSON(t, dir); st.Parsed != 0 && st.Notes != 1000 {
		t.Errorf("not stable after recovery: %+v", st)
	}
}
