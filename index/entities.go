package index

import (
	"context"
	"fmt"
	"strings"

	"github.com/vaultmem/vaultmem/vault"
)

// personFields are the frontmatter keys whose values name the people a
// note is by or about.
var personFields = []string{"speakers", "speaker", "participants", "attendees", "authors", "author", "people", "person", "with", "members"}

// entityRows are the entities rows of n: each person its person fields
// name (a wikilink's target), lower-cased ("full"), and the first word of
// a name of several ("first").
func entityRows(n *vault.Note) [][2]string {
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

// EntityNotes returns the notes whose person fields name name
// (case-insensitively): those naming the whole name when some do, else
// those where it is the first word of a name. Paths, by path.
func (ix *Index) EntityNotes(ctx context.Context, name string) ([]string, error) {
	name = strings.ToLower(strings.Join(strings.Fields(name), " "))
	for _, kind := range []string{"full", "first"} {
		paths, err := ix.paths(ctx, `SELECT DISTINCT n.path FROM entities e JOIN notes n ON n.id = e.note_id
			WHERE e.name = ? AND e.kind = ? ORDER BY n.path`, name, kind)
		if err != nil {
			return nil, fmt.Errorf("read the notes of %q: %w", name, err)
		}
		if len(paths) > 0 {
			return paths, nil
		}
	}
	return []string{}, nil
}
