package dream

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestDistinctMemoriesStay: memories that share nearly every word but
// differ in a date, a number, a version, a duration, an owner, a platform,
// a product or a negation are all kept, and MEMORY.md lists each of them.
func TestDistinctMemoriesStay(t *testing.T) {
	files := map[string]string{}
	for n := 3; n <= 6; n++ {
		files[fmt.Sprintf("memory/freeze-%d.md", n)] = memoryNote(fmt.Sprintf("Deploy freeze %d", n), "project", "the mobile deploy freeze", "",
			fmt.Sprintf("The deploy freeze for the mobile app starts on 2026-0%d-01 and ends after the release review.\n", n))
	}
	for i, body := range []string{
		"The page size limit of the export API is 50.", "The page size limit of the export API is 500.",
		"The build service compiles with Go 1.21 on every runner.", "The build service compiles with Go 1.22 on every runner.",
		"The cache entry for a session expires after 30 s of inactivity.", "The cache entry for a session expires after 300 s of inactivity.",
		"The payments team owns the billing service and its on-call rotation.", "The platform team owns the billing service and its on-call rotation.",
		"The nightly release build runs on Linux runners in the main pool.", "The nightly release build runs on Windows runners in the main pool.",
		"The reporting service stores its sessions in MySQL in every region.", "The reporting service stores its sessions in Postgres in every region.",
		"Running the backfill twice on the events table is safe.", "Running the backfill twice on the events table is not safe.",
	} {
		files[fmt.Sprintf("memory/fact-%02d.md", i)] = memoryNote(fmt.Sprintf("Fact %c", 'a'+i), "project", "a fact", "", body+"\n")
	}
	tv := newTestVault(t, files)
	rep := tv.run(RunOptions{})
	if len(rep.Merged) != 0 || len(rep.Archived) != 0 {
		t.Errorf("merged %+v, archived %v: each says something else", rep.Merged, rep.Archived)
	}
	idx := tv.read("MEMORY.md")
	for p := range files {
		if !strings.Contains(idx, "("+p+")") {
			t.Errorf("MEMORY.md does not list %s:\n%s", p, idx)
		}
	}
	// Safe and not safe: a contradiction for a human, though a project memory.
	if !slices.ContainsFunc(rep.Contradictions, func(c Contradiction) bool {
		return c.Paths == [2]string{"memory/fact-12.md", "memory/fact-13.md"}
	}) {
		t.Errorf("contradictions %+v: want fact-12 and fact-13 flagged", rep.Contradictions)
	}
}

// TestNegatedFeedbackIsAContradiction: "Run X" and "Never run X" are
// flagged for a human, never merged, although no word of the first gives
// it a polarity.
func TestNegatedFeedbackIsAContradiction(t *testing.T) {
	tv := newTestVault(t, map[string]string{
		"memory/run.md":   memoryNote("Integration tests", "feedback", "staging tests", "", "Run the integration tests against the staging database before merging.\n"),
		"memory/never.md": memoryNote("No integration tests", "feedback", "staging tests", "", "Never run the integration tests against the staging database before merging.\n"),
	})
	rep := tv.run(RunOptions{})
	if len(rep.Merged) != 0 {
		t.Errorf("merged %+v", rep.Merged)
	}
	if len(rep.Contradictions) != 1 || rep.Contradictions[0].Paths != [2]string{"memory/never.md", "memory/run.md"} {
		t.Errorf("contradictions %+v, want never.md and run.md", rep.Contradictions)
	}
}

// TestNoChainedMerge: A and B are duplicates (the same name), B and C
// (near the same text), A and C are not: C is not merged into A through
// B, and a second run does not merge it either.
func TestNoChainedMerge(t *testing.T) {
	short := "Deploys go out on Tuesdays after the standup, and the on-call engineer watches the dashboards for an hour afterwards."
	tv := newTestVault(t, map[string]string{
		"memory/a.md": memoryNote("Deploy day", "project", "deploys", "",
			short+"\n\nThe release notes go to the changelog channel, the support team gets a summary of every change, "+
				"and the product managers review the rollout metrics with the engineers the next morning.\n"),
		"memory/b.md": memoryNote("deploy day", "project", "deploys", "", short+"\n"),
		"memory/c.md": memoryNote("When we ship", "project", "deploys", "",
			"Deploys go out on Tuesdays after the standup, and the on-call engineer watches dashboards for an hour afterwards.\n"),
	})
	rep := tv.run(RunOptions{})
	if len(rep.Merged) != 1 || rep.Merged[0].Into != "memory/a.md" || !slices.Equal(rep.Merged[0].From, []string{"memory/b.md"}) {
		t.Errorf("merged %+v: want b into a only", rep.Merged)
	}
	if again := tv.run(RunOptions{Full: true}); len(again.Merged) != 0 {
		t.Errorf("a second run merged %+v: c is no duplicate of a", again.Merged)
	}
	if got := tv.read("memory/c.md"); strings.Contains(got, "merged_into") {
		t.Errorf("c was merged:\n%s", got)
	}
}

// TestDreamLogHasAType: the dream log, new or from before it had a type,
// carries type: dream-log, which recall and MEMORY.md leave out; the
// human's text in an old log is kept.
func TestDreamLogHasAType(t *testing.T) {
	for _, old := range []string{"", "# Dream log\n\nOld entries by hand.\n", "---\ndescription: kept\n---\n\nOld entries.\n"} {
		files := map[string]string{
			"memory/a.md": memoryNote("A", "project", "x", "", "Same text. And more of it.\n"),
			"memory/b.md": memoryNote("a", "project", "x", "", "Same text.\n"),
		}
		if old != "" {
			files["memory/dream-log.md"] = old
		}
		tv := newTestVault(t, files)
		if rep := tv.run(RunOptions{}); len(rep.Merged) != 1 {
			t.Fatalf("merged %+v", rep.Merged)
		}
		got := tv.read("memory/dream-log.md")
		if !strings.HasPrefix(got, "---\n") || !strings.Contains(got, "type: "+LogType+"\n") {
			t.Errorf("log from %q:\n%s", old, got)
		}
		body := strings.TrimPrefix(old, "---\ndescription: kept\n---\n")
		if !strings.Contains(got, body) || strings.Contains(old, "kept") && !strings.Contains(got, "description: kept") {
			t.Errorf("the old log's text is not kept:\n%s", got)
		}
		if strings.Contains(tv.read("MEMORY.md"), "dream-log") {
			t.Errorf("MEMORY.md lists the log:\n%s", tv.read("MEMORY.md"))
		}
	}
}

// TestMutualSupersedes: two memories that supersede each other (two
// machines each wrote the newer one) are both kept and flagged for a
// human; so are the memories of a longer cycle.
func TestMutualSupersedes(t *testing.T) {
	tv := newTestVault(t, map[string]string{
		"memory/a.md": memoryNote("Deploy day A", "project", "x", "supersedes: \"[[b]]\"\n", "Deploys go out on Tuesdays.\n"),
		"memory/b.md": memoryNote("Deploy day B", "project", "x", "supersedes: \"[[a]]\"\n", "Deploys go out on Wednesdays.\n"),
		"memory/c.md": memoryNote("Freeze C", "project", "x", "supersedes: \"[[d]]\"\n", "The freeze ends in March.\n"),
		"memory/d.md": memoryNote("Freeze D", "project", "x", "supersedes: \"[[e]]\"\n", "The freeze ends in April.\n"),
		"memory/e.md": memoryNote("Freeze E", "project", "x", "supersedes: \"[[c]]\"\n", "The freeze ends in May 2026.\n"),
		"memory/f.md": memoryNote("Old", "project", "x", "", "Deploys went out on Mondays.\n"),
		"memory/g.md": memoryNote("New", "project", "x", "supersedes: \"[[f]]\"\n", "Deploys go out on Thursdays now.\n"),
	})
	rep := tv.run(RunOptions{})
	if !slices.Equal(rep.Archived, []string{"memory/f.md"}) {
		t.Errorf("archived %v, want only f (superseded by g, which it does not supersede)", rep.Archived)
	}
	var flagged []string
	for _, c := range rep.Contradictions {
		if strings.Contains(c.Reason, "supersedes the other") {
			flagged = append(flagged, c.Paths[0]+" "+c.Paths[1])
		}
	}
	if want := []string{"memory/a.md memory/b.md", "memory/c.md memory/d.md", "memory/c.md memory/e.md", "memory/d.md memory/e.md"}; !slices.Equal(flagged, want) {
		t.Errorf("flagged %v, want %v", flagged, want)
	}
	idx := tv.read("MEMORY.md")
	for _, p := range []string{"memory/a.md", "memory/b.md", "memory/c.md", "memory/d.md", "memory/e.md"} {
		if !strings.Contains(idx, "("+p+") —") {
			t.Errorf("MEMORY.md does not list %s:\n%s", p, idx)
		}
	}
	if again := tv.run(RunOptions{}); len(again.Changed) != 0 || len(again.Contradictions) != 4 {
		t.Errorf("second run changed %v, flags %+v", again.Changed, again.Contradictions)
	}
}
