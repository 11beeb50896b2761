package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDoctorTeamFiles: in a git vault, doctor tells what a team's clone
// needs: the merge drivers this clone has not enabled (a warning, exit 0),
// a per-machine folder git still tracks (with the command that stops it),
// and vaultmem's own files that git left with conflict markers (exit 1,
// file:line and the fix), while Dream and MEMORY.md go on reading them.
func TestDoctorTeamFiles(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH")
	}
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "vault")
	gitIn(t, tmp, "init", "-q", "-b", "main", dir)
	ok(t, dir, "init")
	ok(t, dir, "remember", "--type", "project", "--name", "Deploys", "--description", "deploy day", "Deploys go out on Tuesdays.")
	ok(t, dir, "index")
	out := ok(t, dir, "doctor")
	if !strings.Contains(out, "the merge driver vaultmem-note is not enabled in this clone") ||
		!strings.Contains(out, `git config merge.vaultmem-note.driver "vaultmem merge-note %O %A %B %P"`) {
		t.Errorf("doctor did not say the drivers are off:\n%s", out)
	}
	cloneWithDrivers(t, "", dir, testDriver(t, tmp))
	if out := ok(t, dir, "doctor"); strings.Contains(out, "is not enabled") {
		t.Errorf("doctor says a driver is off after enabling them all:\n%s", out)
	}

	// A focus file committed before the folder was ignored.
	focus := filepath.Join(dir, ".vaultmem", "state", "focus", "default.yaml")
	writeFile(t, focus, "task: tasks/x.md\n")
	gitIn(t, dir, "add", "-f", ".vaultmem/state/focus/default.yaml")
	gitIn(t, dir, "commit", "-qm", "focus")
	if out := ok(t, dir, "doctor"); !strings.Contains(out, ".vaultmem/state/focus: per machine, but git still tracks it") ||
		!strings.Contains(out, "git rm -r --cached .vaultmem/state/focus") {
		t.Errorf("doctor did not report the tracked focus:\n%s", out)
	}

	// The review list merged without its union rule.
	reviews := filepath.Join(dir, ".vaultmem", "state", "reviews.yaml")
	line := func(a, b string) string {
		return `- {"a":"memory/` + a + `.md","b":"memory/` + b + `.md","reason":"r","kind":"duplicate","found":"2026-03-01"}` + "\n"
	}
	writeFile(t, reviews, "# Pairs\n<<<<<<< ours\n"+line("a", "b")+"=======\n"+line("c", "d")+">>>>>>> theirs\n")
	r := vaultmem(t, dir, "", "doctor")
	if r.code != exitError || !strings.Contains(r.stdout, ".vaultmem/state/reviews.yaml:2: git's conflict markers: it was merged without git's union rule") ||
		!strings.Contains(r.stderr, "conflict markers") {
		t.Errorf("doctor on a conflicted review list: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	r = vaultmem(t, dir, "", "doctor", "--json")
	var rep struct {
		OK         bool `json:"ok"`
		Conflicted []struct {
			Path string `json:"path"`
			Line int    `json:"line"`
		} `json:"conflicted"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || rep.OK || len(rep.Conflicted) != 1 || rep.Conflicted[0].Line != 2 {
		t.Errorf("doctor --json: %v %+v\n%s", err, rep, r.stdout)
	}
	// Dream and the list go on meanwhile.
	ok(t, dir, "dream")
	ok(t, dir, "remember", "--type", "project", "--name", "Reviews", "--description", "review day", "Reviews happen on Fridays.")
	if b, err := os.ReadFile(filepath.Join(dir, "MEMORY.md")); err != nil || !strings.Contains(string(b), "Reviews") {
		t.Errorf("MEMORY.md after a conflicted review list: %v\n%s", err, b)
	}
}
