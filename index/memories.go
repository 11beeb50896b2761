package index

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/memory"
)

// memoryRow is the memories row of live memory m, read from note n, from
// name on.
func memoryRow(m memory.Live, n *markdown.Note) []any {
	return []any{m.Name, m.Pinned, m.Date, m.Owner, memory.TextSum(n)}
}

// Memories returns the live memories, by path: what MEMORY.md lists. A
// memory is a note of a memory type in the memory folder
// (Options.MemoryFolder; see memory.InFolder): a person's note elsewhere
// that carries type: project is reference knowledge, not a memory.
// (CROSS JOIN makes SQLite read the small table first: ordered by the
// notes' path index instead, it would walk every note of the vault.)
func (k *Kinds) Memories(ctx context.Context) ([]memory.Live, error) {
	rows, err := k.ix.db.QueryContext(ctx, `SELECT n.path, n.kind, m.name, n.title, n.description, m.pinned, m.written, n.hash, m.owner
		FROM memories m CROSS JOIN notes n ON n.id = m.note_id ORDER BY n.path`)
	if err != nil {
		return nil, fmt.Errorf("list memories in %s: %w", k.ix.path, err)
	}
	defer rows.Close()
	var out []memory.Live
	for rows.Next() {
		var m memory.Live
		if err := rows.Scan(&m.Path, &m.Type, &m.Name, &m.Title, &m.Description, &m.Pinned, &m.Date, &m.Hash, &m.Owner); err != nil {
			return nil, err
		}
		if memory.InFolder(m.Path, k.ix.opts.MemoryFolder) {
			out = append(out, m)
		}
	}
	return out, rows.Err()
}

// BadFrontmatter returns the notes under folder ("" or "." for the whole
// vault) whose frontmatter does not parse, each with the warning that
// names its file and line: notes that may be memories, which no writer may
// rewrite until a human fixes them.
func (k *Kinds) BadFrontmatter(ctx context.Context, folder string) ([]markdown.Problem, error) {
	folder = strings.Trim(folder, "/")
	q, args := `SELECT path, warnings FROM notes WHERE warnings LIKE '%invalid frontmatter%'`, []any{}
	if folder != "" && folder != "." {
		q, args = q+" AND substr(path, 1, ?) = ?", append(args, len(folder)+1, folder+"/")
	}
	rows, err := k.ix.db.QueryContext(ctx, q+" ORDER BY path", args...)
	if err != nil {
		return nil, fmt.Errorf("read warnings in %s: %w", k.ix.path, err)
	}
	defer rows.Close()
	var out []markdown.Problem
	for rows.Next() {
		var p, warnings string
		if err := rows.Scan(&p, &warnings); err != nil {
			return nil, err
		}
		for _, w := range strings.Split(warnings, "\n") {
			if !strings.Contains(w, "invalid frontmatter") {
				continue
			}
			pr := markdown.Problem{Path: p, Message: w}
			if rest, ok := strings.CutPrefix(w, p+":"); ok {
				if n, _, ok := strings.Cut(rest, ":"); ok {
					pr.Line, _ = strconv.Atoi(n)
				}
			}
			out = append(out, pr)
		}
	}
	return out, rows.Err()
}

// TextSums returns each live memory's memory.TextSum, by path (see
// memory.TextSums).
func (k *Kinds) TextSums(ctx context.Context) (map[string]string, error) {
	rows, err := k.ix.db.QueryContext(ctx, `SELECT n.path, m.text_sum FROM memories m CROSS JOIN notes n ON n.id = m.note_id`)
	if err != nil {
		return nil, fmt.Errorf("read memories' fingerprints in %s: %w", k.ix.path, err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var p, sum string
		if err := rows.Scan(&p, &sum); err != nil {
			return nil, err
		}
		out[p] = sum
	}
	return out, rows.Err()
}
