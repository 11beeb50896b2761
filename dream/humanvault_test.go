package dream

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestHumanNotesAreNotMemories: a person's notes outside the memory folder
// that carry a memory type (type: project is a common property in
// personal vaults), written from one template, are never listed in
// MEMORY.md, merged, archived, dated or relinked; a vault with no memory
// gets no MEMORY.md. A memory in the folder is still listed, and only it.
func TestHumanNotesAreNotMemories(t *testing.T) {
	template := "## Goal\n\nRenovate before the summer. Call the contractor tomorrow.\n\n## Budget\n\n- [ ] quotes\n"
	files := map[string]string{
		"Projects/Kitchen renovation.md":  "---\ntype: project\nstatus: active\n---\n" + template,
		"Projects/Bathroom renovation.md": "---\ntype: project\nstatus: active\n---\n" + template,
		"People/Me.md":                    "---\ntype: user\n---\nI prefer tea. See you next Monday.\n",
		"People/Me again.md":              "---\ntype: user\n---\nI prefer tea. See you next Monday.\n",
		"Inbox/feedback.md":               "---\ntype: feedback\nname: Feedback\n---\nAlways reply within a day.\n",
		"Inbox/feedback copy.md":          "---\ntype: feedback\nname: Feedback\n---\nAlways reply within a day.\n",
		"Reading/ref.md":                  "---\ntype: reference\n---\nThe handbook is on the wiki.\n",
		"Home.md":                         "Working on [[Kitchen renovation]] and [[Bathroom renovation]]; see [[Me again]].\n",
	}
	tv := newTestVault(t, files)
	before := tv.snapshot()
	for _, full := range []bool{false, true} {
		rep := tv.run(RunOptions{Full: full})
		if len(rep.Merged)+len(rep.Archived)+len(rep.Contradictions)+len(rep.PossibleDuplicates)+len(rep.DatesFixed)+len(rep.LinksRewritten) != 0 || rep.Memories != 0 {
			t.Errorf("full %v: a person's notes were taken for memories: %+v", full, rep)
		}
	}
	if after := tv.snapshot(); !reflect.DeepEqual(before, after) {
		for p := range after {
			if before[p] != after[p] {
				t.Errorf("%s written:\n%s", p, after[p])
			}
		}
	}
	if _, err := os.Stat(filepath.Join(tv.dir, "MEMORY.md")); !os.IsNotExist(err) {
		t.Errorf("MEMORY.md written for a vault with no memory: %v", err)
	}

	// A memory in the memory folder is a memory: listed, alone.
	tv.write("memory/tea.md", memoryNote("Tea", "user", "tea over coffee", "", "The user prefers tea.\n"))
	tv.run(RunOptions{})
	idx := tv.read("MEMORY.md")
	if want := "- [Tea](memory/tea.md) — tea over coffee\n"; !strings.Contains(idx, want) || strings.Contains(idx, "Projects/") || strings.Contains(idx, "People/") {
		t.Errorf("MEMORY.md:\n%s", idx)
	}
}
