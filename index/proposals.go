package index

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/vault"
)

// SessionType is the frontmatter type of the session notes the agent
// hooks write (package session's Type).
const SessionType = "session"

// proposed reports whether note n is a proposal waiting to be accepted: a
// memory or a lesson, not archived, whose status is proposed.
func proposed(n *markdown.Note) bool {
	t := n.Type()
	return (memory.IsType(t) || t == lesson.Type) && vault.IsProposed(n) && !vault.IsArchived(n)
}

// Proposed returns the memories and lessons Dream proposed that wait to
// be accepted (status: proposed), by path: what MEMORY.md lists under
// "Needs review". (ORDER BY +path keeps SQLite on the partial index of the
// proposed notes: sorting by the path index would walk every note.)
func (k *Kinds) Proposed(ctx context.Context) ([]memory.Proposal, error) {
	rows, err := k.ix.db.QueryContext(ctx, `SELECT path, kind, title, frontmatter FROM notes WHERE proposed ORDER BY +path`)
	if err != nil {
		return nil, fmt.Errorf("list proposals in %s: %w", k.ix.path, err)
	}
	defer rows.Close()
	var out []memory.Proposal
	for rows.Next() {
		var p, kind, title, fm string
		if err := rows.Scan(&p, &kind, &title, &fm); err != nil {
			return nil, err
		}
		var front map[string]any
		_ = json.Unmarshal([]byte(fm), &front) // written by jsonString: an object, or {} for none
		out = append(out, memory.ProposalFrom(p, kind, title, front))
	}
	return out, rows.Err()
}

// SessionNote is a session note (type session) as the index holds it.
type SessionNote struct {
	Path string
	// Hash is the content hash of the note as indexed.
	Hash string
	// Ended says its frontmatter has ended (the session is over).
	Ended bool
}

// Sessions returns the session notes, by path.
func (k *Kinds) Sessions(ctx context.Context) ([]SessionNote, error) {
	rows, err := k.ix.db.QueryContext(ctx, `SELECT path, hash, coalesce(json_type(frontmatter, '$.ended'), 'null') NOT IN ('null')
		FROM notes WHERE kind = ? ORDER BY path`, SessionType)
	if err != nil {
		return nil, fmt.Errorf("list session notes in %s: %w", k.ix.path, err)
	}
	defer rows.Close()
	var out []SessionNote
	for rows.Next() {
		var s SessionNote
		if err := rows.Scan(&s.Path, &s.Hash, &s.Ended); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}
