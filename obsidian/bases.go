package obsidian

import (
	"bytes"
	"strconv"

	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/session"
	"github.com/vaultmem/vaultmem/task"
	"github.com/vaultmem/vaultmem/vault"
	"go.yaml.in/yaml/v3"
)

// The bases follow the Bases syntax of Obsidian's help
// (https://help.obsidian.md/bases/syntax, and .../bases/functions): a
// filter is an expression or an and/or/not of filters; formulas are
// expressions; a view has a type (table), a name, filters, groupBy
// {property, direction}, order (the columns) and sort [{property,
// direction}] (the sort Obsidian saves, BasesSortConfig in obsidian.d.ts).
// Every note property they name is one vaultmem writes (or reads, for the
// keys a person writes: pinned, supersedes); every function is one the
// Functions page lists. Text values (type, status, priority) are compared
// lower-cased (see lower): vaultmem writes them in lower case and reads
// them in any case, so a person's "type: Task" or "status: Done" is where
// vaultmem puts it.

// File is a view file: its name in the views folder, and its content.
type File struct {
	Name    string
	Content []byte
}

// Options are what the bases depend on in the config.
type Options struct {
	// ReviewBelow is the strength under which a lesson is flagged for
	// review (lessons.review_below; 0 means lesson.DefaultRules').
	ReviewBelow float64
}

// ProposedStatus is the status of a memory or lesson Dream proposes: not
// live until a person accepts it.
const ProposedStatus = "proposed"

// The bases' names, in the views folder.
const (
	MemoriesBase = "Memories.base"
	TasksBase    = "Tasks.base"
	LessonsBase  = "Lessons.base"
	SessionsBase = "Sessions.base"
)

// base is a .base file, in the order Obsidian's help shows its sections.
type base struct {
	Filters    any                 `yaml:"filters,omitempty"`
	Formulas   map[string]string   `yaml:"formulas,omitempty"`
	Properties map[string]property `yaml:"properties,omitempty"`
	Views      []view              `yaml:"views"`
}

type property struct {
	DisplayName string `yaml:"displayName"`
}

type view struct {
	Type    string    `yaml:"type"`
	Name    string    `yaml:"name"`
	Filters any       `yaml:"filters,omitempty"`
	GroupBy *sorting  `yaml:"groupBy,omitempty"`
	Order   []string  `yaml:"order"`
	Sort    []sorting `yaml:"sort,omitempty"`
}

// sorting is a groupBy or one sort of a view.
type sorting struct {
	Property  string `yaml:"property"`
	Direction string `yaml:"direction"`
}

func and(f ...any) map[string][]any { return map[string][]any{"and": f} }
func or(f ...any) map[string][]any  { return map[string][]any{"or": f} }

func asc(p string) sorting  { return sorting{p, "ASC"} }
func desc(p string) sorting { return sorting{p, "DESC"} }

// quote is s as a string literal of the expression language.
func quote(s string) string { return strconv.Quote(s) }

// lower is the expression of the note property key lower-cased, "" when
// the note has none: a missing property is null, which has no lower().
func lower(key string) string {
	return "if(" + key + ", " + key + ".toString().lower(), " + quote("") + ")"
}

// num is f as a number literal.
func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// Bases returns the bases init writes in the views folder, one per note
// kind: Memories, Tasks, Lessons and Sessions.
func Bases(o Options) []File {
	if o.ReviewBelow <= 0 {
		o.ReviewBelow = lesson.DefaultRules().ReviewBelow
	}
	return []File{
		{MemoriesBase, encode("the memories", memoriesBase())},
		{TasksBase, encode("the tasks", tasksBase())},
		{LessonsBase, encode("the lessons", lessonsBase(o.ReviewBelow))},
		{SessionsBase, encode("the agents' sessions", sessionsBase())},
	}
}

// encode is b as YAML, under a comment saying whose it is.
func encode(what string, b base) []byte {
	var buf bytes.Buffer
	buf.WriteString("# Obsidian views of " + what + " (Bases), written by 'vaultmem init'. It rewrites\n" +
		"# this file only while it is exactly as vaultmem wrote it: once you change it (here\n" +
		"# or in Obsidian), it is yours and init leaves it. Delete it to get vaultmem's again.\n")
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(b); err != nil {
		panic(err) // plain strings, maps and slices always encode
	}
	enc.Close()
	return buf.Bytes()
}

// Note properties are named "note.KEY" in a view's order, sort and
// groupBy, and KEY alone in expressions and under properties (as the
// Bases syntax page does).
func note(key string) string { return "note." + key }

// memoriesBase: the memories (any note whose type is a memory type), and
// MEMORY.md, whose "Needs review" lists the contradictions Dream flagged.
func memoriesBase() base {
	var isMemory []any
	for _, t := range memory.Types {
		isMemory = append(isMemory, lower("type")+" == "+quote(string(t)))
	}
	list := quote(vault.MemoryListFile)
	isList := "file.path == " + list
	return base{
		Filters: or(append(isMemory, isList)...),
		Formulas: map[string]string{
			"written":     "if(updated, updated, created)",
			"replaced_by": "if(merged_into, merged_into, superseded_by)",
			"review": "if(file.path == " + list + ", " + quote("the contradictions Dream flagged are under Needs review") + ", " +
				quote("proposed by Dream: not live until accepted") + ")",
		},
		Properties: map[string]property{
			"file.name":           {"Memory"},
			"file.mtime":          {"Modified"},
			"formula.written":     {"Written"},
			"formula.replaced_by": {"Replaced by"},
			"formula.review":      {"Why"},
		},
		Views: []view{{
			Type: "table", Name: "Live",
			Filters: and("file.path != "+list, `!file.hasProperty("archived")`, `!file.hasProperty("merged_into")`,
				lower("status")+" != "+quote(ProposedStatus)),
			GroupBy: &sorting{note("type"), "ASC"},
			Order:   []string{"file.name", note("description"), "formula.written", "file.mtime", note("pinned")},
			Sort:    []sorting{desc("file.mtime")},
		}, {
			Type: "table", Name: "Archived and merged",
			Filters: or(`file.hasProperty("archived")`, `file.hasProperty("merged_into")`),
			Order:   []string{"file.name", note("type"), note("archived"), "formula.replaced_by", note("description")},
			Sort:    []sorting{desc(note("archived"))},
		}, {
			Type: "table", Name: "Needs review",
			Filters: or(lower("status")+" == "+quote(ProposedStatus), isList),
			Order:   []string{"file.name", "formula.review", note("type"), note("description"), note("supersedes")},
			Sort:    []sorting{asc("file.name")},
		}},
	}
}

// tasksBase: the tasks, by status (none is todo, as vaultmem reads it).
func tasksBase() base {
	st := func(s string) string { return quote(s) }
	// A dependency is open unless its link leads to a task that is done:
	// one that names no note stays open, as vaultmem counts it.
	openDeps := "list(" + task.DependsOnField + ").filter(value && !(value.asFile() && " + lower("value.asFile().properties.status") + " == " + st(task.Done) + "))"
	return base{
		Filters: lower("type") + " == " + quote(task.Type),
		Formulas: map[string]string{
			"state":             "if(status, status.toString().lower(), " + st(task.Todo) + ")",
			"urgency":           "if(priority, priority.toString().lower(), " + quote(task.DefaultPriority) + ")",
			"rank":              "if(formula.urgency == " + quote("high") + ", 1, if(formula.urgency == " + quote("low") + ", 3, 2))",
			"open_dependencies": openDeps,
		},
		Properties: map[string]property{
			"file.name":                 {"Task"},
			"file.mtime":                {"Modified"},
			"formula.state":             {"Status"},
			"formula.urgency":           {"Priority"},
			"formula.open_dependencies": {"Waits on"},
			"assignee":                  {"Held by"},
		},
		Views: []view{{
			Type: "table", Name: "Open",
			Filters: "formula.state != " + st(task.Done),
			GroupBy: &sorting{"formula.state", "ASC"},
			Order: []string{"file.name", "formula.urgency", note(task.ParentField), note("assignee"), note(task.DependsOnField),
				note("started"), "file.mtime"},
			Sort: []sorting{asc("formula.rank"), desc("file.mtime")},
		}, {
			Type: "table", Name: "Ready",
			Filters: and("formula.state == "+st(task.Todo), "formula.open_dependencies.isEmpty()"),
			Order:   []string{"file.name", "formula.urgency", note(task.ParentField), note(task.DependsOnField), note("created")},
			Sort:    []sorting{asc("formula.rank"), asc(note("created"))},
		}, {
			Type: "table", Name: "Waiting",
			Filters: and("formula.state == "+st(task.Todo), "!formula.open_dependencies.isEmpty()"),
			Order:   []string{"file.name", "formula.open_dependencies", "formula.urgency", note(task.ParentField)},
			Sort:    []sorting{asc("formula.rank")},
		}, {
			Type: "table", Name: "Blocked",
			Filters: "formula.state == " + st(task.Blocked),
			Order:   []string{"file.name", note("assignee"), note(task.ParentField), "formula.open_dependencies", "file.mtime"},
			Sort:    []sorting{desc("file.mtime")},
		}, {
			Type: "table", Name: "Done",
			Filters: "formula.state == " + st(task.Done),
			Order:   []string{"file.name", note(task.ParentField), note("assignee"), note("finished")},
			Sort:    []sorting{desc(note("finished"))},
		}},
	}
}

// lessonsBase: the lessons, weakest first, flagged under reviewBelow.
func lessonsBase(reviewBelow float64) base {
	live := []any{`!file.hasProperty("archived")`, lower("status") + " != " + quote(ProposedStatus)}
	line := num(reviewBelow)
	return base{
		Filters: lower("type") + " == " + quote(lesson.Type),
		Formulas: map[string]string{
			"strength_now": `if(file.hasProperty("` + lesson.KeyStrength + `"), ` + lesson.KeyStrength + ", " + num(lesson.DefaultStrength) + ")",
			"review":       "if(formula.strength_now < " + line + ", " + quote("flagged: below "+line) + ", " + quote("") + ")",
		},
		Properties: map[string]property{
			"file.name":            {"Lesson"},
			"formula.strength_now": {"Strength"},
			"formula.review":       {"Review"},
		},
		Views: []view{{
			Type: "table", Name: "By strength",
			Filters: and(live...),
			Order: []string{"file.name", "formula.strength_now", "formula.review", note(lesson.KeyDomain), note(lesson.KeyApplications),
				note(lesson.KeyLastApplied), note("pinned")},
			Sort: []sorting{asc("formula.strength_now")},
		}, {
			Type: "table", Name: "Flagged",
			Filters: and(append(live, "formula.strength_now < "+line)...),
			Order: []string{"file.name", "formula.strength_now", note(lesson.KeyTrigger), note(lesson.KeyActionBias),
				note(lesson.KeyApplications), note(lesson.KeyLastApplied)},
			Sort: []sorting{asc("formula.strength_now")},
		}, {
			Type: "table", Name: "By domain",
			Filters: and(live...),
			GroupBy: &sorting{note(lesson.KeyDomain), "ASC"},
			Order: []string{"file.name", "formula.strength_now", note(lesson.KeyApplications), note(lesson.KeyLastApplied),
				note(lesson.KeyActionBias)},
			Sort: []sorting{desc("formula.strength_now")},
		}, {
			Type: "table", Name: "Pinned",
			Filters: and(append(live, "pinned == true")...),
			Order:   []string{"file.name", "formula.strength_now", note(lesson.KeyDomain), note(lesson.KeyApplications), note(lesson.KeyLastApplied)},
			Sort:    []sorting{asc("file.name")},
		}, {
			Type: "table", Name: "Archived",
			Filters: `file.hasProperty("archived")`,
			Order:   []string{"file.name", "formula.strength_now", note(lesson.KeyDomain), note("decayed"), note(lesson.KeyLastApplied)},
			Sort:    []sorting{desc(note("decayed"))},
		}, {
			Type: "table", Name: "Proposed",
			Filters: lower("status") + " == " + quote(ProposedStatus),
			Order: []string{"file.name", note(lesson.KeyTrigger), note(lesson.KeyActionBias), note(lesson.KeyDomain),
				note(lesson.KeyDerivedFrom), note(lesson.KeyEpisodes)},
			Sort: []sorting{asc("file.name")},
		}},
	}
}

// sessionsBase: the agents' session notes, newest first.
func sessionsBase() base {
	cols := []string{"file.name", note("started"), note("ended"), note("agent"), note("client"), note("tasks"), note("lessons")}
	return base{
		Filters: lower("type") + " == " + quote(session.Type),
		Properties: map[string]property{
			"file.name": {"Session"},
			"tasks":     {"Tasks touched"},
			"lessons":   {"Lessons shown"},
		},
		Views: []view{{
			Type: "table", Name: "Sessions",
			Order: cols,
			Sort:  []sorting{desc(note("started"))},
		}, {
			Type: "table", Name: "By agent",
			GroupBy: &sorting{note("agent"), "ASC"},
			Order:   cols,
			Sort:    []sorting{desc(note("started"))},
		}, {
			Type: "table", Name: "By client",
			GroupBy: &sorting{note("client"), "ASC"},
			Order:   cols,
			Sort:    []sorting{desc(note("started"))},
		}},
	}
}
