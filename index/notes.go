package index

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Dated returns the notes dated from day from to day to (both
// "2006-01-02", inclusive), latest first, at most limit. A note's date is
// its frontmatter date (date, created, updated, last_applied) or the date
// in its file name (a daily note); only dates written year first count. A
// note with a chunk of that date (a task's log event) counts as dated then.
func (sr *Searcher) Dated(ctx context.Context, from, to string, limit int) ([]string, error) {
	end, err := time.Parse(time.DateOnly, to)
	if err != nil {
		return nil, fmt.Errorf("dated notes: %w", err)
	}
	return sr.ix.graph.paths(ctx, `SELECT path FROM (
			SELECT path, date FROM notes WHERE date != '' AND date >= ?1 AND date < ?2
			UNION ALL
			SELECT n.path, max(c.date) FROM chunks c JOIN notes n ON n.id = c.note_id
				WHERE c.date != '' AND c.date >= ?1 AND c.date < ?2 GROUP BY n.id)
		GROUP BY path ORDER BY max(date) DESC, path LIMIT ?3`,
		from, end.AddDate(0, 0, 1).Format(time.DateOnly), limit)
}

// NoteInfo is a note as List returns it.
type NoteInfo struct {
	Path        string   `json:"path"`
	Type        string   `json:"type"`
	Name        string   `json:"name"`
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Tags        []string `json:"tags"`
	// Aliases are the frontmatter aliases.
	Aliases []string `json:"aliases"`
}

// List returns the notes passing q's filters (Type, Tag, Folder, Paths,
// Memories, Archived; its text, mode and limit are ignored), by path.
func (sr *Searcher) List(ctx context.Context, q Query) ([]NoteInfo, error) {
	notes, _, err := sr.list(ctx, q, -1, 0)
	return notes, err
}

// ListPage returns the page p of List's notes, and where it lies among
// them all; the database counts and skips. Errors: ErrBadPage; the
// cache's.
func (sr *Searcher) ListPage(ctx context.Context, q Query, p Page) ([]NoteInfo, PageInfo, error) {
	p, err := p.Check()
	if err != nil {
		return nil, PageInfo{}, err
	}
	notes, total, err := sr.list(ctx, q, p.Limit, p.Offset)
	if err != nil {
		return nil, PageInfo{}, err
	}
	return notes, pageInfo(total, p.Offset, len(notes)), nil
}

// list reads limit notes (all when negative) from offset on, and counts
// them all for a page (total -1 without one).
func (sr *Searcher) list(ctx context.Context, q Query, limit, offset int) ([]NoteInfo, int, error) {
	f, err := sr.filter(ctx, q, false)
	if err != nil {
		return nil, 0, err
	}
	var where []string
	var args []any
	if f.Only != nil {
		where, args = append(where, "n.id IN (SELECT value FROM json_each(?))"), append(args, idList(f.Only))
	}
	if len(f.Hide) > 0 {
		where, args = append(where, "n.id NOT IN (SELECT value FROM json_each(?))"), append(args, idList(f.Hide))
	}
	cond := ""
	if len(where) > 0 {
		cond = " WHERE " + strings.Join(where, " AND ")
	}
	total := -1
	if limit >= 0 { // a page says where it lies
		if err := sr.ix.db.QueryRowContext(ctx, "SELECT count(*) FROM notes n"+cond, args...).Scan(&total); err != nil {
			return nil, 0, fmt.Errorf("list notes: %w", err)
		}
	}
	rows, err := sr.ix.db.QueryContext(ctx, `SELECT n.path, n.kind, n.name, n.title, n.description, n.aliases,
			coalesce((SELECT group_concat(t.display, char(10) ORDER BY t.seq) FROM tags t WHERE t.note_id = n.id), '')
		FROM notes n`+cond+` ORDER BY n.path LIMIT ? OFFSET ?`, append(args, limit, offset)...)
	if err != nil {
		return nil, 0, fmt.Errorf("list notes: %w", err)
	}
	defer rows.Close()
	out := []NoteInfo{}
	for rows.Next() {
		var n NoteInfo
		var aliases, tags string
		if err := rows.Scan(&n.Path, &n.Type, &n.Name, &n.Title, &n.Description, &aliases, &tags); err != nil {
			return nil, 0, err
		}
		n.Tags, n.Aliases = lines(tags), lines(aliases)
		out = append(out, n)
	}
	return out, total, rows.Err()
}

// lines splits a newline-joined column; "" is no lines.
func lines(s string) []string {
	if s == "" {
		return []string{}
	}
	return strings.Split(s, "\n")
}
