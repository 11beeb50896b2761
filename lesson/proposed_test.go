package lesson_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/lesson"
)

// TestProposedLesson: a lesson added as proposed (status: proposed) is
// not matched, not decayed, listed by review and counted apart by stats;
// once a person removes the status, it is matched like any other.
func TestProposedLesson(t *testing.T) {
	f := newFixture(t)
	f.write("sessions/s1.md", "---\ntype: session\nended: 2026-11-20T10:00:00Z\n---\nA session.\n")
	f.sync()
	a, err := f.s.Add(f.ctx, lesson.New{Title: "Run migrations first", Trigger: []string{"integration tests"}, ActionBias: "run make migrate",
		Episodes: []string{"sessions/s1.md"}, Proposed: true})
	if err != nil {
		t.Fatal(err)
	}
	note := f.read(a.Path)
	if !strings.Contains(note, "name: Run migrations first\nstatus: proposed\n") || !strings.Contains(note, `- "[[s1]]"`) {
		t.Fatalf("note:\n%s", note)
	}
	situation := lesson.Situation{Text: "run the integration tests"}
	if got := f.match(situation); len(got.Lessons) != 0 {
		t.Errorf("matched %+v", got.Lessons)
	}
	if ds, _, err := f.s.Decay(f.ctx, "2027-06-01", false); err != nil || len(ds) != 0 {
		t.Errorf("decayed %+v, %v", ds, err)
	}
	rs, err := f.s.Review(f.ctx, false)
	if err != nil || len(rs) != 1 || !slices.Contains(rs[0].Reasons, lesson.ProposedReason) {
		t.Errorf("review %+v, %v", rs, err)
	}
	if st, err := f.s.Stats(f.ctx); err != nil || st.Proposed != 1 || st.Live != 0 {
		t.Errorf("stats %+v, %v", st, err)
	}
	f.write(a.Path, strings.Replace(note, "status: proposed\n", "", 1))
	f.sync()
	if got := f.match(situation); len(got.Lessons) != 1 || got.Lessons[0].Path != a.Path {
		t.Errorf("the accepted lesson: matched %+v", got.Lessons)
	}
}
