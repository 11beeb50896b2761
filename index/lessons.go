package index

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/vaultmem/vaultmem/lesson"
)

// lessonRow is the lessons row of lesson l, from name on.
func lessonRow(l lesson.Lesson) []any {
	var problems []string
	for _, p := range l.Problems {
		problems = append(problems, strconv.Itoa(p.Line)+"\t"+p.Key+"\t"+p.Message)
	}
	return []any{l.Name, strings.Join(l.Trigger, "\n"), l.ActionBias, l.Domain, l.Strength, l.Confidence,
		l.Applications, l.LastApplied, l.Pinned, l.Text, strings.Join(l.Tags, "\n"), strings.Join(l.Terms, " "), strings.Join(problems, "\n")}
}

// Lessons returns every lesson note, archived and proposed ones included,
// by path.
// (CROSS JOIN makes SQLite read the small table first: ordered by the
// notes' path index instead, it would walk every note of the vault.)
func (k *Kinds) Lessons(ctx context.Context) ([]lesson.Lesson, error) {
	return k.lessons(ctx, "", nil, false)
}

// LessonsAt returns the lesson notes at paths (vault-relative), by path;
// a path that holds no lesson note is left out.
func (k *Kinds) LessonsAt(ctx context.Context, paths []string) ([]lesson.Lesson, error) {
	out := []lesson.Lesson{}
	for len(paths) > 0 {
		batch := paths[:min(len(paths), 500)]
		paths = paths[len(batch):]
		args := make([]any, len(batch))
		for i, p := range batch {
			args[i] = p
		}
		ls, err := k.lessons(ctx, "WHERE n.path IN (?"+strings.Repeat(", ?", len(batch)-1)+")", args, false)
		if err != nil {
			return nil, err
		}
		out = append(out, ls...)
	}
	slices.SortFunc(out, func(a, b lesson.Lesson) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}

// LessonHeads returns every lesson note as Lessons does, but without its
// Text and Terms (empty): what a review of the lessons needs, read
// without their largest columns.
func (k *Kinds) LessonHeads(ctx context.Context) ([]lesson.Lesson, error) {
	return k.lessons(ctx, "", nil, true)
}

// lessons reads the lessons the condition where (with args) selects;
// with heads, without their text and terms.
func (k *Kinds) lessons(ctx context.Context, where string, args []any, heads bool) ([]lesson.Lesson, error) {
	cols := "l.text, l.terms"
	if heads {
		cols = "'', ''"
	}
	rows, err := k.ix.db.QueryContext(ctx, `SELECT n.path, n.hash, n.archived, n.proposed, l.name, l.trigger, l.action_bias, l.domain, l.strength, l.confidence,
		l.applications, l.last_applied, l.pinned, l.problems, l.tags, `+cols+`
		FROM lessons l CROSS JOIN notes n ON n.id = l.note_id `+where+` ORDER BY n.path`, args...)
	if err != nil {
		return nil, fmt.Errorf("read lessons in %s: %w", k.ix.path, err)
	}
	defer rows.Close()
	out := []lesson.Lesson{}
	for rows.Next() {
		var l lesson.Lesson
		var trigger, problems, tags, terms string
		if err := rows.Scan(&l.Path, &l.Hash, &l.Archived, &l.Proposed, &l.Name, &trigger, &l.ActionBias, &l.Domain, &l.Strength, &l.Confidence,
			&l.Applications, &l.LastApplied, &l.Pinned, &problems, &tags, &l.Text, &terms); err != nil {
			return nil, err
		}
		l.Terms = strings.Fields(terms)
		l.Trigger, l.Tags = lines(trigger), lines(tags)
		if l.Trigger == nil {
			l.Trigger = []string{}
		}
		if l.Tags == nil {
			l.Tags = []string{}
		}
		for _, p := range lines(problems) {
			f := strings.SplitN(p, "\t", 3)
			if len(f) == 3 {
				line, _ := strconv.Atoi(f[0])
				l.Problems = append(l.Problems, lesson.Problem{Key: f[1], Line: line, Message: f[2]})
			}
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

// metaLessonsVersion names the meta row that every sync writing or
// deleting a lesson sets to a new random value.
const metaLessonsVersion = "lessons_version"

// LessonsVersion is a string that changes whenever a sync changes a
// lesson (and only then): what caches of lessons are keyed by.
func (k *Kinds) LessonsVersion(ctx context.Context) (string, error) {
	return k.ix.meta(ctx, k.ix.db, metaLessonsVersion)
}

// metaLessonsChange names the meta row that says what the last sync that
// changed a lesson changed: the lessons version before it, the version it
// set, and the paths it wrote or removed, one a line (see LessonsChange).
// A sync of more than maxLessonsChange paths leaves it empty.
const metaLessonsChange = "lessons_change"

// maxLessonsChange is the most paths a lessons change lists: past it,
// reading every lesson again costs no more.
const maxLessonsChange = 64

// LessonsChange says what the last sync that changed a lesson changed:
// the lessons version before it (prev), the one it set (cur), and the
// vault paths it wrote or removed, among them every lesson it changed. A
// cache of the lessons at version prev brings itself to cur by reading
// the lessons at paths again (LessonsAt) instead of every lesson. ok is
// false when the index cannot say (a sync of many paths, or an index
// older than this record).
func (k *Kinds) LessonsChange(ctx context.Context) (prev, cur string, paths []string, ok bool, err error) {
	v, err := k.ix.meta(ctx, k.ix.db, metaLessonsChange)
	if err != nil || v == "" {
		return "", "", nil, false, err
	}
	f := strings.Split(v, "\n")
	if len(f) < 2 || f[0] == "" || f[1] == "" {
		return "", "", nil, false, nil
	}
	return f[0], f[1], f[2:], true, nil
}

// lessonsChange is the value of the lessons change row for a sync that
// takes the lessons from version prev to cur, having written or removed
// the files at paths; "" when there is no version before, or a path that
// cannot be listed a line each.
func lessonsChange(prev, cur string, paths []string) string {
	if prev == "" || slices.ContainsFunc(paths, func(p string) bool { return strings.Contains(p, "\n") }) {
		return ""
	}
	return strings.Join(append([]string{prev, cur}, paths...), "\n")
}
