package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestLessonListAndTrends runs 'lesson list' with --domain,
// --min-strength and --episode, 'lesson trends' with --since and --until,
// and reads the confidence, version and suggested adjustment that match
// and outcome give, as processes.
func TestLessonListAndTrends(t *testing.T) {
	dir := newVault(t)
	ok(t, dir, "task", "add", "Fix flaky CI")
	ok(t, dir, "task", "add", "Ship 2.4")
	ok(t, dir, "lesson", "add", "Run migrations first", "--trigger", "integration tests", "--action-bias", "run make migrate before the integration tests",
		"--domain", "testing", "--episode", "Fix flaky CI")
	ok(t, dir, "lesson", "add", "Pin the timezone", "--trigger", "date test", "--action-bias", "set TZ=UTC", "--domain", "testing")
	ok(t, dir, "lesson", "add", "Bump the version", "--trigger", "release", "--action-bias", "bump the version before tagging", "--domain", "release")

	var out struct {
		Confidence float64 `json:"confidence"`
		Version    int     `json:"version"`
	}
	for range 2 {
		if err := json.Unmarshal([]byte(ok(t, dir, "lesson", "outcome", "Run migrations first", "--success", "--json")), &out); err != nil {
			t.Fatal(err)
		}
	}
	if out.Confidence != 0.75 || out.Version != 1 { // (1 + 2) / (2 + 2)
		t.Errorf("outcome after two successes: %+v", out)
	}
	ok(t, dir, "lesson", "outcome", "Pin the timezone", "--failure", "--episode", "Ship 2.4")
	var h struct {
		Confidence float64 `json:"confidence"`
		Version    int     `json:"version"`
	}
	if err := json.Unmarshal([]byte(ok(t, dir, "lesson", "history", "Pin the timezone", "--json")), &h); err != nil || h.Confidence != 0.3333 || h.Version != 1 {
		t.Errorf("history: %+v %v", h, err)
	}

	var m struct {
		Lessons []struct {
			Name       string
			Confidence float64 `json:"confidence"`
			Suggested  string  `json:"suggested_adjustment"`
		}
	}
	if err := json.Unmarshal([]byte(ok(t, dir, "lesson", "match", "--json", "run", "the", "integration", "tests")), &m); err != nil ||
		len(m.Lessons) == 0 || m.Lessons[0].Confidence != 0.75 ||
		m.Lessons[0].Suggested != `Since the situation mentions "integration tests", run make migrate before the integration tests.` {
		t.Errorf("match: %+v %v", m, err)
	}

	list := func(args ...string) []string {
		t.Helper()
		var ls []struct {
			Name       string
			Confidence float64 `json:"confidence"`
			Version    int     `json:"version"`
		}
		if err := json.Unmarshal([]byte(ok(t, dir, append([]string{"lesson", "list", "--json"}, args...)...)), &ls); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, l := range ls {
			if l.Version != 1 {
				t.Errorf("%s: version %d", l.Name, l.Version)
			}
			names = append(names, l.Name)
		}
		return names
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{nil, []string{"Run migrations first", "Bump the version", "Pin the timezone"}}, // strongest first
		{[]string{"--domain", "testing"}, []string{"Run migrations first", "Pin the timezone"}},
		{[]string{"--domain", "Testing", "--min-strength", "0.5"}, []string{"Run migrations first"}},
		{[]string{"--min-strength", "0.55"}, []string{"Run migrations first"}},
		{[]string{"--episode", "Fix flaky CI"}, []string{"Run migrations first"}}, // learned from it
		{[]string{"--episode", "Ship 2.4"}, []string{"Pin the timezone"}},         // applied in it
		{[]string{"--domain", "git"}, nil},
	} {
		if got := list(c.args...); !slices.Equal(got, c.want) {
			t.Errorf("list %v: %v, want %v", c.args, got, c.want)
		}
	}
	if out := ok(t, dir, "lesson", "list", "--domain", "release"); !strings.Contains(out, "Bump the version — bump the version before tagging") ||
		!strings.Contains(out, "confidence 0.5, version 1") {
		t.Errorf("list as text: %q", out)
	}

	today := time.Now().UTC().Format(time.DateOnly)
	trends := func(args ...string) int {
		t.Helper()
		var ts []struct{ Outcomes int }
		if err := json.Unmarshal([]byte(ok(t, dir, append([]string{"lesson", "trends", "--json"}, args...)...)), &ts); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, tr := range ts {
			n += tr.Outcomes
		}
		return n
	}
	for _, c := range []struct {
		args []string
		want int
	}{
		{nil, 3},
		{[]string{"--since", today, "--until", today}, 3},
		{[]string{"--since", today, "--domain", "testing"}, 3},
		{[]string{"--until", "2000-01-01"}, 0},
		{[]string{"--since", "2999-01-01"}, 0},
	} {
		if got := trends(c.args...); got != c.want {
			t.Errorf("trends %v: %d outcomes, want %d", c.args, got, c.want)
		}
	}

	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"lesson", "list", "--min-strength", "2"}, 2, "min strength 2: give 0 to 1"},
		{[]string{"lesson", "list", "--episode", "No such note"}, 1, "episode"},
		{[]string{"lesson", "trends", "--since", "yesterday"}, 2, `since "yesterday" is no date`},
		{[]string{"lesson", "trends", "--since", "2026-02-01", "--until", "2026-01-01"}, 2, "is after until"},
	} {
		if r := vaultmem(t, dir, "", c.args...); r.code != c.code || !strings.Contains(r.stderr, c.msg) {
			t.Errorf("%v: %d %q, want %d %q", c.args, r.code, r.stderr, c.code, c.msg)
		}
	}
}
