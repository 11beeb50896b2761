package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/fixtures"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/memory"
)

func newVault(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	ok(t, dir, "init")
	return dir
}

func TestRemember(t *testing.T) {
	dir := newVault(t)
	out := ok(t, dir, "remember", "--type", "feedback", "--name", "Use pnpm", "--description", "The user wants pnpm, not npm",
		"Always", "use", "pnpm.")
	if out != "memory/use-pnpm.md\n" {
		t.Errorf("path printed: %q", out)
	}
	want := "---\nname: Use pnpm\ndescription: The user wants pnpm, not npm\ntype: feedback\ncreated: DATE\n---\n\nAlways use pnpm.\n"
	if got := today(t, mustRead(t, filepath.Join(dir, "memory", "use-pnpm.md"))); got != want {
		t.Errorf("note:\n%s\nwant:\n%s", got, want)
	}
	// MEMORY.md lists it at once.
	wantIndex := "# Memory\n\n" + memory.Begin + "\n## Feedback\n\n- [Use pnpm](memory/use-pnpm.md) — The user wants pnpm, not npm\n\n" + memory.End + "\n"
	if got := mustRead(t, filepath.Join(dir, "MEMORY.md")); got != wantIndex {
		t.Errorf("MEMORY.md:\n%s\nwant:\n%s", got, wantIndex)
	}

	// The same memory again changes nothing.
	var res struct {
		Path, Status string
		Line         string `json:"memory_index_line"`
	}
	js := ok(t, dir, "remember", "--json", "--type", "feedback", "--name", "Use pnpm", "--description", "The user wants pnpm, not npm", "Always use pnpm.")
	if err := json.Unmarshal([]byte(js), &res); err != nil || res.Path != "memory/use-pnpm.md" || res.Status != "unchanged" ||
		res.Line != "- [Use pnpm](memory/use-pnpm.md) — The user wants pnpm, not npm" {
		t.Errorf("repeat: %s %v", js, err)
	}

	// A different memory of the same name is refused without --update.
	r := vaultmem(t, dir, "", "remember", "--type", "feedback", "--name", "use PNPM", "--description", "changed", "Use yarn.")
	if r.code != exitConflict || !strings.Contains(r.stderr, "pass --update") {
		t.Errorf("conflict: exit %d, %s", r.code, r.stderr)
	}

	// A human adds a key and a comment; --update keeps them.
	p := filepath.Join(dir, "memory", "use-pnpm.md")
	human := strings.Replace(mustRead(t, p), "type: feedback\n", "type: feedback\n# reviewed by Ana\npriority: high\n", 1)
	if err := os.WriteFile(p, []byte(human), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := vaultmem(t, dir, "Only pnpm.\n", "remember", "--json", "--update", "--type", "feedback", "--name", "Use pnpm", "--description", "pnpm only", "--stdin"); r.code != 0 {
		t.Fatalf("update: exit %d: %s", r.code, r.stderr)
	}
	got := today(t, mustRead(t, p))
	if !strings.Contains(got, "# reviewed by Ana\npriority: high\n") || !strings.Contains(got, "description: pnpm only\n") ||
		!strings.Contains(got, "created: DATE\n") || !strings.Contains(got, "updated: DATE\n") || !strings.HasSuffix(got, "\nOnly pnpm.\n") {
		t.Errorf("update lost the human's lines:\n%s", got)
	}
	if got := mustRead(t, filepath.Join(dir, "MEMORY.md")); !strings.Contains(got, "\n- [Use pnpm](memory/use-pnpm.md) — pnpm only\n") {
		t.Errorf("MEMORY.md not updated:\n%s", got)
	}

	// A name that maps to the same file but is another memory is refused.
	r = vaultmem(t, dir, "", "remember", "--update", "--type", "user", "--name", "use/pnpm", "--description", "x", "y")
	if r.code != exitConflict || !strings.Contains(r.stderr, "already holds another note") {
		t.Errorf("slug collision: exit %d, %s", r.code, r.stderr)
	}
}

// today replaces the dates remember writes (created:, updated:) with DATE,
// after checking they are today's (or, past midnight, yesterday's).
func today(t *testing.T, note string) string {
	t.Helper()
	days := []string{time.Now().Format(time.DateOnly), time.Now().Add(-time.Hour).Format(time.DateOnly)}
	return writtenDate.ReplaceAllStringFunc(note, func(m string) string {
		key, day, _ := strings.Cut(m, ": ")
		if !slices.Contains(days, day) {
			t.Errorf("%s is not today", m)
		}
		return key + ": DATE"
	})
}

var writtenDate = regexp.MustCompile(`(?m)^(created|updated): \d{4}-\d{2}-\d{2}`)

// TestRememberByName: a memory's identity is its frontmatter name, not its
// file name, as in a Claude Code memory folder: remembering it again
// updates its note (with --update) or is refused, never a second note.
func TestRememberByName(t *testing.T) {
	dir := t.TempDir()
	if err := fixtures.CopyTo(dir, "memory-folder"); err != nil {
		t.Fatal(err)
	}
	ok(t, dir, "init")
	r := vaultmem(t, dir, "", "remember", "--type", "feedback", "--name", "testing FEEDBACK", "--description", "d", "Mocks are fine.")
	if r.code != exitConflict || !strings.Contains(r.stderr, "feedback_testing.md") {
		t.Errorf("without --update: exit %d, %s", r.code, r.stderr)
	}
	out := ok(t, dir, "remember", "--update", "--type", "feedback", "--name", "Testing feedback", "--description", "Real database", "Use the real database.")
	if out != "memory/feedback_testing.md\n" {
		t.Errorf("updated %q, want memory/feedback_testing.md", out)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "memory"))
	if len(entries) != 4 {
		t.Errorf("%d notes in memory/, want the 4 there were", len(entries))
	}
	got := mustRead(t, filepath.Join(dir, "MEMORY.md"))
	// init made the fixture's list (Claude's) the region: listed once.
	if !strings.Contains(got, "- [Testing feedback](memory/feedback_testing.md) — Real database\n") || strings.Count(got, "feedback_testing.md") != 1 {
		t.Errorf("MEMORY.md:\n%s", got)
	}
}

func TestRememberHostileNames(t *testing.T) {
	dir := newVault(t)
	for name, want := range map[string]string{
		"User prefers pnpm/yarn": "memory/user-prefers-pnpm-yarn.md",
		"日本語のメモ":                 "memory/日本語のメモ.md",
		"CON":                    "memory/con-.md",
	} {
		out := ok(t, dir, "remember", "--type", "user", "--name", name, "--description", "d", "body")
		if strings.TrimSpace(out) != want {
			t.Errorf("name %q -> %q, want %q", name, out, want)
		}
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "etc")); err == nil {
		t.Errorf("something was written outside the vault")
	}
	for _, tt := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--type", "opinion", "--name", "n", "--description", "d"}, "--type must be one of"},
		{[]string{"--type", "user", "--name", "...", "--description", "d"}, "--name"},
		{[]string{"--type", "user", "--name", "a\nb", "--description", "d"}, "one line"},
		{[]string{"--type", "user", "--description", "d"}, "name"},
		{[]string{"--type", "user", "--name", "../../etc/passwd", "--description", "d", "x"}, "looks like a file path"},
		{[]string{"--type", "user", "--name", "/abs/path", "--description", "d", "x"}, "looks like a file path"},
		{[]string{"--type", "user", "--name", `..\..\x`, "--description", "d", "x"}, "looks like a file path"},
	} {
		r := vaultmem(t, dir, "", append([]string{"remember"}, tt.args...)...)
		if r.code != exitUsage || !strings.Contains(r.stderr, tt.msg) {
			t.Errorf("%v: exit %d, %q", tt.args, r.code, r.stderr)
		}
	}
}

// TestRememberBody: the body comes from the arguments, else from a piped
// standard input; an empty body is a usage error, never an empty memory.
func TestRememberBody(t *testing.T) {
	dir := newVault(t)
	args := []string{"remember", "--type", "project", "--name", "Deploys", "--description", "when deploys go out"}
	if r := vaultmem(t, dir, "", args...); r.code != exitUsage || !strings.Contains(r.stderr, "needs a BODY") {
		t.Errorf("no body: exit %d, %s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "memory", "deploys.md")); err == nil {
		t.Error("an empty memory was written")
	}
	if r := vaultmem(t, dir, "Deploys go out on Tuesdays.\n", args...); r.code != 0 {
		t.Fatalf("piped body: exit %d, %s", r.code, r.stderr)
	}
	if got := mustRead(t, filepath.Join(dir, "memory", "deploys.md")); !strings.HasSuffix(got, "\nDeploys go out on Tuesdays.\n") {
		t.Errorf("piped body not written:\n%s", got)
	}
}

// TestRememberExpectedHash: a read-modify-write script passes the hash it
// read; a memory changed since is not overwritten (exit 3).
func TestRememberExpectedHash(t *testing.T) {
	dir := newVault(t)
	var res struct{ Path, Hash string }
	js := ok(t, dir, "remember", "--json", "--type", "project", "--name", "Deploys", "--description", "d", "Tuesdays.")
	if err := json.Unmarshal([]byte(js), &res); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, filepath.FromSlash(res.Path))
	human := strings.Replace(mustRead(t, p), "Tuesdays.", "Tuesdays and Thursdays.", 1)
	if err := os.WriteFile(p, []byte(human), 0o644); err != nil {
		t.Fatal(err)
	}
	r := vaultmem(t, dir, "", "remember", "--update", "--expected-hash", res.Hash, "--type", "project", "--name", "Deploys", "--description", "d", "Fridays.")
	if r.code != exitConflict || !strings.Contains(r.stderr, "changed") {
		t.Errorf("stale hash: exit %d, %s", r.code, r.stderr)
	}
	if got := mustRead(t, p); got != human {
		t.Errorf("the human's edit was overwritten:\n%s", got)
	}
	now := strings.TrimSpace(ok(t, dir, "show", "--json", res.Path))
	var shown struct{ Hash string }
	if err := json.Unmarshal([]byte(now), &shown); err != nil {
		t.Fatal(err)
	}
	ok(t, dir, "remember", "--update", "--expected-hash", shown.Hash, "--type", "project", "--name", "Deploys", "--description", "d", "Fridays.")
	if got := mustRead(t, p); !strings.HasSuffix(got, "\nFridays.\n") {
		t.Errorf("update with the current hash not written:\n%s", got)
	}
}

// TestRememberConcurrent runs 8 processes writing 25 memories each.
func TestRememberConcurrent(t *testing.T) {
	dir := newVault(t)
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for p := range 8 {
		wg.Go(func() {
			for i := range 25 {
				r := vaultmem(t, dir, "", "remember", "--type", "project", "--name", fmt.Sprintf("proc %d memory %d", p, i),
					"--description", fmt.Sprintf("memory %d of process %d", i, p), "body", "text")
				if r.code != 0 {
					errs <- r.stderr
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
	entries, err := os.ReadDir(filepath.Join(dir, "memory"))
	if err != nil || len(entries) != 200 {
		t.Fatalf("%d notes on disk, want 200 (%v)", len(entries), err)
	}
	for _, e := range entries {
		n := markdown.Parse(e.Name(), []byte(mustRead(t, filepath.Join(dir, "memory", e.Name()))))
		if len(n.Warnings) > 0 || n.Type() != string(memory.Project) {
			t.Errorf("%s: %v kind %q", e.Name(), n.Warnings, n.Type())
		}
	}
	var list struct{ Notes []struct{ Path string } }
	if err := json.Unmarshal([]byte(ok(t, dir, "list", "--type", "project", "--json")), &list); err != nil || len(list.Notes) != 200 {
		t.Errorf("list --type project: %d notes (%v)", len(list.Notes), err)
	}
	tmp, _ := os.ReadDir(filepath.Join(dir, ".vaultmem", "tmp"))
	if len(tmp) != 0 {
		t.Errorf("temp files left: %d", len(tmp))
	}
	// And the index sees them all.
	out := ok(t, dir, "list", "--type", "project", "--json")
	if n := strings.Count(out, `"path"`); n != 200 {
		t.Errorf("list --type project --json shows %d notes, want 200", n)
	}
}

func mustRead(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
