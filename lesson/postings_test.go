package lesson

import (
	"reflect"
	"testing"
)

// TestLessonSetPostings: each term's postings list the matchable lessons
// that hold it, in lesson order, with how often each holds it; lessons
// out of matching hold none.
func TestLessonSetPostings(t *testing.T) {
	ls := []Lesson{
		{Path: "a.md", Trigger: []string{"x"}, Terms: []string{"run", "test", "run", "db", "run"}},
		{Path: "b.md", Trigger: []string{"x"}, Archived: true, Terms: []string{"run", "zebra"}},
		{Path: "c.md", Trigger: []string{"x"}, Terms: []string{"db", "test", "test"}},
		{Path: "d.md", Trigger: []string{"x"}, Terms: []string{"solo"}},
	}
	set := newLessonSet("v", ls)
	want := map[string][]posting{
		"run":  {{0, 3}},
		"test": {{0, 1}, {1, 2}},
		"db":   {{0, 1}, {1, 1}},
		"solo": {{2, 1}},
	}
	got := map[string][]posting{}
	for term, id := range set.termIDs {
		got[term] = set.postings[id]
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("postings %v, want %v", got, want)
	}
	if set.avgLen != 3 {
		t.Errorf("average length %v, want 3", set.avgLen)
	}
}
