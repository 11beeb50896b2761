package dream

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/dream/relink"
	"github.com/vaultmem/vaultmem/dream/runstate"
	"github.com/vaultmem/vaultmem/vault"
)

// interrupt plans a run of tv and leaves the vault as a run that stopped
// after its first k note writes would: the journal written, the first k
// planned notes written (winners before their losers), nothing else.
func interrupt(t *testing.T, tv *testVault, k int) *runstate.Journal {
	t.Helper()
	tv.sync()
	ctx := context.Background()
	p, err := tv.d.plan(ctx, RunOptions{}, tv.now, newReport(false))
	if err != nil {
		t.Fatal(err)
	}
	j := journalOf(p)
	if j == nil {
		t.Fatal("the plan writes nothing")
	}
	if _, err := runstate.WriteJournal(ctx, tv.d.w, j); err != nil {
		t.Fatal(err)
	}
	var steps []runstate.Step
	for _, jm := range j.Merges {
		steps = append(append(steps, jm.Winner), jm.Losers...)
	}
	steps = append(steps, j.Writes...)
	for _, s := range steps[:k] {
		if s.To != "" {
			tv.write(s.Path, s.Content)
		}
	}
	return j
}

// TestResumeInterruptedRun: a run that stopped after writing a winner but
// before archiving its duplicates, and before pointing links at it, is
// finished by the next run: the duplicates archived, the links moved, the
// merge in the log; a note changed since is left as it is and reported.
func TestResumeInterruptedRun(t *testing.T) {
	files := map[string]string{}
	for i := range 3 {
		service := []string{"billing", "search", "checkout"}[i]
		files[fmt.Sprintf("memory/w%d.md", i)] = memoryNote(fmt.Sprintf("Topic %c", 'a'+i), "project", "x", "",
			fmt.Sprintf("Deploys of the %s service go out on Tuesdays after the standup.\n\nMore about it, and more, and more again.\n", service))
		files[fmt.Sprintf("memory/l%d.md", i)] = memoryNote(fmt.Sprintf("topic %c", 'a'+i), "project", "x", fmt.Sprintf("same_as: \"[[w%d]]\"\n", i),
			fmt.Sprintf("Deploys of the %s service go out on Tuesdays after the standup.\n\nThe on-call engineer watches.\n", service))
		files[fmt.Sprintf("notes/n%d.md", i)] = fmt.Sprintf("See [[l%d]] and [why](../memory/l%d.md).\n", i, i)
	}
	tv := newTestVault(t, files)
	j := interrupt(t, tv, 1) // the first winner written, nothing more
	if len(j.Merges) != 3 {
		t.Fatalf("planned %+v", j.Merges)
	}
	// Meanwhile a human edits the third loser.
	tv.write("memory/l2.md", files["memory/l2.md"]+"\nA line by hand.\n")

	rep := tv.run(RunOptions{})
	if rep.Resumed == "" {
		t.Errorf("the interrupted run was not finished: %+v", rep)
	}
	if _, err := os.Stat(filepath.Join(tv.dir, vault.StateDir, JournalFile)); !os.IsNotExist(err) {
		t.Errorf("the journal is still there: %v", err)
	}
	for i := range 3 {
		loser := tv.read(fmt.Sprintf("memory/l%d.md", i))
		winner := tv.read(fmt.Sprintf("memory/w%d.md", i))
		if !strings.Contains(loser, "merged_into: \"[[w"+fmt.Sprint(i)+"]]\"") {
			t.Errorf("l%d not archived:\n%s", i, loser)
		}
		if !strings.Contains(winner, "The on-call engineer watches.") {
			t.Errorf("w%d lacks its duplicate's text:\n%s", i, winner)
		}
		if i == 2 && !strings.Contains(winner, "A line by hand.") {
			t.Errorf("w2 lacks the human's line (merged again by this run):\n%s", winner)
		}
		n := tv.read(fmt.Sprintf("notes/n%d.md", i))
		if want := fmt.Sprintf("See [[w%d|l%d]] and [why](../memory/w%d.md).\n", i, i, i); n != want {
			t.Errorf("notes/n%d.md:\n%s\nwant:\n%s", i, n, want)
		}
	}
	log := tv.read("memory/dream-log.md")
	for i := range 3 {
		if !strings.Contains(log, fmt.Sprintf("[[memory/l%d|", i)) {
			t.Errorf("the log does not name l%d:\n%s", i, log)
		}
	}
	if !strings.Contains(log, "which stopped while it wrote") {
		t.Errorf("the log does not say a run was finished:\n%s", log)
	}
	if again := tv.run(RunOptions{}); len(again.Changed) != 0 {
		t.Errorf("a second run changed %v", again.Changed)
	}
}

// TestResumeKeepsAWinnerAHumanChanged: when the winner changed since the
// interrupted run planned it, none of its duplicates is archived by the
// finish; the journal goes, and the run itself merges them again.
func TestResumeKeepsAWinnerAHumanChanged(t *testing.T) {
	tv := newTestVault(t, map[string]string{
		"memory/a.md": memoryNote("A", "project", "x", "", "Same text, and more of it.\n"),
		"memory/b.md": memoryNote("a", "project", "x", "same_as: \"[[a]]\"\n", "Same text.\n\nAnother paragraph.\n"),
	})
	interrupt(t, tv, 0)
	tv.write("memory/a.md", memoryNote("A", "project", "x", "", "Same text, and more of it, edited.\n"))
	rep := tv.run(RunOptions{})
	if !strings.Contains(fmt.Sprint(rep.Skipped), "changed since an interrupted run") {
		t.Errorf("skipped %+v", rep.Skipped)
	}
	if got := tv.read("memory/a.md"); !strings.Contains(got, "edited") || !strings.Contains(got, "Another paragraph.") {
		t.Errorf("a:\n%s", got)
	}
}

// TestLinksAfterMerge: links inside a winner to a memory merged away in
// the same run, a markdown link naming a memory by file name only, and a
// link to a block id the winner already had all end up at the winner;
// no note holds a block id twice.
func TestLinksAfterMerge(t *testing.T) {
	tv := newTestVault(t, map[string]string{
		"memory/a.md": memoryNote("Deploys", "project", "x", "", "Deploys go out on Tuesdays after the standup, and more of it, with much more to say about them. ^shared\n\nSee [[c]].\n"),
		"memory/b.md": memoryNote("deploys", "project", "x", "same_as: \"[[a]]\"\n", "Deploys go out on Tuesdays after the standup.\n\nThe on-call engineer watches the dashboards. ^shared\n"),
		"memory/c.md": memoryNote("Freeze", "project", "x", "", "The freeze starts after the release review, and more of it.\n"),
		"memory/d.md": memoryNote("freeze", "project", "x", "same_as: \"[[c]]\"\n", "The freeze starts after the release review.\n\nSee [[b#^shared]].\n"),
		"notes/n.md":  "By name: [md](b.md). The block: [[b#^shared]]. Ours: [[a#^shared]].\n",
	})
	rep := tv.run(RunOptions{})
	if len(rep.Merged) != 2 {
		t.Fatalf("merged %+v", rep.Merged)
	}
	renamed := relink.RenamedBlock("shared", "memory/b.md")
	a := tv.read("memory/a.md")
	if !strings.Contains(a, "See [[c]].") && !strings.Contains(a, "See [[c|c]]") {
		t.Errorf("a:\n%s", a)
	}
	if !strings.Contains(a, "watches the dashboards. ^"+renamed+"\n") || strings.Count(a, "^shared\n") != 1 {
		t.Errorf("a's block ids:\n%s", a)
	}
	c := tv.read("memory/c.md")
	if !strings.Contains(c, "See [[a#^"+renamed+"|b > ^shared]].") {
		t.Errorf("c's link to the paragraph merged into a:\n%s", c)
	}
	n := tv.read("notes/n.md")
	if want := "By name: [md](../memory/a.md). The block: [[a#^" + renamed + "|b > ^shared]]. Ours: [[a#^shared]].\n"; n != want {
		t.Errorf("notes/n.md:\n%s\nwant:\n%s", n, want)
	}
	for _, s := range rep.Skipped {
		t.Errorf("skipped %+v", s)
	}
}

// TestUnwritableNoteDoesNotStopTheRun: a memory that cannot be written (a
// folder made immutable) is reported and left as it is, and the run goes
// on: its other merges, the log and the checkpoint are written and no
// journal is left. (It needs root and chattr, as on Linux CI.)
func TestUnwritableNoteDoesNotStopTheRun(t *testing.T) {
	if _, err := exec.LookPath("chattr"); err != nil || os.Getuid() != 0 {
		t.Skip("needs root and chattr")
	}
	tv := newTestVault(t, map[string]string{
		"memory/a.md":        memoryNote("Deploys", "project", "x", "", "Deploys go out on Tuesdays after the standup, with the on-call engineer watching.\n"),
		"memory/locked/b.md": memoryNote("deploys", "project", "x", "same_as: \"[[a]]\"\n", "Deploys go out on Tuesdays after the standup.\n"),
		"memory/c.md":        memoryNote("Freeze", "project", "x", "", "The freeze starts after the release review, and more of it.\n"),
		"memory/d.md":        memoryNote("freeze", "project", "x", "same_as: \"[[c]]\"\n", "The freeze starts after the release review.\n"),
	})
	locked := filepath.Join(tv.dir, "memory", "locked")
	if out, err := exec.Command("chattr", "+i", locked).CombinedOutput(); err != nil {
		t.Skipf("chattr: %v %s", err, out)
	}
	defer exec.Command("chattr", "-i", locked).Run()
	rep := tv.run(RunOptions{})
	if len(rep.Merged) != 1 || rep.Merged[0].Into != "memory/c.md" {
		t.Errorf("merged %+v: want d into c only", rep.Merged)
	}
	if !strings.Contains(fmt.Sprint(rep.Skipped), "memory/locked/b.md") {
		t.Errorf("skipped %+v: want b named", rep.Skipped)
	}
	if !strings.Contains(tv.read("memory/dream-log.md"), "[[memory/d|") {
		t.Error("the log was not written")
	}
	if _, err := os.Stat(filepath.Join(tv.dir, vault.StateDir, JournalFile)); !os.IsNotExist(err) {
		t.Errorf("a journal is left: %v", err)
	}
}
