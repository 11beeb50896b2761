package index

import (
	"context"
	"fmt"
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
func (ix *Index) Lessons(ctx context.Context) ([]lesson.Lesson, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT n.path, n.hash, n.archived, n.proposed, l.name, l.trigger, l.action_bias, l.domain, l.strength, l.confidence,
		l.applications, l.last_applied, l.pinned, l.text, l.problems, l.tags, l.terms
		FROM lessons l CROSS JOIN notes n ON n.id = l.note_id ORDER BY n.path`)
	if err != nil {
		return nil, fmt.Errorf("read lessons in %s: %w", ix.path, err)
	}
	defer rows.Close()
	out := []lesson.Lesson{}
	for rows.Next() {
		var l lesson.Lesson
		var trigger, problems, tags, terms string
		if err := rows.Scan(&l.Path, &l.Hash, &l.Archived, &l.Proposed, &l.Name, &trigger, &l.ActionBias, &l.Domain, &l.Strength, &l.Confidence,
			&l.Applications, &l.LastApplied, &l.Pinned, &l.Text, &problems, &tags, &terms); err != nil {
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
func (ix *Index) LessonsVersion(ctx context.Context) (string, error) {
	return ix.meta(ctx, ix.db, metaLessonsVersion)
}
