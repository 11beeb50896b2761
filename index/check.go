package index

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"strings"

	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/vault"
)

// Drift is one difference between the cache and the vault.
type Drift struct {
	Path string `json:"path"`
	// Problem is "corrupt" (the database fails its check), "missing" (a
	// file the index lacks), "extra" (an indexed file that is gone),
	// "stale" (an indexed note whose content changed) or "link" (a link
	// resolved otherwise than the vault's files now say).
	Problem string `json:"problem"`
	Detail  string `json:"detail,omitempty"`
}

// Check compares the cache with the vault in fsys and lists every
// difference, changing neither. Unlike Sync it trusts no size or time:
// it reads and hashes every note, so it finds what a sync could miss (a
// file rewritten within the same second and size, a cache edited by
// hand). It fails only when the vault cannot be walked or the cache read.
func (ix *Index) Check(ctx context.Context, fsys fs.FS) ([]Drift, error) {
	drift := []Drift{}
	var verdict string
	if err := ix.db.QueryRowContext(ctx, "PRAGMA quick_check").Scan(&verdict); err != nil || verdict != "ok" {
		if err != nil {
			verdict = err.Error()
		}
		return append(drift, Drift{Path: ix.path, Problem: "corrupt", Detail: verdict}), nil
	}
	files, _, err := walk(ctx, fsys)
	if err != nil {
		return nil, err
	}
	stored, err := ix.stored(ctx, ix.db)
	if err != nil {
		return nil, err
	}
	present := make(map[string]bool, len(files))
	for _, f := range files {
		present[f.path] = true
		s, ok := stored[f.path]
		switch {
		case !ok:
			drift = append(drift, Drift{Path: f.path, Problem: "missing", Detail: "not in the index"})
		case s.note && f.note:
			b, err := fs.ReadFile(fsys, f.path)
			if err != nil {
				continue // vanished or unreadable since the walk: not the cache's fault
			}
			if h := markdown.Hash(b); h != s.hash {
				drift = append(drift, Drift{Path: f.path, Problem: "stale", Detail: "content changed since it was indexed"})
			}
		case f.note && !s.note: // kept as unreadable: is it still?
			if _, err := vault.ReadNote(fsys, f.path, ix.opts.MaxNoteSize); err == nil {
				drift = append(drift, Drift{Path: f.path, Problem: "stale", Detail: "readable now, indexed as unreadable"})
			}
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	for p := range stored {
		if !present[p] {
			drift = append(drift, Drift{Path: p, Problem: "extra", Detail: "indexed but no longer in the vault"})
		}
	}
	links, err := ix.checkLinks(ctx, newResolver(files, unreadableNotes(stored, files)))
	if err != nil {
		return nil, err
	}
	return append(drift, links...), nil
}

// unreadableNotes lists the markdown files the index keeps as plain files
// (they could not be read as notes), which resolve as attachments.
func unreadableNotes(stored map[string]fileState, files []seen) []string {
	var out []string
	for _, f := range files {
		if s, ok := stored[f.path]; ok && f.note && !s.note {
			out = append(out, f.path)
		}
	}
	return out
}

// checkLinks resolves every stored link again.
func (ix *Index) checkLinks(ctx context.Context, r resolver) ([]Drift, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT n.path, e.raw, e.heading, e.block, e.markdown, e.target, e.resolved, e.line
		FROM edges e JOIN notes n ON n.id = e.source_id ORDER BY n.path, e.seq`)
	if err != nil {
		return nil, fmt.Errorf("read links: %w", err)
	}
	defer rows.Close()
	var drift []Drift
	for rows.Next() {
		var source, raw, heading, block, target string
		var isMarkdown, resolved bool
		var line int
		if err := rows.Scan(&source, &raw, &heading, &block, &isMarkdown, &target, &resolved, &line); err != nil {
			return nil, err
		}
		now, ok := r.resolve(source, markdown.Link{Target: raw, Heading: heading, Block: block, Markdown: isMarkdown})
		if !ok {
			now = raw
		}
		if now != target || ok != resolved {
			drift = append(drift, Drift{Path: source, Problem: "link",
				Detail: fmt.Sprintf("line %d: [[%s]] indexed as %s, the vault says %s", line, raw, describe(target, resolved), describe(now, ok))})
		}
	}
	return drift, rows.Err()
}

func describe(target string, resolved bool) string {
	if resolved {
		return target
	}
	return "unresolved"
}

// Digest is a canonical text of everything the index holds about the
// vault (notes, tags, other files, links, chunks and their full-text
// rows), without ids or times: two indexes of the same files have the
// same digest, whatever syncs built them. Tests compare a live index with
// a fresh rebuild by it.
func (ix *Index) Digest(ctx context.Context) (string, error) {
	var b strings.Builder
	for _, q := range []string{
		"SELECT path, hash, kind, name, title, description, aliases, date, frontmatter, warnings, archived, proposed FROM notes ORDER BY path",
		"SELECT n.path, t.tag, t.display, t.seq FROM tags t JOIN notes n ON n.id = t.note_id ORDER BY 1, 2",
		"SELECT n.path, m.name, m.pinned, m.written, m.owner, m.text_sum FROM memories m JOIN notes n ON n.id = m.note_id ORDER BY 1",
		"SELECT path, reason FROM files ORDER BY path",
		"SELECT n.path, e.name, e.kind FROM entities e JOIN notes n ON n.id = e.note_id ORDER BY 1, 2, 3",
		"SELECT n.path, t.name, t.status, t.priority, t.assignee, t.created, t.started, t.finished, t.summary, t.milestone, t.events FROM tasks t JOIN notes n ON n.id = t.note_id ORDER BY 1",
		"SELECT n.path, l.name, l.trigger, l.action_bias, l.domain, l.strength, l.confidence, l.applications, l.last_applied, l.pinned, l.text, l.tags, l.terms, l.problems FROM lessons l JOIN notes n ON n.id = l.note_id ORDER BY 1",
		"SELECT n.path, e.seq, e.raw, e.key, e.target, e.resolved, e.heading, e.block, e.label, e.embed, e.frontmatter, e.markdown, e.line FROM edges e JOIN notes n ON n.id = e.source_id ORDER BY 1, 2",
		"SELECT n.path, c.seq, c.heading, c.blocks, c.line_start, c.line_end, c.text, c.tokens, c.shape, c.boiler FROM chunks c JOIN notes n ON n.id = c.note_id ORDER BY 1, 2",
		"SELECT n.path, c.seq, f.name, f.aliases, f.description, f.tags, f.heading, f.text, f.cjk FROM chunks_fts f JOIN chunks c ON c.id = f.rowid JOIN notes n ON n.id = c.note_id ORDER BY 1, 2",
		"SELECT count(*) FROM chunks_fts",
	} {
		if err := digestRows(ctx, ix.db, q, &b); err != nil {
			return "", fmt.Errorf("digest index: %w", err)
		}
	}
	return b.String(), nil
}

func digestRows(ctx context.Context, db *sql.DB, q string, b *strings.Builder) error {
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		fmt.Fprintln(b, vals...)
	}
	b.WriteString("--\n")
	return rows.Err()
}
