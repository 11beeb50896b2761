package markdown_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/markdown"
)

// wholeText merges texts whole: a side that did not change takes the
// other's; both changing is a conflict.
func wholeText(base, ours, theirs []byte) ([]byte, bool, error) {
	switch {
	case bytes.Equal(ours, theirs), bytes.Equal(theirs, base):
		return ours, true, nil
	case bytes.Equal(ours, base):
		return theirs, true, nil
	}
	return ours, false, nil
}

func TestMergeNote(t *testing.T) {
	task := "---\ntype: task\nname: Ship\nstatus: doing\n---\n\nShip it.\n\n## Log\n\n- 2026-11-23 10:00 note: start\n"
	lesson := "---\ntype: lesson\ntrigger: deploy\nstrength: 0.5\napplication_count: 2\nlast_applied: 2026-11-20\n---\n\nBody.\n\n## History\n\n- 2026-11-01 10:00 created at 0.5\n"
	for _, tt := range []struct {
		name               string
		base, ours, theirs string
		want               string
		clean              bool
	}{
		{"both append events, ordered by time", task,
			task + "- 2026-11-23 11:00 decision: a\n  because a\n",
			task + "- 2026-11-23 10:30 note: b\n",
			"---\ntype: task\nname: Ship\nstatus: doing\n---\n\nShip it.\n\n## Log\n\n- 2026-11-23 10:00 note: start\n- 2026-11-23 10:30 note: b\n- 2026-11-23 11:00 decision: a\n  because a\n", true},
		{"one side finishes, the other logs", task,
			strings.Replace(task, "status: doing", "status: done\nfinished: 2026-11-23", 1),
			task + "- 2026-11-23 10:30 milestone: b\n",
			"---\ntype: task\nname: Ship\nstatus: done\nfinished: 2026-11-23\n---\n\nShip it.\n\n## Log\n\n- 2026-11-23 10:00 note: start\n- 2026-11-23 10:30 milestone: b\n", true},
		{"a removed event stays removed", task + "- 2026-11-23 10:05 note: typo\n",
			task + "- 2026-11-23 11:00 note: a\n",
			task + "- 2026-11-23 10:05 note: typo\n- 2026-11-23 12:00 note: b\n",
			task + "- 2026-11-23 11:00 note: a\n- 2026-11-23 12:00 note: b\n", true},
		{"two outcomes on one lesson add up", lesson,
			strings.NewReplacer("strength: 0.5", "strength: 0.55", "application_count: 2", "application_count: 3", "last_applied: 2026-11-20", "last_applied: 2026-11-22").Replace(lesson) + "- 2026-11-22 09:00 success: 0.5 → 0.55\n",
			strings.NewReplacer("strength: 0.5", "strength: 0.4", "application_count: 2", "application_count: 3", "last_applied: 2026-11-20", "last_applied: 2026-11-23").Replace(lesson) + "- 2026-11-23 09:00 failure: 0.5 → 0.4\n",
			"---\ntype: lesson\ntrigger: deploy\nstrength: 0.45\napplication_count: 4\nlast_applied: 2026-11-23\n---\n\nBody.\n\n## History\n\n- 2026-11-01 10:00 created at 0.5\n- 2026-11-22 09:00 success: 0.5 → 0.55\n- 2026-11-23 09:00 failure: 0.5 → 0.4\n", true},
		{"the same key changed both ways is a conflict", task,
			strings.Replace(task, "status: doing", "status: done", 1),
			strings.Replace(task, "status: doing", "status: blocked", 1),
			strings.Replace(task, "status: doing", "<<<<<<< ours\nstatus: done\n=======\nstatus: blocked\n>>>>>>> theirs", 1), false},
		{"the body changed both ways is a conflict", task,
			strings.Replace(task, "Ship it.", "Ship it now.", 1),
			strings.Replace(task, "Ship it.", "Ship it later.", 1),
			strings.Replace(task, "Ship it.", "Ship it now.", 1), false},
		{"the same line added on both sides is kept twice", task,
			task + "- 2026-11-23 11:00 note: same\n",
			strings.Replace(task, "status: doing", "status: done", 1) + "- 2026-11-23 11:00 note: same\n",
			strings.Replace(task, "status: doing", "status: done", 1) + "- 2026-11-23 11:00 note: same\n- 2026-11-23 11:00 note: same\n", true},
		{"a key only theirs added", task, task, strings.Replace(task, "status: doing", "status: doing\nassignee: b", 1),
			strings.Replace(task, "status: doing", "status: doing\nassignee: b", 1), true},
		{"a section only theirs has", "---\ntype: task\n---\n\nX.\n", "---\ntype: task\n---\n\nX.\n",
			"---\ntype: task\n---\n\nX.\n\n## Log\n\n- 2026-11-23 10:00 note: b\n", "---\ntype: task\n---\n\nX.\n\n## Log\n\n- 2026-11-23 10:00 note: b\n", true},
	} {
		got, clean, err := markdown.MergeNote("n.md", []byte(tt.base), []byte(tt.ours), []byte(tt.theirs), wholeText, rules)
		if err != nil || clean != tt.clean || string(got) != tt.want {
			t.Errorf("%s: clean %v, err %v:\n%s\nwant clean %v:\n%s", tt.name, clean, err, got, tt.clean, tt.want)
		}
	}
}

// FuzzMergeNote: merging never panics, merging a note with itself gives
// it back unchanged, and a merge of a CRLF side with an LF side ends
// every line as ours does.
func FuzzMergeNote(f *testing.F) {
	f.Add("---\ntype: task\nstatus: doing\n---\n\n## Log\n\n- 2026-11-23 10:00 note: a\n", "- 2026-11-23 11:00 note: b\n", "strength: 0.5\n")
	f.Add("", "## History\n- x\n  y\n", "---\n---\n")
	f.Fuzz(func(t *testing.T, base, add1, add2 string) {
		n := []byte(base)
		got, clean, err := markdown.MergeNote("n.md", n, n, n, wholeText, rules)
		if err == nil && (!clean || !bytes.Equal(got, n)) {
			t.Fatalf("merging %q with itself: %v %q", base, clean, got)
		}
		markdown.MergeNote("n.md", n, []byte(base+add1), []byte(base+add2), wholeText, rules)
		markdown.MergeNote("n.md", []byte(add1), n, []byte(add2), wholeText, rules)
		if strings.Contains(base+add1+add2, "\r") {
			return
		}
		ours := strings.ReplaceAll(base+add1+"\n", "\n", "\r\n")
		got, _, err = markdown.MergeNote("n.md", n, []byte(ours), []byte(base+add2), wholeText, rules)
		if err == nil && strings.Count(string(got), "\n") != strings.Count(string(got), "\r\n") {
			t.Fatalf("a CRLF side and an LF side merged into mixed line endings: %q", got)
		}
	})
}

// TestMergeNoteDefects: the merge of two versions of a note never wraps
// a counter, never mixes line endings, never keeps an entry edited two
// ways without a conflict, marks a frontmatter conflict where it is, and
// never repeats an entry of a list with blank lines between its entries.
func TestMergeNoteDefects(t *testing.T) {
	lesson := func(count string) string {
		return "---\ntype: lesson\napplication_count: " + count + "\n---\n\nBody.\n"
	}
	task := "---\ntype: task\nname: Ship\nstatus: doing\n---\n\nShip it.\n\n## Log\n\n- 2026-11-23 10:00 note: start\n"
	crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	loose := "---\ntype: task\n---\n\nX.\n\n## Log\n\n- 2026-11-23 10:00 note: a\n\n- 2026-11-23 11:00 note: b\n"
	for _, tt := range []struct {
		name               string
		base, ours, theirs string
		want               string
		clean              bool
	}{
		{"a count past the largest integer saturates", lesson("5"), lesson("9223372036854775807"), lesson("10"),
			lesson("9223372036854775807"), true},
		{"a large count adds up exactly", lesson("0"), lesson("10000000000000001"), lesson("1"),
			lesson("10000000000000002"), true},
		{"ours CRLF, theirs LF: CRLF throughout", task,
			crlf(task + "- 2026-11-23 11:00 note: a\n"),
			task + "- 2026-11-23 12:00 note: b\n",
			crlf(task + "- 2026-11-23 11:00 note: a\n- 2026-11-23 12:00 note: b\n"), true},
		{"ours LF, theirs CRLF: LF throughout", crlf(task),
			task + "- 2026-11-23 11:00 note: a\n",
			crlf(strings.Replace(task, "status: doing", "status: done", 1) + "- 2026-11-23 12:00 note: b\n"),
			strings.Replace(task, "status: doing", "status: done", 1) + "- 2026-11-23 11:00 note: a\n- 2026-11-23 12:00 note: b\n", true},
		{"an entry edited both ways is a conflict in the log", task,
			strings.Replace(task, "note: start", "note: started", 1) + "- 2026-11-23 11:00 note: a\n",
			strings.Replace(task, "note: start", "note: the start", 1),
			"---\ntype: task\nname: Ship\nstatus: doing\n---\n\nShip it.\n\n## Log\n\n" +
				"<<<<<<< ours\n- 2026-11-23 10:00 note: started\n- 2026-11-23 11:00 note: a\n=======\n- 2026-11-23 10:00 note: the start\n>>>>>>> theirs\n", false},
		{"an entry edited alike on both sides is kept once", task,
			strings.Replace(task, "note: start", "note: started", 1),
			strings.Replace(task, "note: start", "note: started", 1) + "- 2026-11-23 11:00 note: b\n",
			strings.Replace(task, "note: start", "note: started", 1) + "- 2026-11-23 11:00 note: b\n", true},
		{"both remove an entry and add others: no conflict", task + "- 2026-11-23 10:05 note: typo\n",
			task + "- 2026-11-23 11:00 note: a\n",
			task + "- 2026-11-23 12:00 note: b\n",
			task + "- 2026-11-23 11:00 note: a\n- 2026-11-23 12:00 note: b\n", true},
		{"an entry edited on one side and removed on the other keeps the edit", task + "- 2026-11-23 10:05 note: typo\n",
			task + "- 2026-11-23 10:05 note: type\n",
			task,
			task + "- 2026-11-23 10:05 note: type\n", true},
		{"the same entry removed on both sides", task + "- 2026-11-23 10:05 note: x\n- 2026-11-23 10:06 note: y\n",
			task + "- 2026-11-23 10:06 note: y\n",
			task + "- 2026-11-23 10:06 note: y\n- 2026-11-23 12:00 note: b\n",
			task + "- 2026-11-23 10:06 note: y\n- 2026-11-23 12:00 note: b\n", true},
		{"a key changed both ways is marked", task,
			strings.Replace(task, "status: doing", "status: done\nassignee: ann", 1),
			strings.Replace(task, "status: doing", "status: blocked\nassignee: bob", 1) + "- 2026-11-23 11:00 note: b\n",
			"---\ntype: task\nname: Ship\n<<<<<<< ours\nstatus: done\n=======\nstatus: blocked\n>>>>>>> theirs\n" +
				"<<<<<<< ours\nassignee: ann\n=======\nassignee: bob\n>>>>>>> theirs\n---\n\nShip it.\n\n## Log\n\n- 2026-11-23 10:00 note: start\n- 2026-11-23 11:00 note: b\n", false},
		{"a key ours deleted and theirs changed is marked", task,
			strings.Replace(task, "status: doing\n", "", 1),
			strings.Replace(task, "status: doing", "status:\n  - blocked\n  - waiting", 1),
			"---\ntype: task\nname: Ship\n<<<<<<< ours\n=======\nstatus:\n  - blocked\n  - waiting\n>>>>>>> theirs\n---\n\nShip it.\n\n## Log\n\n- 2026-11-23 10:00 note: start\n", false},
		{"a key theirs changed in the frontmatter ours removed is marked", "---\na: 1\n---\nX.\n", "X.\n", "---\na: 2\n---\nX.\n",
			"---\n<<<<<<< ours\n=======\na: 2\n>>>>>>> theirs\n---\nX.\n", false},
		{"a loose list repeats no entry", loose,
			loose + "\n- 2026-11-23 12:00 note: c\n",
			loose + "\n- 2026-11-23 13:00 note: d\n",
			loose + "\n- 2026-11-23 12:00 note: c\n\n- 2026-11-23 13:00 note: d\n", true},
		{"added on both sides: both texts kept", "",
			"---\nname: Fact\ntype: project\ncreated: 2026-11-24\n---\n\nFact from a.\n",
			"---\nname: Fact\ntype: project\ncreated: 2026-11-23\n---\n\nFact from b.\n\nAnd more.\n",
			"---\nname: Fact\ntype: project\ncreated: 2026-11-23\n---\n\nFact from a.\n\nFact from b.\n\nAnd more.\n", true},
		{"added on both sides: a code block with blank lines is one block", "",
			"---\nname: F\n---\n\n```\na\n\nb\n```\nTail.\n",
			"---\nname: F\n---\n\nIntro.\n\n```\na\n\nb\n```\nTail.\n",
			"---\nname: F\n---\n\nIntro.\n\n```\na\n\nb\n```\nTail.\n", true},
		{"a task added on both sides: both descriptions, both logs", "",
			"---\ntype: task\nname: Ship\n---\n\nShip it.\n\n## Log\n\n- 2026-11-23 10:00 note: a\n",
			"---\ntype: task\nname: Ship\n---\n\nShip it now.\n\n## Log\n\n- 2026-11-23 09:00 note: b\n",
			"---\ntype: task\nname: Ship\n---\n\nShip it.\n\nShip it now.\n\n## Log\n\n- 2026-11-23 09:00 note: b\n- 2026-11-23 10:00 note: a\n", true},
	} {
		got, clean, err := markdown.MergeNote("n.md", []byte(tt.base), []byte(tt.ours), []byte(tt.theirs), wholeText, rules)
		if err != nil || clean != tt.clean || string(got) != tt.want {
			t.Errorf("%s: clean %v, err %v:\n%s\nwant clean %v:\n%s", tt.name, clean, err, got, tt.clean, tt.want)
		}
	}
}

// rules are the merge rules of tasks and lessons (package task and lesson
// define them; the merge driver unites them).
var rules = markdown.MergeRules{AppendOnly: []string{"Log", "History"}, Counts: []string{"application_count"},
	Shares: []string{"strength"}, Later: []string{"last_applied", "decayed", "started", "finished", "updated"}, Earlier: []string{"created"}}

// TestMergeNoteSettleAndFinish holds the kinds' own hooks to their
// contract: a settled key takes the settled value instead of clashing, its
// entries are appended to their section, and a finishing step runs on a
// clean merge only.
func TestMergeNoteSettleAndFinish(t *testing.T) {
	base := "---\ntype: task\nstatus: todo\n---\n\nDo it.\n\n## Log\n\n- 2026-11-23 10:00 note: start\n"
	ours := strings.Replace(base, "status: todo", "status: doing\nassignee: a", 1)
	theirs := strings.Replace(base, "status: todo", "status: doing\nassignee: b", 1)
	finished := 0
	rules := markdown.MergeRules{
		AppendOnly: []string{"Log"},
		Settle: []func(b, o, t *markdown.Note) markdown.Settlement{func(b, o, t *markdown.Note) markdown.Settlement {
			if o.Type() != "task" {
				return markdown.Settlement{}
			}
			return markdown.Settlement{Keys: []markdown.KeyValue{{Key: "assignee", Value: "a"}},
				Section: "Log", Entries: []string{"- 2026-11-23 11:00 note: b lost the claim to a"}}
		}},
		Finish: []func(string, []byte) ([]byte, error){func(_ string, merged []byte) ([]byte, error) {
			finished++
			return bytes.Replace(merged, []byte("Do it."), []byte("Do it!"), 1), nil
		}},
	}
	got, clean, err := markdown.MergeNote("t.md", []byte(base), []byte(ours), []byte(theirs), wholeText, rules)
	if err != nil || !clean {
		t.Fatalf("MergeNote: clean %v, err %v:\n%s", clean, err, got)
	}
	want := "---\ntype: task\nstatus: doing\nassignee: a\n---\n\nDo it!\n\n## Log\n\n- 2026-11-23 10:00 note: start\n- 2026-11-23 11:00 note: b lost the claim to a\n"
	if string(got) != want || finished != 1 {
		t.Errorf("finished %d times; got\n%s\nwant\n%s", finished, got, want)
	}
	// A conflict elsewhere: no finishing step on a note a person must fix.
	clashing := strings.Replace(theirs, "Do it.", "Do it later.", 1)
	if _, clean, err := markdown.MergeNote("t.md", []byte(base), []byte(strings.Replace(ours, "Do it.", "Do it now.", 1)), []byte(clashing), wholeText, rules); err != nil || clean || finished != 1 {
		t.Errorf("a conflicted merge: clean %v, err %v, finished %d times (want 1)", clean, err, finished)
	}
}

func TestIsConflictMarker(t *testing.T) {
	for line, want := range map[string]bool{
		"<<<<<<< ours\n": true, "<<<<<<< HEAD": true, "=======\n": true, "=======\r\n": true, ">>>>>>> theirs": true,
		"||||||| base": true, "<<<<<<<": true, "======= x": false, "========": false, "<<<<<<<< x": false,
		"- <<<<<<< ours": false, "# heading": false, "": false, "<<<": false,
	} {
		if got := markdown.IsConflictMarker(line); got != want {
			t.Errorf("IsConflictMarker(%q) = %v, want %v", line, got, want)
		}
	}
}
