package lesson_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/vault"
)

// fixture is a vault with an index and a lesson Store on a clock that
// moves a minute a call.
type fixture struct {
	t   *testing.T
	ctx context.Context
	dir string
	v   *vault.Vault
	ix  *index.Index
	s   *lesson.Store
	now time.Time
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{t: t, ctx: context.Background(), dir: t.TempDir(), now: time.Date(2026, 11, 23, 14, 0, 0, 0, time.UTC)}
	var err error
	if f.v, err = vault.Open(f.dir, vault.Folders{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.v.Close() })
	if f.ix, err = index.Open(f.ctx, f.v.Abs(vault.CacheDir), index.Options{NoVectors: true}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.ix.Close() })
	f.sync()
	f.s, err = lesson.NewStore(vault.NewWriter(f.v, vault.WriterOptions{}), f.ix.Stores(), lesson.Options{FS: f.v.FS(), Now: f.clock})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) clock() time.Time {
	f.now = f.now.Add(time.Minute)
	return f.now
}

func (f *fixture) sync() {
	f.t.Helper()
	if _, err := f.ix.Sync(f.ctx, f.v.FS(), nil); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) write(p, content string) {
	f.t.Helper()
	full := filepath.Join(f.dir, filepath.FromSlash(p))
	os.MkdirAll(filepath.Dir(full), 0o755)
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) read(p string) string {
	f.t.Helper()
	b, err := os.ReadFile(filepath.Join(f.dir, filepath.FromSlash(p)))
	if err != nil {
		f.t.Fatal(err)
	}
	return string(b)
}

func (f *fixture) match(s lesson.Situation) lesson.Result {
	f.t.Helper()
	r, err := f.s.Matcher().Match(f.ctx, s, 0)
	if err != nil {
		f.t.Fatal(err)
	}
	return r
}

func paths(r lesson.Result) []string {
	var out []string
	for _, m := range r.Lessons {
		out = append(out, m.Path)
	}
	return out
}

// TestLessonLifecycle adds lessons, matches them by words, tool and path,
// applies outcomes (a human's edit of strength winning), and checks the
// note stays a readable audit trail and the log records each outcome.
func TestLessonLifecycle(t *testing.T) {
	f := newFixture(t)
	f.write("tasks/Fix flaky CI.md", "---\ntype: task\nname: Fix flaky CI\n---\n")
	f.sync()
	mig, err := f.s.Add(f.ctx, lesson.New{Title: "Run migrations first", Trigger: []string{"integration tests", "tool:Bash"},
		ActionBias: "always run the migrations before the integration tests", Domain: "Testing", Tags: []string{"db"},
		Episodes: []string{"Fix flaky CI"}, Body: "The test database starts empty."})
	if err != nil {
		t.Fatal(err)
	}
	want := "---\ntype: lesson\nname: Run migrations first\ntrigger:\n  - integration tests\n  - tool:Bash\n" +
		"action_bias: always run the migrations before the integration tests\ndomain: testing\ntags:\n  - lesson\n  - db\n" +
		"strength: 0.5\nconfidence: 0.5\napplication_count: 0\nsource_episodes:\n  - \"[[Fix flaky CI]]\"\nversion: 1\ncreated: 2026-11-23\n---\n\n" +
		"The test database starts empty.\n\n## History\n\n- 2026-11-23 14:01 created at 0.5\n"
	if got := f.read(mig.Path); mig.Path != "lessons/Run migrations first.md" || got != want {
		t.Fatalf("note %s:\n%s\nwant:\n%s", mig.Path, got, want)
	}
	gl, err := f.s.Add(f.ctx, lesson.New{Title: "Generated code", Trigger: []string{"gen/**/*.go"}, ActionBias: "never edit generated files by hand"})
	if err != nil {
		t.Fatal(err)
	}

	for _, tt := range []struct {
		name string
		s    lesson.Situation
		want []string
		why  string
	}{
		{"words", lesson.Situation{Text: "about to run the integration tests"}, []string{mig.Path}, `trigger words "integration tests" in the text`},
		{"tool", lesson.Situation{Text: "list files", Tool: "bash"}, []string{mig.Path}, "tool bash"},
		{"glob", lesson.Situation{Paths: []string{"gen/api/client.go"}}, []string{gl.Path}, "path gen/api/client.go matches gen/**/*.go"},
		{"nothing", lesson.Situation{Text: "write the release notes"}, nil, ""},
	} {
		r := f.match(tt.s)
		if got := paths(r); strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("%s: matched %v, want %v", tt.name, got, tt.want)
			continue
		}
		if len(r.Lessons) > 0 && !strings.Contains(r.Lessons[0].Why, tt.why) {
			t.Errorf("%s: why %q, want it to say %q", tt.name, r.Lessons[0].Why, tt.why)
		}
	}

	a, err := f.s.Outcome(f.ctx, lesson.Outcome{Lesson: "Run migrations first", Success: true, Episode: "Fix flaky CI",
		Context: "run the integration tests", Agent: "claude"})
	if err != nil {
		t.Fatal(err)
	}
	if a.Before != 0.5 || a.After != 0.55 || a.Applications != 1 || a.Flagged {
		t.Errorf("success: %+v", a)
	}
	// A human sets the strength in Obsidian: the next outcome records it
	// (set by hand) and starts from it.
	note := strings.Replace(f.read(mig.Path), "strength: 0.55", "strength: 0.32", 1)
	f.write(mig.Path, note)
	f.sync()
	a, err = f.s.Outcome(f.ctx, lesson.Outcome{Lesson: mig.Path, Success: false})
	if err != nil {
		t.Fatal(err)
	}
	if a.Before != 0.32 || a.After != 0.22 || !a.Flagged || a.Applications != 2 {
		t.Errorf("failure after a human's edit: %+v", a)
	}
	got := f.read(mig.Path)
	for _, w := range []string{"strength: 0.22\n", "application_count: 2\n", "last_applied: 2026-11-23\n",
		"- 2026-11-23 14:01 created at 0.5\n- 2026-11-23 14:03 success: 0.5 → 0.55 (episode [[Fix flaky CI]])\n" +
			"- 2026-11-23 14:03 set by hand: 0.55 → 0.32\n" +
			"- 2026-11-23 14:04 failure: 0.32 → 0.22 (below 0.3: flagged for review)\n"} {
		if !strings.Contains(got, w) {
			t.Errorf("note lacks %q:\n%s", w, got)
		}
	}
	recs, err := f.s.ReadLog()
	if err != nil || len(recs) != 2 {
		t.Fatalf("log: %v, %v", recs, err)
	}
	if r := recs[0]; r.Lesson != mig.Path || r.Outcome != "success" || r.Episode != "Fix flaky CI" || r.Agent != "claude" ||
		len(r.Shown) != 1 || r.Shown[0].Path != mig.Path || r.Shown[0].Strength != 0.5 || r.Domain != "testing" {
		t.Errorf("record: %+v", r)
	}
	h, err := f.s.History(f.ctx, "Run migrations first")
	if err != nil || len(h.Lines) != 4 || len(h.Outcomes) != 2 || h.Strength != 0.22 {
		t.Errorf("history: %+v, %v", h, err)
	}
	rev, err := f.s.Review(f.ctx, false)
	if err != nil || len(rev) != 1 || rev[0].Path != mig.Path {
		t.Errorf("review: %+v, %v", rev, err)
	}
	st, err := f.s.Stats(f.ctx)
	if err != nil || st.Lessons != 2 || st.Outcomes != 2 || st.Successes != 1 || st.Flagged != 1 ||
		st.Precision == nil || *st.Precision != 1 || st.Recall == nil || *st.Recall != 1 {
		t.Errorf("stats: %+v, %v", st, err)
	}
}

// TestHotCache: the second match of a situation comes from the cache; a
// change to a lesson (by the Store or by a human, seen by a sync)
// invalidates it.
func TestHotCache(t *testing.T) {
	f := newFixture(t)
	l, err := f.s.Add(f.ctx, lesson.New{Title: "Pin versions", Trigger: []string{"add a dependency"}, ActionBias: "pin the version"})
	if err != nil {
		t.Fatal(err)
	}
	s := lesson.Situation{Text: "add a dependency to go.mod"}
	if r := f.match(s); r.Cached || len(r.Lessons) != 1 {
		t.Fatalf("first: %+v", r)
	}
	if r := f.match(s); !r.Cached || len(r.Lessons) != 1 || r.Lessons[0].Strength != 0.5 {
		t.Fatalf("second: %+v", r)
	}
	if _, err := f.s.Outcome(f.ctx, lesson.Outcome{Lesson: l.Path, Success: true}); err != nil {
		t.Fatal(err)
	}
	if r := f.match(s); r.Cached || r.Lessons[0].Strength != 0.55 {
		t.Fatalf("after an outcome: %+v", r)
	}
	f.write(l.Path, strings.Replace(f.read(l.Path), "strength: 0.55", "strength: 0.9", 1))
	f.sync()
	if r := f.match(s); r.Cached || r.Lessons[0].Strength != 0.9 {
		t.Fatalf("after a human's edit: %+v", r)
	}
	// A note that is no lesson changing does not empty the cache.
	f.match(s)
	f.write("other.md", "# Other\n")
	f.sync()
	if r := f.match(s); !r.Cached {
		t.Fatalf("after an unrelated note: %+v", r)
	}
}

// TestBadLessons: lessons a human broke are reported with file and line,
// left out of matching, and never rewritten.
func TestBadLessons(t *testing.T) {
	f := newFixture(t)
	bad := map[string]string{
		"lessons/words.md":   "---\ntype: lesson\ntrigger: deploy\nstrength: high\n---\n",
		"lessons/range.md":   "---\ntype: lesson\ntrigger: deploy\naction_bias: x\nstrength: 1.5\n---\n",
		"lessons/none.md":    "---\ntype: lesson\naction_bias: deploy carefully\n---\n",
		"lessons/broken.md":  "---\ntype: lesson\ntrigger: [deploy\n---\n",
		"lessons/ok.md":      "---\ntype: lesson\ntrigger: deploy\naction_bias: check the flags\n---\n",
		"lessons/archive.md": "---\ntype: lesson\ntrigger: deploy\narchived: true\n---\n",
		"lessons/dated.md":   "---\ntype: lesson\ntrigger: deploy\naction_bias: x\narchived: 2026-01-01\n---\n",
		"lessons/glob.md":    "---\ntype: lesson\ntrigger: [\"src/[a-\"]\naction_bias: x\n---\n",
	}
	for p, c := range bad {
		f.write(p, c)
	}
	f.sync()
	if got := paths(f.match(lesson.Situation{Text: "deploy the app"})); strings.Join(got, ",") != "lessons/ok.md" {
		t.Errorf("matched %v, want only the sound lesson", got)
	}
	rev, err := f.s.Review(f.ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[string]string{}
	for _, r := range rev {
		reasons[r.Path] = strings.Join(r.Reasons, "; ")
	}
	for p, w := range map[string]string{
		"lessons/words.md":  `lessons/words.md:4: strength "high" is not a number between 0 and 1`,
		"lessons/range.md":  "lessons/range.md:5: strength 1.5 is outside 0..1",
		"lessons/none.md":   "no trigger",
		"lessons/broken.md": "lessons/broken.md:3",
		"lessons/glob.md":   `trigger "src/[a-" is no path glob`,
	} {
		if !strings.Contains(reasons[p], w) {
			t.Errorf("%s: review says %q, want %q", p, reasons[p], w)
		}
	}
	for _, p := range []string{"lessons/words.md", "lessons/range.md"} {
		_, err := f.s.Outcome(f.ctx, lesson.Outcome{Lesson: p, Success: true})
		if err == nil || !strings.Contains(err.Error(), p+":") {
			t.Errorf("outcome on %s: %v, want an error naming the file and line", p, err)
		}
	}
	for _, p := range []string{"lessons/archive.md", "lessons/dated.md"} { // the key archives whatever its value
		if _, err := f.s.Outcome(f.ctx, lesson.Outcome{Lesson: p, Success: true}); !errors.Is(err, lesson.ErrArchived) {
			t.Errorf("outcome on archived lesson %s: %v", p, err)
		}
	}
	if _, err := f.s.Add(f.ctx, lesson.New{Title: "Bad glob", Trigger: []string{"path:src/[a-"}}); !errors.Is(err, lesson.ErrInvalid) {
		t.Errorf("add with a bad glob: %v", err)
	}
	if _, err := f.s.Outcome(f.ctx, lesson.Outcome{Lesson: "no such lesson", Success: true}); !errors.Is(err, vault.ErrNotFound) {
		t.Errorf("outcome on a missing lesson: %v", err)
	}
	for p, c := range bad {
		if got := f.read(p); got != c {
			t.Errorf("%s was rewritten:\n%s", p, got)
		}
	}
}

// TestDecay: unused lessons decay a day at a time past the grace period,
// once per day however often decay runs; pinned lessons never do; a lesson
// falling below the archive line is archived, kept as a note.
func TestDecay(t *testing.T) {
	f := newFixture(t)
	f.write("lessons/old.md", "---\ntype: lesson\ntrigger: deploy\nstrength: 0.5\nlast_applied: 2026-10-01\n---\n")
	f.write("lessons/fresh.md", "---\ntype: lesson\ntrigger: deploy\nstrength: 0.5\nlast_applied: 2026-11-20\n---\n")
	f.write("lessons/pinned.md", "---\ntype: lesson\ntrigger: deploy\nstrength: 0.5\npinned: true\nlast_applied: 2025-01-01\n---\n")
	f.write("lessons/weak.md", "---\ntype: lesson\ntrigger: deploy\nstrength: 0.21\ncreated: 2026-09-01\n---\n")
	f.sync()
	ds, skipped, err := f.s.Decay(f.ctx, "2026-11-23", false)
	if err != nil || len(skipped) != 0 {
		t.Fatal(skipped, err)
	}
	got := map[string]lesson.Decay{}
	for _, d := range ds {
		got[d.Path] = d
	}
	// old: 53 days unused, 23 past the 30: 0.5 × 0.99^23.
	if d := got["lessons/old.md"]; len(ds) != 2 || d.Days != 23 || d.After != 0.3968 || d.Archived {
		t.Errorf("decay: %+v", ds)
	}
	if d := got["lessons/weak.md"]; d.Days != 53 || !d.Archived {
		t.Errorf("weak: %+v", d)
	}
	if !strings.Contains(f.read("lessons/old.md"), "strength: 0.3968\n") || !strings.Contains(f.read("lessons/old.md"), "decayed: 2026-11-23\n") ||
		!strings.Contains(f.read("lessons/old.md"), "decayed: 0.5 → 0.3968 (23 days unused past 30)") {
		t.Errorf("old:\n%s", f.read("lessons/old.md"))
	}
	// weak has no History: its written 0.21 is taken as set by hand on its
	// created day, and 0.21 × 0.99^5 fell below 0.2 on 2026-10-06.
	if w := f.read("lessons/weak.md"); !strings.Contains(w, "archived: 2026-10-06\n") ||
		!strings.Contains(w, "- 2026-09-01 00:00 set by hand: 0.5 → 0.21\n") {
		t.Errorf("weak:\n%s", f.read("lessons/weak.md"))
	}
	before := f.read("lessons/old.md")
	if ds, _, err := f.s.Decay(f.ctx, "2026-11-23", false); err != nil || len(ds) != 0 || f.read("lessons/old.md") != before {
		t.Errorf("second run on the same day: %+v, %v", ds, err)
	}
	if ds, _, err := f.s.Decay(f.ctx, "2026-11-25", true); err != nil || len(ds) != 1 || ds[0].Days != 2 || f.read("lessons/old.md") != before {
		t.Errorf("dry run two days later: %+v, %v", ds, err)
	}
	if got := paths(f.match(lesson.Situation{Text: "deploy"})); strings.Contains(strings.Join(got, ","), "weak") {
		t.Errorf("an archived lesson matched: %v", got)
	}
}

// TestContradictions finds lessons with overlapping triggers and opposite
// action biases about the same thing, and only those.
func TestContradictions(t *testing.T) {
	f := newFixture(t)
	for p, c := range map[string]string{
		"lessons/a.md": "---\ntype: lesson\ntrigger: [run integration tests]\naction_bias: always reset the database first\n---\n",
		"lessons/b.md": "---\ntype: lesson\ntrigger: [integration tests]\naction_bias: never reset the database, it is shared\n---\n",
		"lessons/c.md": "---\ntype: lesson\ntrigger: [integration tests]\naction_bias: never run them in parallel\n---\n",
		"lessons/d.md": "---\ntype: lesson\ntrigger: [write docs]\naction_bias: always reset the database first\n---\n",
		"lessons/e.md": "---\ntype: lesson\ntrigger: [\"tool:Bash\"]\naction_bias: use set -e\n---\n",
		"lessons/f.md": "---\ntype: lesson\ntrigger: [\"tool:bash\"]\naction_bias: avoid set -e in loops\n---\n",
	} {
		f.write(p, c)
	}
	f.sync()
	cs, err := f.s.Contradictions(f.ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cs {
		got = append(got, c.A+"|"+c.B)
	}
	if strings.Join(got, " ") != "lessons/a.md|lessons/b.md lessons/e.md|lessons/f.md" {
		t.Errorf("contradictions %v: %+v", got, cs)
	}
}

// cancelOnLessons is the vault's index, which cancels a context once it has
// read the lessons: what the Store does with them next is interrupted.
type cancelOnLessons struct {
	index.Stores
	cancel context.CancelFunc
}

func (c cancelOnLessons) Lessons(ctx context.Context) ([]lesson.Lesson, error) {
	ls, err := c.Stores.Lessons(ctx)
	c.cancel()
	return ls, err
}

// TestContradictionsCanceled: Contradictions stops with the context's error
// when the context is canceled while it compares the lessons (as a signal
// does to the CLI), rather than finishing and reporting success.
func TestContradictionsCanceled(t *testing.T) {
	f := newFixture(t)
	for i := range 50 {
		bias := "always reset the database first"
		if i%2 == 1 {
			bias = "never reset the database"
		}
		f.write(fmt.Sprintf("lessons/l%02d.md", i), "---\ntype: lesson\ntrigger: [\"tool:Bash\"]\naction_bias: "+bias+"\n---\n")
	}
	f.sync()
	if cs, err := f.s.Contradictions(f.ctx); err != nil || len(cs) != 25*25 {
		t.Fatalf("uninterrupted: %d contradictions, %v; want %d", len(cs), err, 25*25)
	}
	ctx, cancel := context.WithCancel(f.ctx)
	defer cancel()
	st, err := lesson.NewStore(vault.NewWriter(f.v, vault.WriterOptions{}), cancelOnLessons{f.ix.Stores(), cancel}, lesson.Options{FS: f.v.FS()})
	if err != nil {
		t.Fatal(err)
	}
	if cs, err := st.Contradictions(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: %d contradictions, error %v; want context.Canceled", len(cs), err)
	}
}

func TestRules(t *testing.T) {
	r, err := lesson.Rules{}.Check()
	if err != nil || r != lesson.DefaultRules() {
		t.Fatalf("defaults: %+v, %v", r, err)
	}
	for _, tt := range []struct {
		s       float64
		success bool
		want    float64
	}{{0.5, true, 0.55}, {0.98, true, 1}, {1, true, 1}, {0.5, false, 0.4}, {0.05, false, 0}, {0.3, false, 0.2}} {
		if got := r.After(tt.s, tt.success); got != tt.want {
			t.Errorf("After(%v, %v) = %v, want %v", tt.s, tt.success, got, tt.want)
		}
	}
	if got := r.Decayed(0.5, 0); got != 0.5 {
		t.Errorf("no days: %v", got)
	}
	if got := r.Decayed(1, 69); got != 0.4998 {
		t.Errorf("69 days: %v", got)
	}
	if _, err := (lesson.Rules{Success: 2}).Check(); err == nil {
		t.Error("success 2 accepted")
	}
	if _, err := (lesson.Rules{DecayPerDay: 1.5}).Check(); err == nil {
		t.Error("decay 1.5 accepted")
	}
}
