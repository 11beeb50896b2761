package index

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"

	"github.com/vaultmem/vaultmem/index/internal/lexicon"
	"github.com/vaultmem/vaultmem/index/internal/rank"
)

// residentLexicon is the in-memory keyword index of a long-running
// process (Options.Resident): a lexicon of the full-text rows, which
// ranks as FTS5 does in a fraction of the time (see lexicon.Lexicon).
//
// It reflects the cache at one files version. When a sync (of this
// process or another) changes the version, the next search catches up:
// the notes whose content hash changed, appeared or went have their
// chunks dropped and read again; a lexicon that changed too much, or
// holds too many dropped chunks, is loaded anew.
type residentLexicon struct {
	// mu guards the fields below: searches read the lexicon under a
	// read lock, a catch-up changes it under the write lock.
	mu      sync.RWMutex
	lex     *lexicon.Lexicon
	version string
	// hashes are the content hashes of the notes it holds, by note id:
	// what catchUp compares with the cache's.
	hashes map[int64]string
}

// lexiconSQL reads the full-text rows with their notes; the columns are
// chunks_fts's, in order, which are lexicon.Doc's.
const lexiconSQL = `SELECT f.rowid, c.note_id, f.name, f.aliases, f.description, f.tags, f.heading, f.text, f.cjk
	FROM chunks_fts f JOIN chunks c ON c.id = f.rowid`

// loadLexicon reads every full-text row.
func loadLexicon(ctx context.Context, q querier, version string) (*residentLexicon, error) {
	l := &residentLexicon{lex: lexicon.New(), version: version}
	hashes, err := noteHashes(ctx, q)
	if err != nil {
		return nil, err
	}
	l.hashes = hashes
	if err := addRows(ctx, q, l.lex, lexiconSQL); err != nil {
		return nil, err
	}
	l.lex.Clip()
	return l, nil
}

// noteHashes reads every note's content hash, by id.
func noteHashes(ctx context.Context, q querier) (map[int64]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, hash FROM notes`)
	if err != nil {
		return nil, fmt.Errorf("load keyword index: %w", err)
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var id int64
		var h string
		if err := rows.Scan(&id, &h); err != nil {
			return nil, err
		}
		out[id] = h
	}
	return out, rows.Err()
}

// catchUp brings l to version, reading q: the chunks of the notes whose
// hash changed, appeared or went are dropped and read again. It reports
// false, changing nothing, when more than a quarter of the notes changed:
// loading anew costs less then.
func (l *residentLexicon) catchUp(ctx context.Context, q querier, version string) (bool, error) {
	now, err := noteHashes(ctx, q)
	if err != nil {
		return false, err
	}
	changed := map[int64]bool{}
	for id, h := range now {
		if l.hashes[id] != h {
			changed[id] = true
		}
	}
	for id := range l.hashes {
		if _, ok := now[id]; !ok {
			changed[id] = true
		}
	}
	if len(changed) > len(now)/4 {
		return false, nil
	}
	if err := l.update(ctx, q, changed, version); err != nil {
		return false, err
	}
	l.mu.Lock()
	l.hashes = now
	l.mu.Unlock()
	return true, nil
}

// addRows reads the full-text rows query selects (with lexiconSQL's
// columns) into lex.
func addRows(ctx context.Context, q querier, lex *lexicon.Lexicon, query string, args ...any) error {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("load keyword index: %w", err)
	}
	defer rows.Close()
	var d lexicon.Doc
	ptrs := make([]any, 0, len(d.Columns)+2)
	ptrs = append(ptrs, &d.ID, &d.Note)
	for i := range d.Columns {
		ptrs = append(ptrs, &d.Columns[i])
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return fmt.Errorf("load keyword index: %w", err)
		}
		lex.Add(&d)
	}
	return rows.Err()
}

// update drops the chunks of the notes in changed and reads the ones they
// have now, as the cache is at version.
func (l *residentLexicon) update(ctx context.Context, q querier, changed map[int64]bool, version string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lex.Drop(changed)
	ids := make([]any, 0, len(changed))
	for id := range changed {
		ids = append(ids, id)
	}
	for len(ids) > 0 {
		batch := ids[:min(len(ids), 500)]
		ids = ids[len(batch):]
		if err := addRows(ctx, q, l.lex, lexiconSQL+` WHERE c.note_id IN (?`+strings.Repeat(", ?", len(batch)-1)+`)`, batch...); err != nil {
			return err
		}
	}
	l.version = version
	return nil
}

// stale reports whether the lexicon holds so many dropped chunks that
// loading it again is better (see lexicon.Lexicon.Stale).
func (l *residentLexicon) stale() bool {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.lex.Stale()
}

func (l *residentLexicon) current(version string) bool {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.version == version
}

func (l *residentLexicon) rows(context.Context) (int, error) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.lex.Rows(), nil
}

func (l *residentLexicon) hits(_ context.Context, term string, _ int) (int, error) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.lex.Hits(term), nil
}

// rank scores as FTS5's bm25() with the same column weights does (see
// lexicon.Lexicon.Rank).
func (l *residentLexicon) rank(_ context.Context, q keywordQuery, all bool, limit int, f rank.Filter) ([]rank.Scored, error) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.lex.Rank(q.terms, q.cjk, all, limit, f), nil
}

// lexicon returns the in-memory keyword index at the cache's current
// files version, loading it on first use and catching up when a sync
// changed the cache since; nil when the index keeps none.
func (sr *Searcher) lexicon(ctx context.Context) (*residentLexicon, error) {
	if !sr.ix.opts.Resident {
		return nil, nil
	}
	version, err := sr.ix.meta(ctx, sr.ix.db, metaFilesVersion)
	if err != nil {
		return nil, err
	}
	sr.ix.mu.Lock()
	l := sr.ix.lex
	sr.ix.mu.Unlock()
	if l != nil && l.current(version) {
		return l, nil
	}
	sr.ix.lexLoad.Lock()
	defer sr.ix.lexLoad.Unlock()
	tx, err := sr.ix.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("load keyword index: %w", err)
	}
	defer tx.Rollback()
	// The version inside the transaction names the rows read there.
	if version, err = sr.ix.meta(ctx, tx, metaFilesVersion); err != nil {
		return nil, err
	}
	sr.ix.mu.Lock()
	l = sr.ix.lex
	sr.ix.mu.Unlock()
	if l != nil && l.current(version) {
		return l, nil // another goroutine caught up meanwhile
	}
	if l != nil && !l.stale() {
		if ok, err := l.catchUp(ctx, tx, version); err != nil || ok {
			return l, err
		}
	}
	if l, err = loadLexicon(ctx, tx, version); err != nil {
		return nil, err
	}
	sr.ix.mu.Lock()
	sr.ix.lex = l
	sr.ix.mu.Unlock()
	return l, nil
}

// Warm loads what searches would load on first use: the vectors and, for
// a resident index, the lexicon. A server calls it at start, so that its
// first query does not wait.
func (sr *Searcher) Warm(ctx context.Context) error {
	if _, err := sr.lexicon(ctx); err != nil {
		return err
	}
	if sr.ix.opts.NoVectors {
		return nil
	}
	if _, err := sr.queryEmbedder(ctx, ""); err != nil {
		return err
	}
	_, err := sr.ix.vstore.vectors(ctx)
	return err
}
