package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestLessonWorkflow runs docs/lessons.md's worked example as processes: add a
// lesson, match it by words, tool and path (and as a Claude Code hook),
// report outcomes, read its history, review, stats and decay.
func TestLessonWorkflow(t *testing.T) {
	dir := newVault(t)
	if out := ok(t, dir, "lesson", "add", "Run migrations first", "--trigger", "integration tests", "--trigger", "tool:Bash",
		"--trigger", "db/migrations/**", "--action-bias", "run make migrate before the integration tests", "--domain", "testing",
		"--body", "The test database starts empty."); out != "added lessons/Run migrations first.md (strength 0.5)\n" {
		t.Errorf("add: %q", out)
	}
	ok(t, dir, "lesson", "add", "Small commits", "--trigger", "git commit", "--action-bias", "commit one change at a time")

	var m struct {
		Lessons []struct {
			Path, Name, Why     string
			Trigger             []string
			ActionBias          string `json:"action_bias"`
			Strength, Relevance float64
			Score               float64
		}
		Ms     *float64
		Cached *bool
	}
	for _, args := range [][]string{
		{"run", "the", "integration", "tests"},
		{"--tool", "Bash", "ls"},
		{"--path", "db/migrations/0042_users.sql"},
		{"-k", "0", "run", "the", "integration", "tests"}, // 0: the default, as lesson_match's k
	} {
		out := ok(t, dir, append([]string{"lesson", "match", "--json"}, args...)...)
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		if len(m.Lessons) != 1 || m.Lessons[0].Path != "lessons/Run migrations first.md" || m.Lessons[0].ActionBias == "" ||
			m.Lessons[0].Why == "" || m.Lessons[0].Score <= 0 || m.Ms == nil || m.Cached == nil || len(m.Lessons[0].Trigger) != 3 {
			t.Errorf("match %v: %s", args, out)
		}
	}
	if out := ok(t, dir, "lesson", "match", "write", "the", "release", "notes"); out != "no lesson matches\n" {
		t.Errorf("no match: %q", out)
	}

	hook := `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"go test ./integration/...","description":"Run the integration tests"}}`
	r := vaultmem(t, dir, hook, "lesson", "match", "--hook")
	var h struct {
		Out struct {
			Event   string `json:"hookEventName"`
			Context string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &h) != nil || h.Out.Event != "PreToolUse" ||
		!strings.Contains(h.Out.Context, `title="Run migrations first" strength="0.5">`+"\nrun make migrate before the integration tests\n</note>") {
		t.Errorf("hook: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := vaultmem(t, dir, `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"README.md"}}`, "lesson", "match", "--hook"); r.code != 0 || r.stdout != "" {
		t.Errorf("hook without a match must print nothing: %d %q %q", r.code, r.stdout, r.stderr)
	}

	out := ok(t, dir, "lesson", "outcome", "Run migrations first", "--success", "--context", "run the integration tests", "--json")
	var a struct {
		Before       float64 `json:"strength_before"`
		After        float64 `json:"strength_after"`
		Applications int     `json:"application_count"`
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil || a.Before != 0.5 || a.After != 0.55 || a.Applications != 1 {
		t.Errorf("outcome: %s", out)
	}
	ok(t, dir, "lesson", "outcome", "Small commits", "--failure")
	ok(t, dir, "lesson", "outcome", "Small commits", "--failure")
	if out := ok(t, dir, "lesson", "outcome", "Small commits", "--failure"); !strings.Contains(out, "0.3 → 0.2 (flagged for review)") {
		t.Errorf("third failure: %q", out)
	}
	var rec struct {
		Items []struct{ Layer, Text string }
	}
	if err := json.Unmarshal([]byte(ok(t, dir, "recall", "--json", "how do I run the integration tests?")), &rec); err != nil ||
		len(rec.Items) == 0 || rec.Items[0].Layer != "lesson" || !strings.Contains(rec.Items[0].Text, "Run migrations first: run make migrate") {
		t.Errorf("recall of a how-to question: %+v %v", rec, err)
	}
	if err := json.Unmarshal([]byte(ok(t, dir, "recall", "--json", "why does the test database start empty?")), &rec); err != nil ||
		len(rec.Items) > 0 && rec.Items[0].Layer == "lesson" {
		t.Errorf("recall of another question: %+v %v", rec, err)
	}
	if out := ok(t, dir, "lesson", "history", "Run migrations first"); !strings.Contains(out, "success: 0.5 → 0.55") {
		t.Errorf("history: %q", out)
	}
	if out := ok(t, dir, "lesson", "review"); !strings.Contains(out, "lessons/Small commits.md (strength 0.2)") ||
		!strings.Contains(out, "weak: 0 of 3 outcomes were successes") || strings.Contains(out, "Run migrations") {
		t.Errorf("review: %q", out)
	}
	var st struct {
		Outcomes  int
		Precision *float64
		Recall    *float64
	}
	if err := json.Unmarshal([]byte(ok(t, dir, "lesson", "stats", "--json")), &st); err != nil || st.Outcomes != 4 ||
		st.Precision == nil || *st.Precision != 1 || st.Recall == nil || *st.Recall != 1 {
		t.Errorf("stats: %+v %v", st, err)
	}
	if b := outcomeLog(t, dir); strings.Count(b, "\n") != 4 {
		t.Errorf("outcome log: %q", b)
	}
	if out := ok(t, dir, "lesson", "decay", "--today", "2027-02-01", "--dry-run"); !strings.Contains(out, "2 lessons decayed") {
		t.Errorf("decay: %q", out)
	}

	if err := os.WriteFile(filepath.Join(dir, "lessons", "broken.md"), []byte("---\ntype: lesson\ntrigger: deploy\nstrength: lots\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ok(t, dir, "index")
	if out := ok(t, dir, "doctor"); !strings.Contains(out, `lessons/broken.md:4: lesson: strength "lots" is not a number between 0 and 1`) {
		t.Errorf("doctor: %q", out)
	}
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"lesson", "outcome", "No such lesson", "--success"}, 1, `no lesson "No such lesson"`},
		{[]string{"lesson", "outcome", "Small commits"}, 2, "give one of --success and --failure"},
		{[]string{"lesson", "match", "-k", "101", "x"}, 2, "k 101: give 1 to 100"}, // -k 0 is the default, as lesson_match's k 0
		{[]string{"lesson", "match", "-k", "-1", "x"}, 2, "k -1: give 1 to 100"},
		{[]string{"lesson", "match"}, 2, "say what you are about to do"},
		{[]string{"lesson", "router", "--train-fraction", "2"}, 2, "train fraction 2: give 0 to 1"},
		{[]string{"lesson", "add", "No trigger"}, 2, "needs a trigger"},
		{[]string{"lesson", "match", "--hook"}, 0, "the hook's input is empty"}, // a hook never blocks the agent
	} {
		if r := vaultmem(t, dir, "", c.args...); r.code != c.code || !strings.Contains(r.stderr, c.msg) {
			t.Errorf("%v: %d %q, want %d %q", c.args, r.code, r.stderr, c.code, c.msg)
		}
	}
}

// TestConcurrentOutcomes: eight processes report outcomes on one lesson
// at once; every one is applied and in its history.
func TestConcurrentOutcomes(t *testing.T) {
	dir := newVault(t)
	ok(t, dir, "lesson", "add", "Pin versions", "--trigger", "add a dependency", "--action-bias", "pin the version")
	var wg sync.WaitGroup
	codes := make([]result, 8)
	for i := range codes {
		wg.Go(func() { codes[i] = vaultmem(t, dir, "", "lesson", "outcome", "Pin versions", "--success") })
	}
	wg.Wait()
	for i, r := range codes {
		if r.code != 0 {
			t.Errorf("process %d: %d %s", i, r.code, r.stderr)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "lessons", "Pin versions.md"))
	if err != nil {
		t.Fatal(err)
	}
	note := string(b)
	if !strings.Contains(note, "strength: 0.9\n") || !strings.Contains(note, "application_count: 8\n") || strings.Count(note, "success: ") != 8 {
		t.Errorf("after eight outcomes:\n%s", note)
	}
}

// TestLessonRouter: 'lesson router' replays the log and simulated worlds;
// with lessons.router on, matches are reranked by a model trained on the
// log and kept in the cache.
func TestLessonRouter(t *testing.T) {
	dir := newVault(t)
	ok(t, dir, "lesson", "add", "Migrate first", "--trigger", "integration tests", "--action-bias", "run the migrations first")
	ok(t, dir, "lesson", "add", "Reset fixtures", "--trigger", "integration tests", "--action-bias", "reset the fixtures first")
	for range 3 {
		ok(t, dir, "lesson", "outcome", "Reset fixtures", "--success", "--context", "run the integration tests")
	}
	var ev struct {
		Log       struct{ Train, Held int }
		Simulated []struct {
			World  string
			Report struct {
				StaticP3  float64 `json:"static_p3"`
				LearnedP3 float64 `json:"learned_p3"`
			}
		}
	}
	if err := json.Unmarshal([]byte(ok(t, dir, "lesson", "router", "--simulate", "--json")), &ev); err != nil ||
		ev.Log.Train+ev.Log.Held != 3 || len(ev.Simulated) != 6 || ev.Simulated[0].World != "context-dependent" ||
		ev.Simulated[0].Report.LearnedP3 <= ev.Simulated[0].Report.StaticP3 {
		t.Errorf("router: %+v %v", ev, err)
	}
	cfg := filepath.Join(dir, ".vaultmem", "config.yaml")
	b, err := os.ReadFile(cfg)
	if err != nil || !strings.Contains(string(b), "  router: false\n") {
		t.Fatalf("config: %v\n%s", err, b)
	}
	if err := os.WriteFile(cfg, []byte(strings.Replace(string(b), "  router: false\n", "  router: true\n", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out := ok(t, dir, "lesson", "match", "run", "the", "integration", "tests")
	if !strings.Contains(out, "reranked by the learned router") {
		t.Errorf("match with the router on: %q", out)
	}
	if _, err := os.Stat(filepath.Join(dir, ".vaultmem", "cache", "router.model")); err != nil {
		t.Errorf("router model not kept in the cache: %v", err)
	}
}

// TestLessonDecayBrokenTrigger: `lesson decay` leaves a lesson whose
// trigger is a map, a nested list or an empty string as it is, even when it
// is due to be archived, and names it (file and line) as skipped; a valid
// lesson beside it decays.
func TestLessonDecayBrokenTrigger(t *testing.T) {
	dir := newVault(t)
	notes := map[string]string{}
	for name, trigger := range map[string]string{"map": "{a: deploy}", "nested": "[[deploy]]", "empty": `[""]`, "good": "[deploy]"} {
		p := filepath.Join("lessons", name+".md")
		notes[p] = "---\ntype: lesson\ntrigger: " + trigger + "\nstrength: 0.21\ncreated: 2026-01-01\n---\n\nBody.\n"
		if err := os.WriteFile(filepath.Join(dir, p), []byte(notes[p]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var got struct {
		Decayed []struct{ Path string }
		Skipped []struct {
			Path, Reason string
			Line         int
		}
	}
	if err := json.Unmarshal([]byte(ok(t, dir, "lesson", "decay", "--today", "2026-11-23", "--json")), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Decayed) != 1 || got.Decayed[0].Path != "lessons/good.md" {
		t.Errorf("decayed %+v, want lessons/good.md only", got.Decayed)
	}
	var skipped []string
	for _, s := range got.Skipped {
		skipped = append(skipped, fmt.Sprintf("%s:%d", s.Path, s.Line))
	}
	if got, want := strings.Join(skipped, " "), "lessons/empty.md:3 lessons/map.md:3 lessons/nested.md:3"; got != want {
		t.Errorf("skipped %s, want %s", got, want)
	}
	for p, want := range notes {
		if p == filepath.Join("lessons", "good.md") {
			continue
		}
		if got := mustRead(t, filepath.Join(dir, p)); got != want {
			t.Errorf("%s was rewritten:\n%s", p, got)
		}
	}
	if out := ok(t, dir, "lesson", "decay", "--today", "2026-11-24"); !strings.Contains(out, "skipped lessons/map.md:3: ") {
		t.Errorf("decay does not name the lesson it skipped: %q", out)
	}
}

// TestLessonContradictionsInterrupted: SIGTERM stops `lesson contradictions`
// while it compares the lessons, with exit 130 and nothing printed, rather
// than being ignored until the work is done. The lessons all share a
// trigger and half of them contradict the other half: 562,500 pairs to
// report, seconds of work however few pairs the index lets through. The
// signal is sent once the command has synced the index (it then warns
// about the note with a broken frontmatter, just before it reads the
// lessons) and a moment more, so that it finds the lessons read and being
// compared, where an older vaultmem ignored it; that moment is far shorter
// than the comparison, so the command is still at work whatever the load.
func TestLessonContradictionsInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	dir := newVault(t)
	const n = 1500
	for i := range n {
		bias := "always reset the database before the tests"
		if i%2 == 1 {
			bias = "never reset the database, it is shared"
		}
		content := fmt.Sprintf("---\ntype: lesson\nname: Lesson %d\ntrigger: [\"tool:Bash\", integration tests]\naction_bias: %s\n---\n", i, bias)
		if err := os.WriteFile(filepath.Join(dir, "lessons", fmt.Sprintf("l%04d.md", i)), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "broken.md"), []byte("---\ntype: [x\n---\nbody\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "lesson", "contradictions")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "VAULTMEM_RUN_MAIN=1", "VAULTMEM_VAULT=")
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// A hang guard only: a command still running 2 minutes on is killed.
	hung := time.AfterFunc(2*time.Minute, func() { cmd.Process.Kill() })
	stderr := bufio.NewReader(errPipe)
	var said strings.Builder
	for !strings.HasPrefix(lastLine(said.String()), "warning: broken.md:") {
		line, err := stderr.ReadString('\n')
		said.WriteString(line)
		if err != nil {
			t.Fatalf("the command ended before it warned about broken.md: %v\n%s", err, said.String())
		}
	}
	time.Sleep(200 * time.Millisecond)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(stderr) // until the process ends
	said.Write(rest)
	cmd.Wait()
	if !hung.Stop() {
		t.Fatalf("lesson contradictions still ran 2 minutes after SIGTERM; stderr:\n%s", said.String())
	}
	if got, want := cmd.ProcessState.ExitCode(), exitCanceled; got != want {
		t.Errorf("exit %d after SIGTERM, want %d; stderr:\n%s", got, want, said.String())
	}
	if !strings.HasSuffix(said.String(), "vaultmem: interrupted\n") || stdout.Len() != 0 {
		t.Errorf("stderr %q, stdout %d bytes: want 'interrupted' and nothing printed", said.String(), stdout.Len())
	}
}

// lastLine is the last complete line of s, without its newline.
func lastLine(s string) string {
	s = strings.TrimSuffix(s, "\n")
	return s[strings.LastIndex(s, "\n")+1:]
}
