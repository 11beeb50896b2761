package index

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/vaultmem/vaultmem/markdown"
)

// Memory is a live memory (a note of one of the four memory types, not
// archived) as the index holds it.
type Memory struct {
	Path string
	// Type is the memory type: user, feedback, project or reference.
	Type string
	// Name is the frontmatter name, the memory's identity; "" when it has
	// none (then Title stands for it).
	Name        string
	Title       string
	Description string
	// Pinned is the frontmatter pinned.
	Pinned bool
	// Date is the day it was last written: the latest of its frontmatter
	// updated, created and date (YYYY-MM-DD), "" when it has none.
	Date string
	// Hash is the content hash of the note as indexed.
	Hash string
}

// memoryRow is what the memories table holds of a live memory.
type memoryRow struct {
	name    string
	pinned  bool
	written string
}

// newMemoryRow is the memories row of memory note n.
func newMemoryRow(n *markdown.Note) *memoryRow {
	name, _ := n.Frontmatter.String("name")
	return &memoryRow{name: strings.TrimSpace(name), pinned: n.Pinned(), written: n.Written()}
}

// Memories returns the live memories, by path: what MEMORY.md lists.
func (ix *Index) Memories(ctx context.Context) ([]Memory, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT n.path, n.kind, m.name, n.title, n.description, m.pinned, m.written, n.hash
		FROM memories m JOIN notes n ON n.id = m.note_id ORDER BY n.path`)
	if err != nil {
		return nil, fmt.Errorf("list memories in %s: %w", ix.path, err)
	}
	defer rows.Close()
	var out []Memory
	for rows.Next() {
		var m Memory
		if err := rows.Scan(&m.Path, &m.Type, &m.Name, &m.Title, &m.Description, &m.Pinned, &m.Date, &m.Hash); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// Problem is a note's warning (see markdown.Note.Warnings).
type Problem struct {
	Path string `json:"path"`
	// Line is the line at fault, 0 when not known.
	Line    int    `json:"line,omitempty"`
	Message string `json:"reason"`
}

// BadFrontmatter returns the notes under folder ("" or "." for the whole
// vault) whose frontmatter does not parse, each with the warning that
// names its file and line: notes that may be memories, which no writer may
// rewrite until a human fixes them.
func (ix *Index) BadFrontmatter(ctx context.Context, folder string) ([]Problem, error) {
	folder = strings.Trim(folder, "/")
	q, args := `SELECT path, warnings FROM notes WHERE warnings LIKE '%invalid frontmatter%'`, []any{}
	if folder != "" && folder != "." {
		q, args = q+" AND substr(path, 1, ?) = ?", append(args, len(folder)+1, folder+"/")
	}
	rows, err := ix.db.QueryContext(ctx, q+" ORDER BY path", args...)
	if err != nil {
		return nil, fmt.Errorf("read warnings in %s: %w", ix.path, err)
	}
	defer rows.Close()
	var out []Problem
	for rows.Next() {
		var p, warnings string
		if err := rows.Scan(&p, &warnings); err != nil {
			return nil, err
		}
		for _, w := range strings.Split(warnings, "\n") {
			if !strings.Contains(w, "invalid frontmatter") {
				continue
			}
			pr := Problem{Path: p, Message: w}
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
