package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/app"
)

// testDriver writes a script running this test binary as vaultmem, for git
// to run as a merge driver, and returns its path.
func testDriver(t *testing.T, dir string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	driver := filepath.Join(dir, "vaultmem")
	script := "#!/bin/sh\nVAULTMEM_RUN_MAIN=1 VAULTMEM_VAULT= VAULTMEM_SERVER=off exec '" + strings.ReplaceAll(exe, "'", `'\''`) + "' \"$@\"\n"
	if err := os.WriteFile(driver, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return driver
}

// TestTwoMachinesThroughGit: two clones of one vault share a bare remote;
// on each, with a watcher running, an agent remembers, logs to one task
// and reports outcomes on one lesson, then commits, pulls and pushes, in
// turns. Every pull merges without a conflict (MEMORY.md, the task and the
// lesson through vaultmem's drivers, the outcome log by union), nothing
// is lost, the lesson's strength counts every outcome, and both indexes
// equal their notes (vaultmem doctor) after every pull.
func TestTwoMachinesThroughGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH")
	}
	tmp := t.TempDir()
	driver := testDriver(t, tmp)
	git := func(dir string, args ...string) string {
		t.Helper()
		out, err := gitCmd(dir, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v in %s: %v\n%s", args, dir, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	setup := func(dir string) {
		for _, kv := range [][2]string{{"user.name", "Test"}, {"user.email", "test@example.com"}, {"commit.gpgsign", "false"},
			{"pull.rebase", "false"}, {"merge.vaultmem-memory-index.driver", driver + " merge-memory-index %O %A %B %P"},
			{"merge.vaultmem-note.driver", driver + " merge-note %O %A %B %P"}} {
			git(dir, "config", kv[0], kv[1])
		}
	}
	remote, a, b := filepath.Join(tmp, "remote.git"), filepath.Join(tmp, "a"), filepath.Join(tmp, "b")
	git(tmp, "init", "-q", "--bare", "-b", "main", remote)
	os.MkdirAll(a, 0o755)
	git(a, "init", "-q", "-b", "main")
	setup(a)
	ok(t, a, "init")
	ok(t, a, "task", "add", "Ship search", "--description", "Full-text search.")
	ok(t, a, "lesson", "add", "Pin versions", "--trigger", "add a dependency", "--action-bias", "pin the version")
	git(a, "add", "-A")
	git(a, "commit", "-q", "-m", "start")
	git(a, "remote", "add", "origin", remote)
	git(a, "push", "-q", "-u", "origin", "main")
	git(tmp, "clone", "-q", remote, b)
	setup(b)
	for _, d := range []string{a, b} {
		ok(t, d, "index")
		startWatch(t, d)
	}

	fresh := func(dir string) {
		t.Helper()
		var last string
		for range 500 {
			r := vaultmem(t, dir, "", "doctor", "--json")
			var rep struct{ OK bool }
			if json.Unmarshal([]byte(r.stdout), &rep) == nil && rep.OK {
				return
			}
			last = r.stdout + r.stderr
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatalf("%s: the index never caught up with the notes:\n%s", dir, last)
	}
	const rounds = 3
	successes, failures := 0, 0
	for r := range rounds {
		for _, md := range [][2]string{{"a", a}, {"b", b}} {
			m, dir := md[0], md[1]
			ok(t, dir, "remember", "--type", "project", "--name", fmt.Sprintf("Fact %d %s", r, m), "--description", "a fact", fmt.Sprintf("Fact number %d from %s.", r, m))
			ok(t, dir, "task", "event", "--task", "Ship search", "--type", "note", fmt.Sprintf("round %d on %s", r, m))
			verdict := "--success"
			if m == "b" {
				verdict = "--failure"
				failures++
			} else {
				successes++
			}
			ok(t, dir, "lesson", "outcome", "Pin versions", verdict, "--context", "add a dependency")
			git(dir, "add", "-A")
			git(dir, "commit", "-q", "-m", fmt.Sprintf("round %d on %s", r, m))
			git(dir, "pull", "-q", "--no-edit", "origin", "main")
			git(dir, "push", "-q", "origin", "main")
			fresh(dir)
		}
	}
	git(a, "pull", "-q", "--no-edit", "origin", "main")
	fresh(a)
	git(b, "pull", "-q", "--no-edit", "origin", "main")
	if ha, hb := git(a, "rev-parse", "HEAD"), git(b, "rev-parse", "HEAD"); ha != hb {
		t.Fatalf("the clones differ: %s vs %s", ha, hb)
	}
	for _, dir := range []string{a, b} {
		if st := git(dir, "status", "--porcelain"); st != "" {
			t.Errorf("%s: not clean after the merges:\n%s", dir, st)
		}
		index := mustRead(t, filepath.Join(dir, "MEMORY.md"))
		taskNote := mustRead(t, filepath.Join(dir, "tasks", "Ship search.md"))
		lessonNote := mustRead(t, filepath.Join(dir, "lessons", "Pin versions.md"))
		for r := range rounds {
			for _, m := range []string{"a", "b"} {
				if !strings.Contains(index, fmt.Sprintf("Fact %d %s", r, m)) {
					t.Errorf("%s: MEMORY.md lacks Fact %d %s:\n%s", dir, r, m, index)
				}
				if _, err := os.Stat(filepath.Join(dir, "memory", fmt.Sprintf("fact-%d-%s.md", r, m))); err != nil {
					t.Errorf("%s: memory lost: %v", dir, err)
				}
				if !strings.Contains(taskNote, fmt.Sprintf("note: round %d on %s", r, m)) {
					t.Errorf("%s: the task lacks round %d on %s:\n%s", dir, r, m, taskNote)
				}
			}
		}
		strength := 0.5 + 0.05*float64(successes) - 0.1*float64(failures)
		for _, w := range []string{fmt.Sprintf("strength: %g\n", strength), fmt.Sprintf("application_count: %d\n", 2*rounds)} {
			if !strings.Contains(lessonNote, w) {
				t.Errorf("%s: the lesson lacks %q:\n%s", dir, w, lessonNote)
			}
		}
		if n := strings.Count(lessonNote, "ess: ") + strings.Count(lessonNote, "failure: "); n != 2*rounds {
			t.Errorf("%s: %d outcomes in the lesson's history, want %d:\n%s", dir, n, 2*rounds, lessonNote)
		}
		log := outcomeLog(t, dir)
		if n := strings.Count(log, "\n"); n != 2*rounds {
			t.Errorf("%s: %d outcome records, want %d:\n%s", dir, n, 2*rounds, log)
		}
	}
}

// gitIn runs git in dir (see gitCmd) and fails the test unless it exits 0;
// it returns the output, trimmed.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := gitCmd(dir, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v in %s: %v\n%s", args, dir, err, out)
	}
	return strings.TrimSpace(string(out))
}

// cloneWithDrivers makes a clone of remote at dir (or, with remote "", a
// new repository) with vaultmem's three merge drivers enabled as init
// says, run by driver.
func cloneWithDrivers(t *testing.T, remote, dir, driver string) {
	t.Helper()
	if remote == "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		gitIn(t, dir, "init", "-q", "-b", "main")
	} else {
		gitIn(t, filepath.Dir(dir), "clone", "-q", remote, dir)
	}
	for _, kv := range [][2]string{{"user.name", "Test"}, {"user.email", "test@example.com"}, {"commit.gpgsign", "false"},
		{"pull.rebase", "false"}} {
		gitIn(t, dir, "config", kv[0], kv[1])
	}
	// Every driver, as init prints it, run by driver.
	for _, d := range app.MergeDrivers {
		_, cmd, _ := strings.Cut(d.Command, ` "vaultmem `)
		gitIn(t, dir, "config", "merge."+d.Name+".driver", driver+" "+strings.TrimSuffix(cmd, `"`))
	}
}

// TestDreamOnTwoClonesThroughGit: two clones each run Dream (each merging
// duplicates of its own) and remember a memory of the same name, then
// pull: the first time both add the dream log, the checkpoint and the
// memory (git's add/add), the second time both change the log and the
// checkpoint. Every pull merges without a conflict: the log by union,
// holding every run's entries under one head, the checkpoint by its
// driver, listing what both clones saw alike, which the next Dream reads
// without a complaint, and the memory by the note driver, keeping both
// texts.
func TestDreamOnTwoClonesThroughGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH")
	}
	tmp := t.TempDir()
	driver := testDriver(t, tmp)
	remote, a, b := filepath.Join(tmp, "remote.git"), filepath.Join(tmp, "a"), filepath.Join(tmp, "b")
	gitIn(t, tmp, "init", "-q", "--bare", "-b", "main", remote)
	cloneWithDrivers(t, "", a, driver)
	ok(t, a, "init")
	ok(t, a, "remember", "--type", "user", "--name", "User role", "--description", "what the user does", "The user writes Go services.")
	gitIn(t, a, "add", "-A")
	gitIn(t, a, "commit", "-q", "-m", "start")
	gitIn(t, a, "remote", "add", "origin", remote)
	gitIn(t, a, "push", "-q", "-u", "origin", "main")
	cloneWithDrivers(t, remote, b, driver)

	// dupes writes two memories saying the same thing, for Dream to merge.
	dupes := func(dir, id string) {
		t.Helper()
		for _, n := range []string{"first", "second"} {
			writeFile(t, filepath.Join(dir, "memory", id+"-"+n+".md"), "---\nname: "+id+" "+n+"\ndescription: the cache of "+id+
				"\ntype: project\n---\n\nThe build cache of "+id+" lives in the shared bucket.\n")
		}
	}
	logFile, checkpoint := filepath.Join("memory", "dream-log.md"), filepath.Join(".vaultmem", "state", "dream.yaml")
	for round := range 2 {
		for _, dir := range []string{a, b} {
			id := fmt.Sprintf("%s%d", filepath.Base(dir), round)
			dupes(dir, id)
			if round == 0 {
				ok(t, dir, "remember", "--type", "project", "--name", "Shared fact", "--description", "a fact both clones learnt",
					"Learnt on clone "+filepath.Base(dir)+".")
			}
			if out := ok(t, dir, "dream"); !strings.Contains(out, "merged ") {
				t.Fatalf("%s: Dream merged nothing:\n%s", dir, out)
			}
			gitIn(t, dir, "add", "-A")
			gitIn(t, dir, "commit", "-q", "-m", "dream on "+id)
			gitIn(t, dir, "pull", "-q", "--no-edit", "origin", "main")
			gitIn(t, dir, "push", "-q", "origin", "main")
		}
		if round == 0 {
			merged := mustRead(t, filepath.Join(b, checkpoint))
			if !strings.Contains(merged, "memory/user-role.md: ") || strings.Contains(merged, "shared-fact") || strings.Contains(merged, "a0-") {
				t.Errorf("the merged checkpoint lists what the clones did not both see alike, or not what they did:\n%s", merged)
			}
		}
		gitIn(t, a, "pull", "-q", "--no-edit", "origin", "main")
	}
	if ha, hb := gitIn(t, a, "rev-parse", "HEAD"), gitIn(t, b, "rev-parse", "HEAD"); ha != hb {
		t.Fatalf("the clones differ: %s vs %s", ha, hb)
	}
	if st := gitIn(t, b, "status", "--porcelain"); st != "" {
		t.Errorf("not clean after the merges:\n%s", st)
	}
	if out, err := gitCmd(b, "grep", "-n", "<<<<<<<").CombinedOutput(); err == nil {
		t.Errorf("conflict markers left:\n%s", out)
	}
	log := mustRead(t, filepath.Join(b, logFile))
	for _, id := range []string{"a0", "b0", "a1", "b1"} {
		if !strings.Contains(log, "memory/"+id+"-") {
			t.Errorf("the dream log lacks the run on %s:\n%s", id, log)
		}
	}
	if n := strings.Count(log, "# Dream log"); n != 1 {
		t.Errorf("the dream log has %d heads:\n%s", n, log)
	}
	shared := mustRead(t, filepath.Join(b, "memory", "shared-fact.md"))
	if !strings.Contains(shared, "Learnt on clone a.") || !strings.Contains(shared, "Learnt on clone b.") || !strings.HasPrefix(shared, "---\nname: Shared fact\n") {
		t.Errorf("the memory both clones remembered:\n%s", shared)
	}
	var rep struct {
		Skipped []struct{ Path, Reason string }
	}
	if err := json.Unmarshal([]byte(ok(t, b, "dream", "--dry-run", "--json")), &rep); err != nil {
		t.Fatal(err)
	}
	for _, s := range rep.Skipped {
		if strings.Contains(s.Path, "dream.yaml") {
			t.Errorf("the next Dream complains about the merged checkpoint: %s", s.Reason)
		}
	}
}

// TestGitattributesInGit: the lines init writes route, as git reads them,
// every file to its driver: a new vault's, an old vault's (whose
// .gitattributes lacks the newer lines, which a second init adds once),
// a flat memory folder's (where the notes' line must not take MEMORY.md
// and the dream log), and a vault whose folders and dream log have
// spaces and letters of several scripts in their names (glob and shell
// characters the config refuses).
func TestGitattributesInGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH")
	}
	const (
		index, note, union, cp = "vaultmem-memory-index", "vaultmem-note", "union", "vaultmem-checkpoint"
		old                    = "/MEMORY.md merge=vaultmem-memory-index\n/tasks/** merge=vaultmem-note\n/lessons/** merge=vaultmem-note\n" +
			"/.vaultmem/state/lessons/outcomes.jsonl merge=union\n"
	)
	for _, tt := range []struct {
		name  string
		files map[string]string
		want  map[string]string // path: merge attribute ("unspecified" when none)
	}{
		{"a new vault", nil, map[string]string{
			"MEMORY.md": index, "memory/fact.md": note, "memory/sub/fact.md": note, "memory/dream-log.md": union,
			"tasks/ship.md": note, "lessons/pin.md": note, ".vaultmem/state/lessons/outcomes.jsonl": union,
			".vaultmem/state/lessons/outcomes/ann@example.com/2026-11.jsonl": union,
			".vaultmem/state/dream-sessions.jsonl":                           union, ".vaultmem/state/dream.yaml": cp, "notes/plan.md": "unspecified", "fact.md": "unspecified"}},
		{"an old vault", map[string]string{".gitattributes": old}, map[string]string{
			"MEMORY.md": index, "memory/fact.md": note, "memory/dream-log.md": union, "tasks/ship.md": note,
			".vaultmem/state/dream.yaml": cp}},
		{"a flat memory folder", map[string]string{".gitattributes": old,
			".vaultmem/config.yaml": "folders:\n  memory: .\n"}, map[string]string{
			"MEMORY.md": index, "fact.md": note, "dream-log.md": union, "sub/fact.md": "unspecified", "tasks/ship.md": note}},
		{"names with spaces and letters of any script", map[string]string{
			".vaultmem/config.yaml": "folders:\n  memory: my notes ü\n  tasks: to do 任务\ndream:\n  log: logs/dream log.md\n"}, map[string]string{
			"my notes ü/fact.md": note, "my notes u/fact.md": "unspecified", "my notes ü/dream-log.md": note,
			"to do 任务/ship.md": note, "to do/ship.md": "unspecified", "logs/dream log.md": union, "logs/dream-log.md": "unspecified"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			gitIn(t, dir, "init", "-q")
			for p, c := range tt.files {
				writeFile(t, filepath.Join(dir, p), c)
			}
			ok(t, dir, "init")
			attrs := mustRead(t, filepath.Join(dir, ".gitattributes"))
			if !strings.HasPrefix(attrs, tt.files[".gitattributes"]) {
				t.Errorf("init changed the lines there were:\n%s", attrs)
			}
			if out := ok(t, dir, "init"); !strings.Contains(out, "nothing to do") {
				t.Errorf("a second init changed something:\n%s", out)
			}
			if again := mustRead(t, filepath.Join(dir, ".gitattributes")); again != attrs {
				t.Errorf("a second init changed .gitattributes:\n%s\nwas\n%s", again, attrs)
			}
			for p, want := range tt.want {
				out := gitIn(t, dir, "check-attr", "-z", "merge", "--", p)
				if got := strings.Split(out, "\x00"); len(got) < 3 || got[2] != want {
					t.Errorf("%s: merge=%q, want %q\n.gitattributes:\n%s", p, got, want, attrs)
				}
			}
		})
	}
}
