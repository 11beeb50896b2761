package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/watch"
)

func TestInitIsIdempotentAndTouchesNoNote(t *testing.T) {
	dir := fixtureVault(t, "link-forms")
	if err := os.MkdirAll(filepath.Join(dir, ".obsidian"), 0o755); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)

	var first struct {
		Vault   string   `json:"vault"`
		Created []string `json:"created"`
	}
	if err := json.Unmarshal([]byte(ok(t, dir, "init", "--json")), &first); err != nil {
		t.Fatal(err)
	}
	want := []string{".vaultmem/", ".vaultmem/.gitignore", ".vaultmem/config.yaml", ".vaultmem/state/", "memory/", "tasks/", "lessons/"}
	if !reflect.DeepEqual(first.Created, want) {
		t.Errorf("created %v, want %v", first.Created, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "MEMORY.md")); !os.IsNotExist(err) {
		t.Errorf("init wrote MEMORY.md in a vault with no memory (%v)", err)
	}
	if out := ok(t, dir, "init"); !strings.Contains(out, "already a vaultmem vault") {
		t.Errorf("second init: %q", out)
	}
	after := snapshot(t, dir)
	for p, data := range before {
		if after[p] != data {
			t.Errorf("init changed %s", p)
		}
	}
	gi, err := os.ReadFile(filepath.Join(dir, ".vaultmem", ".gitignore"))
	if err != nil || !strings.Contains(string(gi), "cache/") || !strings.Contains(string(gi), "tmp/") || !strings.Contains(string(gi), "lock") {
		t.Errorf(".gitignore: %q %v", gi, err)
	}
	// The vault is now found from a subfolder, like git.
	if out := ok(t, filepath.Join(dir, "sub"), "show", "Target", "--json"); !strings.Contains(out, `"path": "Target.md"`) {
		t.Errorf("show from a subfolder: %s", out)
	}
}

// snapshot returns every file's content under dir.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		files[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestShowJSON(t *testing.T) {
	dir := fixtureVault(t, "frontmatter")
	out := ok(t, dir, "--vault", dir, "show", "links in frontmatter", "--json")
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"path", "name", "type", "title", "aliases", "tags", "frontmatter", "headings", "links", "backlinks", "hash"} {
		if _, ok := v[k]; !ok {
			t.Errorf("show --json lacks %q", k)
		}
	}
	if v["path"] != "Links In Frontmatter.md" || v["title"] != "Frontmatter links" {
		t.Errorf("path/title: %v %v", v["path"], v["title"])
	}
	if n := len(v["links"].([]any)); n != 5 {
		t.Errorf("links: %d, want 5", n)
	}
	other := ok(t, dir, "--vault", dir, "show", "Other.md", "--json")
	var o struct {
		Type      string           `json:"type"`
		Backlinks []map[string]any `json:"backlinks"`
		Headings  []map[string]any `json:"headings"`
	}
	if err := json.Unmarshal([]byte(other), &o); err != nil {
		t.Fatal(err)
	}
	if o.Type != "reference" || len(o.Backlinks) != 4 || len(o.Headings) != 1 {
		t.Errorf("Other: type %q, %d backlinks, %d headings", o.Type, len(o.Backlinks), len(o.Headings))
	}
}

func TestListFilters(t *testing.T) {
	dir := fixtureVault(t, "memory-folder")
	paths := func(args ...string) []string {
		var v struct {
			Notes []struct{ Path string } `json:"notes"`
		}
		if err := json.Unmarshal([]byte(ok(t, dir, append([]string{"--vault", dir, "list", "--json"}, args...)...)), &v); err != nil {
			t.Fatal(err)
		}
		var ps []string
		for _, n := range v.Notes {
			ps = append(ps, n.Path)
		}
		return ps
	}
	if got := paths("--type", "feedback"); !reflect.DeepEqual(got, []string{"memory/feedback_testing.md"}) {
		t.Errorf("--type feedback: %v", got)
	}
	if got := paths("--type", "none"); !reflect.DeepEqual(got, []string{"MEMORY.md"}) {
		t.Errorf("--type none: %v", got)
	}
	if got := paths(); len(got) != 5 {
		t.Errorf("all: %v", got)
	}
	tdir := fixtureVault(t, "tags")
	var v struct{ Notes []struct{ Path string } }
	out := ok(t, tdir, "--vault", tdir, "list", "--json", "--tag", "NESTED")
	if err := json.Unmarshal([]byte(out), &v); err != nil || len(v.Notes) != 1 {
		t.Errorf("--tag NESTED (parent of nested/child): %s %v", out, err)
	}
}

func TestBacklinksOrphansUnresolved(t *testing.T) {
	dir := fixtureVault(t, "resolution")
	out := ok(t, dir, "--vault", dir, "backlinks", "b/deep/Dup")
	want := "Linker.md:5 -> b/deep/Dup.md\nLinker.md:5 -> b/deep/Dup.md\nb/deep/Dup.md:1 -> b/deep/Dup.md\n"
	if out != want {
		t.Errorf("backlinks:\n%s\nwant:\n%s", out, want)
	}
	if out := ok(t, dir, "--vault", dir, "orphans"); out != "" {
		t.Errorf("orphans: %q", out)
	}
	out = ok(t, dir, "--vault", dir, "unresolved", "--json")
	var v struct{ Edges []struct{ Target string } }
	if err := json.Unmarshal([]byte(out), &v); err != nil || len(v.Edges) != 5 {
		t.Errorf("unresolved: %s %v", out, err)
	}
}

func TestErrors(t *testing.T) {
	empty := t.TempDir()
	dir := fixtureVault(t, "bad-input")
	tests := []struct {
		name   string
		dir    string
		args   []string
		code   int
		stderr string
	}{
		{"no vault", empty, []string{"list"}, 1, "no vault here"},
		{"vault flag missing dir", empty, []string{"--vault", filepath.Join(empty, "nope"), "list"}, 1, "no such file or directory"},
		{"unknown command", empty, []string{"frobnicate"}, 2, `no command "frobnicate"`},
		{"unknown flag", dir, []string{"--vault", dir, "list", "--bogus"}, 2, "bogus"},
		{"missing note", dir, []string{"--vault", dir, "show", "Nope"}, 1, `no note has the path or name "Nope": vault: note not found`},
		{"show without note", dir, []string{"--vault", dir, "show"}, 2, "show needs a NOTE"},
		{"stray argument", dir, []string{"--vault", dir, "links", "extra"}, 2, "links takes no arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := vaultmem(t, tt.dir, "", tt.args...)
			if r.code != tt.code {
				t.Errorf("exit %d, want %d; stderr %q", r.code, tt.code, r.stderr)
			}
			if !strings.Contains(r.stderr, tt.stderr) {
				t.Errorf("stderr %q lacks %q", r.stderr, tt.stderr)
			}
			if strings.Contains(r.stderr, "goroutine") || strings.Contains(r.stderr, "panic") {
				t.Errorf("stack trace on stderr: %s", r.stderr)
			}
		})
	}
}

func TestWarningsNameFileAndLine(t *testing.T) {
	dir := fixtureVault(t, "bad-input")
	r := vaultmem(t, dir, "", "--vault", dir, "list")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{
		"warning: Broken YAML.md:3: invalid frontmatter",
		"warning: Tab Indent.md:3: invalid frontmatter",
		"warning: Not A Mapping.md:2: invalid frontmatter",
		"warning: skipped Binary.md: binary file",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if q := vaultmem(t, dir, "", "--vault", dir, "-q", "list"); q.stderr != "" {
		t.Errorf("--quiet still warns: %s", q.stderr)
	}
}

// TestWarningsOncePerChange: a read command warns of a note that cannot
// be fully read when it first reads it, and again only after the note
// changes, whichever command reads it; doctor lists every warning each
// time.
func TestWarningsOncePerChange(t *testing.T) {
	dir := fixtureVault(t, "bad-input")
	broken := "warning: Broken YAML.md:3: invalid frontmatter"
	others := []string{"warning: Tab Indent.md:3: invalid frontmatter", "warning: Not A Mapping.md:2: invalid frontmatter",
		"warning: skipped Binary.md: binary file"}
	run := func(args ...string) result {
		t.Helper()
		r := vaultmem(t, dir, "", append([]string{"--vault", dir}, args...)...)
		if r.code != 0 {
			t.Fatalf("%v: exit %d: %s", args, r.code, r.stderr)
		}
		return r
	}
	first := run("list")
	for _, want := range append([]string{broken}, others...) {
		if !strings.Contains(first.stderr, want) {
			t.Errorf("first list: stderr lacks %q:\n%s", want, first.stderr)
		}
	}
	for _, args := range [][]string{{"list"}, {"show", "Good"}, {"task", "tree"}, {"search", "still"}} {
		if r := run(args...); strings.Contains(r.stderr, "warning:") {
			t.Errorf("%v, nothing changed: warned again:\n%s", args, r.stderr)
		}
	}
	for range 2 {
		r := run("doctor")
		for _, want := range append([]string{broken}, others...) {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("doctor: stdout lacks %q:\n%s", want, r.stdout)
			}
		}
	}
	var rep struct{ Skipped, Warnings []map[string]string }
	if err := json.Unmarshal([]byte(run("doctor", "--json").stdout), &rep); err != nil || len(rep.Skipped) != 1 || len(rep.Warnings) != 3 {
		t.Errorf("doctor --json: %d skipped, %d warnings (%v); want 1 and 3", len(rep.Skipped), len(rep.Warnings), err)
	}

	// The note edited (still broken): the next command to read it, a
	// search, warns of it alone; the list after it warns of nothing.
	p := filepath.Join(dir, "Broken YAML.md")
	if err := os.WriteFile(p, []byte(mustRead(t, p)+"\nEdited.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := run("search", "still")
	if !strings.Contains(r.stderr, broken) {
		t.Errorf("search after the edit: stderr lacks %q:\n%s", broken, r.stderr)
	}
	for _, o := range others {
		if strings.Contains(r.stderr, o) {
			t.Errorf("search after the edit warned of an unchanged note %q:\n%s", o, r.stderr)
		}
	}
	if r := run("list"); strings.Contains(r.stderr, "warning:") {
		t.Errorf("list after the search: warned again:\n%s", r.stderr)
	}
	if r := run("-q", "doctor"); strings.Contains(r.stdout, "warning:") {
		t.Errorf("doctor --quiet warns:\n%s", r.stdout)
	}
}

// TestWatchWarnsAsItStartsThenOfWhatChanged: watch prints every warning
// with its first sync, then those of the files each later sync read.
func TestWatchWarnsAsItStartsThenOfWhatChanged(t *testing.T) {
	st := index.Stats{
		Skipped:  []index.Skip{{Path: "Binary.md", Error: "binary file"}},
		Warnings: []index.Skip{{Path: "A.md", Error: "A.md:3: invalid frontmatter"}, {Path: "B.md", Error: "B.md:2: invalid frontmatter"}},
	}
	for _, asJSON := range []bool{false, true} {
		var stdout, stderr strings.Builder
		sh := &shell{stdout: &stdout, stderr: &stderr}
		var last time.Time
		sh.printBatch(watch.Batch{Time: time.Unix(1, 0), Rescan: true, Stats: st}, asJSON, &last)
		want := "warning: skipped Binary.md: binary file\nwarning: A.md:3: invalid frontmatter\nwarning: B.md:2: invalid frontmatter\n"
		if got := stderr.String(); got != want {
			t.Errorf("json %v, first sync: stderr %q, want %q", asJSON, got, want)
		}
		stderr.Reset()
		later := st
		later.Read = []string{"B.md"}
		sh.printBatch(watch.Batch{Time: time.Unix(2, 0), Paths: []string{"B.md"}, Stats: later}, asJSON, &last)
		if got, want := stderr.String(), "warning: B.md:2: invalid frontmatter\n"; got != want {
			t.Errorf("json %v, a later sync: stderr %q, want %q", asJSON, got, want)
		}
	}
}
