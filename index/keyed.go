package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path"
	"strings"
	"sync"

	"github.com/vaultmem/vaultmem/graph"
	"github.com/vaultmem/vaultmem/markdown"
)

// storedAt is what the index holds of the files at paths alone (see
// stored): what a Refresh of a few paths needs of the stored list when
// this process keeps none, without reading every row of the vault.
func storedAt(ctx context.Context, q querier, paths []string) (map[string]fileState, error) {
	m := make(map[string]fileState, len(paths))
	for _, p := range paths {
		var s fileState
		err := q.QueryRowContext(ctx, "SELECT id, size, mtime, hash FROM notes WHERE path = ?", p).Scan(&s.id, &s.size, &s.mtime, &s.hash)
		switch {
		case err == nil:
			s.note = true
			m[p] = s
			continue
		case !errors.Is(err, sql.ErrNoRows):
			return nil, fmt.Errorf("read index: %w", err)
		}
		err = q.QueryRowContext(ctx, "SELECT size, mtime FROM files WHERE path = ?", p).Scan(&s.size, &s.mtime)
		switch {
		case err == nil:
			m[p] = s
		case !errors.Is(err, sql.ErrNoRows):
			return nil, fmt.Errorf("read index: %w", err)
		}
	}
	return m, nil
}

// keyedResolver resolves links as a resolver over every file of the vault
// would, loading from the index only the files a link can name: those
// whose graph.FileKey is one of the keys the link's target gives (see
// graph.LinkKey). A sync of a few paths then resolves their links without
// building a resolver over the whole vault. It reads the index on a
// connection of its own, not the sync's transaction, which the goroutines
// that parse notes cannot share with the one that writes: in write-ahead
// logging that connection sees the index as it was before the sync (which
// holds the write lock, so no other writer commits meanwhile). The files
// this sync writes or removes are taken from present and removed instead.
// It is safe for concurrent use.
type keyedResolver struct {
	ctx     context.Context
	q       querier
	present map[string][]string // the files of this sync present now, by key
	removed map[string]bool     // the files this sync removes
	mu      sync.Mutex
	g       *graph.Resolver
	loaded  map[string]bool // the keys whose files g holds
	all     bool            // g holds every file
	others  []string        // the files table's paths, once read
	err     error           // the first failure to read the index
}

// newKeyedResolver returns the keyed resolver over the index's files in q
// (a pool, not the sync's transaction) as changed by a sync that finds
// the files todo present (size ≥ 0) and removes those at removed.
func newKeyedResolver(ctx context.Context, q querier, todo []seen, removed []string) *keyedResolver {
	r := &keyedResolver{ctx: ctx, q: q, present: map[string][]string{}, removed: map[string]bool{},
		g: graph.New(nil, nil), loaded: map[string]bool{}}
	for _, f := range todo {
		r.removed[f.path] = true // the index's row is stale: present says whether it is there
		if f.size >= 0 {
			k := graph.FileKey(f.path)
			r.present[k] = append(r.present[k], f.path)
		}
	}
	for _, p := range removed {
		r.removed[p] = true
	}
	return r
}

// resolve resolves link l from note source; a failure to read the index
// resolves nothing, and is kept for failed.
func (r *keyedResolver) resolve(source string, l markdown.Link) (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, k := range targetKeys(source, l.Target) {
		if err := r.load(k); err != nil {
			if r.err == nil {
				r.err = err
			}
			return "", false
		}
	}
	return r.g.Resolve(source, l)
}

// failed is the first failure to read the index, if any.
func (r *keyedResolver) failed() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// targetKeys are the file keys graph's resolution can look at for a link
// to target from source: the link's key, and those of the exact paths it
// tries (relative to the source's folder and to the vault's root, with and
// without ".md"). A superset does no harm.
func targetKeys(source, target string) []string {
	t := strings.TrimSpace(target)
	trimmed := strings.TrimPrefix(strings.TrimPrefix(t, "./"), "/")
	keys := []string{graph.LinkKey(t), graph.LinkKey(trimmed)}
	for _, p := range []string{path.Clean(t), path.Clean(trimmed), path.Join(path.Dir(source), t)} {
		keys = append(keys, graph.FileKey(p), graph.FileKey(p+markdown.Ext))
	}
	return keys
}

// load makes g hold every file with key k.
func (r *keyedResolver) load(k string) error {
	if r.all || r.loaded[k] {
		return nil
	}
	names, ok := nameForms(k)
	if !ok {
		// SQLite's lower() folds ASCII alone: a key it cannot look up
		// is found by reading every path once.
		return r.loadAll()
	}
	if r.others == nil {
		rows, err := r.q.QueryContext(r.ctx, "SELECT path FROM files")
		if err != nil {
			return fmt.Errorf("read index: %w", err)
		}
		if r.others, err = scanPaths(rows); err != nil {
			return fmt.Errorf("read index: %w", err)
		}
	}
	rows, err := r.q.QueryContext(r.ctx, "SELECT path FROM notes WHERE lower(name) IN (?"+strings.Repeat(", ?", len(names)-1)+")", names...)
	if err != nil {
		return fmt.Errorf("read index: %w", err)
	}
	notes, err := scanPaths(rows)
	if err != nil {
		return fmt.Errorf("read index: %w", err)
	}
	r.loaded[k] = true
	for _, p := range append(notes, r.others...) {
		if graph.FileKey(p) == k && !r.removed[p] {
			r.g.Add(p, false)
		}
	}
	for _, p := range r.present[k] {
		r.g.Add(p, false)
	}
	return nil
}

// loadAll makes g hold every file.
func (r *keyedResolver) loadAll() error {
	rows, err := r.q.QueryContext(r.ctx, "SELECT path FROM notes UNION ALL SELECT path FROM files")
	if err != nil {
		return fmt.Errorf("read index: %w", err)
	}
	paths, err := scanPaths(rows)
	if err != nil {
		return fmt.Errorf("read index: %w", err)
	}
	r.all = true
	for _, p := range paths {
		if !r.removed[p] {
			r.g.Add(p, false)
		}
	}
	for _, ps := range r.present {
		for _, p := range ps {
			r.g.Add(p, false)
		}
	}
	return nil
}

// kelvin is the one letter outside ASCII whose lower case (Go's, which
// graph.FileKey uses) is an ASCII letter that SQLite's lower() does not
// give it: a name with it has key "k…" but lower(name) "K…".
const kelvin = "\u212A"

// nameForms are the values of lower(name), SQLite's ASCII-only lower
// case, of the notes whose key is k: the name as the key spells it, or
// with a Kelvin sign for any "k" in it, each also with ".md" (a note whose
// extension is ".MD" keeps it in its name). ok is false when k is not
// ASCII, or has so many k's that a lookup by every form costs more than
// reading every path.
func nameForms(k string) (forms []any, ok bool) {
	for i := 0; i < len(k); i++ {
		if k[i] >= 0x80 {
			return nil, false
		}
	}
	if strings.Count(k, "k") > 3 {
		return nil, false
	}
	spellings := []string{""}
	for _, c := range k {
		var next []string
		for _, s := range spellings {
			next = append(next, s+string(c))
			if c == 'k' {
				next = append(next, s+kelvin)
			}
		}
		spellings = next
	}
	for _, s := range spellings {
		forms = append(forms, s, s+markdown.Ext)
	}
	return forms, true
}

// scanPaths reads the one path column of rows, and closes them.
func scanPaths(rows *sql.Rows) ([]string, error) {
	defer rows.Close()
	var out []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}
