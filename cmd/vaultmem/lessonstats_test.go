package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/app"
)

// TestLessonStatsLive: 'lesson stats --live' says when no vaultmem mcp or
// watch runs and gives the lessons failing three times in a row from the
// outcome log, which MEMORY.md lists too; while a watcher runs, it gives
// the watcher's own counters (the match it answered).
func TestLessonStatsLive(t *testing.T) {
	dir := newVault(t)
	ok(t, dir, "lesson", "add", "Run migrations first", "--trigger", "integration tests", "--action-bias", "run make migrate first")
	for range 3 {
		ok(t, dir, "lesson", "outcome", "Run migrations first", "--failure")
	}
	off := []string{"VAULTMEM_SERVER=off"}
	r := vaultmemEnv(t, dir, "", off, "lesson", "stats", "--live")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "no vaultmem mcp or watch is running for this vault") ||
		!strings.Contains(r.stdout, "Run migrations first (lessons/Run migrations first.md): 3 failures in a row since ") {
		t.Errorf("no server: %+v", r)
	}
	var h app.LessonHealth
	r = vaultmemEnv(t, dir, "", off, "lesson", "stats", "--live", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &h); err != nil || r.code != 0 || h.Live || h.Latency != nil || len(h.Failing) != 1 ||
		!strings.Contains(r.stderr, "no vaultmem mcp or watch is running") {
		t.Errorf("no server, --json: %v, %+v", err, r)
	}
	list, err := os.ReadFile(filepath.Join(dir, "MEMORY.md"))
	if err != nil || !strings.Contains(string(list), "[Run migrations first](lessons/Run%20migrations%20first.md) keeps failing: 3 in a row") {
		t.Errorf("MEMORY.md (%v):\n%s", err, list)
	}
	if r := vaultmem(t, dir, "", "lesson", "stats", "--live", "extra"); r.code != 2 {
		t.Errorf("an argument: %+v", r)
	}

	w := startWatch(t, dir)
	waitForServer(t, app.ServerAddress(dir), w)
	require := []string{"VAULTMEM_SERVER=require"}
	if r := vaultmemEnv(t, dir, "", require, "lesson", "match", "run", "the", "integration", "tests"); r.code != 0 {
		t.Fatalf("match: %+v", r)
	}
	r = vaultmemEnv(t, dir, "", require, "lesson", "stats", "--live", "--json")
	h = app.LessonHealth{}
	if err := json.Unmarshal([]byte(r.stdout), &h); err != nil || !h.Live || h.Latency == nil || h.Latency.Matches != 1 ||
		len(h.Lessons) != 1 || h.Lessons[0].Shown != 1 || len(h.Failing) != 1 || r.stderr != "" {
		t.Errorf("served: %v, %+v", err, r)
	}
	r = vaultmemEnv(t, dir, "", require, "lesson", "stats", "--live")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "live since ") || !strings.Contains(r.stdout, "match latency over the latest 1 of 1 matches") {
		t.Errorf("served, text: %+v", r)
	}
	w.stop()
}
