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
		log := mustRead(t, filepath.Join(dir, ".vaultmem", "state", "lessons", "outcomes.jsonl"))
		if n := strings.Count(log, "\n"); n != 2*rounds {
			t.Errorf("%s: %d outcome records, want %d:\n%s", dir, n, 2*rounds, log)
		}
	}
}
