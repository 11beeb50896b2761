package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/memory"
)

// TestMergeDriverInGit: two branches each remember a memory; git, with
// the driver init set up in .gitattributes and enabled in the clone's
// config, merges MEMORY.md without a conflict, listing both, keeping the
// human's text, and as vaultmem writes it.
func TestMergeDriverInGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH")
	}
	tmp := t.TempDir()
	repo := filepath.Join(tmp, "vault")
	// git runs the driver through the shell: a vaultmem that is this test
	// binary.
	driver := testDriver(t, tmp)
	git := func(args ...string) string {
		t.Helper()
		out, err := gitCmd(repo, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}

	const human = "# Team memory\n\nKept by hand: read the README first.\n"
	writeFile(t, filepath.Join(repo, "MEMORY.md"), human)
	git("init", "-q")
	git("config", "user.name", "Test")
	git("config", "user.email", "test@example.com")
	git("config", "commit.gpgsign", "false")
	ok(t, repo, "init")
	if got := mustRead(t, filepath.Join(repo, ".gitattributes")); !strings.Contains(got, "\n/MEMORY.md merge=vaultmem-memory-index\n") {
		t.Fatalf(".gitattributes: %q", got)
	}
	git("config", "merge.vaultmem-memory-index.name", "vaultmem MEMORY.md region")
	git("config", "merge.vaultmem-memory-index.driver", driver+" merge-memory-index %O %A %B %P")
	if got := git("check-attr", "merge", "MEMORY.md"); got != "MEMORY.md: merge: vaultmem-memory-index" {
		t.Fatalf("check-attr: %q", got)
	}
	remember := func(typ, name string) {
		t.Helper()
		ok(t, repo, "remember", "--type", typ, "--name", name, "--description", name+" hook", "The body of "+name+".")
	}
	remember("user", "User role")
	git("add", ".")
	git("commit", "-q", "-m", "base")
	main := git("rev-parse", "--abbrev-ref", "HEAD")

	git("checkout", "-q", "-b", "other")
	remember("project", "Beta")
	git("add", ".")
	git("commit", "-q", "-m", "beta")
	git("checkout", "-q", main)
	remember("project", "Alpha")
	git("add", ".")
	git("commit", "-q", "-m", "alpha")

	// Both sides added the same new group at the same place: a line
	// merge conflicts.
	versions := map[string]string{}
	for _, rev := range []string{main + "~1", main, "other"} {
		versions[rev] = filepath.Join(tmp, strings.ReplaceAll(rev, "~", "-"))
		if err := os.WriteFile(versions[rev], []byte(git("show", rev+":MEMORY.md")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var exit *exec.ExitError
	if err := gitCmd(repo, "merge-file", "-q", "-p", versions[main], versions[main+"~1"], versions["other"]).Run(); !errors.As(err, &exit) {
		t.Fatalf("git merge-file without the driver: %v, want a conflict", err)
	}

	git("merge", "-q", "--no-edit", "other")
	if st := git("status", "--porcelain"); st != "" {
		t.Fatalf("after the merge: %s", st)
	}
	merged := mustRead(t, filepath.Join(repo, "MEMORY.md"))
	for _, want := range []string{"- [Alpha](memory/alpha.md) — Alpha hook\n", "- [Beta](memory/beta.md) — Beta hook\n", "- [User role](memory/user-role.md) — User role hook\n"} {
		if !strings.Contains(merged, want) {
			t.Errorf("merged MEMORY.md lacks %q", want)
		}
	}
	if !strings.HasPrefix(merged, human) || strings.Contains(merged, "<<<<<<<") || strings.Count(merged, memory.Begin) != 1 ||
		strings.Index(merged, "Alpha") > strings.Index(merged, "Beta") {
		t.Errorf("merged MEMORY.md:\n%s", merged)
	}

	// The merge wrote what vaultmem writes: remembering one more adds its
	// line and changes nothing else.
	remember("user", "Gamma")
	after := mustRead(t, filepath.Join(repo, "MEMORY.md"))
	if got := strings.Replace(after, "- [Gamma](memory/gamma.md) — Gamma hook\n", "", 1); got != merged {
		t.Errorf("vaultmem rewrote the merged region:\nmerged\n%s\nafter remember\n%s", merged, after)
	}
}

// TestMergeDriverCommand: the command writes the merge to OURS, or on a
// conflict or broken markers leaves OURS as it was and exits 1 naming
// the file; it needs no vault.
func TestMergeDriverCommand(t *testing.T) {
	dir := t.TempDir() // not a vault
	render := func(before string, es ...memory.Entry) string {
		out, _, err := memory.Render("notes/MEMORY.md", []byte(before+memory.Begin+memory.End+"\n"), es, nil)
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	a := memory.Entry{Path: "notes/memory/a.md", Type: "user", Title: "A", Hook: "a"}
	b := memory.Entry{Path: "notes/memory/b.md", Type: "user", Title: "B", Hook: "b"}
	c := memory.Entry{Path: "notes/memory/c.md", Type: "user", Title: "C", Hook: "c"}
	for _, tc := range []struct {
		name               string
		base, ours, theirs string
		args               []string // after the three files
		code               int
		want               string // OURS afterwards
		stderr             string
	}{
		{name: "merged", base: render("H\n", a), ours: render("H\n", a, b), theirs: render("H\n", a, c),
			args: []string{"notes/MEMORY.md"}, want: render("H\n", a, b, c)},
		{name: "conflict outside the region", base: render("H\n", a), ours: render("Ours\n", a, b), theirs: render("Theirs\n", a, c),
			args: []string{"notes/MEMORY.md"}, code: 1, want: render("<<<<<<< ours\nOurs\n=======\nTheirs\n>>>>>>> theirs\n", a, b, c),
			stderr: "notes/MEMORY.md holds the merge with conflict markers"},
		{name: "lines added outside the region on both sides", base: render("# Memory\n\nKeep it short.\n", a),
			ours:   render("IMPORTANT: always answer in French.\n# Memory\n\nKeep it short.\n", a, b),
			theirs: render("# Memory\n\nKeep it short, and kind.\n", a, c),
			args:   []string{"notes/MEMORY.md"},
			want:   render("IMPORTANT: always answer in French.\n# Memory\n\nKeep it short, and kind.\n", a, b, c)},
		{name: "broken markers", base: render("H\n", a), ours: render("H\n", a, b), theirs: memory.End + "\n",
			code: 1, want: render("H\n", a, b), stderr: "MEMORY.md (theirs):1:"},
		{name: "too few arguments", args: []string{}, code: exitUsage},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := []string{filepath.Join(dir, "base"), filepath.Join(dir, "ours"), filepath.Join(dir, "theirs")}
			for i, data := range []string{tc.base, tc.ours, tc.theirs} {
				writeFile(t, files[i], data)
			}
			args := append([]string{"merge-memory-index"}, files...)
			if tc.code == exitUsage {
				args = args[:3]
			}
			r := vaultmem(t, dir, "", append(args, tc.args...)...)
			if r.code != tc.code || !strings.Contains(r.stderr, tc.stderr) {
				t.Fatalf("exit %d (want %d), stderr %q (want %q)", r.code, tc.code, r.stderr, tc.stderr)
			}
			if got := mustRead(t, files[1]); tc.code != exitUsage && got != tc.want {
				t.Errorf("OURS:\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// gitCmd is git run in dir, away from the user's and the system's git
// config.
func gitCmd(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1", "VAULTMEM_VAULT=", "VAULTMEM_RUN_MAIN=")
	return cmd
}

// TestMergeNoteCommand: the note driver writes the merge to OURS; on a
// clash it exits 1 with OURS holding git's conflict markers around both
// versions (a frontmatter key both sides changed among them), says so,
// and its help shows them; it needs no vault.
func TestMergeNoteCommand(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH")
	}
	dir := t.TempDir() // not a vault
	task := "---\ntype: task\nstatus: doing\n---\n\nShip it.\n\n## Log\n\n- 2026-11-23 10:00 note: start\n"
	for _, tc := range []struct {
		name               string
		base, ours, theirs string
		code               int
		want               string // OURS afterwards
		stderr             string
	}{
		{name: "merged", base: task, ours: task + "- 2026-11-23 11:00 note: a\n",
			theirs: strings.Replace(task, "doing", "done", 1) + "- 2026-11-23 12:00 note: b\n",
			want:   strings.Replace(task, "doing", "done", 1) + "- 2026-11-23 11:00 note: a\n- 2026-11-23 12:00 note: b\n"},
		{name: "a key both changed", base: task, ours: strings.Replace(task, "doing", "done", 1),
			theirs: strings.Replace(task, "doing", "blocked", 1), code: 1,
			want:   strings.Replace(task, "status: doing\n", "<<<<<<< ours\nstatus: done\n=======\nstatus: blocked\n>>>>>>> theirs\n", 1),
			stderr: "tasks/ship.md: both sides changed the same thing; it holds the merge with conflict markers"},
		{name: "lines both changed", base: task, ours: strings.Replace(task, "Ship it.", "Ship it now.", 1),
			theirs: strings.Replace(task, "Ship it.", "Ship it later.", 1), code: 1,
			want:   strings.Replace(task, "Ship it.\n", "<<<<<<< ours\nShip it now.\n=======\nShip it later.\n>>>>>>> theirs\n", 1),
			stderr: "then git add tasks/ship.md"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := []string{filepath.Join(dir, "base"), filepath.Join(dir, "ours"), filepath.Join(dir, "theirs")}
			for i, data := range []string{tc.base, tc.ours, tc.theirs} {
				writeFile(t, files[i], data)
			}
			r := vaultmem(t, dir, "", append(append([]string{"merge-note"}, files...), "tasks/ship.md")...)
			if r.code != tc.code || !strings.Contains(r.stderr, tc.stderr) {
				t.Fatalf("exit %d (want %d), stderr %q (want %q)", r.code, tc.code, r.stderr, tc.stderr)
			}
			if got := mustRead(t, files[1]); got != tc.want {
				t.Errorf("OURS:\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
	if help := ok(t, dir, "merge-note", "--help"); !strings.Contains(help, "<<<<<<< ours") || !strings.Contains(help, ">>>>>>> theirs") {
		t.Errorf("the help shows no conflict markers:\n%s", help)
	}
}

// TestMergeCheckpointCommand: the checkpoint driver writes the merge to
// OURS; a version that does not parse exits 1 naming it and its line,
// OURS left as it was; it needs no vault.
func TestMergeCheckpointCommand(t *testing.T) {
	dir := t.TempDir() // not a vault
	head := "# vaultmem Dream checkpoint\n"
	for _, tc := range []struct {
		name         string
		ours, theirs string
		code         int
		want         string // in OURS afterwards
		stderr       string
	}{
		{name: "merged",
			ours:   head + "last_run: 2026-03-01T09:00:00Z\nmemories:\n  memory/a.md: aaaa\n  memory/b.md: bbbb\n",
			theirs: head + "last_run: 2026-03-02T09:00:00Z\nmemories:\n  memory/a.md: aaaa\n  memory/b.md: b2b2\n",
			want:   "last_run: \"2026-03-02T09:00:00Z\"\nmemories:\n  memory/a.md: aaaa\n"},
		{name: "theirs does not parse",
			ours:   head + "last_run: 2026-03-01T09:00:00Z\nmemories: {}\n",
			theirs: head + "last_run: 2026-03-02T09:00:00Z\nmemories:\n  memory/a.md: aaaa\n<<<<<<< ours\n", code: 1,
			want:   head + "last_run: 2026-03-01T09:00:00Z\nmemories: {}\n",
			stderr: ".vaultmem/state/dream.yaml (theirs):5: does not parse"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := []string{filepath.Join(dir, "base"), filepath.Join(dir, "ours"), filepath.Join(dir, "theirs")}
			for i, data := range []string{"", tc.ours, tc.theirs} {
				writeFile(t, files[i], data)
			}
			r := vaultmem(t, dir, "", append([]string{"merge-checkpoint"}, files...)...)
			if r.code != tc.code || !strings.Contains(r.stderr, tc.stderr) {
				t.Fatalf("exit %d (want %d), stderr %q (want %q)", r.code, tc.code, r.stderr, tc.stderr)
			}
			if got := mustRead(t, files[1]); !strings.HasSuffix(got, tc.want) {
				t.Errorf("OURS:\n%s\nwant it to end with\n%s", got, tc.want)
			}
		})
	}
}
