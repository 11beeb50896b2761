package index

import (
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/vaultmem/vaultmem/graph"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/vault"
)

// Stats is what a Sync did and what the index holds after it.
type Stats struct {
	// Notes and Chunks are the totals in the index after the sync.
	Notes  int `json:"notes"`
	Chunks int `json:"chunks"`
	// Parsed counts notes read and parsed because they changed; Removed
	// notes and files deleted from the vault since the last sync.
	Parsed  int `json:"parsed"`
	Removed int `json:"removed"`
	// Embedded counts chunks given vectors.
	Embedded int `json:"embedded"`
	// Skipped lists files that could not be indexed, with the reason.
	Skipped []Skip `json:"skipped"`
	// Warnings lists problems in notes that were still indexed (frontmatter
	// that does not parse, for example), with file and line.
	Warnings []Skip `json:"warnings"`
	// Read lists the files whose findings in Skipped and Warnings are
	// this sync's news: the notes it parsed because they were new or had
	// changed, and the files it found it could not index that the index
	// did not hold as unreadable for that reason already. The other
	// findings are an earlier sync's, kept by the index (or, for a file
	// the walk could not reach, found again by every walk).
	Read []string `json:"-"`
	// EmbedError says why vectors could not be made (the index still
	// serves keyword search); "" when all is well.
	EmbedError string `json:"embed_error,omitempty"`
	// ReadOnly says why the cache could not be updated (see
	// [Index.ReadOnly]); Stale then counts the files that changed, appeared
	// or went since it was made, which searches do not see.
	ReadOnly string `json:"read_only,omitempty"`
	Stale    int    `json:"stale,omitempty"`
	// Duration is how long the sync took.
	Duration time.Duration `json:"-"`
}

// Skip names a file and what is wrong with it.
type Skip struct {
	Path  string `json:"path"`
	Error string `json:"error"`
}

// Progress receives how many of the changed files have been processed.
// It is called from the syncing goroutine.
type Progress func(done, total int)

// racyWindow is how recent a modification time must be for Sync not to
// trust it: a file changed twice within the file system's timestamp
// resolution could keep its size and time. Such files are hashed again on
// the next sync, as git does with racily clean entries. A time with a
// fraction of a second comes from a file system that keeps them (ext4,
// APFS, NTFS, ...), whose resolution is the kernel clock's tick: a few
// milliseconds, so fineRacyWindow is plenty; a whole second may come from
// one that keeps seconds (FAT keeps two), hence racyWindow.
const (
	racyWindow     = 2 * time.Second
	fineRacyWindow = 100 * time.Millisecond
)

// Racy reports whether a file modified at mtime (Unix nanoseconds) is too
// recent at now for its size and time to tell that it did not change: a
// write in the same tick of the file system's clock would leave both as
// they are. The rule every look at a file's time by vaultmem shares.
func Racy(mtime int64, now time.Time) bool {
	w := racyWindow
	if mtime%int64(time.Second) != 0 {
		w = fineRacyWindow
	}
	return now.Sub(time.Unix(0, mtime)) < w
}

// fileState is what the index last saw of a file.
type fileState struct {
	id          int64
	size, mtime int64
	hash        string
	note        bool
}

// seen is a file found by the walk.
type seen struct {
	path        string
	size, mtime int64
	note        bool
}

// Sync brings the index up to date with the vault in fsys: it re-parses
// only the notes whose size or modification time changed and whose content
// hash changed, drops deleted ones, keeps link resolution right (a new note
// resolves others' dangling links, a deleted one un-resolves them), and
// embeds chunks that have no vector yet. Files that cannot be indexed are
// listed in Stats.Skipped and never stop it. It fails only when the vault
// cannot be walked, the cache cannot be written, or ctx ends (then its
// error is ctx's, and nothing of the sync is kept). Notes are written in
// path order, so the same files give the same index whatever order the
// parsing workers finish in.
//
// On a read-only cache (see [Index.ReadOnly]) Sync writes nothing: it
// counts in Stats.Stale the files the cache does not show as they are.
func (ix *Index) Sync(ctx context.Context, fsys fs.FS, progress Progress) (Stats, error) {
	return ix.sync(ctx, fsys, progress, true)
}

// SyncWithoutVectors is Sync but for the vectors: the new chunks wait for
// theirs until the next Sync. It is for commands that answer without a
// vector search (showing a note, its links, tasks), which then need not
// load the embedder.
func (ix *Index) SyncWithoutVectors(ctx context.Context, fsys fs.FS, progress Progress) (Stats, error) {
	return ix.sync(ctx, fsys, progress, false)
}

func (ix *Index) sync(ctx context.Context, fsys fs.FS, progress Progress, vectors bool) (st Stats, err error) {
	defer func() {
		switch {
		case err == nil:
		case ctx.Err() != nil: // whatever failed, it failed because ctx ended
			err = ctx.Err()
		default:
			err = fmt.Errorf("index %s: %w", ix.path, err)
		}
	}()
	start := time.Now()
	st = Stats{Skipped: []Skip{}, Warnings: []Skip{}}
	files, walkSkips, err := walk(ctx, fsys)
	if err != nil {
		return st, err
	}
	if !ix.writable() {
		st.ReadOnly = ix.readOnly
		st.Stale, err = ix.stale(ctx, files)
	} else {
		err = ix.update(ctx, fsys, files, start, progress, vectors, &st)
	}
	if err != nil {
		return st, err
	}
	st.Skipped = append(st.Skipped, walkSkips...)
	if err := ix.totals(ctx, &st); err != nil {
		return st, err
	}
	st.Duration = time.Since(start)
	return st, nil
}

// update writes to the index what changed among files since the last
// sync, and with vectors set embeds what has no vector yet.
func (ix *Index) update(ctx context.Context, fsys fs.FS, files []seen, start time.Time, progress Progress, vectors bool, st *Stats) error {
	// A vault whose every file has the size and time it had at the last
	// sync needs no look at the stored notes.
	sig := walkSignature(files, start)
	last, err := ix.meta(ctx, ix.db, metaWalkSignature)
	if err != nil {
		return err
	}
	var warm *warmStart
	if sig == "" || sig != last {
		warm, err = ix.apply(ctx, fsys, files, nil, start, progress, st)
		defer warm.release()
		defer warm.wait()
		if err != nil {
			return err
		}
	}
	if vectors {
		if err := ix.vstore.embedPending(ctx, st); err != nil {
			return err
		}
	}
	if sig != "" && sig != last {
		return ix.setWalkSignature(ctx, sig)
	}
	return nil
}

// walk lists the vault's files with their size and modification time.
func walk(ctx context.Context, fsys fs.FS) ([]seen, []Skip, error) {
	list, err := vault.Files(ctx, fsys)
	if err != nil {
		return nil, nil, fmt.Errorf("walk vault: %w", err)
	}
	files := make([]seen, 0, len(list))
	var skips []Skip
	for _, f := range list {
		if f.Err != nil {
			skips = append(skips, Skip{Path: f.Path, Error: f.Err.Error()})
			continue
		}
		if f.Symlink {
			info, err := fs.Stat(fsys, f.Path)
			switch {
			case err == nil && info.IsDir():
				err = errors.New("symbolic link to a folder: not followed")
			case errors.Is(err, syscall.ELOOP):
				err = errors.New("symbolic link loop")
			case err != nil && strings.Contains(err.Error(), "path escapes from parent"): // os.Root's, unexported
				err = errors.New("symbolic link leading outside the vault: not followed")
			}
			if err != nil {
				if !errors.Is(err, fs.ErrNotExist) { // vanished mid-walk: simply gone
					skips = append(skips, Skip{Path: f.Path, Error: err.Error()})
				}
				continue
			}
			f.Size, f.ModTime = info.Size(), info.ModTime().UnixNano()
		}
		files = append(files, seen{path: f.Path, size: f.Size, mtime: f.ModTime, note: markdown.IsNotePath(f.Path)})
	}
	return files, skips, nil
}

// stale counts the files whose size or time the cache does not have, and
// the files it has that are gone.
func (ix *Index) stale(ctx context.Context, files []seen) (int, error) {
	stored, err := ix.stored(ctx, ix.db)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, f := range files {
		s, ok := stored[f.path]
		// A time stored as 0 was too recent to trust when indexed (see
		// racyWindow): only its size can tell without reading the file.
		if !ok || s.note != f.note || s.size != f.size || s.mtime != f.mtime && s.mtime != 0 {
			n++
		}
		delete(stored, f.path)
	}
	return n + len(stored), nil
}

// stored loads what the index knows of every file.
func (ix *Index) stored(ctx context.Context, q querier) (map[string]fileState, error) {
	m := map[string]fileState{}
	rows, err := q.QueryContext(ctx, "SELECT id, path, size, mtime, hash FROM notes")
	if err != nil {
		return nil, fmt.Errorf("read index: %w", err)
	}
	for rows.Next() {
		var s fileState
		var p string
		if err := rows.Scan(&s.id, &p, &s.size, &s.mtime, &s.hash); err != nil {
			rows.Close()
			return nil, err
		}
		s.note = true
		m[p] = s
	}
	rows.Close()
	rows, err = q.QueryContext(ctx, "SELECT path, size, mtime FROM files")
	if err != nil {
		return nil, fmt.Errorf("read index: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var s fileState
		var p string
		if err := rows.Scan(&p, &s.size, &s.mtime); err != nil {
			return nil, err
		}
		m[p] = s
	}
	return m, rows.Err()
}

// metaWalkSignature names the meta row holding the walk signature of the
// last sync that left the index equal to the vault.
const metaWalkSignature = "walk_signature"

// walkSignature sums up the walk's paths, sizes and times; "" when a file
// changed so recently that its time cannot be trusted (see racyWindow).
func walkSignature(files []seen, now time.Time) string {
	h := fnv.New64a()
	var buf [17]byte
	for _, f := range files {
		if Racy(f.mtime, now) {
			return ""
		}
		h.Write([]byte(f.path))
		binary.LittleEndian.PutUint64(buf[0:], uint64(f.size))
		binary.LittleEndian.PutUint64(buf[8:], uint64(f.mtime))
		buf[16] = 0
		if f.note {
			buf[16] = 1
		}
		h.Write(buf[:])
	}
	return strconv.Itoa(len(files)) + ":" + strconv.FormatUint(h.Sum64(), 16)
}

func (ix *Index) setWalkSignature(ctx context.Context, sig string) error {
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := setMeta(ctx, tx, metaWalkSignature, sig); err != nil {
		return err
	}
	return tx.Commit()
}

// parsed is the outcome of reading one changed note.
type parsed struct {
	f    seen
	seq  int       // the note's place in the sync's list of changed files
	rows *noteRows // nil when the note is unchanged or unreadable
	err  error
}

// readNotes reads, parses and chunks the changed files on every core,
// sending each result as soon as it is ready. A result with a nil note and
// nil error is a note whose content hash did not change. The channel is
// closed when all are sent or ctx ends; wait waits for the workers. The
// caller calls taken with each result's file once it has written it: the
// readers wait while maxAheadBytes of notes wait for that. A non-nil warm
// receives every new chunk and is started when all are read.
func (ix *Index) readNotes(ctx context.Context, fsys fs.FS, todo []seen, stored map[string]fileState, r resolver, warm *warmStart) (results <-chan parsed, taken func(seen), wait func()) {
	// Room for every result: the bound on what runs ahead is ahead.
	out := make(chan parsed, len(todo))
	next := make(chan int)
	ahead := semaphore.NewWeighted(maxAheadBytes)
	var wg sync.WaitGroup
	maxSize := ix.opts.MaxNoteSize
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				p := parsed{f: todo[i], seq: i}
				if p.f.note {
					var n *markdown.Note
					n, p.err = readChanged(fsys, p.f.path, maxSize, stored[p.f.path])
					if n != nil {
						p.rows = prepare(n, p.f.size, p.f.mtime, chunkNote(n, ix.opts.chunkTokens()), r)
						warm.add(p.rows)
					}
				}
				out <- p
			}
		})
	}
	var feeder sync.WaitGroup
	feeder.Go(func() {
		defer func() {
			close(next)
			wg.Wait()
			if ctx.Err() == nil {
				warm.start()
			}
			close(out)
		}()
		for i := range todo {
			if ahead.Acquire(ctx, aheadWeight(todo[i])) != nil {
				return
			}
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	})
	return out, func(f seen) { ahead.Release(aheadWeight(f)) }, feeder.Wait
}

// maxAheadBytes bounds the notes read and not yet written, by their
// files' sizes. At 50,000 notes the writer falls behind the readers, and
// what waits for it (each note's text several times over: as read,
// analyzed, chunked) raised a cold index's peak RSS to 372-407 MB; with
// this bound 362-367 MB (8 MB did not lower it), in no more time: the
// readers still finish before the writer.
const maxAheadBytes = 4 << 20

// aheadWeight is what file f counts for against maxAheadBytes: a note its
// size (but at most the bound, or it would wait for ever), another file
// (not read) next to nothing.
func aheadWeight(f seen) int64 {
	if !f.note {
		return 1
	}
	return min(max(f.size, 1), maxAheadBytes)
}

// inOrder passes on the results in the order of their seq (0, 1, 2, ...),
// holding back those that come early.
func inOrder(results <-chan parsed) func(yield func(parsed) bool) {
	return func(yield func(parsed) bool) {
		early := map[int]parsed{}
		next := 0
		for r := range results {
			early[r.seq] = r
			for {
				r, ok := early[next]
				if !ok {
					break
				}
				delete(early, next)
				next++
				if !yield(r) {
					return
				}
			}
		}
	}
}

// readChanged reads a note whose stat changed; it returns a nil note when
// the content hash is what the index already has.
func readChanged(fsys fs.FS, p string, maxSize int64, old fileState) (*markdown.Note, error) {
	n, err := vault.ReadNote(fsys, p, maxSize)
	if err != nil {
		var pe *markdown.ParseError
		if errors.As(err, &pe) {
			return nil, pe.Err
		}
		return nil, err
	}
	if old.note && old.hash == n.Hash {
		return nil, nil
	}
	return n, nil
}

// Built reports whether the index holds a sync of a vault: false for a
// new cache (or a rebuilt one) that no Sync has filled yet, whose empty
// answers would say nothing about the vault.
func (ix *Index) Built(ctx context.Context) (bool, error) {
	var built bool
	err := ix.db.QueryRowContext(ctx, `SELECT EXISTS(SELECT 1 FROM notes) OR EXISTS(SELECT 1 FROM files)
		OR EXISTS(SELECT 1 FROM meta WHERE key = ?)`, metaWalkSignature).Scan(&built)
	if err != nil {
		return false, fmt.Errorf("read index %s: %w", ix.path, err)
	}
	return built, nil
}

// Version names the state of what searches find: it changes with every
// transaction that changes the notes, chunks or vectors (a sync that
// found a change, an embedding pass), and only then. A command that
// searched while a sync ran keeps its answer when the version is the same
// after the sync as before the search.
func (ix *Index) Version(ctx context.Context) (string, error) {
	var files, vectors string
	err := ix.db.QueryRowContext(ctx, `SELECT coalesce((SELECT value FROM meta WHERE key = ?), ''),
		coalesce((SELECT value FROM meta WHERE key = ?), '')`, metaFilesVersion, metaVectorsVersion).Scan(&files, &vectors)
	if err != nil {
		return "", fmt.Errorf("read index %s: %w", ix.path, err)
	}
	return files + "/" + vectors, nil
}

// metaCounts names the meta row holding the number of notes and chunks,
// as "VERSION NOTES CHUNKS": the counts at files version VERSION (see
// metaFilesVersion), written by the sync that made that version. Counting
// a large index's chunks is milliseconds of every command's sync in a new
// process; reading the row is not.
const metaCounts = "counts"

// storeCounts records, in tx, the number of notes and chunks the index
// holds at the files version tx has set.
func storeCounts(ctx context.Context, tx *sql.Tx) error {
	var version string
	var notes, chunks int
	err := tx.QueryRowContext(ctx, "SELECT coalesce((SELECT value FROM meta WHERE key = ?), ''), "+countNotesAndChunks, metaFilesVersion).Scan(&version, &notes, &chunks)
	if err != nil {
		return fmt.Errorf("count index: %w", err)
	}
	return setMeta(ctx, tx, metaCounts, fmt.Sprintf("%s %d %d", version, notes, chunks))
}

// countNotesAndChunks are the columns counting the notes and the chunks.
const countNotesAndChunks = "(SELECT count(*) FROM notes), (SELECT count(*) FROM chunks)"

// counts returns the number of notes and chunks: as recorded for the
// current files version, else counted.
func (ix *Index) counts(ctx context.Context) (notes, chunks int, err error) {
	var version, recorded string
	err = ix.db.QueryRowContext(ctx, `SELECT coalesce((SELECT value FROM meta WHERE key = ?), ''),
		coalesce((SELECT value FROM meta WHERE key = ?), '')`, metaFilesVersion, metaCounts).Scan(&version, &recorded)
	if err != nil {
		return 0, 0, fmt.Errorf("count index: %w", err)
	}
	var at string
	if n, _ := fmt.Sscanf(recorded, "%s %d %d", &at, &notes, &chunks); n == 3 && at == version && version != "" {
		return notes, chunks, nil
	}
	if err := ix.db.QueryRowContext(ctx, "SELECT "+countNotesAndChunks).Scan(&notes, &chunks); err != nil {
		return 0, 0, fmt.Errorf("count index: %w", err)
	}
	return notes, chunks, nil
}

// totals fills in the index's note and chunk counts, the files it skips
// and the notes with warnings.
func (ix *Index) totals(ctx context.Context, st *Stats) error {
	var err error
	if st.Notes, st.Chunks, err = ix.counts(ctx); err != nil {
		return err
	}
	skipped, warnings, err := ix.recorded(ctx)
	if err != nil {
		return err
	}
	st.Skipped = append(st.Skipped, skipped...)
	st.Warnings = append(st.Warnings, warnings...)
	return nil
}

// Findings returns what is wrong with the vault's files, as a sync would
// list it in its Stats: the files the index could not index and those a
// walk of fsys cannot reach now (Skipped), and the problems of the notes
// it did index, as it last read them (Warnings), each naming its file
// (and line), in path order. It changes nothing. Errors: the walk's and
// the cache's.
func (ix *Index) Findings(ctx context.Context, fsys fs.FS) (skipped, warnings []Skip, err error) {
	_, skipped, err = walk(ctx, fsys)
	if err != nil {
		return nil, nil, err
	}
	recorded, warnings, err := ix.recorded(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("index %s: %w", ix.path, err)
	}
	skipped = append(skipped, recorded...)
	slices.SortStableFunc(skipped, func(a, b Skip) int { return strings.Compare(a.Path, b.Path) })
	return skipped, warnings, nil
}

// recorded returns the files the index holds as unreadable, with the
// reason, and the warnings of the notes it holds, by path.
func (ix *Index) recorded(ctx context.Context) (skipped, warnings []Skip, err error) {
	rows, err := ix.db.QueryContext(ctx, "SELECT path, reason FROM files WHERE reason != '' ORDER BY path")
	if err != nil {
		return nil, nil, err
	}
	for rows.Next() {
		var s Skip
		if err := rows.Scan(&s.Path, &s.Error); err != nil {
			rows.Close()
			return nil, nil, err
		}
		skipped = append(skipped, s)
	}
	rows.Close()
	rows, err = ix.db.QueryContext(ctx, "SELECT path, warnings FROM notes WHERE warnings != '' ORDER BY path")
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var p, w string
		if err := rows.Scan(&p, &w); err != nil {
			return nil, nil, err
		}
		for _, line := range strings.Split(w, "\n") {
			warnings = append(warnings, Skip{Path: p, Error: line})
		}
	}
	return skipped, warnings, rows.Err()
}

// resolver resolves links against the files present now. Only paths
// matter, so it is built from the walk, without loading any note.
// keyed, when set, resolves instead of g (see keyedResolver).
type resolver struct {
	g     *graph.Resolver
	keyed *keyedResolver
}

// newResolver resolves against files; the notes among them named in
// unreadable count as attachments.
func newResolver(files []seen, unreadable []string) resolver {
	skip := make(map[string]bool, len(unreadable))
	for _, p := range unreadable {
		skip[p] = true
	}
	var notes, others []string
	for _, f := range files {
		if f.note && !skip[f.path] {
			notes = append(notes, f.path)
		} else {
			others = append(others, f.path)
		}
	}
	return resolver{g: graph.New(notes, others)}
}

func (r resolver) resolve(source string, l markdown.Link) (string, bool) {
	if r.keyed != nil {
		return r.keyed.resolve(source, l)
	}
	return r.g.Resolve(source, l)
}

// jsonString encodes v for a TEXT column.
func jsonString(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "{}"
	}
	return string(b)
}
