package index

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/vaultmem/vaultmem/index/internal/rank"
)

// Around returns the chunks of the same note within n places of chunk
// (before and after it, in note order, without it): the context of a
// hit, such as the turns around a line of a conversation. Results have
// no snippets. Boilerplate (see boilerplate.go) is never among them, nor
// among Ends' and Openings'.
func (sr *Searcher) Around(ctx context.Context, chunk int64, n int) ([]Result, error) {
	out, err := sr.chunks(ctx, `SELECT c.id FROM chunks c JOIN chunks h ON h.note_id = c.note_id
		WHERE h.id = ? AND c.id != h.id AND NOT c.boiler AND c.seq BETWEEN h.seq - ? AND h.seq + ? ORDER BY c.seq`, chunk, n, n)
	if err != nil {
		return nil, fmt.Errorf("chunks around %d: %w", chunk, err)
	}
	return out, nil
}

// chunks loads the chunks whose ids query (constant SQL, see prepared)
// selects, in its order, without snippets.
func (sr *Searcher) chunks(ctx context.Context, query string, args ...any) ([]Result, error) {
	stmt, err := sr.ix.stmts.prepared(ctx, query)
	if err != nil {
		return nil, err
	}
	rows, err := stmt.QueryContext(ctx, args...)
	if err != nil {
		return nil, err
	}
	var ranked []rank.Scored
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, err
		}
		ranked = append(ranked, rank.Scored{ID: id})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return sr.results(ctx, ranked, Query{NoSnippets: true})
}

// Ends returns the earliest and the latest of the dated chunks of the
// note at path (a task's log events, by date, then place in the note),
// without snippets: the two ends of what it records, which a question
// asking how long something took wants together. One chunk when the note
// has one dated chunk, none when it has none.
func (sr *Searcher) Ends(ctx context.Context, path string) ([]Result, error) {
	out, err := sr.chunks(ctx, `SELECT id FROM (SELECT c.id FROM chunks c JOIN notes n ON n.id = c.note_id
			WHERE n.path = ?1 AND c.date != '' AND NOT c.boiler ORDER BY c.date, c.seq LIMIT 1)
		UNION
		SELECT id FROM (SELECT c.id FROM chunks c JOIN notes n ON n.id = c.note_id
			WHERE n.path = ?1 AND c.date != '' AND NOT c.boiler ORDER BY c.date DESC, c.seq DESC LIMIT 1)`, path)
	if err != nil {
		return nil, fmt.Errorf("dated ends of %s: %w", path, err)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Date != out[j].Date {
			return out[i].Date < out[j].Date
		}
		return out[i].Line < out[j].Line
	})
	return out, nil
}

// Openings returns the first n chunks of each note at paths (of those
// that are not boilerplate), a note's in note order, without snippets.
func (sr *Searcher) Openings(ctx context.Context, paths []string, n int) ([]Result, error) {
	if len(paths) == 0 || n <= 0 {
		return []Result{}, nil
	}
	list, err := json.Marshal(paths)
	if err != nil {
		return nil, fmt.Errorf("note openings: %w", err)
	}
	out, err := sr.chunks(ctx, `SELECT c.id FROM chunks c JOIN notes n ON n.id = c.note_id
		WHERE n.path IN (SELECT value FROM json_each(?)) AND c.seq < ? AND NOT c.boiler ORDER BY n.path, c.seq`, string(list), n)
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
