package mcpserver_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// lessonMatches is lesson_match's structured result, as far as the tests
// read it.
type lessonMatches struct {
	Lessons []struct {
		Name     string  `json:"name"`
		Strength float64 `json:"strength"`
	} `json:"lessons"`
}

// TestLessonMatchSeesALessonJustWritten: a lesson written on disk while
// the server runs (by a person in Obsidian, by the CLI) is matched at
// once: lesson_match brings the index up to date first, as 'vaultmem
// lesson match' does (it once answered from the index as it was).
func TestLessonMatchSeesALessonJustWritten(t *testing.T) {
	cs, dir := connect(t)
	// The index is built (by a tool that syncs) before the lesson comes.
	var none lessonMatches
	mustCall(t, cs, "lesson_match", map[string]any{"tool": "Deploy"}, &none)
	if len(none.Lessons) != 0 {
		t.Fatalf("matched %+v before any lesson was written", none.Lessons)
	}
	if err := os.MkdirAll(filepath.Join(dir, "lessons"), 0o755); err != nil {
		t.Fatal(err)
	}
	note := "---\ntype: lesson\ntrigger: [\"tool:Deploy\"]\naction_bias: announce the deploy first\nstrength: 0.6\n---\n"
	if err := os.WriteFile(filepath.Join(dir, "lessons", "Announce deploys.md"), []byte(note), 0o644); err != nil {
		t.Fatal(err)
	}
	var got lessonMatches
	mustCall(t, cs, "lesson_match", map[string]any{"tool": "Deploy"}, &got)
	if len(got.Lessons) != 1 || got.Lessons[0].Name != "Announce deploys" {
		t.Errorf("lesson_match: %+v; want the lesson written on disk", got.Lessons)
	}
}

// TestLessonTools: an agent adds a lesson, matches it, reports outcomes
// (its strength follows), and is told in words what it got wrong: an
// empty situation, a lesson with no trigger, a note that is no lesson.
func TestLessonTools(t *testing.T) {
	cs, dir := connect(t)
	mustCall(t, cs, "lesson_add", map[string]any{"title": "Run migrations first", "trigger": []any{"integration tests", "db/migrations/**"},
		"action_bias": "run make migrate before the integration tests"}, nil)
	var got lessonMatches
	mustCall(t, cs, "lesson_match", map[string]any{"paths": []any{"db/migrations/0042.sql"}}, &got)
	if len(got.Lessons) != 1 || got.Lessons[0].Name != "Run migrations first" || got.Lessons[0].Strength != 0.5 {
		t.Fatalf("lesson_match: %+v", got.Lessons)
	}
	var applied struct {
		Before float64 `json:"strength_before"`
		After  float64 `json:"strength_after"`
	}
	mustCall(t, cs, "lesson_outcome", map[string]any{"lesson": "run migrations first", "success": false, "context": "integration tests"}, &applied)
	if applied.Before != 0.5 || applied.After != 0.4 {
		t.Errorf("lesson_outcome: %+v; want 0.5 → 0.4", applied)
	}
	if err := os.WriteFile(filepath.Join(dir, "plain.md"), []byte("# Plain\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		tool string
		args map[string]any
		says string
	}{
		{"lesson_match", map[string]any{"text": "  "}, "say what you are about to do"},
		{"lesson_add", map[string]any{"title": "No trigger", "trigger": []any{}, "action_bias": "b"}, "needs a trigger"},
		{"lesson_outcome", map[string]any{"lesson": "plain", "success": true}, "plain.md"},
		{"lesson_outcome", map[string]any{"lesson": "No such lesson", "success": true}, `no lesson "No such lesson"`},
	} {
		if msg := mustFail(t, cs, c.tool, c.args); !strings.Contains(msg, c.says) {
			t.Errorf("%s %v: %q; want it to say %q", c.tool, c.args, msg, c.says)
		}
	}
}

// TestLessonListAndTrendsTools: lesson_list filters by domain, strength
// and episode and gives each lesson's confidence and version;
// lesson_match gives each hit's confidence and suggested adjustment;
// lesson_trends counts the outcomes between two days.
func TestLessonListAndTrendsTools(t *testing.T) {
	cs, _ := connect(t)
	mustCall(t, cs, "lesson_add", map[string]any{"title": "Run migrations first", "trigger": []any{"integration tests"},
		"action_bias": "run make migrate before the integration tests", "domain": "testing"}, nil)
	mustCall(t, cs, "lesson_add", map[string]any{"title": "Bump the version", "trigger": []any{"release"},
		"action_bias": "bump the version before tagging", "domain": "release"}, nil)
	var applied struct {
		Confidence float64 `json:"confidence"`
		Version    int     `json:"version"`
	}
	mustCall(t, cs, "lesson_outcome", map[string]any{"lesson": "Run migrations first", "success": true}, &applied)
	if applied.Confidence != 0.6667 || applied.Version != 1 { // (1 + 1) / (2 + 1)
		t.Errorf("lesson_outcome: %+v", applied)
	}
	var m struct {
		Lessons []struct {
			Confidence float64 `json:"confidence"`
			Suggested  string  `json:"suggested_adjustment"`
		} `json:"lessons"`
	}
	mustCall(t, cs, "lesson_match", map[string]any{"text": "run the integration tests"}, &m)
	if len(m.Lessons) == 0 || m.Lessons[0].Confidence != 0.6667 ||
		m.Lessons[0].Suggested != `Since the situation mentions "integration tests", run make migrate before the integration tests.` {
		t.Errorf("lesson_match: %+v", m)
	}
	var list struct {
		Lessons []struct {
			Name       string  `json:"name"`
			Confidence float64 `json:"confidence"`
			Version    int     `json:"version"`
		} `json:"lessons"`
	}
	mustCall(t, cs, "lesson_list", map[string]any{"domain": "testing", "min_strength": 0.5}, &list)
	if len(list.Lessons) != 1 || list.Lessons[0].Name != "Run migrations first" || list.Lessons[0].Version != 1 || list.Lessons[0].Confidence != 0.6667 {
		t.Errorf("lesson_list: %+v", list)
	}
	var trends struct {
		Trends []struct {
			Domain   string `json:"domain"`
			Outcomes int    `json:"outcomes"`
		} `json:"trends"`
	}
	mustCall(t, cs, "lesson_trends", map[string]any{"until": "2000-01-01"}, &trends)
	if len(trends.Trends) != 0 {
		t.Errorf("lesson_trends until 2000: %+v", trends)
	}
	mustCall(t, cs, "lesson_trends", map[string]any{"since": "2000-01-01"}, &trends)
	if len(trends.Trends) != 1 || trends.Trends[0].Domain != "testing" || trends.Trends[0].Outcomes != 1 {
		t.Errorf("lesson_trends since 2000: %+v", trends)
	}
	if msg := mustFail(t, cs, "lesson_trends", map[string]any{"since": "last week"}); !strings.Contains(msg, `since "last week" is no date`) {
		t.Errorf("lesson_trends with a bad day: %q", msg)
	}
}
