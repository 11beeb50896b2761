package index

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Around returns the chunks of the same note within n places of chunk
// (before and after it, in note order, without it): the context of a
// hit, such as the turns around a line of a conversation. Results have
// no snippets.
func (ix *Index) Around(ctx context.Context, chunk int64, n int) ([]Result, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT c.id FROM chunks c JOIN chunks h ON h.note_id = c.note_id
		WHERE h.id = ? AND c.id != h.id AND c.seq BETWEEN h.seq - ? AND h.seq + ? ORDER BY c.seq`, chunk, n, n)
	if err != nil {
		return nil, fmt.Errorf("chunks around %d: %w", chunk, err)
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
