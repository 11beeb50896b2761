package index

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"
)

// Around returns the chunks of the same note within n places of chunk
// (before and after it, in note order, without it): the context of a
// hit, such as the turns around a line of a conversation. Results have
// no snippets.
func (ix *Index) Around(ctx context.Context, chunk int64, n int) ([]Result, error) {
	out, err := ix.chunks(ctx, `SELECT c.id FROM chunks c JOIN chunks h ON h.note_id = c.note_id
		WHERE h.id = ? AND c.id != h.id AND c.seq BETWEEN h.seq - ? AND h.seq + ? ORDER BY c.seq`, chunk, n, n)
	if err != nil {
		return nil, fmt.Errorf("chunks around %d: %w", chunk, err)
	}
	return out, nil
}

// chunks loads the chunks whose ids query selects, in its order, without
// snippets.
func (ix *Index) chunks(ctx context.Context, query string, args ...any) ([]Result, error) {
	rows, err := ix.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	var ranked []scored
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, err
		}
		ranked = append(ranked, scored{id: id})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return ix.results(ctx, ranked, Query{NoSnippets: true})
}

// Linked returns the notes that the note at path links to (resolved
// links) and the notes that link to it, each once, without path itself.
func (ix *Index) Linked(ctx context.Context, path string) ([]string, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT e.target FROM edges e JOIN notes n ON n.id = e.source_id
			WHERE n.path = ? AND e.resolved AND e.target LIKE '%.md'
		UNION SELECT n.path FROM edges e JOIN notes n ON n.id = e.source_id WHERE e.target = ? AND e.resolved`, path, path)
	if err != nil {
		return nil, fmt.Errorf("links of %s: %w", path, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, err
		}
		if p != path {
			out = append(out, p)
		}
	}
	return out, rows.Err()
}

// ensureKV creates the key-value table behind Get and Put.
func (ix *Index) ensureKV(ctx context.Context) error {
	_, err := ix.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS kv (
		key     TEXT PRIMARY KEY,
		value   TEXT NOT NULL,
		expires INTEGER NOT NULL
	)`)
	return err
}

// Get returns the value stored under key by Put, unless it expired.
// Callers keep small derived facts in the cache this way (recall keeps
// its intent classifications); like everything in the cache, they may
// vanish at any time.
func (ix *Index) Get(ctx context.Context, key string) (string, bool) {
	if ix.ensureKV(ctx) != nil {
		return "", false
	}
	var v string
	err := ix.db.QueryRowContext(ctx, "SELECT value FROM kv WHERE key = ? AND expires > ?", key, time.Now().Unix()).Scan(&v)
	return v, err == nil
}

// Put stores value under key for ttl.
func (ix *Index) Put(ctx context.Context, key, value string, ttl time.Duration) error {
	if err := ix.ensureKV(ctx); err != nil {
		return err
	}
	_, err := ix.db.ExecContext(ctx, `INSERT INTO kv(key, value, expires) VALUES(?, ?, ?)
		ON CONFLICT(key) DO UPDATE SET value = excluded.value, expires = excluded.expires`,
		key, value, time.Now().Add(ttl).Unix())
	if err != nil {
		return fmt.Errorf("cache %s: %w", strings.SplitN(key, ":", 2)[0], err)
	}
	return nil
}

// Outgoing returns the notes and files the note at path links to
// (resolved links), each once, in link order.
func (ix *Index) Outgoing(ctx context.Context, path string) ([]string, error) {
	return ix.paths(ctx, `SELECT e.target FROM edges e JOIN notes n ON n.id = e.source_id
		WHERE n.path = ? AND e.resolved GROUP BY e.target ORDER BY min(e.seq)`, path)
}

// Backlinks returns the notes that link to path, each once, by path.
func (ix *Index) Backlinks(ctx context.Context, path string) ([]string, error) {
	return ix.paths(ctx, `SELECT DISTINCT n.path FROM edges e JOIN notes n ON n.id = e.source_id
		WHERE e.target = ? AND e.resolved AND n.path != ? ORDER BY n.path`, path, path)
}

func (ix *Index) paths(ctx context.Context, q string, args ...any) ([]string, error) {
	rows, err := ix.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("links: %w", err)
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

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

// Labelled returns the notes that the notes at paths link to with a
// label holding a word of text ([[Alice Smith|the boss]] calls Alice
// Smith "the boss"), each once: a label is a name the vault gives a note
// besides its title and aliases. Words match as keyword search matches
// them.
func (ix *Index) Labelled(ctx context.Context, paths []string, text string) ([]string, error) {
	q := newKeywordQuery(text)
	if len(q.terms) == 0 || len(paths) == 0 {
		return []string{}, nil
	}
	want := map[string]bool{}
	for _, t := range q.terms {
		want[t] = true
	}
	args := make([]any, len(paths))
	for i, p := range paths {
		args[i] = p
	}
	rows, err := ix.db.QueryContext(ctx, `SELECT e.target, e.label FROM edges e JOIN notes n ON n.id = e.source_id
		WHERE n.path IN (?`+strings.Repeat(", ?", len(paths)-1)+`) AND e.label != '' AND e.resolved AND e.target LIKE '%.md'
		ORDER BY n.path, e.seq`, args...)
	if err != nil {
		return nil, fmt.Errorf("labelled notes: %w", err)
	}
	defer rows.Close()
	seen := map[string]bool{}
	out := []string{}
	for rows.Next() {
		var target, label string
		if err := rows.Scan(&target, &label); err != nil {
			return nil, err
		}
		if seen[target] {
			continue
		}
		for _, t := range analyze(label) {
			if want[t] {
				seen[target] = true
				out = append(out, target)
				break
			}
		}
	}
	return out, rows.Err()
}

// Openings returns the first n chunks of each note at paths, a note's in
// note order, without snippets.
func (ix *Index) Openings(ctx context.Context, paths []string, n int) ([]Result, error) {
	if len(paths) == 0 || n <= 0 {
		return []Result{}, nil
	}
	args := []any{}
	for _, p := range paths {
		args = append(args, p)
	}
	out, err := ix.chunks(ctx, `SELECT c.id FROM chunks c JOIN notes n ON n.id = c.note_id
		WHERE n.path IN (?`+strings.Repeat(", ?", len(paths)-1)+`) AND c.seq < ? ORDER BY n.path, c.seq`, append(args, n)...)
	if err != nil {
		return nil, fmt.Errorf("note openings: %w", err)
	}
	order := make(map[string]int, len(paths))
	for i, p := range paths {
		if _, dup := order[p]; !dup {
			order[p] = i
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return order[out[i].Path] < order[out[j].Path] })
	return out, nil
}

// NoteInfo is a note as List returns it.
type NoteInfo struct {
	Path        string   `json:"path"`
	Type        string   `json:"type"`
	Name        string   `json:"name"`
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Tags        []string `json:"tags"`
}

// List returns the notes passing q's filters (Type, Tag, Folder, Paths;
// its text, mode and limit are ignored), by path.
func (ix *Index) List(ctx context.Context, q Query) ([]NoteInfo, error) {
	f, err := ix.filter(ctx, q)
	if err != nil {
		return nil, err
	}
	rows, err := ix.db.QueryContext(ctx, `SELECT n.id, n.path, n.kind, n.name, n.title, n.description, coalesce(group_concat(t.tag, char(10)), '')
		FROM notes n LEFT JOIN tags t ON t.note_id = n.id GROUP BY n.id ORDER BY n.path`)
	if err != nil {
		return nil, fmt.Errorf("list notes: %w", err)
	}
	defer rows.Close()
	out := []NoteInfo{}
	for rows.Next() {
		var id int64
		var n NoteInfo
		var tags string
		if err := rows.Scan(&id, &n.Path, &n.Type, &n.Name, &n.Title, &n.Description, &tags); err != nil {
			return nil, err
		}
		if !f.keep(id) {
			continue
		}
		n.Tags = []string{}
		if tags != "" {
			n.Tags = strings.Split(tags, "\n")
		}
		out = append(out, n)
	}
	return out, rows.Err()
}
