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
// in its file name (a daily note); only dates written year first count.
func (ix *Index) Dated(ctx context.Context, from, to string, limit int) ([]string, error) {
	end, err := time.Parse(time.DateOnly, to)
	if err != nil {
		return nil, fmt.Errorf("dated notes: %w", err)
	}
	return ix.paths(ctx, `SELECT path FROM notes WHERE date != '' AND date >= ? AND date < ? ORDER BY date DESC, path LIMIT ?`,
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

// List returns the notes passing q's filters (Type, Tag, Folder, Paths;
// its text, mode and limit are ignored), by path.
func (ix *Index) List(ctx context.Context, q Query) ([]NoteInfo, error) {
	f, err := ix.filter(ctx, q, false)
	if err != nil {
		return nil, err
	}
	rows, err := ix.db.QueryContext(ctx, `SELECT n.id, n.path, n.kind, n.name, n.title, n.description, n.aliases, coalesce(group_concat(t.display, char(10) ORDER BY t.seq), '')
		FROM notes n LEFT JOIN tags t ON t.note_id = n.id GROUP BY n.id ORDER BY n.path`)
	if err != nil {
		return nil, fmt.Errorf("list notes: %w", err)
	}
	defer rows.Close()
	out := []NoteInfo{}
	for rows.Next() {
		var id int64
		var n NoteInfo
		var aliases, tags string
		if err := rows.Scan(&id, &n.Path, &n.Type, &n.Name, &n.Title, &n.Description, &aliases, &tags); err != nil {
			return nil, err
		}
		if !f.keep(id) {
			continue
		}
		n.Tags, n.Aliases = lines(tags), lines(aliases)
		out = append(out, n)
	}
	return out, rows.Err()
}

// lines splits a newline-joined column; "" is no lines.
func lines(s string) []string {
	if s == "" {
		return []string{}
	}
	return strings.Split(s, "\n")
}
