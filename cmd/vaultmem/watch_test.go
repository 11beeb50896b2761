package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/app"
)

// TestWatchCommand runs `vaultmem watch --json` as a real process: it
// reports a saved note, makes a second watcher fail clearly, lets a
// search run (and skip its own sync) meanwhile, and exits 0 on SIGINT.
func TestWatchCommand(t *testing.T) {
	dir := newVault(t)
	// A person's note with a memory type, outside the memory folder: no
	// memory, so the first sync writes no MEMORY.md.
	if err := os.MkdirAll(filepath.Join(dir, "Projects"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Projects", "Kitchen renovation.md"), []byte("---\ntype: project\n---\nCall the contractor.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "--vault", dir, "watch", "--json")
	cmd.Env = append(os.Environ(), "VAULTMEM_RUN_MAIN=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan batchEvent, 16)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			var ev batchEvent
			if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
				t.Errorf("watch --json line %q: %v", sc.Text(), err)
			}
			lines <- ev
		}
		close(lines)
	}()
	next := func() batchEvent {
		t.Helper()
		select {
		case ev, ok := <-lines:
			if !ok {
				t.Fatalf("watch ended early; stderr: %s", stderr.String())
			}
			return ev
		case <-time.After(15 * time.Second):
			t.Fatalf("no event from watch in 15 s; stderr: %s", stderr.String())
		}
		return batchEvent{}
	}
	if ev := next(); !ev.Rescan {
		t.Errorf("first event is not the initial sync: %+v", ev)
	}
	if _, err := os.Stat(filepath.Join(dir, "MEMORY.md")); !os.IsNotExist(err) {
		t.Errorf("the first sync of a vault with no memory wrote MEMORY.md (%v)", err)
	}

	note := "---\nname: Deploys\ndescription: deploy day\ntype: project\n---\nDeploys go out on Tuesdays."
	if err := os.WriteFile(filepath.Join(dir, "memory", "deploys.md"), []byte(note), 0o644); err != nil {
		t.Fatal(err)
	}
	ev := next()
	if len(ev.Paths) != 1 || ev.Paths[0] != "memory/deploys.md" || ev.Parsed != 1 || ev.Error != "" {
		t.Errorf("event for a saved note: %+v", ev)
	}
	// A memory saved by hand is listed in MEMORY.md before the event.
	if got := mustRead(t, filepath.Join(dir, "MEMORY.md")); !strings.Contains(got, "- [Deploys](memory/deploys.md) — deploy day\n") {
		t.Errorf("MEMORY.md after a memory was saved:\n%s", got)
	}

	r := vaultmem(t, dir, "", "watch")
	if r.code != exitConflict || !strings.Contains(r.stderr, "already running") {
		t.Errorf("second watcher: exit %d, %q", r.code, r.stderr)
	}
	if out := ok(t, dir, "search", "--mode", "keyword", "--json", "tuesdays"); !strings.Contains(out, "memory/deploys.md") {
		t.Errorf("search while watching: %s", out)
	}

	cmd.Process.Signal(syscall.SIGINT)
	for range lines {
	}
	cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != exitCanceled || !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("watch after SIGINT: exit %d; stderr: %s", code, stderr.String())
	}
}

func TestDoctor(t *testing.T) {
	dir := newVault(t)
	note := filepath.Join(dir, "memory", "a.md")
	if err := os.WriteFile(note, []byte("alpha beta"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(note, old, old)
	ok(t, dir, "index")
	if out := ok(t, dir, "doctor"); !strings.Contains(out, "matches") {
		t.Errorf("doctor on a fresh index: %s", out)
	}

	// Same size, same time: no sync can see it; doctor reads the bytes.
	os.WriteFile(note, []byte("alpha gamm"), 0o644)
	os.Chtimes(note, old, old)
	r := vaultmem(t, dir, "", "doctor", "--json")
	var rep app.Checkup
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("doctor --json: %v\n%s", err, r.stdout)
	}
	if r.code != exitError || rep.OK || len(rep.Drift) != 1 || rep.Drift[0].Path != "memory/a.md" || rep.Drift[0].Problem != "stale" {
		t.Errorf("doctor after a hidden edit: exit %d, %+v", r.code, rep)
	}
	r = vaultmem(t, dir, "", "doctor", "--fix", "--json")
	rep = app.Checkup{}
	json.Unmarshal([]byte(r.stdout), &rep)
	if r.code != 0 || !rep.Fixed || !rep.Rebuilt {
		t.Errorf("doctor --fix: exit %d, %+v, %s", r.code, rep, r.stderr)
	}
	if out := ok(t, dir, "search", "--mode", "keyword", "--json", "gamm"); !strings.Contains(out, "memory/a.md") {
		t.Errorf("search after --fix: %s", out)
	}
}
