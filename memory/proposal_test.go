package memory_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/memory"
)

// TestRenderProposals: proposals are listed under "Needs review" after
// the contradictions, by path, one line each linking the note and its
// session; past MaxProposalLines a line says how many more; the merge
// driver reads the lines back.
func TestRenderProposals(t *testing.T) {
	lesson := memory.Proposal{Path: "lessons/Run migrations first.md", Type: "lesson", Title: "Run migrations first", Source: "2026-03-01 1004 claude-code aaaa1111"}
	mem := memory.Proposal{Path: "memory/terse.md", Type: "feedback", Title: "Terse answers"}
	reviews := []memory.Review{memory.ReviewOf(mem), {A: someEntries[1], B: someEntries[2], Reason: "always vs never"}, memory.ReviewOf(lesson)}
	out, _, err := memory.Render("MEMORY.md", nil, someEntries[:3], reviews)
	if err != nil {
		t.Fatal(err)
	}
	want := "## Needs review\n\n" +
		"- [Testing feedback](memory/feedback_testing.md) and [Release freeze](memory/project_freeze.md) may contradict each other: always vs never\n" +
		"- [Run migrations first](lessons/Run%20migrations%20first.md) proposed by Dream from [[2026-03-01 1004 claude-code aaaa1111]]: accept by removing status: proposed\n" +
		"- [Terse answers](memory/terse.md) proposed by Dream: accept by removing status: proposed\n\n" + memory.End
	if !strings.Contains(string(out), want) {
		t.Fatalf("got:\n%s\nwant the end:\n%s", out, want)
	}
	if strings.Contains(string(out), "## Feedback\n\n- [Terse") {
		t.Errorf("a proposal listed as a memory:\n%s", out)
	}
	// The merge driver keeps a proposal one side added, and drops one
	// the other side removed (accepted or deleted).
	base, _, _ := memory.Render("MEMORY.md", nil, someEntries[:1], []memory.Review{memory.ReviewOf(mem)})
	ours, _, _ := memory.Render("MEMORY.md", nil, someEntries[:1], []memory.Review{memory.ReviewOf(mem), memory.ReviewOf(lesson)})
	theirs, _, _ := memory.Render("MEMORY.md", nil, someEntries[:1], nil)
	merged, err := memory.MergeList("MEMORY.md", base, ours, theirs, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantMerged, _, _ := memory.Render("MEMORY.md", nil, someEntries[:1], []memory.Review{memory.ReviewOf(lesson)})
	if string(merged) != string(wantMerged) {
		t.Errorf("merged:\n%s\nwant:\n%s", merged, wantMerged)
	}

	// Many: at most MaxProposalLines, then how many more.
	var many []memory.Review
	for i := range memory.MaxProposalLines + 3 {
		many = append(many, memory.ReviewOf(memory.Proposal{Path: fmt.Sprintf("memory/p%02d.md", i), Type: "user", Title: fmt.Sprint("P", i)}))
	}
	out, _, err = memory.Render("MEMORY.md", nil, nil, many)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(out), "proposed by Dream"); n != memory.MaxProposalLines || !strings.Contains(string(out), "_3 more proposed notes not listed: `vaultmem doctor` lists them all._") {
		t.Errorf("%d lines:\n%s", n, out)
	}
}

// TestProposalsAreNotLive: a memory with status: proposed is no live
// memory (not in the index's memories, not in MEMORY.md's list but under
// Needs review); Propose never writes over a note, and remember of the
// same name writes beside the proposal, never over it; removing the
// status makes it live.
func TestProposalsAreNotLive(t *testing.T) {
	ctx := context.Background()
	ts := newTestStore(t, "memory")
	ts.write("memory/terse-answers.md", "---\nname: Something else\ntype: user\ndescription: x\n---\nA human's note.\n")
	p, _, err := ts.s.Propose(ctx, memory.Memory{Type: memory.Feedback, Name: "Terse answers", Description: "the user wants terse answers",
		Body: "Answer tersely."}, "[[2026-03-01 1004 claude-code aaaa1111]]")
	if err != nil || p != "memory/terse-answers-2.md" {
		t.Fatalf("proposed at %s, %v", p, err)
	}
	got := ts.read(p)
	want := "---\nname: Terse answers\ndescription: the user wants terse answers\ntype: feedback\nstatus: proposed\nsource: \"[[2026-03-01 1004 claude-code aaaa1111]]\"\ncreated: 2026-03-02\n---\n\nAnswer tersely.\n"
	if got != want {
		t.Errorf("proposal:\n%s\nwant:\n%s", got, want)
	}
	if n := markdown.Parse(p, []byte(got)); !func() bool { _, ok := memory.Read(n); return !ok }() {
		t.Error("memory.Read takes a proposal for a live memory")
	}
	ts.sync()
	if live, err := ts.ix.Kinds().Memories(ctx); err != nil || len(live) != 1 || live[0].Path != "memory/terse-answers.md" {
		t.Errorf("live: %+v, %v", live, err)
	}
	if _, err := ts.s.Relist(ctx); err != nil {
		t.Fatal(err)
	}
	list := ts.read("MEMORY.md")
	if !strings.Contains(list, "- [Terse answers](memory/terse-answers-2.md) proposed by Dream from [[2026-03-01 1004 claude-code aaaa1111]]: accept by removing status: proposed") ||
		strings.Contains(list, "## Feedback") {
		t.Errorf("MEMORY.md:\n%s", list)
	}
	// remember of a proposal's name: a new note, the proposal untouched.
	q, _, err := ts.s.Propose(ctx, memory.Memory{Type: memory.User, Name: "Short names", Description: "x", Body: "Short names."}, "")
	if err != nil || q != "memory/short-names.md" {
		t.Fatalf("proposed at %s, %v", q, err)
	}
	before := ts.read(q)
	res, err := ts.s.Remember(ctx, memory.Memory{Type: memory.User, Name: "Short names", Description: "y", Body: "Other."}, memory.Options{Update: true})
	if err != nil || res.Path != "memory/short-names-2.md" || ts.read(q) != before || strings.Contains(before, "source:") {
		t.Errorf("remember: %+v, %v; proposal now:\n%s", res, err, ts.read(q))
	}
	// Accepted: live, listed, not under Needs review.
	ts.write(p, strings.Replace(got, "status: proposed\n", "", 1))
	ts.sync()
	if _, err := ts.s.Relist(ctx); err != nil {
		t.Fatal(err)
	}
	list = ts.read("MEMORY.md")
	if !strings.Contains(list, "- [Terse answers](memory/terse-answers-2.md) — the user wants terse answers") || strings.Contains(list, "terse-answers-2.md) proposed") {
		t.Errorf("MEMORY.md after accepting:\n%s", list)
	}
}
