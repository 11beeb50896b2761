package index

import (
	"context"
	"fmt"

	"github.com/vaultmem/vaultmem/task"
)

// taskRow is the tasks row of task t, from name on.
func taskRow(t task.Task) []any {
	return []any{t.Name, t.Status, t.Priority, t.Assignee, t.Created, t.Started, t.Finished, t.Summary, t.Milestone, t.Events}
}

const taskColumns = `n.path, t.name, t.status, t.priority, t.assignee, t.created, t.started, t.finished, t.summary, t.milestone, t.events, n.hash`

func (k *Kinds) tasks(ctx context.Context, q string, args ...any) ([]task.Task, error) {
	rows, err := k.ix.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("read tasks in %s: %w", k.ix.path, err)
	}
	defer rows.Close()
	var out []task.Task
	for rows.Next() {
		var t task.Task
		if err := rows.Scan(&t.Path, &t.Name, &t.Status, &t.Priority, &t.Assignee, &t.Created, &t.Started, &t.Finished,
			&t.Summary, &t.Milestone, &t.Events, &t.Hash); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// task.Task returns the task at path; ok is false when the index holds no task
// there.
func (k *Kinds) Task(ctx context.Context, path string) (t task.Task, ok bool, err error) {
	ts, err := k.tasks(ctx, `SELECT `+taskColumns+` FROM notes n JOIN tasks t ON t.note_id = n.id WHERE n.path = ?`, path)
	if err != nil || len(ts) == 0 {
		return task.Task{}, false, err
	}
	return ts[0], true, nil
}

// Tasks returns every task, by path.
// (CROSS JOIN makes SQLite read the small table first: ordered by the
// notes' path index instead, it would walk every note of the vault.)
func (k *Kinds) Tasks(ctx context.Context) ([]task.Task, error) {
	return k.tasks(ctx, `SELECT `+taskColumns+` FROM tasks t CROSS JOIN notes n ON t.note_id = n.id ORDER BY n.path`)
}

// firstParent is true of an edge that is its source's first parent link:
// a task has one parent, the first it names.
const firstParent = `e.field = 'parent' AND e.seq = (SELECT min(p.seq) FROM edges p WHERE p.source_id = e.source_id AND p.field = 'parent')`

// Children returns the tasks whose parent is the note at path, by path.
func (k *Kinds) Children(ctx context.Context, path string) ([]task.Task, error) {
	return k.tasks(ctx, `SELECT `+taskColumns+` FROM edges e JOIN notes n ON n.id = e.source_id JOIN tasks t ON t.note_id = n.id
		WHERE e.target = ? AND e.resolved AND `+firstParent+` ORDER BY n.path`, path)
}

// TaskLinks returns the parent and depends_on links of the task at path
// (the tasks' when path is ""), by source, then in the order written.
func (k *Kinds) TaskLinks(ctx context.Context, path string) ([]task.Link, error) {
	q := `SELECT n.path, e.field, e.target, e.resolved, e.line FROM edges e JOIN notes n ON n.id = e.source_id
		JOIN tasks t ON t.note_id = n.id WHERE e.field IN ('parent', 'depends_on')`
	args := []any{}
	if path != "" {
		q += ` AND n.path = ?`
		args = append(args, path)
	}
	rows, err := k.ix.db.QueryContext(ctx, q+` ORDER BY n.path, e.seq`, args...)
	if err != nil {
		return nil, fmt.Errorf("read task links in %s: %w", k.ix.path, err)
	}
	defer rows.Close()
	var out []task.Link
	for rows.Next() {
		var l task.Link
		if err := rows.Scan(&l.Source, &l.Field, &l.Target, &l.Resolved, &l.Line); err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

// Ready returns the tasks that can be worked on now: status todo, every
// depends_on link resolved to a task that is done, no child task that is
// not done. They come by path; ordering them by urgency is the caller's.
func (k *Kinds) Ready(ctx context.Context) ([]task.Ready, error) {
	rows, err := k.ix.db.QueryContext(ctx, `SELECT `+taskColumns+`,
		coalesce((SELECT group_concat(path, char(10)) FROM (SELECT DISTINCT u.path FROM edges d JOIN notes u ON u.id = d.source_id
			JOIN tasks ut ON ut.note_id = u.id WHERE d.target = n.path AND d.resolved AND d.field = 'depends_on' AND ut.status != 'done'
			ORDER BY u.path)), ''),
		coalesce((SELECT group_concat(target, char(10)) FROM (SELECT d.target FROM edges d WHERE d.source_id = n.id AND d.field = 'depends_on'
			ORDER BY d.seq)), '')
		FROM tasks t JOIN notes n ON n.id = t.note_id
		WHERE t.status = 'todo'
		AND NOT EXISTS (SELECT 1 FROM edges d LEFT JOIN notes dn ON d.resolved AND dn.path = d.target LEFT JOIN tasks dt ON dt.note_id = dn.id
			WHERE d.source_id = n.id AND d.field = 'depends_on' AND (dt.status IS NULL OR dt.status != 'done'))
		AND NOT EXISTS (SELECT 1 FROM edges e JOIN tasks ct ON ct.note_id = e.source_id
			WHERE e.target = n.path AND e.resolved AND `+firstParent+` AND ct.status != 'done')
		ORDER BY n.path`)
	if err != nil {
		return nil, fmt.Errorf("read ready tasks in %s: %w", k.ix.path, err)
	}
	defer rows.Close()
	out := []task.Ready{}
	for rows.Next() {
		var r task.Ready
		var unblocks, deps string
		if err := rows.Scan(&r.Path, &r.Name, &r.Status, &r.Priority, &r.Assignee, &r.Created, &r.Started, &r.Finished,
			&r.Summary, &r.Milestone, &r.Events, &r.Hash, &unblocks, &deps); err != nil {
			return nil, err
		}
		r.Unblocks, r.DependsOn = lines(unblocks), lines(deps)
		out = append(out, r)
	}
	return out, rows.Err()
}
