package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestDreamKilledWhileWriting: a Dream killed (SIGKILL) as soon as its
// write phase starts, on 600 memories, is reported by doctor and finished
// by doctor --fix and the next run: no
// journal left, every memory merged away has its text in the memory it
// went into, no note links to a memory merged away, the dream log names
// every one of them, and a run after that changes nothing.
func TestDreamKilledWhileWriting(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a vault of 750 notes")
	}
	const pairs = 300
	dir := t.TempDir()
	write := func(p, content string) {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ok(t, dir, "init")
	for i := range pairs {
		topic := fmt.Sprintf("topic%04d", i)
		write(fmt.Sprintf("memory/w%04d.md", i), fmt.Sprintf("---\nname: %s\ndescription: about %s\ntype: project\n---\n"+
			"The %s service deploys on Tuesdays after the standup, and the release notes go out to every team that depends on it, with a summary of each change.\n", topic, topic, topic))
		// A person said it is the same as w: Dream merges the two.
		write(fmt.Sprintf("memory/l%04d.md", i), fmt.Sprintf("---\nname: %s\ndescription: about %s\ntype: project\nsame_as: \"[[w%04d]]\"\n---\n"+
			"The %s service deploys on Tuesdays after the standup.\n\nIts on-call watches the %s dashboards.\n", strings.ToUpper(topic), topic, i, topic, topic))
	}
	for i := range pairs / 2 {
		write(fmt.Sprintf("notes/n%03d.md", i), fmt.Sprintf("See [[l%04d]] and [it](../memory/l%04d.md).\n", 2*i, 2*i+1))
	}
	ok(t, dir, "index")

	cmd := exec.Command(os.Args[0], "dream")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "VAULTMEM_RUN_MAIN=1", "VAULTMEM_VAULT=")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	journal := filepath.Join(dir, ".vaultmem", "state", "dream-journal.json")
	killed := false
	for !killed {
		select {
		case <-exited:
			t.Log("the first run ended before it could be killed: this run checks a whole run only")
			killed = true
			continue
		default:
		}
		if _, err := os.Stat(journal); err == nil {
			_ = cmd.Process.Signal(syscall.SIGKILL)
			<-exited
			killed = true
			continue
		}
		time.Sleep(time.Millisecond)
	}

	if _, err := os.Stat(journal); err == nil {
		// doctor names the stopped run, and --fix finishes it.
		t.Log("killed in the write phase")
		if r := vaultmem(t, dir, "", "doctor"); r.code != 1 || !strings.Contains(r.stderr, "stopped while it wrote") {
			t.Errorf("doctor: exit %d, stderr %q", r.code, r.stderr)
		}
		if out := ok(t, dir, "doctor", "--fix"); !strings.Contains(out, "finished the Dream run started") {
			t.Errorf("doctor --fix: %s", out)
		}
	}
	ok(t, dir, "dream")
	if _, err := os.Stat(journal); !os.IsNotExist(err) {
		t.Fatalf("the journal is still there: %v", err)
	}
	read := func(p string) string {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	log := read("memory/dream-log.md")
	linkTo := regexp.MustCompile(`\[\[(l\d{4})\]\]|\(\.\./memory/(l\d{4})\.md\)`)
	for i := range pairs / 2 {
		if m := linkTo.FindString(read(fmt.Sprintf("notes/n%03d.md", i))); m != "" {
			t.Errorf("notes/n%03d.md still links to a memory merged away: %s", i, m)
		}
	}
	for i := range pairs {
		loser, winner := read(fmt.Sprintf("memory/l%04d.md", i)), read(fmt.Sprintf("memory/w%04d.md", i))
		if !strings.Contains(loser, fmt.Sprintf("merged_into: \"[[w%04d]]\"", i)) {
			t.Errorf("l%04d is not merged:\n%s", i, loser)
			continue
		}
		if !strings.Contains(winner, "on-call watches the") {
			t.Errorf("w%04d lacks the text of l%04d:\n%s", i, i, winner)
		}
		if !strings.Contains(log, fmt.Sprintf("[[memory/l%04d|", i)) {
			t.Errorf("the dream log never names l%04d", i)
		}
	}
	if out := ok(t, dir, "dream", "--json"); !strings.Contains(out, `"changed": []`) {
		t.Errorf("a run after changed something: %s", out)
	}
}

// TestDoctorRemovesLeftoverTempFiles: a temp file a killed write left
// beside a note is listed by doctor, and --fix removes it once it is over
// an hour old (a fresh one may belong to a write in progress); notes and
// other dot-files stay.
func TestDoctorRemovesLeftoverTempFiles(t *testing.T) {
	dir := t.TempDir()
	ok(t, dir, "init")
	for p, c := range map[string]string{"notes/a.md": "a\n", "notes/.a.md.vaultmem-tmp-old": "half", "notes/.a.md.vaultmem-tmp-new": "half", "notes/.keep": ""} {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-2 * time.Hour)
	if err := os.Chtimes(filepath.Join(dir, "notes", ".a.md.vaultmem-tmp-old"), old, old); err != nil {
		t.Fatal(err)
	}
	ok(t, dir, "index")
	if out := ok(t, dir, "doctor"); !strings.Contains(out, "notes/.a.md.vaultmem-tmp-old: a temp file") || !strings.Contains(out, "notes/.a.md.vaultmem-tmp-new: a temp file") {
		t.Errorf("doctor:\n%s", out)
	}
	if out := ok(t, dir, "doctor", "--fix"); !strings.Contains(out, "notes/.a.md.vaultmem-tmp-old: removed") {
		t.Errorf("doctor --fix:\n%s", out)
	}
	for p, want := range map[string]bool{"notes/.a.md.vaultmem-tmp-old": false, "notes/.a.md.vaultmem-tmp-new": true, "notes/a.md": true, "notes/.keep": true} {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p))); (err == nil) != want {
			t.Errorf("%s exists: %v, want %v", p, err == nil, want)
		}
	}
}
