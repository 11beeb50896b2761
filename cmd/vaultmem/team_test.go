package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// team is a vault shared by several clones of one bare repository, each
// with vaultmem's merge drivers enabled as docs/git.md says (run by this
// test binary as vaultmem), and real vaultmem processes on each side: the
// harness of the team scenarios (TestTeam*).
type team struct {
	t      *testing.T
	remote string
	clones []string
}

// newTeam makes a vault (vaultmem init in the first clone, committed and
// pushed) and n clones of it.
func newTeam(t *testing.T, n int) *team {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH")
	}
	tmp := t.TempDir()
	driver := testDriver(t, tmp)
	tm := &team{t: t, remote: filepath.Join(tmp, "remote.git")}
	gitIn(t, tmp, "init", "-q", "--bare", "-b", "main", tm.remote)
	for i := range n {
		dir := filepath.Join(tmp, string(rune('a'+i)))
		if i == 0 {
			cloneWithDrivers(t, "", dir, driver)
			gitIn(t, dir, "remote", "add", "origin", tm.remote)
			ok(t, dir, "init")
			gitIn(t, dir, "add", "-A")
			gitIn(t, dir, "commit", "-qm", "vaultmem init")
			gitIn(t, dir, "push", "-q", "-u", "origin", "main")
		} else {
			cloneWithDrivers(t, tm.remote, dir, driver)
			ok(t, dir, "init") // idempotent: a teammate's first run
		}
		tm.clones = append(tm.clones, dir)
	}
	return tm
}

// run runs vaultmem in clone i, which must exit 0, and returns its output.
func (tm *team) run(i int, args ...string) string {
	tm.t.Helper()
	return ok(tm.t, tm.clones[i], args...)
}

// file is the content of a file of clone i ("" when there is none).
func (tm *team) file(i int, p string) string {
	b, _ := os.ReadFile(filepath.Join(tm.clones[i], filepath.FromSlash(p)))
	return string(b)
}

// write writes a file of clone i, as a person would.
func (tm *team) write(i int, p, content string) {
	tm.t.Helper()
	full := filepath.Join(tm.clones[i], filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		tm.t.Fatal(err)
	}
	writeFile(tm.t, full, content)
}

// commit commits everything clone i changed (nothing when it changed
// nothing).
func (tm *team) commit(i int, msg string) {
	tm.t.Helper()
	dir := tm.clones[i]
	gitIn(tm.t, dir, "add", "-A")
	if gitIn(tm.t, dir, "status", "--porcelain") != "" {
		gitIn(tm.t, dir, "commit", "-qm", msg)
	}
}

// pull merges the remote into clone i and returns the paths git left
// conflicted (none when the merge was clean).
func (tm *team) pull(i int) []string {
	tm.t.Helper()
	dir := tm.clones[i]
	out, err := gitCmd(dir, "pull", "-q", "--no-rebase", "--no-edit", "origin", "main").CombinedOutput()
	conflicted := gitIn(tm.t, dir, "diff", "--name-only", "--diff-filter=U")
	if err != nil && conflicted == "" {
		tm.t.Fatalf("git pull in %s: %v\n%s", dir, err, out)
	}
	if conflicted == "" {
		return nil
	}
	return strings.Split(conflicted, "\n")
}

// share commits clone i's work, merges the others' and pushes, and fails
// the test on any conflict.
func (tm *team) share(i int) {
	tm.t.Helper()
	tm.commit(i, "work on "+filepath.Base(tm.clones[i]))
	if c := tm.pull(i); len(c) > 0 {
		tm.t.Fatalf("clone %s: git left %q conflicted:\n%s", filepath.Base(tm.clones[i]), c, tm.file(i, c[0]))
	}
	gitIn(tm.t, tm.clones[i], "push", "-q", "origin", "main")
}

// shareAll shares every clone's work in turn, then lets every clone but
// the last pull again, so that all end on the same commit.
func (tm *team) shareAll() {
	tm.t.Helper()
	for i := range tm.clones {
		tm.share(i)
	}
	for i := range len(tm.clones) - 1 {
		tm.share(i)
	}
}

// lines are the non-blank lines of s.
func lines(s string) []string {
	var out []string
	for l := range strings.Lines(s) {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// TestTeamMemoryListTextOutsideTheList: two people edit MEMORY.md outside
// vaultmem's list while their agents remember. Lines changed in different
// places merge clean and both are kept; the same line changed two ways is
// left between git's markers with both versions, never one side dropped.
func TestTeamMemoryListTextOutsideTheList(t *testing.T) {
	tm := newTeam(t, 2)
	tm.run(0, "remember", "--type", "project", "--name", "Deploys", "--description", "deploy day", "Deploys go out on Tuesdays.")
	tm.shareAll()
	base := tm.file(0, "MEMORY.md")
	tm.write(0, "MEMORY.md", "IMPORTANT: always answer in French.\n"+base)
	tm.run(0, "remember", "--type", "project", "--name", "Releases", "--description", "release day", "Releases are cut on Mondays.")
	tm.write(1, "MEMORY.md", base+"\nAsk before deleting files.\n")
	tm.run(1, "remember", "--type", "reference", "--name", "Runbook", "--description", "where the runbook is", "The runbook is in docs/runbook.md.")
	tm.shareAll()
	for i := range tm.clones {
		got := tm.file(i, "MEMORY.md")
		for _, want := range []string{"IMPORTANT: always answer in French.", "Ask before deleting files.", "Deploys", "Releases", "Runbook"} {
			if !strings.Contains(got, want) {
				t.Errorf("clone %d's MEMORY.md lost %q:\n%s", i, want, got)
			}
		}
	}

	// The same line, two ways: a person decides, with both versions shown.
	list := tm.file(0, "MEMORY.md")
	tm.write(0, "MEMORY.md", strings.Replace(list, "IMPORTANT: always answer in French.", "IMPORTANT: always answer in German.", 1))
	tm.write(1, "MEMORY.md", strings.Replace(list, "IMPORTANT: always answer in French.", "IMPORTANT: always answer in Spanish.", 1))
	tm.share(0)
	tm.commit(1, "spanish")
	c := tm.pull(1)
	got := tm.file(1, "MEMORY.md")
	if !slices.Equal(c, []string{"MEMORY.md"}) || !strings.Contains(got, "<<<<<<< ours\nIMPORTANT: always answer in Spanish.\n=======\nIMPORTANT: always answer in German.\n>>>>>>> theirs\n") {
		t.Fatalf("conflicted %q; MEMORY.md:\n%s", c, got)
	}
	for _, want := range lines(list)[1:] {
		if !strings.Contains(got, want) {
			t.Errorf("the conflicted MEMORY.md lost %q:\n%s", want, got)
		}
	}
}

// TestTeamStateFiles: two machines' Dreams flag different pairs, and both
// machines' agents keep the default agent id and focus tasks: every pull
// merges clean, the next Dream on each runs and MEMORY.md lists both
// machines' pairs, and each machine keeps its own focus.
func TestTeamStateFiles(t *testing.T) {
	tm := newTeam(t, 2)
	pair := func(i int, topic, a, b string) {
		tm.run(i, "remember", "--type", "project", "--name", topic+" day", "--description", topic, a)
		tm.run(i, "remember", "--type", "project", "--name", topic+" schedule", "--description", topic, b)
		if out := tm.run(i, "dream"); !strings.Contains(out, "may be duplicates") {
			t.Fatalf("Dream flagged no pair:\n%s", out)
		}
	}
	pair(0, "Deploy", "Deploys go out on Tuesdays after the standup.", "Deploys ship on Tuesdays after the standup.")
	pair(1, "Backup", "Backups run every night at two in the morning.", "Backups happen every night at two in the morning.")
	tm.run(0, "task", "add", "Ship the importer", "--description", "Import the CSV exports.")
	tm.run(0, "task", "start", "Ship the importer")
	tm.shareAll()
	tm.run(1, "task", "add", "Write the docs", "--description", "Document the importer.")
	tm.run(1, "task", "start", "Write the docs")
	tm.run(0, "task", "start", "Ship the importer")
	tm.shareAll()
	for i := range tm.clones {
		tm.run(i, "dream")
		list := tm.file(i, "MEMORY.md")
		for _, want := range []string{"Deploy day", "Deploy schedule", "Backup day", "Backup schedule"} {
			if !strings.Contains(list, want) {
				t.Errorf("clone %d's MEMORY.md lacks %q:\n%s", i, want, list)
			}
		}
		if n := strings.Count(list, "may be duplicates"); n != 2 {
			t.Errorf("clone %d's MEMORY.md lists %d possible duplicates, want both machines' 2:\n%s", i, n, list)
		}
	}
	if f := tm.run(0, "task", "focus"); !strings.Contains(f, "Ship the importer") {
		t.Errorf("clone a's focus: %s", f)
	}
	if f := tm.run(1, "task", "focus"); !strings.Contains(f, "Write the docs") {
		t.Errorf("clone b's focus: %s", f)
	}
	if out := gitIn(t, tm.clones[0], "ls-files", ".vaultmem/state/focus"); out != "" {
		t.Errorf("focus files are committed: %s", out)
	}
}

// TestTeamSessionNotes: Codex's session ids (UUIDv7) share their first 8
// characters for about a minute; two sessions started in one minute each
// get their own note. Session notes stay with their person: the folder's
// .gitignore (committed) keeps them out of git, so pulls never bring a
// teammate's transcripts and never conflict on them.
func TestTeamSessionNotes(t *testing.T) {
	tm := newTeam(t, 2)
	ids := []string{"019ad3c4-5e6f-7a8b-9c0d-1e2f3a4b5c6d", "019ad3c4-7f70-7182-9384-a5b6c7d8e9f0", "019ad3c4-8a9b-7cde-8f01-23456789abcd"}
	start := func(i int, id string) {
		for _, ev := range []string{
			hookEvent(id, tm.clones[i], "SessionStart", map[string]any{"source": "startup"}),
			hookEvent(id, tm.clones[i], "UserPromptSubmit", map[string]any{"prompt": "how do we import the CSV exports?"}),
			hookEvent(id, tm.clones[i], "Stop", map[string]any{"stop_hook_active": false}),
		} {
			if r := vaultmemGuarded(t, tm.clones[i], ev, nil, "hook", "--client", "codex"); r.code != 0 {
				t.Fatalf("session %s: exit %d: %s", id, r.code, r.stderr)
			}
		}
	}
	start(0, ids[0])
	start(0, ids[1])
	start(1, ids[2])
	tm.shareAll()
	for i, want := range [][]string{ids[:2], ids[2:]} {
		notes, _ := filepath.Glob(filepath.Join(tm.clones[i], "sessions", "*.md"))
		if len(notes) != len(want) {
			t.Fatalf("clone %d: session notes %q, want its own %d", i, notes, len(want))
		}
		for _, id := range want {
			found := false
			for _, n := range notes {
				found = found || strings.Contains(mustRead(t, n), id)
			}
			if !found {
				t.Errorf("clone %d: no note of session %s among %q", i, id, notes)
			}
		}
		if got := gitIn(t, tm.clones[i], "ls-files", "sessions"); got != "sessions/.gitignore" {
			t.Errorf("clone %d: git tracks %q in sessions/, want only its .gitignore", i, got)
		}
	}
}

// strengthOf is the strength in the frontmatter of the one lesson of
// vault dir.
func strengthOf(t *testing.T, dir string) string {
	t.Helper()
	notes, _ := filepath.Glob(filepath.Join(dir, "lessons", "*.md"))
	if len(notes) != 1 {
		t.Fatalf("lessons in %s: %q", dir, notes)
	}
	for l := range strings.Lines(mustRead(t, notes[0])) {
		if v, ok := strings.CutPrefix(l, "strength: "); ok {
			return strings.TrimSpace(v)
		}
	}
	t.Fatalf("no strength in %s", notes[0])
	return ""
}

// TestTeamLessonDecay: three machines share a lesson; two decay it on one
// day (each resident process does, once a day) while the third reports an
// outcome. The merged strength is a single machine's for the same events:
// the outcome counts, the day's decay counts once (it was summed: a
// lesson decayed twice ended at 0.1362 instead of 0.3181 and was archived
// the next day).
func TestTeamLessonDecay(t *testing.T) {
	tm := newTeam(t, 3)
	solo := t.TempDir()
	ok(t, solo, "init")
	day := time.Now().AddDate(0, 0, 75).Format("2006-01-02")
	for _, dir := range []string{tm.clones[0], solo} {
		ok(t, dir, "lesson", "add", "Run migrations first", "--trigger", "integration tests", "--action-bias", "run make migrate first")
	}
	tm.shareAll()
	tm.run(2, "lesson", "outcome", "Run migrations first", "--success")
	tm.run(0, "lesson", "decay", "--today", day)
	tm.run(1, "lesson", "decay", "--today", day)
	ok(t, solo, "lesson", "outcome", "Run migrations first", "--success")
	ok(t, solo, "lesson", "decay", "--today", day)
	ok(t, solo, "lesson", "decay", "--today", day) // twice on one machine: once
	tm.shareAll()
	want := strengthOf(t, solo)
	if want != "0.3499" { // 0.55 × 0.99^45
		t.Errorf("one machine's strength is %s, want 0.3499", want)
	}
	for i, dir := range tm.clones {
		if got := strengthOf(t, dir); got != want {
			t.Errorf("clone %d's strength is %s, one machine's %s", i, got, want)
		}
	}
	// The next day's decay on each machine agrees too.
	next := time.Now().AddDate(0, 0, 76).Format("2006-01-02")
	ok(t, solo, "lesson", "decay", "--today", next)
	for i := range tm.clones {
		tm.run(i, "lesson", "decay", "--today", next)
	}
	tm.shareAll()
	want = strengthOf(t, solo)
	for i, dir := range tm.clones {
		if got := strengthOf(t, dir); got != want {
			t.Errorf("the next day, clone %d's strength is %s, one machine's %s", i, got, want)
		}
	}
}

// frontmatterValue is the value of key in the frontmatter of note text
// ("" when it has none).
func frontmatterValue(text, key string) string {
	for l := range strings.Lines(text) {
		if v, ok := strings.CutPrefix(l, key+": "); ok {
			return strings.Trim(strings.TrimSpace(v), `"`)
		}
	}
	return ""
}

// TestTeamTaskClaims: three clones' agents start the same task before any
// of them pulls. Every pull merges clean; every clone ends with one holder,
// the one both rules pick (the earliest start, then the lowest agent id),
// the other claims logged on the task; each loser's next task command
// tells it that it lost the task, and the winner hears nothing.
func TestTeamTaskClaims(t *testing.T) {
	tm := newTeam(t, 3)
	tm.run(0, "task", "add", "Ship the importer", "--description", "Import the CSV exports.")
	tm.shareAll()
	agents := []string{"carol", "alice", "bob"}
	type claim struct{ started, agent string }
	var claims []claim
	for i, a := range agents {
		tm.run(i, "task", "start", "Ship the importer", "--agent="+a)
		claims = append(claims, claim{frontmatterValue(tm.file(i, "tasks/Ship the importer.md"), "started"), a})
	}
	slices.SortFunc(claims, func(x, y claim) int { return strings.Compare(x.started+" "+x.agent, y.started+" "+y.agent) })
	winner := claims[0].agent
	tm.shareAll()
	for i := range tm.clones {
		note := tm.file(i, "tasks/Ship the importer.md")
		if got := frontmatterValue(note, "assignee"); got != winner {
			t.Errorf("clone %d: held by %q, want %q:\n%s", i, got, winner, note)
		}
		for _, a := range agents {
			if a != winner && !strings.Contains(note, a+"'s claim") {
				t.Errorf("clone %d: %s's lost claim is not logged:\n%s", i, a, note)
			}
		}
	}
	for i, a := range agents {
		r := vaultmem(t, tm.clones[i], "", "task", "focus", "--agent="+a)
		told := strings.Contains(r.stderr, "is held by agent "+winner)
		if r.code != 0 || told != (a != winner) {
			t.Errorf("%s's task focus (winner %s): exit %d, stderr %q", a, winner, r.code, r.stderr)
		}
		// The agent's next prompt is told too, once a session.
		prompt := hookEvent("s-"+a, tm.clones[i], "UserPromptSubmit", map[string]any{"prompt": "how do we import the CSV exports"})
		for n := range 2 {
			r = vaultmemGuarded(t, tm.clones[i], prompt, []string{"VAULTMEM_AGENT=" + a}, "hook", "--client", "claude-code")
			told = strings.Contains(r.stdout, "is held by agent "+winner)
			if r.code != 0 || told != (a != winner && n == 0) {
				t.Errorf("%s's prompt %d (winner %s): exit %d, told %v:\n%s", a, n+1, winner, r.code, told, r.stdout)
			}
		}
	}
}

// TestTeamDreamsConverge: two clones' Dreams merge one group of memories
// differently (each machine saw a different memory grow to hold the
// others, and took it for the survivor). The pull merges clean; the next
// Dream on each clone picks the same survivor by a rule of the notes
// alone, each paragraph held once, and both clones end with the same
// notes.
func TestTeamDreamsConverge(t *testing.T) {
	tm := newTeam(t, 2)
	const p1, p2, p3, p4 = "Always use tabs for indentation.", "Tabs are four columns wide.", "Never mix tabs and spaces in one file.", "Go files use gofmt."
	note := func(name, created string, paras ...string) string {
		return "---\nname: " + name + "\ndescription: tabs\ntype: feedback\ncreated: " + created + "\n---\n" + strings.Join(paras, "\n\n") + "\n"
	}
	tm.write(0, "memory/x.md", note("X", "2026-02-03", p1, p2))
	tm.write(0, "memory/y.md", note("Y", "2026-02-01", p1, p3))
	tm.write(0, "memory/z.md", note("Z", "2026-02-01", p1, p4))
	tm.run(0, "dream")
	tm.shareAll()
	tm.write(0, "memory/x.md", note("X", "2026-02-03", p1, p2, p3, p4))
	tm.write(1, "memory/z.md", note("Z", "2026-02-01", p1, p4, p3, p2))
	live := func(i int) []string {
		var out []string
		for _, p := range []string{"memory/x.md", "memory/y.md", "memory/z.md"} {
			if frontmatterValue(tm.file(i, p), "archived") == "" {
				out = append(out, p)
			}
		}
		return out
	}
	for i, want := range []string{"memory/x.md", "memory/z.md"} {
		tm.run(i, "dream")
		if l := live(i); !slices.Equal(l, []string{want}) {
			t.Fatalf("clone %d's Dream left %q live, want %s alone", i, l, want)
		}
	}
	tm.shareAll()
	for i := range tm.clones {
		tm.run(i, "dream")
	}
	tm.shareAll()
	for i := range tm.clones {
		l := live(i)
		if len(l) != 1 {
			t.Fatalf("clone %d: live memories %q, want one survivor", i, l)
		}
		text := tm.file(i, l[0])
		for _, para := range []string{p1, p2, p3, p4} {
			if n := strings.Count(text, para); n != 1 {
				t.Errorf("clone %d: the survivor %s holds %q %d times:\n%s", i, l[0], para, n, text)
			}
		}
		if !strings.Contains(tm.file(i, "MEMORY.md"), "("+l[0]+")") {
			t.Errorf("clone %d: MEMORY.md does not list the survivor %s:\n%s", i, l[0], tm.file(i, "MEMORY.md"))
		}
	}
	for _, p := range []string{"memory/x.md", "memory/y.md", "memory/z.md", "MEMORY.md"} {
		if a, b := tm.file(0, p), tm.file(1, p); a != b {
			t.Errorf("%s differs between the clones:\n%s\n---\n%s", p, a, b)
		}
	}
}

// outcomeLog is the outcome log of vault dir, every file of it (a person
// a month, and an older vault's single file) one after another.
func outcomeLog(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	root := filepath.Join(dir, ".vaultmem", "state", "lessons")
	b.WriteString(tmFileOrEmpty(filepath.Join(root, "outcomes.jsonl")))
	files, _ := filepath.Glob(filepath.Join(root, "outcomes", "*", "*.jsonl"))
	slices.Sort(files)
	for _, f := range files {
		b.WriteString(mustRead(t, f))
	}
	return b.String()
}

// tmFileOrEmpty is the content of file p, "" when there is none.
func tmFileOrEmpty(p string) string {
	b, _ := os.ReadFile(p)
	return string(b)
}
