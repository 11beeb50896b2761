package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestRecallGolden pins the whole `recall --json` answer on a fixture
// vault (stage times zeroed).
func TestRecallGolden(t *testing.T) {
	dir := fixtureVault(t, "memory-folder")
	// Every stage runs to its end: the same answer on a busy machine.
	if err := os.MkdirAll(filepath.Join(dir, ".vaultmem"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".vaultmem", "config.yaml"), []byte("recall:\n  stage_deadlines: false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// 120 tokens of notes and what their frame costs (see package frame).
	out := ok(t, dir, "--vault", dir, "recall", "--json", "--budget", "170", "how should integration tests treat the database?")
	var res map[string]any
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res["used_tokens"].(float64) > 170 {
		t.Errorf("used %v of 170 tokens", res["used_tokens"])
	}
	golden(t, "recall/memory-folder.json", regexp.MustCompile(`"ms": [0-9.]+`).ReplaceAllString(out, `"ms": 0`))

	// Without --json: the context itself; --explain adds the route on stderr.
	r := vaultmem(t, dir, "", "--vault", dir, "recall", "--explain", "--budget", "120", "how should integration tests treat the database?")
	if r.code != 0 || !strings.Contains(r.stdout, "memory/feedback_testing.md") || !strings.Contains(r.stderr, "stage fast") {
		t.Errorf("recall --explain: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	if r := vaultmem(t, dir, "", "--vault", dir, "recall", "--intent", "gossip", "x"); r.code != exitUsage {
		t.Errorf("unknown intent: exit %d", r.code)
	}
}

// TestRecallSeesChangesAtOnce: recall runs while its sync does, and again
// when the sync changed the index: a note written, edited or deleted just
// before is recalled as it is now, with stage deadlines on.
func TestRecallSeesChangesAtOnce(t *testing.T) {
	dir := fixtureVault(t, "memory-folder")
	ok(t, dir, "--vault", dir, "index")
	note := filepath.Join(dir, "memory", "okapi.md")
	recalled := func(word string) bool {
		t.Helper()
		return strings.Contains(ok(t, dir, "--vault", dir, "recall", "--intent", "simple-fact", word), "memory/okapi.md")
	}
	if err := os.WriteFile(note, []byte("---\nname: Okapi\ntype: user\n---\nThe okapi zebra crossing.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !recalled("okapi") {
		t.Error("a new note is not recalled")
	}
	if err := os.WriteFile(note, []byte("---\nname: Giraffe\ntype: user\n---\nThe giraffe crossing.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if recalled("zebra") || !recalled("giraffe") {
		t.Error("an edited note is recalled by its old words, or not by its new ones")
	}
	if err := os.Remove(note); err != nil {
		t.Fatal(err)
	}
	if recalled("giraffe") {
		t.Error("a deleted note is recalled")
	}
}

// TestRecallNoEvidence: a query that no note holds a word of gets no
// context and no search hit, not the notes nearest to nothing; --explain
// says why.
func TestRecallNoEvidence(t *testing.T) {
	dir := fixtureVault(t, "memory-folder")
	if out := ok(t, dir, "--vault", dir, "search", "xylophonist zzyzx"); out != "" {
		t.Errorf("search: %q, want nothing", out)
	}
	r := vaultmem(t, dir, "", "--vault", dir, "recall", "--explain", "xylophonist zzyzx")
	if r.code != 0 || r.stdout != "" || !strings.Contains(r.stderr, "no evidence") {
		t.Errorf("recall --explain: exit %d\nstdout %q\nstderr %s", r.code, r.stdout, r.stderr)
	}
}
