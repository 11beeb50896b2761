package index

import (
	"context"
	"fmt"
)

// MergedAway is an archived note whose frontmatter merged_into names the
// note it was merged into ("[[winner]]", as written), and that other notes
// still link to.
type MergedAway struct {
	Path string
	Into string
}

// LinkedMergedAway returns the archived notes with a merged_into key that
// other notes still link to (resolved links), by path: the links a merge
// left behind (a run interrupted before it pointed them at the winner, a
// note that changed while it ran), which Dream points at the winner.
func (g *Graph) LinkedMergedAway(ctx context.Context) ([]MergedAway, error) {
	rows, err := g.ix.db.QueryContext(ctx, `SELECT n.path, json_extract(n.frontmatter, '$.merged_into') FROM notes n
		WHERE n.archived AND json_type(n.frontmatter, '$.merged_into') = 'text'
			AND EXISTS (SELECT 1 FROM edges e WHERE e.target = n.path AND e.resolved AND e.source_id != n.id)
		ORDER BY +n.path`) // +: on the partial index of the archived notes, not a walk of all by path
	if err != nil {
		return nil, fmt.Errorf("list merged-away notes in %s: %w", g.ix.path, err)
	}
	defer rows.Close()
	var out []MergedAway
	for rows.Next() {
		var m MergedAway
		if err := rows.Scan(&m.Path, &m.Into); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}
