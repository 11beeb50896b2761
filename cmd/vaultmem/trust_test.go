package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// writeNotes writes n small notes into dir/notes.
func writeNotes(t *testing.T, dir string, n int) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		body := fmt.Sprintf("# Note %d\n\nThe harbour crane %d lifts containers; see [[Note %d]].\n", i, i, (i+1)%n)
		if err := os.WriteFile(filepath.Join(dir, "notes", fmt.Sprintf("Note %d.md", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCacheIgnoredBeforeItExists: a read command in a folder where init
// never ran makes .vaultmem/ with its .gitignore, so git never lists the
// cache or the locks.
func TestCacheIgnoredBeforeItExists(t *testing.T) {
	dir := t.TempDir()
	writeNotes(t, dir, 3)
	ok(t, dir, "--vault", dir, "search", "harbour")
	got, err := os.ReadFile(filepath.Join(dir, ".vaultmem", ".gitignore"))
	if err != nil {
		t.Fatal(err)
	}
	for _, rule := range []string{"cache/", "tmp/", "lock"} {
		if !strings.Contains(string(got), rule+"\n") {
			t.Errorf(".gitignore %q lacks %s", got, rule)
		}
	}
	if _, err := exec.LookPath("git"); err != nil {
		return
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	out, err := exec.Command("git", "-C", dir, "status", "--porcelain").Output()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "cache") || strings.Contains(string(out), "lock") || strings.Contains(string(out), "tmp/") {
		t.Errorf("git sees vaultmem's own files:\n%s", out)
	}
}

// TestEmptyQueries: a query without words is a usage error, never an
// arbitrary answer.
func TestEmptyQueries(t *testing.T) {
	dir := newVault(t)
	writeNotes(t, dir, 3)
	for _, args := range [][]string{
		{"search", ""}, {"search", "???"}, {"recall", "???"}, {"recall", " "},
		{"recall", "--budget", "1000000000000", "harbour crane"}, {"search", "--limit", "100000000", "harbour"},
	} {
		if r := vaultmem(t, dir, "", args...); r.code != exitUsage {
			t.Errorf("%q: exit %d, want %d (usage)\n%s", args, r.code, exitUsage, r.stderr)
		}
	}
}

// TestSearchAnEmptyIndexFails: a query the index cannot answer says so,
// never an empty success.
func TestSearchAnEmptyIndexFails(t *testing.T) {
	dir := newVault(t)
	writeNotes(t, dir, 3)
	r := vaultmem(t, dir, "", "search", "--no-sync", "harbour")
	if r.code == 0 || !strings.Contains(r.stderr, "vaultmem index") {
		t.Errorf("search --no-sync of an unbuilt index: exit %d, %q", r.code, r.stderr)
	}
}

// TestInitNewFolder: init makes the folder it is given.
func TestInitNewFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "vault")
	ok(t, t.TempDir(), "init", dir)
	if _, err := os.Stat(filepath.Join(dir, ".vaultmem", "config.yaml")); err != nil {
		t.Fatal(err)
	}
}

// TestListPages: listings come a page at a time and say what is left.
func TestListPages(t *testing.T) {
	dir := newVault(t)
	writeNotes(t, dir, 25)
	var page struct {
		Notes       []struct{ Path string }
		Total, More int
		NextOffset  int `json:"next_offset"`
	}
	seen := map[string]bool{}
	for offset := 0; ; {
		out := ok(t, dir, "list", "--json", "--limit", "10", "--offset", fmt.Sprint(offset))
		page.NextOffset = 0
		if err := json.Unmarshal([]byte(out), &page); err != nil {
			t.Fatal(err)
		}
		if page.Total != 25 || page.More != 25-offset-len(page.Notes) {
			t.Fatalf("offset %d: total %d, more %d", offset, page.Total, page.More)
		}
		for _, n := range page.Notes {
			seen[n.Path] = true
		}
		if page.More == 0 {
			break
		}
		offset = page.NextOffset
	}
	if len(seen) != 25 {
		t.Errorf("pages held %d notes, want 25", len(seen))
	}
	r := vaultmem(t, dir, "", "list", "--limit", "10")
	if !strings.Contains(r.stderr, "15 more: --offset 10") {
		t.Errorf("text listing does not say what is left: %q", r.stderr)
	}
	if r := vaultmem(t, dir, "", "links", "--limit", "5000"); r.code != exitUsage {
		t.Errorf("--limit 5000: exit %d", r.code)
	}
}

// TestInterruptedIndex: SIGINT stops an index with exit 130 and leaves a
// cache that the next run completes (it rolled back, it did not break).
func TestInterruptedIndex(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	dir := newVault(t)
	writeNotes(t, dir, 3000)
	cmd := exec.Command(os.Args[0], "index")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "VAULTMEM_RUN_MAIN=1", "VAULTMEM_VAULT=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The cache file appears once the command runs (its signal handler is
	// set before): interrupt it then, in the middle of its work.
	for {
		if _, err := os.Stat(filepath.Join(dir, ".vaultmem", "cache", "index.db")); err == nil {
			break
		}
		runtime.Gosched()
	}
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	code := cmd.ProcessState.ExitCode()
	t.Logf("index exited %d after the signal", code)
	switch {
	case code == 0: // it finished before the signal arrived: nothing to check
	case code != exitCanceled || strings.Contains(stderr.String(), "statement is closed"):
		t.Fatalf("interrupted index: exit %d (%v), %q", code, err, stderr.String())
	case strings.TrimSpace(stderr.String()) != "vaultmem: interrupted":
		t.Errorf("interrupted index says %q", stderr.String())
	}
	var st struct{ Notes int }
	if err := json.Unmarshal([]byte(ok(t, dir, "index", "--json")), &st); err != nil || st.Notes != 3000 {
		t.Fatalf("index after the interruption: %d notes, %v", st.Notes, err)
	}
	if r := vaultmem(t, dir, "", "doctor"); r.code != 0 {
		t.Errorf("doctor after the interruption: exit %d\n%s", r.code, r.stdout)
	}
}

// TestShowOddFrontmatter: dates stay as written, and keys or numbers JSON
// cannot hold as they are do not break show --json.
func TestShowOddFrontmatter(t *testing.T) {
	dir := newVault(t)
	if err := os.WriteFile(filepath.Join(dir, "odd.md"), []byte("---\ncreated: 2024-01-02\nyears: {2023: 5}\nratio: .nan\n---\nbody\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var v struct{ Frontmatter map[string]any }
	if err := json.Unmarshal([]byte(ok(t, dir, "show", "--json", "odd")), &v); err != nil {
		t.Fatal(err)
	}
	if v.Frontmatter["created"] != "2024-01-02" || v.Frontmatter["ratio"] != ".nan" || v.Frontmatter["years"].(map[string]any)["2023"] != 5.0 {
		t.Errorf("frontmatter %v", v.Frontmatter)
	}
}
