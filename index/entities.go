package index

import (
	"context"
	"fmt"
	"strings"

	"github.com/vaultmem/vaultmem/markdown"
)

// personFields are the frontmatter keys whose values name the people a
// note is by or about.
var personFields = []string{"speakers", "speaker", "participants", "attendees", "authors", "author", "people", "person", "with", "members"}

// entityRows are the entities rows of n: each person its person fields
// name (a wikilink's target), lower-cased ("full"), and the first word of
// a name of several ("first").
func entityRows(n *markdown.Note) [][2]string {
	var out [][2]string
	seen := map[[2]string]bool{}
	add := func(name, kind string) {
		k := [2]string{name, kind}
		if name != "" && !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	for _, f := range personFields {
		for _, v := range n.Frontmatter.Strings(f) {
			v = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(v, "[["), "]]"))
			v, _, _ = strings.Cut(v, "|")
			name := strings.ToLower(strings.Join(strings.Fields(v), " "))
			add(name, "full")
			if first, _, ok := strings.Cut(name, " "); ok {
				add(first, "first")
			}
		}
	}
	return out
}

// EntityNotes returns, for each of names that some note's person fields
// name (case-insensitively), those notes: the ones naming the whole name
// when some do, else those where it is the first word of a name. Paths,
// by path; one query for all the names.
func (g *Graph) EntityNotes(ctx context.Context, names []string) (map[string][]string, error) {
	out := map[string][]string{}
	if len(names) == 0 {
		return out, nil
	}
	args := make([]any, len(names))
	for i, n := range names {
		args[i] = strings.ToLower(strings.Join(strings.Fields(n), " "))
	}
	rows, err := g.ix.db.QueryContext(ctx, `SELECT DISTINCT e.name, e.kind, n.path FROM entities e JOIN notes n ON n.id = e.note_id
		WHERE e.name IN (?`+strings.Repeat(", ?", len(names)-1)+`) ORDER BY e.name, e.kind DESC, n.path`, args...)
	if err != nil {
		return nil, fmt.Errorf("read the notes of %v: %w", names, err)
	}
	defer rows.Close()
	full := map[string]bool{}
	for rows.Next() {
		var name, kind, p string
		if err := rows.Scan(&name, &kind, &p); err != nil {
			return nil, err
		}
		switch {
		case kind == "full":
			full[name] = true
			out[name] = append(out[name], p)
		case !full[name]: // "first" sorts after "full": only when no whole name matched
			out[name] = append(out[name], p)
		}
	}
	return out, rows.Err()
}
