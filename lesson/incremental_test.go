package lesson_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/lesson"
)

// countingIndex is the real index, counting the reads of every lesson.
type countingIndex struct {
	index.Stores
	all int
}

func (c *countingIndex) Lessons(ctx context.Context) ([]lesson.Lesson, error) {
	c.all++
	return c.Stores.Lessons(ctx)
}

// TestIncrementalLessonSet: a Matcher that holds the lessons when one of
// them changes (an outcome written, a lesson edited, added, archived,
// deleted) reads only the changed paths again, and matches as a Matcher
// built anew over every lesson does.
func TestIncrementalLessonSet(t *testing.T) {
	f := newFixture(t)
	for i := range 12 {
		f.write(fmt.Sprintf("lessons/L%02d.md", i), fmt.Sprintf("---\ntype: lesson\nname: L%02d\ntrigger:\n  - integration tests %d\n  - tool:Bash\n  - \"db/migrations/**\"\n---\nRun step %d of the migrations.\n", i, i, i))
	}
	f.sync()
	ci := &countingIndex{Stores: f.ix.Stores()}
	kept := lesson.NewMatcher(ci, lesson.MatcherOptions{CacheSize: -1})
	situations := []lesson.Situation{
		{Text: "run the integration tests 3", Tool: "Bash"},
		{Text: "integration tests 11 and migrations"},
		{Tool: "Write", Paths: []string{"db/migrations/001.sql"}},
		{Text: "step 5 of the migrations", Tool: "Bash"},
		{Text: "new lesson words zebra"},
	}
	same := func(step string) {
		t.Helper()
		fresh := lesson.NewMatcher(f.ix.Stores(), lesson.MatcherOptions{CacheSize: -1})
		for _, s := range situations {
			got, err := kept.Match(f.ctx, s, lesson.MaxK)
			if err != nil {
				t.Fatal(err)
			}
			want, err := fresh.Match(f.ctx, s, lesson.MaxK)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Lessons, want.Lessons) {
				t.Errorf("%s: %+v: kept matcher gives %v, a new one %v", step, s, paths(got), paths(want))
			}
		}
	}
	same("first")
	if ci.all != 1 {
		t.Fatalf("first match read every lesson %d times, want 1", ci.all)
	}
	steps := []struct {
		name   string
		change func()
	}{
		{"outcome", func() {
			if _, err := f.s.Outcome(f.ctx, lesson.Outcome{Lesson: "L03", Success: false}); err != nil {
				t.Fatal(err)
			}
		}},
		{"edit", func() {
			f.write("lessons/L05.md", "---\ntype: lesson\nname: L05\ntrigger:\n  - zebra crossing\n---\nNew lesson words.\n")
			f.sync()
		}},
		{"add", func() {
			f.write("lessons/L99.md", "---\ntype: lesson\nname: L99\ntrigger:\n  - new lesson words zebra\n---\nAdded.\n")
			f.sync()
		}},
		{"archive", func() {
			f.write("lessons/L07.md", "---\ntype: lesson\nname: L07\narchived: true\ntrigger:\n  - integration tests 7\n---\nArchived.\n")
			f.sync()
		}},
		{"delete", func() {
			if err := os.Remove(filepath.Join(f.dir, "lessons", "L02.md")); err != nil {
				t.Fatal(err)
			}
			f.sync()
		}},
	}
	for _, st := range steps {
		st.change()
		same(st.name)
		if ci.all != 1 {
			t.Fatalf("%s: the kept matcher read every lesson again", st.name)
		}
	}
	// Two changes between matches: no record leads from the kept set to
	// now, so it reads every lesson.
	f.write("lessons/L08.md", "---\ntype: lesson\nname: L08\ntrigger:\n  - other words\n---\nEdited.\n")
	f.sync()
	f.write("lessons/L09.md", "---\ntype: lesson\nname: L09\ntrigger:\n  - more words\n---\nEdited.\n")
	f.sync()
	same("two changes")
	if ci.all != 2 {
		t.Errorf("after two changes the kept matcher read every lesson %d times in all, want 2", ci.all)
	}
}
