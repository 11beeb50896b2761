package obsidian

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/session"
	"github.com/vaultmem/vaultmem/task"
	"github.com/vaultmem/vaultmem/vault"
	"go.yaml.in/yaml/v3"
)

// parsedBase is a generated .base as YAML, checked against the schema.
type parsedBase struct {
	name     string
	top      any
	formulas map[string]string
	props    []string // the keys under properties
	views    []map[string]any
}

// baseTopKeys are the top-level keys of a .base (syntaxDoc: "filters",
// "formulas", "properties", "views"; obsidianAPI's BasesConfigFile).
var baseTopKeys = []string{"filters", "formulas", "properties", "views"}

// viewTypes are the view types of viewsDoc (table, cards, list, map).
var viewTypes = []string{"table", "cards", "list", "map"}

// viewKeys are the keys a view of the generated bases may have
// (syntaxDoc's views, obsidianAPI's BasesConfigFileView).
var viewKeys = []string{"type", "name", "filters", "groupBy", "order", "sort", "limit"}

// checkFilter checks f against syntaxDoc's filter schema: a string (an
// expression that parses) or a map with exactly one of and, or, not whose
// value is a list of filters.
func checkFilter(f any) ([]string, error) {
	switch f := f.(type) {
	case string:
		if _, err := parseExpr(f); err != nil {
			return nil, err
		}
		return []string{f}, nil
	case map[string]any:
		if len(f) != 1 {
			return nil, fmt.Errorf("a filter object must have exactly one of and, or, not: %v", f)
		}
		var exprs []string
		for k, sub := range f {
			if k != "and" && k != "or" && k != "not" {
				return nil, fmt.Errorf("a filter object's key is and, or or not, not %q", k)
			}
			items, ok := sub.([]any)
			if !ok {
				return nil, fmt.Errorf("%s must hold a list of filters, not %T", k, sub)
			}
			for _, it := range items {
				e, err := checkFilter(it)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", k, err)
				}
				exprs = append(exprs, e...)
			}
		}
		return exprs, nil
	}
	return nil, fmt.Errorf("a filter is a string or an and/or/not object, not %T", f)
}

// checkSorting checks a groupBy or a sort entry: {property, direction}.
func checkSorting(v any) (string, error) {
	m, ok := v.(map[string]any)
	if !ok || len(m) != 2 {
		return "", fmt.Errorf("want {property, direction}, got %v", v)
	}
	p, ok := m["property"].(string)
	if !ok || p == "" {
		return "", fmt.Errorf("no property in %v", v)
	}
	if d := m["direction"]; d != "ASC" && d != "DESC" {
		return "", fmt.Errorf("direction must be ASC or DESC in %v", v)
	}
	return p, nil
}

// parseBase parses and checks one generated base; it returns the
// expressions (filters and formulas) and property names it uses.
func parseBase(t *testing.T, f File) (parsedBase, []string, []string) {
	t.Helper()
	pb := parsedBase{name: f.Name, formulas: map[string]string{}}
	var doc map[string]any
	if err := yaml.Unmarshal(f.Content, &doc); err != nil {
		t.Fatalf("%s does not parse as YAML: %v", f.Name, err)
	}
	var exprs, props []string
	for k := range doc {
		if !slices.Contains(baseTopKeys, k) {
			t.Errorf("%s: top-level key %q is not one of %v", f.Name, k, baseTopKeys)
		}
	}
	if f, ok := doc["filters"]; ok {
		e, err := checkFilter(f)
		if err != nil {
			t.Errorf("%s: filters: %v", pb.name, err)
		}
		exprs, pb.top = append(exprs, e...), f
	}
	if fm, ok := doc["formulas"]; ok {
		m, ok := fm.(map[string]any)
		if !ok {
			t.Fatalf("%s: formulas is not a map", f.Name)
		}
		for k, v := range m {
			s, ok := v.(string)
			if _, err := parseExpr(s); !ok || err != nil {
				t.Errorf("%s: formula %s is not an expression: %v", f.Name, k, err)
			}
			pb.formulas[k] = s
			exprs = append(exprs, s)
		}
	}
	if pm, ok := doc["properties"]; ok {
		m, ok := pm.(map[string]any)
		if !ok {
			t.Fatalf("%s: properties is not a map", f.Name)
		}
		for k, v := range m {
			if d, ok := v.(map[string]any); !ok || d["displayName"] == nil {
				t.Errorf("%s: property %s has no displayName", f.Name, k)
			}
			pb.props = append(pb.props, k)
			props = append(props, k)
		}
	}
	views, ok := doc["views"].([]any)
	if !ok || len(views) == 0 {
		t.Fatalf("%s: views is not a non-empty list", f.Name)
	}
	for i, v := range views {
		vm, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%s: view %d is not a map", f.Name, i+1)
		}
		e, p := checkView(t, f.Name, vm)
		exprs, props = append(exprs, e...), append(props, p...)
		pb.views = append(pb.views, vm)
	}
	return pb, exprs, props
}

// checkView checks one view against the schema; it returns its filter's
// expressions and the properties it names.
func checkView(t *testing.T, file string, vm map[string]any) ([]string, []string) {
	t.Helper()
	name, _ := vm["name"].(string)
	at := fmt.Sprintf("%s: view %q", file, name)
	if name == "" {
		t.Errorf("%s: a view has no name", file)
	}
	for k := range vm {
		if !slices.Contains(viewKeys, k) {
			t.Errorf("%s: key %q is not one of %v", at, k, viewKeys)
		}
	}
	if typ, _ := vm["type"].(string); !slices.Contains(viewTypes, typ) {
		t.Errorf("%s: type %v is not one of %v", at, vm["type"], viewTypes)
	}
	var exprs, props []string
	if f, ok := vm["filters"]; ok {
		e, err := checkFilter(f)
		if err != nil {
			t.Errorf("%s: filters: %v", at, err)
		}
		exprs = e
	}
	order, ok := vm["order"].([]any)
	if !ok || len(order) == 0 {
		t.Errorf("%s: order is not a list", at)
	}
	for _, o := range order {
		s, ok := o.(string)
		if !ok || s == "" {
			t.Errorf("%s: order holds %v, not a property name", at, o)
		}
		props = append(props, s)
	}
	if g, ok := vm["groupBy"]; ok {
		p, err := checkSorting(g)
		if err != nil {
			t.Errorf("%s: groupBy: %v", at, err)
		}
		props = append(props, p)
	}
	if s, ok := vm["sort"]; ok {
		list, ok := s.([]any)
		if !ok {
			t.Errorf("%s: sort is not a list", at)
		}
		for _, it := range list {
			p, err := checkSorting(it)
			if err != nil {
				t.Errorf("%s: sort: %v", at, err)
			}
			props = append(props, p)
		}
	}
	return exprs, props
}

// writtenKeys are the note properties each base may name: the keys of
// the notes of its kind in the test vault, which the kind's own store
// wrote (see buildVault), and the keys listed here with the code that
// writes or reads them.
func writtenKeys(notes map[string]*testNote, setByTest map[string][]string) map[string][]string {
	byType := map[string][]string{}
	kind := map[string]string{task.Type: TasksBase, lesson.Type: LessonsBase, session.Type: SessionsBase}
	for _, t := range memory.Types {
		kind[string(t)] = MemoriesBase
	}
	for _, n := range notes {
		b := kind[fmt.Sprint(n.fm["type"])]
		for k := range n.fm {
			if slices.Contains(setByTest[n.path], k) {
				continue // set by the test itself: listed below instead
			}
			if !slices.Contains(byType[b], k) {
				byType[b] = append(byType[b], k)
			}
		}
	}
	// dream/archive.go: archived, merged_into, superseded_by (archive);
	// supersedes is a person's, read by dream/plan.go; status: proposed
	// marks a proposal a person accepts by removing it (docs/obsidian.md);
	// pinned is a person's, read by markdown.Note.Pinned.
	byType[MemoriesBase] = append(byType[MemoriesBase], "archived", "merged_into", "superseded_by", "supersedes", "status", "pinned")
	// lesson/decay.go: archived and decayed; pinned and status as above.
	byType[LessonsBase] = append(byType[LessonsBase], "archived", "decayed", "pinned", "status")
	return byType
}

// checkNames checks that every function, field, file property, formula
// and note property the expressions and property names of base pb use is
// documented (expr_test.go's lists) or written by vaultmem (keys).
func checkNames(t *testing.T, pb parsedBase, exprs, props []string, keys []string) {
	t.Helper()
	var n names
	for _, s := range exprs {
		e, err := parseExpr(s)
		if err != nil {
			t.Errorf("%s: %q: %v", pb.name, s, err)
			continue
		}
		n.collect(e, false)
	}
	for _, p := range props {
		switch {
		case strings.HasPrefix(p, "file."):
			add(&n.fileProps, strings.TrimPrefix(p, "file."))
		case strings.HasPrefix(p, "formula."):
			add(&n.formulas, strings.TrimPrefix(p, "formula."))
		default:
			add(&n.noteProps, strings.TrimPrefix(p, "note."))
		}
	}
	var methods []string
	for _, ms := range documentedMethods {
		methods = append(methods, ms...)
	}
	for _, c := range []struct {
		what      string
		used, doc []string
	}{
		{"global function (" + functionsDoc + ")", n.globals, documentedGlobals},
		{"method (" + functionsDoc + ")", n.methods, methods},
		{"field (" + functionsDoc + ")", n.fields, documentedFields},
		{"file property (" + syntaxDoc + ")", n.fileProps, documentedFileProperties},
		{"operator (" + syntaxDoc + ")", n.operators, documentedOperators},
		{"formula of the base", n.formulas, mapKeys(pb.formulas)},
		{"note property vaultmem writes", n.noteProps, keys},
	} {
		for _, u := range c.used {
			if !slices.Contains(c.doc, u) {
				t.Errorf("%s uses %q, which is no %s", pb.name, u, c.what)
			}
		}
	}
}

func mapKeys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestBasesSchema: every base parses as YAML and holds to the schema of
// syntaxDoc; every function, field, file property and operator its
// expressions use is documented; every note property it names is one
// vaultmem writes.
func TestBasesSchema(t *testing.T) {
	tv := buildVault(t)
	keys := writtenKeys(tv.notes(), tv.setByTest)
	files := Bases(Options{})
	if got := []string{files[0].Name, files[1].Name, files[2].Name, files[3].Name}; len(files) != 4 ||
		!slices.Equal(got, []string{MemoriesBase, TasksBase, LessonsBase, SessionsBase}) {
		t.Fatalf("Bases = %v, want the four bases", got)
	}
	for _, f := range files {
		if path.Ext(f.Name) != vault.BaseExt {
			t.Errorf("%s: not a %s file", f.Name, vault.BaseExt)
		}
		pb, exprs, props := parseBase(t, f)
		checkNames(t, pb, exprs, props, keys[f.Name])
	}
	// The review line follows the config.
	if b := string(Bases(Options{ReviewBelow: 0.45})[2].Content); !strings.Contains(b, "formula.strength_now < 0.45") {
		t.Errorf("Lessons.base does not use review_below 0.45:\n%s", b)
	}
}

// buildVault writes the test vault: memories live, archived, merged and
// proposed; tasks in each status, with dependencies and a blocked one;
// lessons strong, flagged, pinned, archived and proposed; two sessions.
// Each is written by its kind's store; a key no store of this branch
// writes (status: proposed, pinned) is set as a person or Dream would.
func buildVault(t *testing.T) *testVault {
	tv := newTestVault(t)
	tv.remember(memory.User, "Alice maintains vaultmem")
	tv.remember(memory.Feedback, "Run gofmt")
	tv.remember(memory.Project, "Release plan")
	_, err := tv.memories.Remember(tv.ctx, memory.Memory{Type: memory.Project, Name: "Release plan", Description: "the plan now",
		Body: "Ship the views first."}, memory.Options{Update: true}) // sets updated:
	tv.check(err)
	tv.sync()
	tv.remember(memory.Reference, "Docs site")
	old := tv.remember(memory.Project, "Old plan")
	mirror := tv.remember(memory.Reference, "Docs mirror")
	prop := tv.remember(memory.Feedback, "Prefer tabs")
	today := markdown.FromJSON("2026-11-20")
	tv.edit(old, "superseded_by", "[[Release plan]]", "archived", today) // as dream/archive.go's archive
	tv.edit(mirror, "merged_into", "[[Docs site]]", "archived", today)
	tv.edit(prop, "status", ProposedStatus)

	root := tv.addTask(task.New{Title: "Ship views", Priority: "high"})
	bases := tv.addTask(task.New{Title: "Write bases", Parent: root})
	canvas := tv.addTask(task.New{Title: "Write canvas", Parent: root})
	tv.addTask(task.New{Title: "Write docs", Parent: root, DependsOn: []string{canvas}})
	tv.addTask(task.New{Title: "Review docs", Parent: root, DependsOn: []string{bases}, Priority: "low"})
	publish := tv.addTask(task.New{Title: "Publish", Parent: root})
	for _, step := range []func() error{
		func() error { _, err := tv.tasks.Start(tv.ctx, "claude", bases, false); return err },
		func() error { _, err := tv.tasks.Done(tv.ctx, "claude", bases, false); return err },
		func() error { _, err := tv.tasks.Start(tv.ctx, "codex", canvas, false); return err },
		func() error {
			_, err := tv.tasks.Block(tv.ctx, "claude", publish, "waits for a release key")
			return err
		},
	} {
		tv.check(step())
		tv.sync()
	}

	habit := tv.addLesson("Old habit", "git")
	_, _, err = tv.lessons.Decay(tv.ctx, "2027-09-01", false) // unused for ten months: archived
	tv.check(err)
	tv.sync()
	tv.outcome(tv.addLesson("Check the tests", "go"), true, 4)
	tv.outcome(tv.addLesson("Mind the lock", "go"), false, 3)
	tv.edit(tv.addLesson("Read the spec", "docs"), "pinned", true)
	a, err := tv.lessons.Add(tv.ctx, lesson.New{Title: "Guess less", Trigger: []string{"guess"}, ActionBias: "look it up",
		Domain: "go", Episodes: []string{bases}, DerivedFrom: []string{habit}})
	tv.check(err)
	tv.sync()
	tv.edit(a.Path, "status", ProposedStatus) // as Dream proposes it

	start := time.Date(2026, 11, 3, 10, 4, 0, 0, time.UTC)
	tv.writeSession(session.State{ID: "3f2a9c01-aaaa", Client: "claude-code", Agent: "claude", Started: start,
		Ended: start.Add(time.Hour), Tasks: []string{bases},
		Calls: []session.Call{{ID: "c1", Tool: "Bash", Lessons: []session.Shown{{Path: "lessons/Check the tests.md", Name: "Check the tests"}}}}})
	tv.writeSession(session.State{ID: "77b0e4d2-bbbb", Client: "codex", Agent: "codex", Started: start.Add(2 * time.Hour),
		Tasks: []string{canvas}})
	return tv
}

// viewRows evaluates base pb over notes: the file names of the notes its
// top filter and the view's filter both hold for.
func viewRows(t *testing.T, pb parsedBase, notes map[string]*testNote, view string) []string {
	t.Helper()
	ev := &evaluator{notes: notes, formulas: map[string]expr{}}
	for k, s := range pb.formulas {
		e, err := parseExpr(s)
		if err != nil {
			t.Fatal(err)
		}
		ev.formulas[k] = e
	}
	var vf any
	found := false
	for _, v := range pb.views {
		if v["name"] == view {
			vf, found = v["filters"], true
		}
	}
	if !found {
		t.Fatalf("%s has no view %q", pb.name, view)
	}
	var out []string
	for _, n := range notes {
		ok, err := ev.filterMatches(pb.top, n)
		if err == nil && ok {
			ok, err = ev.filterMatches(vf, n)
		}
		if err != nil {
			t.Fatalf("%s, %s: %v", pb.name, view, err)
		}
		if ok {
			out = append(out, path.Base(n.path))
		}
	}
	sort.Strings(out)
	return out
}

// TestBaseViews: on the test vault, each view of each base lists exactly
// the notes it should.
func TestBaseViews(t *testing.T) {
	tv := buildVault(t)
	notes := tv.notes()
	bases := map[string]parsedBase{}
	for _, f := range Bases(Options{}) {
		pb, _, _ := parseBase(t, f)
		bases[f.Name] = pb
	}
	sessions := []string{"2026-11-03 1004 claude-code 56ea475e.md", "2026-11-03 1204 codex 0c874c81.md"}
	liveLessons := []string{"Check the tests.md", "Mind the lock.md", "Read the spec.md"}
	for _, c := range []struct {
		base, view string
		want       []string
	}{
		{MemoriesBase, "Live", []string{"alice-maintains-vaultmem.md", "docs-site.md", "release-plan.md", "run-gofmt.md"}},
		{MemoriesBase, "Archived and merged", []string{"docs-mirror.md", "old-plan.md"}},
		{MemoriesBase, "Needs review", []string{vault.MemoryListFile, "prefer-tabs.md"}},
		{TasksBase, "Open", []string{"Publish.md", "Review docs.md", "Ship views.md", "Write canvas.md", "Write docs.md"}},
		{TasksBase, "Ready", []string{"Review docs.md"}}, // Ship views is doing since a child started
		{TasksBase, "Waiting", []string{"Write docs.md"}},
		{TasksBase, "Blocked", []string{"Publish.md"}},
		{TasksBase, "Done", []string{"Write bases.md"}},
		{LessonsBase, "By strength", liveLessons},
		{LessonsBase, "Flagged", []string{"Mind the lock.md"}},
		{LessonsBase, "By domain", liveLessons},
		{LessonsBase, "Pinned", []string{"Read the spec.md"}},
		{LessonsBase, "Archived", []string{"Old habit.md"}},
		{LessonsBase, "Proposed", []string{"Guess less.md"}},
		{SessionsBase, "Sessions", sessions},
		{SessionsBase, "By agent", sessions},
		{SessionsBase, "By client", sessions},
	} {
		t.Run(strings.TrimSuffix(c.base, ".base")+"/"+c.view, func(t *testing.T) {
			if got := viewRows(t, bases[c.base], notes, c.view); !slices.Equal(got, c.want) {
				t.Errorf("%s, view %s = %q, want %q", c.base, c.view, got, c.want)
				for _, n := range notes {
					t.Logf("%s: %v", n.path, n.fm)
				}
			}
		})
	}
	// Every view is in the table.
	for name, pb := range bases {
		if len(pb.views) == 0 {
			t.Errorf("%s has no views", name)
		}
	}
}

// TestBaseViewsAnyCase: values a person types in another case ("type:
// Feedback", "status: Done") are where vaultmem, which reads them in any
// case, puts them.
func TestBaseViewsAnyCase(t *testing.T) {
	tv := newTestVault(t)
	for p, content := range map[string]string{
		"memory/Answer briefly.md":  "---\ntype: Feedback\nname: Answer briefly\ndescription: short answers\n---\n\nKeep it short.\n",
		"memory/Old idea.md":        "---\ntype: PROJECT\nstatus: Proposed\nname: Old idea\ndescription: an idea\n---\n\nMaybe.\n",
		"tasks/Ship it.md":          "---\ntype: Task\nname: Ship it\nstatus: Done\npriority: High\n---\n\n## Log\n",
		"tasks/Wait for review.md":  "---\ntype: task\nname: Wait for review\nstatus: Blocked\n---\n\n## Log\n",
		"tasks/Then publish.md":     "---\ntype: task\nname: Then publish\nstatus: todo\ndepends_on:\n  - \"[[Ship it]]\"\n---\n\n## Log\n",
		"lessons/Read twice.md":     "---\ntype: Lesson\nname: Read twice\nstatus: PROPOSED\n---\n\nRead it twice.\n",
		"sessions/2026-11-03 s1.md": "---\ntype: Session\nstarted: 2026-11-03T10:04\n---\n\nA session.\n",
	} {
		if _, err := tv.w.Write(tv.ctx, p, []byte(content), ""); err != nil {
			t.Fatal(err)
		}
	}
	tv.sync()
	notes := tv.notes()
	bases := map[string]parsedBase{}
	for _, f := range Bases(Options{}) {
		pb, _, _ := parseBase(t, f)
		bases[f.Name] = pb
	}
	for _, c := range []struct {
		base, view string
		want       []string
	}{
		{MemoriesBase, "Live", []string{"Answer briefly.md"}},
		{MemoriesBase, "Needs review", []string{"Old idea.md"}},
		{TasksBase, "Done", []string{"Ship it.md"}},
		{TasksBase, "Blocked", []string{"Wait for review.md"}},
		{TasksBase, "Ready", []string{"Then publish.md"}}, // its dependency is "Done": done
		{TasksBase, "Open", []string{"Then publish.md", "Wait for review.md"}},
		{LessonsBase, "Proposed", []string{"Read twice.md"}},
		{LessonsBase, "By strength", nil},
		{SessionsBase, "Sessions", []string{"2026-11-03 s1.md"}},
	} {
		t.Run(strings.TrimSuffix(c.base, ".base")+"/"+c.view, func(t *testing.T) {
			if got := viewRows(t, bases[c.base], notes, c.view); !slices.Equal(got, c.want) {
				t.Errorf("%s, view %s = %q, want %q", c.base, c.view, got, c.want)
			}
		})
	}
}
