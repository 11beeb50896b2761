package index

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"testing"
)

// TestLessonsChange: a sync that changes a lesson records the versions
// before and after and the paths it wrote or removed; one of more paths
// than maxLessonsChange records nothing to go by.
func TestLessonsChange(t *testing.T) {
	ctx := context.Background()
	tv := newTestVault(t, "", Options{NoVectors: true})
	lessonNote := func(name string) string {
		return "---\ntype: lesson\nname: " + name + "\ntrigger:\n  - run tests\n---\nBody.\n"
	}
	tv.write("lessons/A.md", lessonNote("A"))
	tv.sync()
	before, err := tv.ix.Kinds().LessonsVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tv.write("lessons/A.md", lessonNote("A")+"More.\n")
	tv.write("notes/plain.md", "# Plain\n")
	tv.sync()
	after, err := tv.ix.Kinds().LessonsVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	prev, cur, paths, ok, err := tv.ix.Kinds().LessonsChange(ctx)
	slices.Sort(paths)
	if err != nil || !ok || prev != before || cur != after || !slices.Equal(paths, []string{"lessons/A.md", "notes/plain.md"}) {
		t.Errorf("LessonsChange = %q, %q, %q, %v, %v; want %q, %q, [lessons/A.md notes/plain.md]", prev, cur, paths, ok, err, before, after)
	}
	ls, err := tv.ix.Kinds().LessonsAt(ctx, paths)
	if err != nil || len(ls) != 1 || ls[0].Path != "lessons/A.md" {
		t.Errorf("LessonsAt(%q) = %+v, %v", paths, ls, err)
	}
	for i := range maxLessonsChange + 1 {
		tv.write(fmt.Sprintf("notes/n%d.md", i), "# N\n")
	}
	tv.write("lessons/B.md", lessonNote("B"))
	tv.sync()
	if _, _, _, ok, err := tv.ix.Kinds().LessonsChange(ctx); ok || err != nil {
		t.Errorf("after a sync of %d paths LessonsChange says ok %v, %v; want false", maxLessonsChange+2, ok, err)
	}
}

// TestLessonHeads: the lessons without text and terms are Lessons' but
// for those two.
func TestLessonHeads(t *testing.T) {
	ctx := context.Background()
	tv := newTestVault(t, "", Options{NoVectors: true})
	tv.write("lessons/A.md", "---\ntype: lesson\nname: A\ntrigger:\n  - run tests\n  - \"[bad\"\ntags: [x, y]\nstrength: 0.2\n---\nLong body words.\n")
	tv.write("lessons/B.md", "---\ntype: lesson\nname: B\nstatus: proposed\ntrigger: tool:Bash\n---\nOther.\n")
	tv.sync()
	all, err := tv.ix.Kinds().Lessons(ctx)
	if err != nil {
		t.Fatal(err)
	}
	heads, err := tv.ix.Kinds().LessonHeads(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || len(heads) != 2 {
		t.Fatalf("%d lessons, %d heads; want 2", len(all), len(heads))
	}
	for i := range all {
		if heads[i].Text != "" || len(heads[i].Terms) != 0 {
			t.Errorf("%s: head has text %q, terms %q", heads[i].Path, heads[i].Text, heads[i].Terms)
		}
		if all[i].Text == "" || len(all[i].Terms) == 0 {
			t.Errorf("%s: the lesson has no text or terms", all[i].Path)
		}
		all[i].Text, all[i].Terms = "", heads[i].Terms
		if !reflect.DeepEqual(all[i], heads[i]) {
			t.Errorf("head %+v\nlesson %+v", heads[i], all[i])
		}
	}
}
