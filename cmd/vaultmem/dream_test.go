package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gofrs/flock"
)

// dreamVault is a vault with two duplicate memories, a contradiction and
// a note linking the duplicate.
func dreamVault(t *testing.T) string {
	t.Helper()
	dir := newVault(t)
	for p, c := range map[string]string{
		"memory/deploys.md": "---\nname: Deploys\ndescription: deploy day\ntype: project\ncreated: 2026-02-27\n---\nDeploys go out on Tuesdays after the standup. Next one next Tuesday.\n",
		"memory/deploy.md":  "---\nname: deploys\ndescription: deploy day\ntype: project\n---\nDeploys go out on Tuesdays after the standup.\n",
		"memory/tabs.md":    "---\nname: Tabs\ndescription: indentation\ntype: feedback\n---\nAlways use tabs for indentation.\n",
		"memory/spaces.md":  "---\nname: Spaces\ndescription: indentation\ntype: feedback\n---\nNever use tabs for indentation.\n",
		"notes/plan.md":     "See [[deploy]].\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestDreamCommand: a dry run prints the plan as JSON and writes nothing;
// a run applies it; a second run changes nothing; a Dream already running
// makes another exit 3.
func TestDreamCommand(t *testing.T) {
	dir := dreamVault(t)
	before := snapshot(t, dir)
	var dry struct {
		DryRun bool `json:"dry_run"`
		Merged []struct {
			Into string
			From []string
		}
		Archived       []string
		Contradictions []struct{ Paths []string }
		DatesFixed     []struct{ Path, From, To string } `json:"dates_fixed"`
		MemoryIndex    struct {
			Path           string
			Lines, Omitted int
		} `json:"memory_index"`
		Changed []string
		MS      *int64 `json:"ms"`
	}
	if err := json.Unmarshal([]byte(ok(t, dir, "dream", "--dry-run", "--json")), &dry); err != nil {
		t.Fatal(err)
	}
	if !dry.DryRun || len(dry.Merged) != 1 || dry.Merged[0].Into != "memory/deploys.md" || !reflect.DeepEqual(dry.Archived, []string{"memory/deploy.md"}) ||
		len(dry.Contradictions) != 1 || len(dry.DatesFixed) != 1 || dry.DatesFixed[0].To != "2026-03-03" ||
		dry.MemoryIndex.Path != "MEMORY.md" || dry.MemoryIndex.Lines == 0 || dry.MS == nil {
		t.Errorf("dry run: %+v", dry)
	}
	for p, c := range snapshot(t, dir) {
		if !strings.Contains(p, ".vaultmem") && before[p] != c {
			t.Errorf("the dry run wrote %s", p)
		}
	}

	out := ok(t, dir, "dream")
	for _, want := range []string{"merged    memory/deploy.md into memory/deploys.md", "flagged   memory/spaces.md and memory/tabs.md may contradict",
		`dated     memory/deploys.md:8 "next Tuesday" as 2026-03-03`, "relinked  notes/plan.md", "changed 7 files"} {
		if !strings.Contains(out, want) {
			t.Errorf("dream printed no %q:\n%s", want, out)
		}
	}
	if got := mustRead(t, filepath.Join(dir, "notes", "plan.md")); got != "See [[deploys|deploy]].\n" {
		t.Errorf("link: %q", got)
	}
	if out := ok(t, dir, "dream"); !strings.Contains(out, "Nothing to change.") {
		t.Errorf("second run:\n%s", out)
	}

	held := flock.New(filepath.Join(dir, ".vaultmem", "tmp", "dream.lock"))
	if ok, err := held.TryLock(); !ok || err != nil {
		t.Fatal(ok, err)
	}
	defer held.Unlock()
	if r := vaultmem(t, dir, "", "dream"); r.code != exitConflict || !strings.Contains(r.stderr, "another Dream is running") {
		t.Errorf("while locked: exit %d, %s", r.code, r.stderr)
	}
}

// TestDreamInMCPAndWatch: the MCP server's dream tool dry-runs; a watcher
// whose gate is open runs Dream on its own once the vault is quiet.
func TestDreamInMCPAndWatch(t *testing.T) {
	dir := dreamVault(t)
	cs := mcpSession(t, dir)
	var rep struct {
		DryRun bool `json:"dry_run"`
		Merged []struct{ Into string }
	}
	if e := call(t, cs, "dream", map[string]any{"dry_run": true}, &rep); e != "" || !rep.DryRun || len(rep.Merged) != 1 {
		t.Errorf("dream tool: %q %+v", e, rep)
	}
	if strings.Contains(mustRead(t, filepath.Join(dir, "memory", "deploy.md")), "archived") {
		t.Error("the dry run archived a memory")
	}
	cs.Close()

	cfg := filepath.Join(dir, ".vaultmem", "config.yaml")
	text := strings.Replace(mustRead(t, cfg), "  every: 24h\n  writes: 5\n  quiet: 1m\n", "  every: 1ms\n  writes: 1\n  quiet: 300ms\n", 1)
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	w := startWatch(t, dir)
	deadline := time.Now().Add(20 * time.Second)
	// Dream's event is printed once its run is over, after it wrote the notes.
	for !strings.Contains(w.output(), `"event":"dream"`) && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	w.stop()
	if !strings.Contains(mustRead(t, filepath.Join(dir, "memory", "deploy.md")), "merged_into: \"[[deploys]]\"") {
		t.Fatalf("the watcher did not dream; its output:\n%s", w.output())
	}
	if out := w.output(); !strings.Contains(out, `"event":"dream"`) || !strings.Contains(out, `"summary":"4 memories`) {
		t.Errorf("no dream event:\n%s", out)
	}
}

// watchProc is `vaultmem watch --json` running as a subprocess.
type watchProc struct {
	cmd *exec.Cmd
	mu  sync.Mutex
	out strings.Builder
}

func (w *watchProc) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.out.Write(p)
}

func (w *watchProc) output() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.out.String()
}

// stop interrupts the watcher and waits for it.
func (w *watchProc) stop() {
	w.cmd.Process.Signal(syscall.SIGINT)
	w.cmd.Wait()
}

func startWatch(t *testing.T, dir string) *watchProc {
	t.Helper()
	w := &watchProc{cmd: exec.Command(os.Args[0], "--vault", dir, "watch", "--json")}
	w.cmd.Env = append(os.Environ(), "VAULTMEM_RUN_MAIN=1")
	w.cmd.Stdout, w.cmd.Stderr = w, w
	if err := w.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.cmd.Process.Kill() })
	return w
}

// TestDreamProposes: with dream.llm in the config, dream proposes from
// the session note that ended (the JSON names what); doctor and lesson
// review list the proposals; lesson match leaves the proposed lesson out.
func TestDreamProposes(t *testing.T) {
	dir := newVault(t)
	answer := `{"memories": [{"type": "user", "name": "Terse answers", "description": "the user wants terse answers", "body": "Answer tersely."}],
	  "lessons": [{"title": "Run migrations first", "trigger": ["integration tests"], "action_bias": "run make migrate first", "body": "The database starts empty."}]}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]string{"content": answer}}}})
	}))
	defer srv.Close()
	for p, c := range map[string]string{
		".vaultmem/config.yaml":                     "dream:\n  llm:\n    url: " + srv.URL + "\n    model: m\n",
		"sessions/2026-03-01 1004 claude-code a.md": "---\ntype: session\nsession_id: a\nstarted: 2026-03-01T10:04:00Z\nended: 2026-03-01T11:04:00Z\n---\n\n## Prompts\n\n- 10:04 fix the tests\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ok(t, dir, "allow") // dream.llm is privileged: the user approves it
	var rep struct {
		Proposed []string
		Sessions int `json:"sessions_read"`
	}
	if err := json.Unmarshal([]byte(ok(t, dir, "dream", "--json")), &rep); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rep.Proposed, []string{"memory/terse-answers.md", "lessons/Run migrations first.md"}) || rep.Sessions != 1 {
		t.Fatalf("dream: %+v", rep)
	}
	if got := mustRead(t, filepath.Join(dir, "MEMORY.md")); !strings.Contains(got, "## Needs review\n\n- [Run migrations first](lessons/Run%20migrations%20first.md) proposed by Dream from [[2026-03-01 1004 claude-code a]]") {
		t.Errorf("MEMORY.md:\n%s", got)
	}
	var doc struct {
		Proposed []struct{ Path, Type, Source string }
	}
	// --fix: doctor checks the index, which has not seen what dream wrote (the next read syncs).
	if err := json.Unmarshal([]byte(ok(t, dir, "doctor", "--fix", "--json")), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Proposed) != 2 || doc.Proposed[0].Type != "lesson" || doc.Proposed[1].Source != "2026-03-01 1004 claude-code a" {
		t.Errorf("doctor: %+v", doc)
	}
	if out := ok(t, dir, "lesson", "review"); !strings.Contains(out, "lessons/Run migrations first.md") || !strings.Contains(out, "proposed by Dream") {
		t.Errorf("lesson review:\n%s", out)
	}
	if out := ok(t, dir, "lesson", "match", "run", "the", "integration", "tests"); strings.Contains(out, "Run migrations first") {
		t.Errorf("lesson match:\n%s", out)
	}
	if out := ok(t, dir, "dream"); !strings.Contains(out, "Nothing to change.") {
		t.Errorf("second dream:\n%s", out)
	}
}

// TestReviewInObsidian: MEMORY.md's "Needs review" links the
// contradictions, the proposals and Dream's report; a person settling one
// in the note itself (accepting a proposal, archiving one of a pair) is
// picked up by watch, which lists MEMORY.md again without a command.
func TestReviewInObsidian(t *testing.T) {
	dir := dreamVault(t)
	ok(t, dir, "dream")
	list := filepath.Join(dir, "MEMORY.md")
	got := mustRead(t, list)
	for _, want := range []string{"- [Spaces](memory/spaces.md) and [Tabs](memory/tabs.md) may contradict each other",
		"- [Dream's report](memory/dream-log.md): what each Dream run merged"} {
		if !strings.Contains(got, want) {
			t.Fatalf("MEMORY.md lacks %q:\n%s", want, got)
		}
	}
	if i, j := strings.Index(got, "may contradict"), strings.Index(got, "Dream's report"); i > j {
		t.Errorf("the report is not listed last:\n%s", got)
	}

	terse := filepath.Join(dir, "memory", "terse.md")
	proposal := "---\nname: Terse answers\ndescription: the user wants terse answers\ntype: user\nstatus: proposed\nsource: \"[[s1]]\"\n---\n\nAnswer tersely.\n"
	if err := os.WriteFile(terse, []byte(proposal), 0o644); err != nil {
		t.Fatal(err)
	}
	w := startWatch(t, dir)
	defer w.stop()
	waitForFile(t, w, list, "the proposal listed", func(s string) bool {
		return strings.Contains(s, "- [Terse answers](memory/terse.md) proposed by Dream from [[s1]]")
	})
	// Accepted in Obsidian: the key removed.
	if err := os.WriteFile(terse, []byte(strings.Replace(proposal, "status: proposed\n", "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	waitForFile(t, w, list, "the accepted proposal listed as a memory", func(s string) bool {
		return strings.Contains(s, "## User\n\n- [Terse answers](memory/terse.md) — the user wants terse answers") && !strings.Contains(s, "proposed by Dream")
	})
	// One of the pair archived in Obsidian: nothing left to review.
	spaces := filepath.Join(dir, "memory", "spaces.md")
	if err := os.WriteFile(spaces, []byte(strings.Replace(mustRead(t, spaces), "type: feedback\n", "type: feedback\narchived: 2026-03-02\n", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	waitForFile(t, w, list, "Needs review gone", func(s string) bool {
		return !strings.Contains(s, "## Needs review") && !strings.Contains(s, "[Spaces]")
	})
}

// waitForFile waits until the file at p satisfies done, failing the test
// with the file and the watcher's output after a generous while.
func waitForFile(t *testing.T, w *watchProc, p, what string, done func(string) bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, _ := os.ReadFile(p)
		if done(string(b)) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not seen in %s:\n%s\nwatch said:\n%s", what, p, b, w.output())
		}
		time.Sleep(50 * time.Millisecond)
	}
}
