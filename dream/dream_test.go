package dream

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/gofrs/flock"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/vault"
)

// TestMerge: memories provably the same (equal text after the
// normalisations, or one held whole in the other) are merged into the most
// complete memory; the others stay notes, archived, and every
// link to them elsewhere points at the winner with its text kept; a
// second run changes nothing.
func TestMerge(t *testing.T) {
	tv := newTestVault(t, map[string]string{
		"memory/pnpm.md": memoryNote("Package manager", "user", "pnpm", "created: 2026-01-10\ntags: [tools]\n",
			"The user prefers pnpm over npm for every JavaScript project.\n\n**Why:** faster installs on every CI machine.\n"),
		"memory/pnpm-2.md": memoryNote("package_MANAGER.", "user", "pnpm again", "created: 2025-12-01\ntags: [js, Tools]\nowner: ana\n",
			"The user prefers pnpm over npm for every JavaScript project.\n"),
		"memory/deploys.md": memoryNote("Deploy day", "project", "deploys go out on Tuesdays", "created: 2026-01-05\n",
			"Deploys go out on Tuesdays after the standup, never on Fridays, and the on-call engineer watches the dashboards for an hour.\n"),
		"memory/deploys-copy.md": memoryNote("When we deploy", "project", "deploys go out on Tuesdays", "",
			"*Deploys* go out on Tuesdays after the standup, never on Fridays, and the on-call engineer watches the dashboards for an hour\n"),
		"memory/same-text.md":   memoryNote("Alpha", "reference", "a", "", "Bugs live in Linear, project INGEST.\n"),
		"memory/same-text-2.md": memoryNote("Beta", "reference", "b", "", "bugs live in Linear,   project INGEST.\n"),
		"memory/other-type.md":  memoryNote("Package manager", "feedback", "not a user memory", "", "Use pnpm.\n"),
		"notes/links.md": "---\nrelated: \"[[pnpm-2]]\"\n---\nSee [[pnpm-2]], [[pnpm-2|the rule]], [[pnpm-2#Why]], ![[pnpm-2]] and [md](../memory/pnpm-2.md).\n" +
			"Also [[deploys-copy]] and `[[pnpm-2]]` in code.\n",
	})
	rep := tv.run(RunOptions{})
	want := []Merge{
		{Into: "memory/deploys.md", From: []string{"memory/deploys-copy.md"}, Reason: "same text"},
		{Into: "memory/same-text-2.md", From: []string{"memory/same-text.md"}, Reason: "same text"},
		{Into: "memory/pnpm.md", From: []string{"memory/pnpm-2.md"}, Reason: "contained"},
	}
	if !sameMerges(rep.Merged, want) {
		t.Errorf("merged %+v\nwant %+v", rep.Merged, want)
	}
	// The winner: its text (it holds all of the other's); keys merged,
	// the older created kept.
	wantWinner := "---\nname: Package manager\ndescription: pnpm\ntype: user\ncreated: 2025-12-01\ntags:\n  - tools\n  - js\nowner: ana\n---\n" +
		"The user prefers pnpm over npm for every JavaScript project.\n\n**Why:** faster installs on every CI machine.\n"
	if got := tv.read("memory/pnpm.md"); got != wantWinner {
		t.Errorf("winner:\n%s\nwant:\n%s", got, wantWinner)
	}
	loser := tv.read("memory/pnpm-2.md")
	if !strings.Contains(loser, "merged_into: \"[[pnpm]]\"\narchived: 2026-03-02\n") || !strings.HasSuffix(loser, "every JavaScript project.\n") {
		t.Errorf("the merged-away memory:\n%s", loser)
	}
	wantLinks := "---\nrelated: \"[[pnpm|pnpm-2]]\"\n---\nSee [[pnpm|pnpm-2]], [[pnpm|the rule]], [[pnpm#Why|pnpm-2 > Why]], ![[pnpm|pnpm-2]] and [md](pnpm.md).\n" +
		"Also [[deploys|deploys-copy]] and `[[pnpm-2]]` in code.\n"
	if got := tv.read("notes/links.md"); got != strings.Replace(wantLinks, "[md](pnpm.md)", "[md](../memory/pnpm.md)", 1) {
		t.Errorf("links:\n%s\nwant:\n%s", got, wantLinks)
	}
	idx := tv.read("MEMORY.md")
	for _, gone := range []string{"pnpm-2.md", "deploys-copy.md", "same-text.md)"} {
		if strings.Contains(idx, gone) {
			t.Errorf("MEMORY.md lists %s:\n%s", gone, idx)
		}
	}
	if !strings.Contains(idx, "[Package manager](memory/other-type.md)") {
		t.Errorf("a memory of another type was merged:\n%s", idx)
	}
	log := tv.read("memory/dream-log.md")
	if !strings.Contains(log, "## 2026-03-02 09:00 UTC\n") || !strings.Contains(log, "- Merged [[memory/pnpm-2|package_MANAGER.]] into [[memory/pnpm|Package manager]] (contained)") {
		t.Errorf("dream log:\n%s", log)
	}

	// Again: nothing to do, nothing written.
	before := tv.snapshot()
	again := tv.run(RunOptions{})
	if len(again.Changed) != 0 || len(again.Merged) != 0 || again.Examined != 0 {
		t.Errorf("second run: %+v", again)
	}
	if after := tv.snapshot(); !reflect.DeepEqual(before, after) {
		t.Error("the second run changed files")
	}
	// A full run finds nothing new either.
	if full := tv.run(RunOptions{Full: true}); len(full.Changed) != 0 {
		t.Errorf("full run after: changed %v", full.Changed)
	}
}

// sameMerges compares merges ignoring order.
func sameMerges(got, want []Merge) bool {
	if len(got) != len(want) {
		return false
	}
	for _, w := range want {
		found := false
		for _, g := range got {
			if g.Into == w.Into && reflect.DeepEqual(g.From, w.From) && (g.Reason == w.Reason || strings.HasPrefix(w.Reason, "near") && strings.HasPrefix(g.Reason, "near")) {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// TestDryRun: a dry run reports what a run would do and writes nothing.
func TestDryRun(t *testing.T) {
	tv := newTestVault(t, map[string]string{
		"memory/a.md": memoryNote("A", "feedback", "tabs", "created: 2026-02-27\n", "Always use tabs for indentation. Review it next Thursday.\n"),
		"memory/b.md": memoryNote("a", "feedback", "tabs", "", "Always use tabs for indentation.\n"),
		"memory/c.md": memoryNote("C", "feedback", "no tabs", "", "Never use tabs for indentation.\n"),
	})
	tv.sync()
	before := tv.snapshot()
	dry, err := tv.d.Run(context.Background(), RunOptions{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if after := tv.snapshot(); !reflect.DeepEqual(before, after) {
		t.Fatal("a dry run wrote files")
	}
	real := tv.run(RunOptions{})
	dry.DryRun, dry.MS, real.MS = false, 0, 0
	if !reflect.DeepEqual(dry, real) {
		t.Errorf("dry run and run differ:\n%+v\n%+v", dry, real)
	}
	if len(real.DatesFixed) != 1 || real.DatesFixed[0] != (DateFix{Path: "memory/a.md", Line: 8, From: "next Thursday", To: "2026-03-05"}) {
		t.Errorf("dates: %+v", real.DatesFixed)
	}
}

// TestContradictions: feedback saying the opposite is flagged, never
// merged or resolved, and so are memories of any type alike but for a
// negation; the flag shows in MEMORY.md; a memory that supersedes the
// other resolves it, archiving the other.
func TestContradictions(t *testing.T) {
	tv := newTestVault(t, map[string]string{
		"memory/tabs.md":   memoryNote("Tabs", "feedback", "indentation", "", "Always use tabs for indentation in Go files.\n"),
		"memory/spaces.md": memoryNote("Spaces", "feedback", "indentation", "", "Never use tabs for indentation in Go files.\n"),
		"memory/pnpm.md":   memoryNote("Pnpm", "user", "package manager", "", "The user prefers pnpm for JavaScript.\n"),
		"memory/yarn.md":   memoryNote("Yarn", "user", "package manager", "", "The user avoids pnpm for JavaScript.\n"),
		"memory/deploy.md": memoryNote("Deploy", "project", "deploys", "", "Always deploy on Tuesdays.\n"),
		"memory/nodep.md":  memoryNote("No deploy", "project", "deploys", "", "Never deploy on Tuesdays.\n"),
	})
	rep := tv.run(RunOptions{})
	if len(rep.Merged) != 0 {
		t.Errorf("contradicting memories were merged: %+v", rep.Merged)
	}
	var pairs [][2]string
	for _, c := range rep.Contradictions {
		pairs = append(pairs, c.Paths)
		if !c.New || c.Reason == "" {
			t.Errorf("contradiction %+v", c)
		}
	}
	if want := [][2]string{{"memory/deploy.md", "memory/nodep.md"}, {"memory/pnpm.md", "memory/yarn.md"}, {"memory/spaces.md", "memory/tabs.md"}}; !reflect.DeepEqual(pairs, want) {
		t.Errorf("flagged %v, want %v", pairs, want)
	}
	idx := tv.read("MEMORY.md")
	if !strings.Contains(idx, "## Needs review\n\n") || !strings.Contains(idx, "\n- [Pnpm](memory/pnpm.md) and [Yarn](memory/yarn.md) may contradict each other") ||
		!strings.Contains(idx, "\n- [Deploy](memory/deploy.md) and [No deploy](memory/nodep.md) may contradict each other: the same but for \"Never\"\n") {
		t.Errorf("MEMORY.md:\n%s", idx)
	}
	// The flags stand in the next run, not new.
	if again := tv.run(RunOptions{}); len(again.Contradictions) != 3 || again.Contradictions[0].New || len(again.Changed) != 0 {
		t.Errorf("second run: %+v", again)
	}
	// A human resolves one: the new memory supersedes the old.
	tv.write("memory/tabs.md", memoryNote("Tabs", "feedback", "indentation", "supersedes: \"[[spaces]]\"\n", "Always use tabs for indentation in Go files.\n"))
	rep = tv.run(RunOptions{})
	if !reflect.DeepEqual(rep.Archived, []string{"memory/spaces.md"}) || len(rep.Contradictions) != 2 {
		t.Errorf("after supersedes: archived %v, contradictions %+v", rep.Archived, rep.Contradictions)
	}
	if got := tv.read("memory/spaces.md"); !strings.Contains(got, "superseded_by: \"[[tabs]]\"\narchived: 2026-03-02\n") {
		t.Errorf("superseded memory:\n%s", got)
	}
	if idx := tv.read("MEMORY.md"); strings.Contains(idx, "Spaces") || !strings.Contains(idx, "[Yarn]") {
		t.Errorf("MEMORY.md after:\n%s", idx)
	}
	// Editing them so they agree drops the flags.
	tv.write("memory/yarn.md", memoryNote("Yarn", "user", "package manager", "", "The user prefers pnpm for JavaScript, and yarn for the old monorepo.\n"))
	tv.write("memory/nodep.md", memoryNote("No deploy", "project", "deploys", "", "Never deploy on Fridays.\n"))
	if rep := tv.run(RunOptions{}); len(rep.Contradictions) != 0 {
		t.Errorf("flag stands after the edit: %+v", rep.Contradictions)
	}
	if idx := tv.read("MEMORY.md"); strings.Contains(idx, "may contradict") {
		t.Errorf("MEMORY.md still lists a contradiction:\n%s", idx)
	}
}

// TestBadInput: a memory whose frontmatter does not parse is reported and
// left alone while everything else happens; a MEMORY.md with one marker
// stops the run before anything is written, naming the file and line.
func TestBadInput(t *testing.T) {
	bad := "---\nname: [unclosed\ntype: feedback\n---\nAlways use tabs. See you tomorrow.\n"
	tv := newTestVault(t, map[string]string{
		"memory/bad.md":      bad,
		"memory/a.md":        memoryNote("A", "project", "x", "", "Same text.\n"),
		"memory/b.md":        memoryNote("B", "project", "x", "", "Same text.\n"),
		"notes/n.md":         "Links to [[b]].\n",
		"memory/bad-link.md": "---\nname: [unclosed\n---\nSee [[b]].\n",
	})
	broken := "# Memory\n\n" + memory.Begin + "\n- [x](x.md)\n"
	tv.write("MEMORY.md", broken)
	tv.sync()
	before := tv.snapshot()
	_, err := tv.d.Run(context.Background(), RunOptions{})
	var pe *markdown.ParseError
	if !errors.As(err, &pe) || pe.Path != "MEMORY.md" || pe.Line != 3 {
		t.Fatalf("broken markers: %v", err)
	}
	if !reflect.DeepEqual(before, tv.snapshot()) {
		t.Fatal("a run stopped by MEMORY.md wrote files")
	}

	tv.write("MEMORY.md", "# Memory\n")
	rep := tv.run(RunOptions{})
	if len(rep.Merged) != 1 {
		t.Errorf("merged %+v", rep.Merged)
	}
	var skipped []string
	for _, s := range rep.Skipped {
		skipped = append(skipped, s.Path)
		if s.Line == 0 {
			t.Errorf("skip without a line: %+v", s)
		}
	}
	if !reflect.DeepEqual(skipped, []string{"memory/bad-link.md", "memory/bad.md"}) {
		t.Errorf("skipped %+v", rep.Skipped)
	}
	if tv.read("memory/bad.md") != bad || tv.read("memory/bad-link.md") != before["memory/bad-link.md"] {
		t.Error("a note whose frontmatter does not parse was written")
	}
	if tv.read("notes/n.md") != "Links to [[a|b]].\n" {
		t.Errorf("links: %q", tv.read("notes/n.md"))
	}
}

// TestEditedWhileDreaming: a memory a human saves between the plan and
// the write is skipped, never overwritten, and the merge does not happen.
func TestEditedWhileDreaming(t *testing.T) {
	tv := newTestVault(t, map[string]string{
		"memory/a.md": memoryNote("A", "project", "x", "", "Same text. And longer.\n"),
		"memory/b.md": memoryNote("A", "project", "x", "", "Same text.\n"),
	})
	tv.sync()
	ctx := context.Background()
	rep := &Report{}
	p, err := tv.d.plan(ctx, RunOptions{}, tv.now, rep)
	if err != nil || len(p.merges) != 1 {
		t.Fatalf("plan: %v, %d merges", err, len(p.merges))
	}
	human := memoryNote("A", "project", "x", "", "Same text. And longer, edited by hand.\n")
	tv.write("memory/a.md", human)
	if err := tv.d.apply(ctx, p, false, rep); err != nil {
		t.Fatal(err)
	}
	if tv.read("memory/a.md") != human {
		t.Error("the human's edit was overwritten")
	}
	if len(rep.Merged) != 0 || len(rep.Skipped) != 1 || rep.Skipped[0].Path != "memory/a.md" {
		t.Errorf("report: merged %+v, skipped %+v", rep.Merged, rep.Skipped)
	}
	if strings.Contains(tv.read("memory/b.md"), "archived") {
		t.Error("the other memory was archived though the merge did not happen")
	}
}

// TestOneAtATime: a second Dream exits with ErrRunning, or waits.
func TestOneAtATime(t *testing.T) {
	tv := newTestVault(t, map[string]string{"memory/a.md": memoryNote("A", "user", "x", "", "y\n")})
	tv.sync()
	if err := tv.v.EnsureDir(vault.TmpDir); err != nil {
		t.Fatal(err)
	}
	held := flock.New(tv.v.Abs(lockFile))
	if ok, err := held.TryLock(); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if _, err := tv.d.Run(context.Background(), RunOptions{}); !errors.Is(err, ErrRunning) {
		t.Errorf("while another runs: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := tv.d.Run(ctx, RunOptions{Wait: true}); !errors.Is(err, context.Canceled) {
		t.Errorf("waiting, cancelled: %v", err)
	}
	held.Unlock()
	if _, err := tv.d.Run(context.Background(), RunOptions{}); err != nil {
		t.Errorf("after: %v", err)
	}
}

// TestClaudeCodeFolder: in a Claude Code memory folder (memories beside
// MEMORY.md, the memory folder "."), Dream works the same and its log
// goes beside them.
func TestClaudeCodeFolder(t *testing.T) {
	tv := newTestVault(t, map[string]string{
		"MEMORY.md":           "- [Testing](feedback_testing.md) — real database\n",
		"feedback_testing.md": memoryNote("Testing", "feedback", "real database", "", "Integration tests must hit a real database.\n"),
		"feedback_tests.md":   memoryNote("testing", "feedback", "real db", "", "Integration tests must hit a real database.\n"),
		"user_role.md":        memoryNote("Role", "user", "Go engineer", "", "Ana is a senior Go engineer.\n"),
	})
	tv.d = tv.dreamer(Options{Folder: "."})
	rep := tv.run(RunOptions{})
	if len(rep.Merged) != 1 || rep.Merged[0].Into != "feedback_testing.md" || rep.Log != "dream-log.md" {
		t.Fatalf("merged %+v, log %q", rep.Merged, rep.Log)
	}
	idx := tv.read("MEMORY.md")
	if !strings.HasPrefix(idx, "- [Testing](feedback_testing.md) — real database\n\n"+memory.Begin) ||
		!strings.Contains(idx, "- [Role](user_role.md) — Go engineer\n") || strings.Contains(idx, "feedback_tests.md") {
		t.Errorf("MEMORY.md:\n%s", idx)
	}
}
