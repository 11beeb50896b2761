package lesson_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/vault"
)

// TestSuggest: the suggested adjustment names the most telling reason,
// then the action bias, as one sentence.
func TestSuggest(t *testing.T) {
	for _, c := range []struct {
		name, bias string
		r          lesson.Reason
		want       string
	}{
		{"Run migrations first", "run make migrate before the integration tests", lesson.Reason{Kind: "words", What: "integration tests"},
			`Since the situation mentions "integration tests", run make migrate before the integration tests.`},
		{"Run migrations first", "run make migrate.", lesson.Reason{Kind: "words", What: "integration tests", Partial: true},
			`Since the situation mentions part of "integration tests", run make migrate.`},
		{"Migrations", "  run   make migrate  ", lesson.Reason{Kind: "path", What: "db/migrations/0042.sql", Pattern: "db/migrations/**"},
			"Since db/migrations/0042.sql matches db/migrations/**, run make migrate."},
		{"Bash", "quote every path", lesson.Reason{Kind: "tool", What: "Bash"}, "Since you are about to call Bash, quote every path."},
		{"Schema", "run make migrate", lesson.Reason{Kind: "meaning"}, "Since the situation is much like what this lesson is about, run make migrate."},
		{"Schema", "run make migrate;", lesson.Reason{Kind: "keywords"}, "Since the situation shares words with this lesson, run make migrate."},
		{"Schema", "", lesson.Reason{Kind: "keywords"}, `Since the situation shares words with this lesson, keep the lesson "Schema" in mind.`},
		{"Schema", "run make migrate", lesson.Reason{}, "Run make migrate."},
		{"Schema", "", lesson.Reason{}, `Keep the lesson "Schema" in mind.`},
	} {
		if got := lesson.Suggest(c.name, c.bias, c.r); got != c.want {
			t.Errorf("Suggest(%q, %q, %+v) = %q, want %q", c.name, c.bias, c.r, got, c.want)
		}
	}
}

// TestConfidence: the mean of the Beta posterior whose prior is 0.5
// worth two outcomes.
func TestConfidence(t *testing.T) {
	for _, c := range []struct {
		ok, bad int
		want    float64
	}{
		{0, 0, 0.5}, {1, 0, 0.6667}, {0, 1, 0.3333}, {2, 0, 0.75}, {0, 2, 0.25}, {1, 1, 0.5},
		{8, 2, 0.75}, {98, 0, 0.99}, {0, 98, 0.01},
	} {
		if got := lesson.Confidence(c.ok, c.bad); got != c.want {
			t.Errorf("Confidence(%d, %d) = %v, want %v", c.ok, c.bad, got, c.want)
		}
	}
}

// TestConfidenceAndVersion: each outcome writes the confidence its
// History gives; an edit of the rule in the note (as in Obsidian) is
// noticed by the fast path that held the lesson before, and recorded once
// as version 2 with the old rule in the History, even by a second store
// (another process) that noticed it too; an edit of anything else is no
// new version.
func TestConfidenceAndVersion(t *testing.T) {
	f := newFixture(t)
	added, err := f.s.Add(f.ctx, lesson.New{Title: "Run migrations first", Trigger: []string{"integration tests"}, ActionBias: "run make migrate"})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range []struct {
		success bool
		want    float64
	}{{true, 0.6667}, {true, 0.75}, {false, 0.6}} {
		a, err := f.s.Outcome(f.ctx, lesson.Outcome{Lesson: added.Path, Success: c.success})
		if err != nil {
			t.Fatal(err)
		}
		if a.Confidence != c.want || a.Version != 1 {
			t.Errorf("outcome %d: confidence %v version %d, want %v and 1", i+1, a.Confidence, a.Version, c.want)
		}
		if note := f.read(added.Path); !strings.Contains(note, "\nconfidence: "+strconv.FormatFloat(c.want, 'f', -1, 64)+"\n") {
			t.Errorf("outcome %d: the note does not say confidence %v:\n%s", i+1, c.want, note)
		}
	}

	// Two processes hold the lessons: this store's fast path and another's.
	other, err := lesson.NewStore(vault.NewWriter(f.v, vault.WriterOptions{}), f.ix.Stores(), lesson.Options{FS: f.v.FS(), Now: f.clock})
	if err != nil {
		t.Fatal(err)
	}
	f.match(lesson.Situation{Text: "integration tests"})
	if _, err := other.Matcher().Match(f.ctx, lesson.Situation{Text: "integration tests"}, 0); err != nil {
		t.Fatal(err)
	}
	note := f.read(added.Path)
	f.write(added.Path, strings.Replace(note, "action_bias: run make migrate", "action_bias: run make migrate-all", 1))
	f.sync()
	got, err := f.s.RecordEdits(f.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Version != 2 || !strings.HasSuffix(got[0].History, `version 2: rule edited; was trigger ["integration tests"], action_bias "run make migrate"`) {
		t.Fatalf("edits recorded: %+v", got)
	}
	if again, err := other.RecordEdits(f.ctx); err != nil || len(again) != 0 {
		t.Errorf("the other store recorded the edit again: %+v %v", again, err)
	}
	if again, err := f.s.RecordEdits(f.ctx); err != nil || len(again) != 0 {
		t.Errorf("recorded twice: %+v %v", again, err)
	}
	note = f.read(added.Path)
	if !strings.Contains(note, "version: 2") || strings.Count(note, "rule edited") != 1 || !strings.Contains(note, "action_bias: run make migrate-all") {
		t.Errorf("after the edit:\n%s", note)
	}
	a, err := f.s.Outcome(f.ctx, lesson.Outcome{Lesson: added.Path, Success: true})
	if err != nil || a.Version != 2 || a.Confidence != 0.6667 {
		t.Errorf("outcome after the edit: %+v %v", a, err)
	}

	// The body is no part of the rule: no new version.
	f.match(lesson.Situation{Text: "integration tests"})
	f.write(added.Path, strings.Replace(f.read(added.Path), "## History", "Why: the test database starts empty.\n\n## History", 1))
	f.sync()
	if got, err := f.s.RecordEdits(f.ctx); err != nil || len(got) != 0 {
		t.Errorf("an edit of the body made a version: %+v %v", got, err)
	}
}
