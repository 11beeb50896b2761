package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gofrs/flock"
	"github.com/vaultmem/vaultmem/index/internal/vectors"
	"github.com/vaultmem/vaultmem/vault"

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
	// MemoryFolder is the vault's memory folder: Memories lists the notes
	// of a memory type in it only (see memory.InFolder); "" means
	// "memory".
	MemoryFolder string
	// Resident is for long-running processes (a server, a watcher): keyword
	// search then ranks from a copy of the full-text index kept in memory,
	// loaded on the first search; after a sync (of any process) the next
	// search catches it up with the notes whose hash changed, about 11 ms
	// for 10,000 notes. Rankings are the same and a keyword search costs
	// no SQL, but the first one (or Warm) loads every chunk's terms: about
	// 0.7 s and 50 MB of memory for 10,000 notes.
	Resident bool
	// HeavyWork, if set, is called when the index starts work that holds a
	// large heap for a short while (a cold sync: the chunks waiting for the
	// writer, the embedder's counts and vectors; writing the vector pack
	// from every vector), and the function it returns when that work ends.
	// The index changes no runtime setting itself: a binary may bound its
	// heap meanwhile (cmd/vaultmem does). Calls may overlap.
	HeavyWork func() (done func())
}

// heavyWork calls HeavyWork, when it is set.
func (o Options) heavyWork() (done func()) {
	if o.HeavyWork == nil {
		return func() {}
	}
	return o.HeavyWork()
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
	vec *vectors.Set // all vectors, loaded on first vector search
	// unmaps unmaps the vector packs mapped (see readPack), at Close.
	unmaps []func() error
	lsa    *lsaState // the fitted default embedder, when Options.Embedder is nil
	// files is the stored file list a sync left (see fileCache).
	files *fileCache
	// lex is the in-memory keyword index (Options.Resident); lexLoad
	// lets one goroutine at a time load or update it.
	lex     *residentLexicon
	lexLoad sync.Mutex
	// stmts are the statements of constant SQL prepared so far.
	stmts *statements
	// hide is what queries hide, kept while the files do not change.
	hide *hiddenNotes

	rebuiltBecause string
	// readOnly says why the cache could not be written ("" when it can);
	// memory is set for an in-memory index, which pin keeps alive.
	readOnly string
	memory   bool
	pin      *sql.Conn

	// The parts over the database (see seams.go), made by newIndex.
	graph    *Graph
	searcher *Searcher
	kinds    *Kinds
	cache    *Cache
	vstore   *vectorStore
}

// DBFile is the cache's file name inside the cache folder.
const DBFile = "index.db"

// Open opens the cache in dir (created if needed). A cache proven unusable
// (it is not a SQLite database, fails as corrupt, or was made with another
// schema or half-written by an older version) is rebuilt empty, and
// [Index.RebuiltBecause] says why: the notes are the truth and the next
// Sync refills it. Any other failure (a full disk, an I/O error, a cache
// locked too long by another process) is returned, naming the file, and
// the cache is left as it is: it is never deleted for a fault that is not
// its own.
//
// When the cache cannot be written (a read-only vault: a mounted backup, a
// read-only share), Open opens it read-only, and [Index.ReadOnly] says why:
// searches answer from it as it is, and Sync only measures how stale it
// is. When there is no readable cache either, the index is kept in memory
// ([Index.InMemory]): Sync fills it, and it is gone at Close.
func Open(ctx context.Context, dir string, opts Options) (*Index, error) {
	p := filepath.Join(dir, DBFile)
	// SQLite opens by path and follows symbolic links: in a shared vault
	// one put in the cache's place would have the cache written, or a
	// rebuild delete files, wherever it leads. The caller checked the
	// folders above dir (vault.Vault.CheckLinks); dir and its files are
	// checked here, before anything is made, opened or removed.
	if err := vault.CheckNotLink(dir); err != nil {
		return nil, fmt.Errorf("open index: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		if isReadOnly(err) {
			return openFallback(ctx, p, opts, err)
		}
		return nil, fmt.Errorf("open index: %w", err)
	}
	if err := checkFiles(p); err != nil {
		return nil, fmt.Errorf("open index: %w", err)
	}
	if err := probeWritable(dir, p); err != nil {
		if !isReadOnly(err) && !isFull(err) {
			return nil, fmt.Errorf("open index %s: %w", dir, err)
		}
		return openFallback(ctx, p, opts, err)
	}
	// Opening checks the schema under a shared lock, which a rebuild takes
	// exclusively: no process reads a cache another is deleting. (Where
	// the file system has no locks, opening goes on without.)
	lock := vault.NewLockAt(p + ".lock")
	if err := waitLock(ctx, lock, false); err != nil {
		return nil, fmt.Errorf("open index %s: %w", p, err)
	}
	ix, err := open(ctx, p, opts, readWrite)
	lock.Unlock() // before a rebuild locks it exclusively
	if err == nil {
		return ix, nil
	}
	if isReadOnly(err) || isFull(err) {
		return openFallback(ctx, p, opts, err)
	}
	if !unusable(err) {
		return nil, fmt.Errorf("open index %s: %w", p, err)
	}
	return rebuild(ctx, p, opts, err)
}

// waitLock takes the cache's lock, shared or exclusive, waiting no longer
// than vault.DefaultLockTimeout or ctx allows: a process that holds it and
// is stopped (Ctrl-Z) never makes Open hang. It returns ctx's error, or a
// *vault.LockError naming the holder. Where the file system has no locks
// (an error taking it), the cache is opened without.
func waitLock(ctx context.Context, lock *flock.Flock, exclusive bool) error {
	start := time.Now()
	lctx, cancel := context.WithTimeout(ctx, vault.DefaultLockTimeout)
	defer cancel()
	take := lock.TryRLockContext
	if exclusive {
		take = lock.TryLockContext
	}
	ok, err := take(lctx, 20*time.Millisecond)
	switch {
	case ok:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case err != nil && !errors.Is(err, context.DeadlineExceeded):
		return nil // no locks here
	}
	pid, user := vault.LockHolder(lock.Path())
	return &vault.LockError{Path: lock.Path(), PID: pid, User: user, Waited: time.Since(start)}
}

// rebuild replaces the unusable cache at p (why says how it is unusable)
// with an empty one. Processes that find it unusable at once take turns:
// the first rebuilds it, the others open what the first made.
func rebuild(ctx context.Context, p string, opts Options, why error) (*Index, error) {
	lock := vault.NewLockAt(p + ".lock")
	if err := waitLock(ctx, lock, true); err != nil {
		return nil, fmt.Errorf("open index %s: %v; waiting to rebuild it: %w", p, why, err)
	}
	defer lock.Unlock()
	if ix, err := open(ctx, p, opts, readWrite); err == nil {
		return ix, nil // rebuilt by another process meanwhile
	} else if !unusable(err) {
		return nil, fmt.Errorf("open index %s: %w", p, err)
	}
	if err := removeDB(p); err != nil {
		return nil, fmt.Errorf("open index %s: %v; and removing it failed: %w", p, why, err)
	}
	ix, err := open(ctx, p, opts, readWrite)
	if err != nil {
		return nil, fmt.Errorf("open index %s: %w", p, err)
	}
	ix.rebuiltBecause = why.Error()
	return ix, nil
}

// openFallback opens the cache at p read-only, or an in-memory index when
// it cannot be read; why is what stopped a writable open.
func openFallback(ctx context.Context, p string, opts Options, why error) (*Index, error) {
	reason := fmt.Sprintf("%s cannot be written: %v", filepath.Dir(p), why)
	if isFull(why) {
		reason = fmt.Sprintf("%s cannot be written: the disk is full (%v)", filepath.Dir(p), why)
	}
	if _, err := os.Stat(p); err == nil {
		// With its write-ahead log when it can, else the file as it is.
		for _, mode := range []accessMode{readOnly, immutable} {
			if ix, err := open(ctx, p, opts, mode); err == nil {
				ix.readOnly = reason
				return ix, nil
			}
		}
	}
	ix, err := open(ctx, memoryName(), opts, inMemory)
	if err != nil {
		return nil, fmt.Errorf("open index in memory: %w", err)
	}
	ix.readOnly = reason
	return ix, nil
}

// memoryDBs numbers the in-memory caches of this process.
var memoryDBs atomic.Int64

// memoryName names a new in-memory database.
func memoryName() string {
	return fmt.Sprintf("vaultmem-memory-%d-%d", os.Getpid(), memoryDBs.Add(1))
}

// accessMode is how open opens a cache.
type accessMode int

const (
	readWrite accessMode = iota
	readOnly             // never written; with its write-ahead log
	immutable            // never written; the main file alone, as it is
	inMemory             // a private database in memory
)

// cacheSize is the page cache of a connection, as SQLite's cache_size
// takes it (negative: KiB): see open.
func (o Options) cacheSize() int {
	if o.Resident {
		return -2048
	}
	return -16384
}

// largeSyncCache is the page cache (KiB, negative as cache_size takes
// it) of the connection writing a sync that reads many notes into a
// filled index (the first sync after a pull of a day's work): the notes'
// rows are spread over the whole file, and with the usual 16 MB the
// sync re-read and spilled pages for most of its time (measured on a
// 615 MB index, a day of 49 teammates: 21.4 s with 16 MB, 13.9 s with
// 128 MB; peak RSS 277 and 482 MB). It is given back when the sync ends.
const largeSyncCache = -131072

// largeSync is how many notes to read make a sync large (see
// largeSyncCache).
const largeSync = 1000

func open(ctx context.Context, p string, opts Options, mode accessMode) (*Index, error) {
	q := url.Values{}
	// 16 MB of page cache: a cold index of 13,400 notes takes as long
	// with it as with 64 MB, and peaks 100-170 MB lower; a resident index
	// (a long-running process) keeps what its queries need in Go memory,
	// and each pooled connection would hold a cache of its own.
	cache := "cache_size(" + strconv.Itoa(opts.cacheSize()) + ")"
	pragmas := []string{"busy_timeout(15000)", "foreign_keys(ON)", cache, "temp_store(MEMORY)"}
	switch mode {
	case readWrite:
		pragmas = append(pragmas, "journal_mode(WAL)", "synchronous(NORMAL)")
	case readOnly, immutable:
		q.Set("mode", "ro")
		// A cache on a read-only or full disk may have no -shm file and
		// cannot make one; immutable tells SQLite to read the main file
		// alone, looking for no other writer. Without a write-ahead log
		// (the usual state after a clean close) that is the whole cache.
		if _, err := os.Stat(p + "-wal"); mode == immutable || err != nil {
			q.Set("immutable", "1")
		}
		pragmas = append(pragmas, "query_only(1)")
	case inMemory:
		q.Set("mode", "memory")
		q.Set("cache", "shared")
	}
	for _, pragma := range pragmas {
		q.Add("_pragma", pragma)
	}
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+p+"?"+q.Encode())
	if err != nil {
		return nil, err
	}
	ix := newIndex(db, p, opts, mode == inMemory)
	if mode == inMemory {
		// The database lives while one connection to it does.
		if ix.pin, err = db.Conn(ctx); err != nil {
			db.Close()
			return nil, err
		}
	}
	err = ix.migrate(ctx, mode == readWrite || mode == inMemory)
	// A connection's first statement can meet another process turning a
	// new cache to write-ahead logging, which SQLite reports as busy at
	// once, without waiting: wait a little and try again.
	for try := 0; isBusy(err) && try < busyRetries; try++ {
		select {
		case <-ctx.Done():
		case <-time.After(busyPause):
		}
		err = ix.migrate(ctx, mode == readWrite || mode == inMemory)
	}
	if err != nil {
		ix.Close()
		return nil, err
	}
	return ix, nil
}

// How often and how long opening a cache waits when SQLite says it is
// busy without waiting itself (see open).
const (
	busyRetries = 50
	busyPause   = 100 * time.Millisecond
)

// isBusy reports whether err is SQLite's "database is locked".
func isBusy(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_BUSY
}

// errSchema marks a cache made with another schema.
var errSchema = errors.New("cache schema")

// migrate creates the schema in a new cache (when it may write), or checks
// an existing one.
func (ix *Index) migrate(ctx context.Context, write bool) error {
	var version int
	if err := ix.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	switch {
	case version == schemaVersion:
		var n int
		if err := ix.db.QueryRowContext(ctx, "SELECT count(*) FROM meta").Scan(&n); err != nil {
			return fmt.Errorf("check cache: %w", err)
		}
		return nil
	case version == 0 && write:
		tx, err := ix.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		// Another process may have made the cache while this one waited for
		// the write lock: a cache it finished is this one's to use.
		if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
			return fmt.Errorf("read schema version: %w", err)
		}
		if version == schemaVersion {
			return nil
		}
		var tables int
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master").Scan(&tables); err != nil {
			return err
		}
		if version != 0 {
			return fmt.Errorf("%w version %d, want %d", errSchema, version, schemaVersion)
		}
		if tables > 0 {
			return fmt.Errorf("%w: the cache has tables but no schema version", errSchema)
		}
		if _, err := tx.ExecContext(ctx, schema); err != nil {
			return fmt.Errorf("create schema: %w", err)
		}
		if _, err := tx.ExecContext(ctx, "PRAGMA user_version = "+strconv.Itoa(schemaVersion)); err != nil {
			return err
		}
		return tx.Commit()
	}
	return fmt.Errorf("%w version %d, want %d", errSchema, version, schemaVersion)
}

// unusable reports whether an error opening a cache proves the cache
// itself is bad (so that rebuilding it is right), as opposed to the disk
// or another process failing us.
func unusable(err error) bool {
	return errors.Is(err, errSchema) || IsCorrupt(err)
}

// isReadOnly reports whether err says the cache's disk or file may not be
// written.
func isReadOnly(err error) bool {
	if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) {
		return true
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM, sqlite3.SQLITE_CANTOPEN:
			return true
		}
	}
	return false
}

// isFull reports whether err says the cache's disk is full (or cannot
// grow the shared memory that writing needs): the cache can still be read.
func isFull(err error) bool {
	if errors.Is(err, syscall.ENOSPC) {
		return true
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() {
		case sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR_SHMOPEN, sqlite3.SQLITE_IOERR_SHMSIZE, sqlite3.SQLITE_IOERR_SHMMAP:
			return true
		}
	}
	return false
}

// probeWritable checks that a file can be made in dir and that the cache
// file p, if there is one, can be opened for writing. SQLite opens a file it
// may not write read-only without a word, and fails only at the first
// write; this finds out before.
func probeWritable(dir, p string) error {
	f, err := os.CreateTemp(dir, ".probe-*")
	if err != nil {
		return err
	}
	f.Close()
	os.Remove(f.Name())
	if db, err := os.OpenFile(p, os.O_RDWR, 0); err == nil {
		db.Close()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// checkFiles checks that the cache folder of the cache file p and the
// files the index keeps there (the database, its write-ahead log,
// shared memory, journal and lock, the vector pack, the LSA model) are no
// symbolic links.
func checkFiles(p string) error {
	dir := filepath.Dir(p)
	return vault.CheckNotLink(dir, p, p+"-wal", p+"-shm", p+"-journal", p+".lock",
		filepath.Join(dir, packFile), filepath.Join(dir, lsaFile))
}

// removeDB deletes a cache file with its WAL and shared-memory files,
// refusing when any of them, or its folder, is a symbolic link.
func removeDB(p string) error {
	if err := checkFiles(p); err != nil {
		return err
	}
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

// Close closes the database (an in-memory one is gone) and unmaps the
// vector packs it mapped: no search may run during or after it.
func (ix *Index) Close() error {
	ix.mu.Lock()
	ix.stmts.close()
	ix.vec = nil
	for _, unmap := range ix.unmaps {
		unmap()
	}
	ix.unmaps = nil
	ix.mu.Unlock()
	if ix.pin != nil {
		ix.pin.Close()
	}
	return ix.db.Close()
}

// ReadOnly says why the cache could not be opened for writing; "" when it
// was. A read-only index serves the cache as it is (see [Index.Sync]),
// unless it is [Index.InMemory].
func (ix *Index) ReadOnly() string { return ix.readOnly }

// InMemory reports whether the index is kept in memory, because no cache
// could be written or read: Sync fills it, and Close drops it.
func (ix *Index) InMemory() bool { return ix.memory }

// writable reports whether Sync may change the index.
func (ix *Index) writable() bool { return ix.readOnly == "" || ix.memory }

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
	const query = "SELECT value FROM meta WHERE key = ?"
	var v string
	var err error
	if q == querier(ix.db) { // not in a transaction: the statement prepared once
		var stmt *sql.Stmt
		if stmt, err = ix.stmts.prepared(ctx, query); err != nil {
			return "", err
		}
		err = stmt.QueryRowContext(ctx, key).Scan(&v)
	} else {
		err = q.QueryRowContext(ctx, query, key).Scan(&v)
	}
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
