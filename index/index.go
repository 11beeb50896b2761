package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Embedder turns texts into vectors for semantic search.
type Embedder interface {
	// ID names the model and its parameters; a cache made with another ID
	// is re-embedded.
	ID() string
	// Dimensions is the length of every vector.
	Dimensions() int
	// Embed returns one L2-normalised vector per text.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// Options configure an Index. The zero value works: notes up to 10 MiB,
// chunks of at most 512 tokens, and the default LSA embedder fitted on the
// vault's own text.
type Options struct {
	// Embedder is used for vectors; nil means LSA fitted on the vault (see
	// package embed), refitted when the vault's vocabulary drifts.
	Embedder Embedder
	// NoVectors turns embeddings off: keyword search only.
	NoVectors bool
	// MaxNoteSize is the largest markdown file read as a note; 0 means
	// vault.DefaultMaxNoteSize.
	MaxNoteSize int64
	// ChunkTokens is the most tokens in one chunk; 0 means 512.
	ChunkTokens int
	// Resident is for long-running processes (a server, a watcher): keyword
	// search then ranks from a copy of the full-text index kept in memory,
	// loaded on the first search; after a sync (of any process) the next
	// search catches it up with the notes whose hash changed, about 11 ms
	// for 10,000 notes. Rankings are the same and a keyword search costs
	// no SQL, but the first one (or Warm) loads every chunk's terms: about
	// 0.7 s and 50 MB of memory for 10,000 notes.
	Resident bool
}

func (o Options) chunkTokens() int {
	if o.ChunkTokens > 0 {
		return o.ChunkTokens
	}
	return 512
}

// Index is an open sidecar cache. It is safe for concurrent use; several
// processes may open the same cache (readers never block, writers wait
// for each other).
type Index struct {
	db   *sql.DB
	path string
	opts Options

	// mu guards the in-memory caches below, which a long-running process
	// keeps between calls.
	mu  sync.Mutex
	vec *vectorSet // all vectors, loaded on first vector search
	lsa *lsaState  // the fitted default embedder, when Options.Embedder is nil
	// files is the stored file list at version filesGen (see cacheFiles).
	files    map[string]fileState
	filesGen string
	// lex is the in-memory keyword index (Options.Resident); lexLoad
	// lets one goroutine at a time load or update it.
	lex     *lexicon
	lexLoad sync.Mutex
	// loadResults is resultsSQL, prepared on first use.
	loadResults *sql.Stmt

	rebuiltBecause string
}

// DBFile is the cache's file name inside the cache folder.
const DBFile = "index.db"

// Open opens the cache in dir (created if needed), rebuilding it empty
// when it is corrupt, half-written by an older version, or made with
// another schema: the notes are the truth and the next Sync refills it.
func Open(ctx context.Context, dir string, opts Options) (*Index, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("open index: %w", err)
	}
	p := filepath.Join(dir, DBFile)
	ix, err := open(ctx, p, opts)
	if err == nil {
		return ix, nil
	}
	// Any failure to open or validate means the cache cannot be trusted.
	if rmErr := removeDB(p); rmErr != nil {
		return nil, fmt.Errorf("open index %s: %v; and removing it failed: %w", p, err, rmErr)
	}
	ix, err2 := open(ctx, p, opts)
	if err2 != nil {
		return nil, fmt.Errorf("open index %s: %w", p, err2)
	}
	ix.rebuiltBecause = err.Error()
	return ix, nil
}

func open(ctx context.Context, p string, opts Options) (*Index, error) {
	q := url.Values{}
	for _, pragma := range []string{"busy_timeout(15000)", "journal_mode(WAL)", "synchronous(NORMAL)", "foreign_keys(ON)", "cache_size(-65536)", "temp_store(MEMORY)"} {
		q.Add("_pragma", pragma)
	}
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+p+"?"+q.Encode())
	if err != nil {
		return nil, err
	}
	ix := &Index{db: db, path: p, opts: opts}
	if err := ix.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return ix, nil
}

// migrate creates the schema in a new cache, or checks an existing one.
func (ix *Index) migrate(ctx context.Context) error {
	var version int
	if err := ix.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	switch version {
	case schemaVersion:
		var n int
		if err := ix.db.QueryRowContext(ctx, "SELECT count(*) FROM meta").Scan(&n); err != nil {
			return fmt.Errorf("check cache: %w", err)
		}
		return nil
	case 0:
		tx, err := ix.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		var tables int
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master").Scan(&tables); err != nil {
			return err
		}
		if tables > 0 {
			return errors.New("cache has tables but no schema version")
		}
		if _, err := tx.ExecContext(ctx, schema); err != nil {
			return fmt.Errorf("create schema: %w", err)
		}
		if _, err := tx.ExecContext(ctx, "PRAGMA user_version = "+strconv.Itoa(schemaVersion)); err != nil {
			return err
		}
		return tx.Commit()
	}
	return fmt.Errorf("cache schema version %d, want %d", version, schemaVersion)
}

// removeDB deletes a cache file with its WAL and shared-memory files.
func removeDB(p string) error {
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		if err := os.Remove(p + suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}

// Remove deletes the cache in dir (the next Open starts an empty one).
func Remove(dir string) error {
	if err := removeDB(filepath.Join(dir, DBFile)); err != nil {
		return fmt.Errorf("remove index: %w", err)
	}
	if err := os.Remove(filepath.Join(dir, packFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove index: %w", err)
	}
	return nil
}

// Close closes the database.
func (ix *Index) Close() error {
	ix.mu.Lock()
	if ix.loadResults != nil {
		ix.loadResults.Close()
	}
	ix.mu.Unlock()
	return ix.db.Close()
}

// Path returns the database file's path.
func (ix *Index) Path() string { return ix.path }

// RebuiltBecause says why Open threw away the previous cache ("" when it
// did not).
func (ix *Index) RebuiltBecause() string { return ix.rebuiltBecause }

// IsCorrupt reports whether err says the database file is damaged; the
// caller should Rebuild.
func IsCorrupt(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
			return true
		}
	}
	return false
}

func (ix *Index) meta(ctx context.Context, q querier, key string) (string, error) {
	var v string
	err := q.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = ?", key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return v, err
}

func setMeta(ctx context.Context, tx *sql.Tx, key, value string) error {
	_, err := tx.ExecContext(ctx, "INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", key, value)
	return err
}

// querier is what *sql.DB and *sql.Tx share.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}
