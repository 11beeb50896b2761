package dream

import (
	"context"
	"testing"
)

// TestNoContradictionMerged: two memories that contradict each other, each
// held whole by a third that says both, both go into it (it adds nothing
// of theirs); but a memory a person says is the same as another does not
// bring into it what contradicts another memory merged there.
func TestNoContradictionMerged(t *testing.T) {
	common := "The formatter runs in the pre-commit hook of the monorepo, on every file the change touches, " +
		"and the review bot comments on each line it would have changed, with a link to the style guide page " +
		"that explains the rule and the one command that fixes every file at once.\n\n"
	always, never := "Always use tabs for indentation in Go files.\n", "Never use tabs for indentation in Go files.\n"
	tv := newTestVault(t, map[string]string{
		"memory/a.md": memoryNote("Indent", "feedback", "x", "", common+always+"\n"+never),
		"memory/b.md": memoryNote("Tabs", "feedback", "x", "", common+always),
		"memory/c.md": memoryNote("Spaces", "feedback", "x", "", common+never),
		"memory/d.md": memoryNote("Formatter", "feedback", "x", "", common+"Run the formatter by hand before pushing.\n"),
		"memory/e.md": memoryNote("Formatter too", "feedback", "x", "same_as: \"[[d]]\"\n", common+"Never run the formatter by hand before pushing.\n"),
		"memory/f.md": memoryNote("Formatter again", "feedback", "x", "same_as: \"[[d]]\"\n", common+"Run the formatter by hand before pushing, twice.\n"),
	})
	rep := tv.run(RunOptions{})
	want := []Merge{{Into: "memory/a.md", From: []string{"memory/b.md", "memory/c.md"}, Reason: "contained"}}
	var got []Merge
	for _, m := range rep.Merged {
		if m.Into == "memory/a.md" {
			got = append(got, m)
		} else if len(m.From) != 1 {
			t.Errorf("contradicting memories merged through same_as: %+v", m)
		}
	}
	if !sameMerges(got, want) {
		t.Errorf("merged %+v, want %+v", rep.Merged, want)
	}
}

// TestRelinkStaleIndex: a note edited after the index last read it (its
// link to the merged memory replaced by another) is left as it is and
// reported, never rewritten at the old link's place.
func TestRelinkStaleIndex(t *testing.T) {
	tv := newTestVault(t, map[string]string{
		"memory/a.md":    memoryNote("A", "project", "x", "", "Same text. And more of it.\n"),
		"memory/b.md":    memoryNote("a", "project", "x", "", "Same text.\n"),
		"notes/n.md":     "See [[b]] today.\n",
		"notes/other.md": "other\n",
	})
	tv.sync()
	tv.write("notes/n.md", "See [[other]] today.\n") // the index has not seen this
	rep, err := tv.d.Run(context.Background(), RunOptions{})
	if err != nil || len(rep.Merged) != 1 {
		t.Fatalf("%v %+v", err, rep.Merged)
	}
	if got := tv.read("notes/n.md"); got != "See [[other]] today.\n" {
		t.Errorf("the human's link was rewritten: %q", got)
	}
	if len(rep.Skipped) != 1 || rep.Skipped[0].Path != "notes/n.md" {
		t.Errorf("skipped %+v", rep.Skipped)
	}
}

// TestRelinkInTable: a link in a table row keeps its pipe escaped.
func TestRelinkInTable(t *testing.T) {
	tv := newTestVault(t, map[string]string{
		"memory/a.md": memoryNote("A", "project", "x", "", "Same text. And more of it.\n"),
		"memory/b.md": memoryNote("a", "project", "x", "", "Same text.\n"),
		"notes/t.md":  "| link | note |\n|---|---|\n| [[b]] | x |\n| [[b\\|shown]] | y |\n\nAnd [[b]] outside.\n",
	})
	tv.run(RunOptions{})
	want := "| link | note |\n|---|---|\n| [[a\\|b]] | x |\n| [[a\\|shown]] | y |\n\nAnd [[a|b]] outside.\n"
	if got := tv.read("notes/t.md"); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
