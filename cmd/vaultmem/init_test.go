package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/app"
	"github.com/vaultmem/vaultmem/memory"
)

// initJSON is what `init --json` prints.
type initJSON struct {
	Vault         string   `json:"vault"`
	Created       []string `json:"created"`
	Gitattributes string   `json:"gitattributes"`
	ClaudeCode    bool     `json:"claude_code_memory_folder"`
	MergeDriver   string   `json:"merge_driver"`
}

func runInit(t *testing.T, dir string) initJSON {
	t.Helper()
	var res initJSON
	if err := json.Unmarshal([]byte(ok(t, dir, "init", "--json")), &res); err != nil {
		t.Fatal(err)
	}
	return res
}

// TestInitClaudeCodeFolder: init on a Claude Code memory folder keeps the
// memories where they are (memory: .), makes no folder, touches no note,
// turns MEMORY.md's list into the region (keeping the old file), and
// remember then writes beside them and lists the memory once.
func TestInitClaudeCodeFolder(t *testing.T) {
	dir := fixtureVault(t, "claude-code")
	before := snapshot(t, dir)

	res := runInit(t, dir)
	want := []string{".vaultmem/", ".vaultmem/.gitignore", ".vaultmem/config.yaml", ".vaultmem/state/"}
	if !reflect.DeepEqual(res.Created, want) || !res.ClaudeCode {
		t.Errorf("created %v (want %v), claude_code_memory_folder %v", res.Created, want, res.ClaudeCode)
	}
	cfg := mustRead(t, filepath.Join(dir, ".vaultmem", "config.yaml"))
	if !strings.Contains(cfg, "\n  memory: .\n") || !strings.Contains(cfg, "Claude Code memory folder") || strings.Contains(cfg, "memory: memory") {
		t.Errorf("config:\n%s", cfg)
	}
	// The rest of the config is the default's, line for line.
	got := strings.Replace(cfg, app.ClaudeCodeMemoryLine, "  memory: memory\n", 1)
	if got, want := strings.Replace(got, app.ClaudeCodeViewsLine, "  views: views\n", 1), app.DefaultConfigText; got != want {
		t.Errorf("config differs from the default beyond the memory and views folders:\n%s", got)
	}
	for _, d := range []string{"memory", "tasks", "lessons", "views"} {
		if _, err := os.Stat(filepath.Join(dir, d)); !os.IsNotExist(err) {
			t.Errorf("init made %s/ (%v)", d, err)
		}
	}
	if out := ok(t, dir, "init"); !strings.Contains(out, "already a vaultmem vault") {
		t.Errorf("second init: %q", out)
	}
	// No note changed; MEMORY.md, Claude's list of the memories, is now
	// vaultmem's region listing them, and the old file is kept.
	after := snapshot(t, dir)
	indexPath := filepath.Join(dir, "MEMORY.md")
	for p, data := range before {
		if after[p] != data && p != indexPath {
			t.Errorf("init changed %s", p)
		}
	}
	if got := mustRead(t, filepath.Join(dir, ".vaultmem", "state", app.AdoptedBackup)); got != before[indexPath] {
		t.Errorf("the old MEMORY.md was not kept:\n%s", got)
	}
	adopted := mustRead(t, indexPath)
	if !strings.HasPrefix(adopted, memory.Begin+"\n## User\n\n- [User role](user_role.md) — ") || strings.Count(adopted, "](") != 5 {
		t.Errorf("MEMORY.md after init:\n%s", adopted)
	}

	out := ok(t, dir, "remember", "--type", "user", "--name", "New one", "--description", "d", "body")
	if out != "new-one.md\n" {
		t.Errorf("remember wrote %q, want new-one.md at the top level", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "new-one.md")); err != nil {
		t.Error(err)
	}
	idx := mustRead(t, filepath.Join(dir, "MEMORY.md"))
	if strings.Count(idx, "(user_role.md)") != 1 {
		t.Errorf("a memory is listed twice:\n%s", idx)
	}
	i := strings.Index(idx, memory.Begin)
	if i < 0 {
		t.Fatalf("MEMORY.md has no region:\n%s", idx)
	}
	region := idx[i:]
	for _, line := range []string{"- [New one](new-one.md) — d\n", "- [Testing feedback](feedback_testing.md) — ", "- [User role](user_role.md) — "} {
		if !strings.Contains(region, line) {
			t.Errorf("region lacks %q:\n%s", line, idx)
		}
	}
	for _, d := range []string{"memory", "tasks", "lessons"} {
		if _, err := os.Stat(filepath.Join(dir, d)); !os.IsNotExist(err) {
			t.Errorf("remember made %s/ (%v)", d, err)
		}
	}
}

// TestInitDetectsClaudeCodeFolder: only MEMORY.md with a memory note
// beside it, in a folder not yet a vault, is a Claude Code memory folder.
func TestInitDetectsClaudeCodeFolder(t *testing.T) {
	note := func(typ string) string { return "---\nname: N\ndescription: d\ntype: " + typ + "\n---\n\nBody.\n" }
	for _, c := range []struct {
		name       string
		files      map[string]string
		wantMemory string
	}{
		{"empty folder", nil, "memory"},
		{"memory notes in a memory folder", map[string]string{"MEMORY.md": "- [N](memory/n.md)\n", "memory/n.md": note("user")}, "memory"},
		{"MEMORY.md beside a task", map[string]string{"MEMORY.md": "", "t.md": note("task")}, "memory"},
		{"MEMORY.md beside a plain note", map[string]string{"MEMORY.md": "", "p.md": "# Plain\n"}, "memory"},
		{"memory notes without MEMORY.md", map[string]string{"feedback_x.md": note("feedback")}, "memory"},
		{"a hidden memory note", map[string]string{"MEMORY.md": "", ".x.md": note("user")}, "memory"},
		{"MEMORY.md beside a memory note", map[string]string{"MEMORY.md": "", "n.md": note("reference")}, "."},
		{"a type in capitals", map[string]string{"MEMORY.md": "", "p.md": "# Plain\n", "n.md": note("Feedback")}, "."},
		{"already configured", map[string]string{"MEMORY.md": "", "n.md": note("user"),
			".vaultmem/config.yaml": "folders:\n  memory: memory\n"}, "memory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for p, data := range c.files {
				writeFile(t, filepath.Join(dir, filepath.FromSlash(p)), data)
			}
			res := runInit(t, dir)
			if res.ClaudeCode != (c.wantMemory == ".") {
				t.Errorf("claude_code_memory_folder %v", res.ClaudeCode)
			}
			cfg, err := app.LoadConfig(dir)
			if err != nil || cfg.Folders.Memory != c.wantMemory {
				t.Errorf("memory folder %q (%v), want %q", cfg.Folders.Memory, err, c.wantMemory)
			}
			for _, d := range []string{"memory", "tasks", "lessons"} {
				_, err := os.Stat(filepath.Join(dir, d))
				want := c.wantMemory != "." || d == "memory" && c.files["memory/n.md"] != ""
				if made := err == nil; made != want {
					t.Errorf("%s/ exists: %v, want %v", d, made, want)
				}
			}
		})
	}
}

// TestInitGitattributes: init routes MEMORY.md, the memory, task and
// lesson notes, the logs and Dream's checkpoint to their merge drivers in
// .gitattributes, creating the file or adding the lines it lacks,
// keeping the other lines byte for byte, once; and says how to enable the
// drivers.
func TestInitGitattributes(t *testing.T) {
	line := "/MEMORY.md merge=vaultmem-memory-index"
	folders := []string{"/memory/** merge=vaultmem-note", "/tasks/** merge=vaultmem-note", "/lessons/** merge=vaultmem-note"}
	files := []string{"/memory/dream-log.md merge=union", "/.vaultmem/state/lessons/outcomes.jsonl merge=union", "/.vaultmem/state/dream-sessions.jsonl merge=union", "/.vaultmem/state/reviews.yaml merge=union", "/.vaultmem/state/views.yaml merge=union", "/.vaultmem/state/dream.yaml merge=vaultmem-checkpoint", "/.vaultmem/state/lessons/outcomes/** merge=union", "/views/*.canvas merge=vaultmem-canvas"}
	rest := append(append([]string{}, folders...), files...)
	all := func(nl string) string {
		return strings.Join(folders, nl) + nl + line + nl + strings.Join(files, nl) + nl
	}
	for _, c := range []struct {
		name   string
		exists bool
		before string
		want   string
		status string
	}{
		{"missing", false, "", all("\n"), "created"},
		{"empty", true, "", all("\n"), "appended"},
		{"other lines", true, "*.png binary\n# keep me  \n", "*.png binary\n# keep me  \n" + all("\n"), "appended"},
		{"no final newline", true, "*.png binary", "*.png binary\n" + all("\n"), "appended"},
		{"CRLF", true, "*.png binary\r\n", "*.png binary\r\n" + all("\r\n"), "appended"},
		{"MEMORY.md there", true, "*.png binary\n" + line + "\n*.pdf binary\n", "*.png binary\n" + line + "\n*.pdf binary\n" + strings.Join(rest, "\n") + "\n", "appended"},
		{"all there", true, "*.png binary\n" + all("\n") + "*.pdf binary\n", "*.png binary\n" + all("\n") + "*.pdf binary\n", "unchanged"},
		{"all there, spaced", true, "MEMORY.md   merge=vaultmem-memory-index\n" + strings.Join(rest, "\n"), "MEMORY.md   merge=vaultmem-memory-index\n" + strings.Join(rest, "\n"), "unchanged"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, ".gitattributes")
			if c.exists {
				writeFile(t, p, c.before)
			}
			res := runInit(t, dir)
			if res.Gitattributes != c.status || res.MergeDriver != app.ListDriver.Command {
				t.Errorf("gitattributes %q, want %q; merge_driver %q", res.Gitattributes, c.status, res.MergeDriver)
			}
			if got := mustRead(t, p); got != c.want {
				t.Errorf(".gitattributes %q, want %q", got, c.want)
			}
			out := ok(t, dir, "init")
			if got := mustRead(t, p); got != c.want {
				t.Errorf("second init: .gitattributes %q, want %q", got, c.want)
			}
			if !strings.Contains(out, "already a vaultmem vault") || !strings.Contains(out, `git config merge.vaultmem-note.driver "vaultmem merge-note %O %A %B %P"`) ||
				!strings.Contains(out, `git config merge.vaultmem-memory-index.driver "vaultmem merge-memory-index %O %A %B %P"`) ||
				!strings.Contains(out, `git config merge.vaultmem-memory-index.name "vaultmem MEMORY.md region"`) {
				t.Errorf("second init printed:\n%s", out)
			}
		})
	}
}

// writeFile writes data at p, making its folder.
func writeFile(t *testing.T, p, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestInitKeepsWhatAHumanAddedToMemoryIndex: init turns MEMORY.md's list
// of memories into the region, and every line that is not such a list
// line (a human's "IMPORTANT: always answer in French" above, under or
// after the list; a heading over lines of theirs; a list line naming no
// memory) stays in MEMORY.md, outside the region, word for word; a list
// line whose words the region does not show is warned of by line.
func TestInitKeepsWhatAHumanAddedToMemoryIndex(t *testing.T) {
	fixtureList := mustRead(t, filepath.Join(fixtureVault(t, "claude-code"), "MEMORY.md"))
	important := "IMPORTANT: always answer in French"
	for _, c := range []struct {
		name, memoryIndex string
		kept, warnings    []string // what MEMORY.md keeps outside the region; what stderr says
		above             int      // how many of kept come before the region
	}{
		{name: "a line above the list", memoryIndex: "# Memory\n\n" + important + "\n\n" + fixtureList,
			kept: []string{"# Memory", important}, above: 2},
		{name: "a line after the list", memoryIndex: fixtureList + "\n" + important + "\n", kept: []string{important}},
		{name: "a line under a list line", memoryIndex: strings.Replace(fixtureList, "\n", "\n  "+important+"\n", 1), kept: []string{"  " + important}},
		{name: "headings", memoryIndex: "# Memory Index\n\n## User\n" + strings.Replace(fixtureList, "- [Commit", "\n## Notes\n"+important+
			"\n- [Elsewhere](https://example.com/x.md) — not a memory\n\n## Feedback\n- [Commit", 1),
			kept: []string{"# Memory Index", "## Notes", important, "- [Elsewhere](https://example.com/x.md) — not a memory"}, above: 1},
		{name: "in a list line's words", memoryIndex: strings.Replace(fixtureList, "data engineer, new to the frontend; explain React in backend terms", important, 1),
			warnings: []string{`warning: MEMORY.md:1: "` + important + `" (of user_role.md) is no longer in MEMORY.md: the region shows the note's description`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := fixtureVault(t, "claude-code")
			p := filepath.Join(dir, "MEMORY.md")
			if err := os.WriteFile(p, []byte(c.memoryIndex), 0o644); err != nil {
				t.Fatal(err)
			}
			r := vaultmem(t, dir, "", "init")
			if r.code != 0 {
				t.Fatalf("init: exit %d: %s", r.code, r.stderr)
			}
			for _, w := range c.warnings {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
				}
			}
			if got := mustRead(t, filepath.Join(dir, ".vaultmem", "state", app.AdoptedBackup)); got != c.memoryIndex {
				t.Errorf("the old MEMORY.md was not kept:\n%s", got)
			}
			got := mustRead(t, p)
			b, e := strings.Index(got, memory.Begin), strings.Index(got, memory.End)
			if b < 0 || e < b {
				t.Fatalf("MEMORY.md has no region:\n%s", got)
			}
			region := got[b:e]
			for _, m := range []string{"(user_role.md)", "(feedback_testing.md)", "(feedback_commits.md)", "(project_freeze.md)", "(reference_linear.md)"} {
				if n := strings.Count(got, m); n != 1 || !strings.Contains(region, m) {
					t.Errorf("%s is listed %d times, in the region: %v:\n%s", m, n, strings.Contains(region, m), got)
				}
			}
			outside := strings.Split(got[:b]+"\n"+got[e+len(memory.End):], "\n")
			var lines []string
			for _, l := range outside {
				if strings.TrimSpace(l) != "" {
					lines = append(lines, l)
				}
			}
			if strings.Join(lines, "\n") != strings.Join(c.kept, "\n") {
				t.Errorf("kept outside the region %q, want %q:\n%s", lines, c.kept, got)
			}
			for i, k := range c.kept {
				if before := strings.Index(got, k) < b; before != (i < c.above) {
					t.Errorf("%q before the region: %v, want %v", k, before, i < c.above)
				}
			}
		})
	}
}

// TestInitKeepsAListThatSaysMore: a MEMORY.md line whose hook says what
// the note's missing description does not is never replaced by the
// region: init leaves the file as it is.
func TestInitKeepsAListThatSaysMore(t *testing.T) {
	dir := t.TempDir()
	list := "- [Tabs](feedback_tabs.md) — the user wants tabs in Go code\n"
	for p, c := range map[string]string{
		"MEMORY.md":        list,
		"feedback_tabs.md": "---\nname: Tabs\ntype: feedback\n---\nTabs.\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if res := runInit(t, dir); !res.ClaudeCode {
		t.Fatal("not detected")
	}
	if got := mustRead(t, filepath.Join(dir, "MEMORY.md")); got != list {
		t.Errorf("MEMORY.md:\n%s", got)
	}
}
