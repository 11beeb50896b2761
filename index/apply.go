package index

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/vaultmem/vaultmem/index/internal/vectors"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/vault"
)

// plan is one sync's changes as apply found them, and what write learns
// while it applies them.
type plan struct {
	fsys    fs.FS
	todo    []seen               // the files whose size or time changed
	removed []string             // the stored files gone from the vault, in path order
	stored  map[string]fileState // what the index held before
	// partial says stored holds only the paths this sync looks at, not
	// every file of the index.
	partial  bool
	resolver resolver // over the files present now
	now      time.Time
	progress Progress
	warm     *warmStart
	st       *Stats
	// gone are the paths that appeared or went (links naming them may
	// resolve otherwise now).
	gone []string
}

// apply writes the vault's changes to the index in one transaction. The
// changed notes are read and parsed on every core while this goroutine
// writes the ones already parsed.
//
// It returns the warm start it began, if any (the caller waits for it);
// when nothing changed it writes nothing.
//
// With only set, files is nil and apply looks at only those paths as they
// are now; the other files are as the index holds them. Its cost then
// grows with the files looked at, not with the vault, once this process
// has the file list in memory (see fileCache).
func (ix *Index) apply(ctx context.Context, fsys fs.FS, files []seen, only []string, now time.Time, progress Progress, st *Stats) (*warmStart, error) {
	if only != nil && ix.indexedAlready(ctx, fsys, only) {
		return nil, nil // another writer of this process indexed them: no lock to take
	}
	tx, err := ix.db.BeginTx(ctx, nil) // BEGIN IMMEDIATE: one writer at a time
	if err != nil {
		return nil, fmt.Errorf("begin index update: %w", err)
	}
	defer tx.Rollback()
	gen, err := ix.meta(ctx, tx, metaFilesVersion)
	if err != nil {
		return nil, err
	}
	cache := ix.cache.takeFiles(gen)
	if cache != nil && cache.partial && only == nil {
		cache = nil // a walk compares every stored file
	}
	// A process that keeps no whole file list and looks at a few paths (a
	// hook's write, then Refresh) reads the rows of those paths alone, and
	// resolves links by the files they can name (see keyedResolver): its
	// cost does not grow with the vault. It keeps what it read as a
	// partial list.
	//
	// Not in memory: its links are looked up on another connection (see
	// keyedResolver), which a shared in-memory database would lock out
	// while this transaction writes.
	partial := only != nil && !ix.memory && (cache == nil || cache.partial)
	switch {
	case partial:
		if cache == nil {
			cache = &fileCache{gen: gen, files: map[string]fileState{}, partial: true, looked: map[string]bool{}}
		}
		var missing []string
		for _, p := range only {
			if !cache.looked[p] {
				missing = append(missing, p)
			}
		}
		stored, err := storedAt(ctx, tx, missing)
		if err != nil {
			return nil, err
		}
		maps.Copy(cache.files, stored)
		for _, p := range missing {
			cache.looked[p] = true
		}
	case cache == nil:
		stored, err := ix.stored(ctx, tx)
		if err != nil {
			return nil, err
		}
		cache = &fileCache{gen: gen, files: stored}
	}
	p := &plan{fsys: fsys, stored: cache.files, partial: partial, now: now, progress: progress, st: st}
	var added []string // paths the index does not hold yet
	visit := func(f seen) {
		s, ok := p.stored[f.path]
		if !ok {
			added = append(added, f.path)
		}
		if ok && s.note == f.note && s.size == f.size && s.mtime == f.mtime && s.mtime != 0 {
			return
		}
		p.todo = append(p.todo, f)
	}
	if only == nil {
		current := make(map[string]bool, len(files))
		for _, f := range files {
			current[f.path] = true
			visit(f)
		}
		for path := range p.stored {
			if !current[path] && !writtenSinceWalk(fsys, path, now) {
				p.removed = append(p.removed, path)
			}
		}
	} else {
		for _, f := range filesNow(fsys, only) {
			if f.size < 0 {
				if _, ok := p.stored[f.path]; ok {
					p.removed = append(p.removed, f.path)
				}
				continue
			}
			visit(f)
		}
	}
	if len(p.todo) == 0 && len(p.removed) == 0 {
		ix.cache.keepFiles(cache)
		return nil, nil // nothing changed
	}
	slices.Sort(p.removed)
	if partial {
		p.resolver = resolver{keyed: newKeyedResolver(ctx, ix.db, p.todo, p.removed)}
	} else {
		p.resolver = cache.resolverFor(added, p.removed)
	}
	if p.warm, err = ix.searcher.newWarmStart(ctx, tx); err != nil {
		return nil, err
	}
	next := newVersion()
	if err := setMeta(ctx, tx, metaFilesVersion, next); err != nil {
		return p.warm, err
	}
	// The walk signature stored described the vault before this change;
	// left in place, a later walk that looks the same again (a note
	// added, then deleted) would skip the sync that must remove it. The
	// sync that walked sets the new one (see update).
	if err := setMeta(ctx, tx, metaWalkSignature, ""); err != nil {
		return p.warm, err
	}
	states, err := ix.write(ctx, tx, p)
	if err != nil {
		return p.warm, err
	}
	cache.applyChanges(next, states)
	ix.cache.keepFiles(cache)
	return p.warm, nil
}

// indexedAlready reports whether the index holds every file at paths as
// it is now, by the file list this process keeps (see fileCache) at the
// cache's current version: a note whose time was too recent to trust is
// read and its hash compared. A watcher's sync of the notes a command of
// this process, or another, has just indexed then costs no write lock,
// which that command may be waiting for.
func (ix *Index) indexedAlready(ctx context.Context, fsys fs.FS, paths []string) bool {
	gen, err := ix.meta(ctx, ix.db, metaFilesVersion)
	if err != nil {
		return false
	}
	// The states are copied under the lock: a sync that takes the list
	// changes it without.
	type state struct {
		fileState
		held bool
	}
	states := make(map[string]state, len(paths))
	ix.mu.Lock()
	c := ix.files
	if c != nil && gen != "" && c.gen == gen {
		for _, p := range paths {
			s, held := c.files[p]
			if c.partial && !c.looked[p] {
				// a partial list does not know whether the index holds p
				clear(states)
				break
			}
			states[p] = state{s, held}
		}
	}
	ix.mu.Unlock()
	if len(states) == 0 {
		return false
	}
	for _, f := range filesNow(fsys, paths) {
		s, held := states[f.path].fileState, states[f.path].held
		switch {
		case f.size < 0 && !held: // gone, and not indexed
		case f.size < 0 || !held || s.note != f.note || s.size != f.size:
			return false
		case s.mtime == f.mtime && s.mtime != 0:
		case !s.note || s.hash == "":
			return false
		default: // a time too recent to trust: the content decides
			b, err := fs.ReadFile(fsys, f.path)
			if err != nil || markdown.Hash(b) != s.hash {
				return false
			}
		}
	}
	return true
}

// writtenSinceWalk reports whether a file a walk that began at start
// did not list is there now, written after the walk began: a note
// another writer of this process wrote, and indexed, while this sync
// walked. Removing it as gone would lose it from the index until a later
// sync; that sync, whose walk lists it, keeps it.
func writtenSinceWalk(fsys fs.FS, path string, start time.Time) bool {
	f := filesNow(fsys, []string{path})[0]
	return f.size >= 0 && f.mtime >= start.Add(-mtimeSlack).UnixNano()
}

// mtimeSlack is how far a file's time may lag the clock it was written
// by: Linux stamps files from its coarse clock, up to a tick (4 ms at
// 250 Hz) behind time.Now, so a note written just after a walk began can
// carry a time just before it.
const mtimeSlack = 50 * time.Millisecond

// filesNow returns the files at paths as they are in fsys now, in path
// order, each once; a size of -1 says the path is no file of the vault
// (gone, a folder, hidden).
func filesNow(fsys fs.FS, paths []string) []seen {
	paths = slices.Clone(paths)
	slices.Sort(paths)
	paths = slices.Compact(paths)
	files := make([]seen, len(paths))
	for i, p := range paths {
		files[i] = seen{path: p, size: -1}
		info, err := fs.Stat(fsys, p)
		if err != nil || !info.Mode().IsRegular() || vault.IsHidden(p) {
			continue
		}
		files[i] = seen{path: p, size: info.Size(), mtime: info.ModTime().UnixNano(), note: markdown.IsNotePath(p)}
	}
	return files
}

// Refresh indexes the files at paths (vault-relative) as they are now,
// without walking the vault: what a writer calls after writing notes, so
// that its next query sees them before a watcher's or the next command's
// sync does. The other files keep the state the index has of them; the
// new chunks get their vectors at the next sync. On a read-only cache it
// does nothing.
func (ix *Index) Refresh(ctx context.Context, fsys fs.FS, paths ...string) error {
	if !ix.writable() || len(paths) == 0 {
		return nil
	}
	warm, err := ix.apply(ctx, fsys, nil, paths, time.Now(), nil, &Stats{})
	warm.wait()
	warm.release()
	if err != nil {
		return fmt.Errorf("index %s: %w", ix.path, err)
	}
	return nil
}

// SyncPaths is Sync for the files at paths alone (vault-relative; gone,
// changed or new), without walking the vault: what a watcher does with
// the paths its events named. Like Sync, it embeds the chunks that have
// no vector yet and returns the totals. On a read-only cache it does
// nothing.
func (ix *Index) SyncPaths(ctx context.Context, fsys fs.FS, paths []string) (st Stats, err error) {
	start := time.Now()
	st = Stats{Skipped: []Skip{}, Warnings: []Skip{}}
	if !ix.writable() {
		st.ReadOnly = ix.readOnly
		return st, nil
	}
	if len(paths) > 0 {
		warm, err := ix.apply(ctx, fsys, nil, paths, start, nil, &st)
		defer warm.release()
		warm.wait()
		if err != nil {
			return st, fmt.Errorf("index %s: %w", ix.path, err)
		}
		if err := ix.vstore.embedPending(ctx, &st); err != nil {
			return st, fmt.Errorf("index %s: %w", ix.path, err)
		}
	}
	if err := ix.totals(ctx, &st); err != nil {
		return st, err
	}
	st.Duration = time.Since(start)
	return st, nil
}

// ftsAutomerge is FTS5's default automerge setting, which a bulk load
// turns off for its duration.
const ftsAutomerge = 4

// ftsHashSize is FTS5's default for how many bytes of new postings it
// holds in memory before writing them out as a segment; ftsBulkHashSize
// is what a bulk load holds, in fewer, larger segments that need less
// merging.
const (
	ftsHashSize     = 1 << 20
	ftsBulkHashSize = 16 << 20
)

// write applies plan p in its transaction tx, and commits; it returns the
// new state of every path it changed (nil: gone).
func (ix *Index) write(ctx context.Context, tx *sql.Tx, p *plan) (map[string]*fileState, error) {
	w, err := newWriter(ctx, tx)
	if err != nil {
		return nil, err
	}
	defer w.close()
	for _, path := range p.removed {
		if err := w.removePath(ctx, path, p.stored[path]); err != nil {
			return nil, err
		}
		p.gone = append(p.gone, path)
		p.st.Removed++
	}

	// Filling an empty index, FTS5 merges nothing on the way and all of
	// it once at the end: less work than merging as it goes, and one
	// segment for the queries after.
	bulk := len(p.stored) == 0 && !p.partial && len(p.todo) > 0
	if !bulk && len(p.todo) >= largeSync {
		if _, err := tx.ExecContext(ctx, "PRAGMA cache_size = "+strconv.Itoa(largeSyncCache)); err != nil {
			return nil, fmt.Errorf("sync: page cache: %w", err)
		}
		// Given back while the transaction still holds the connection
		// (write returns before it ends, error or not); a failure leaves
		// only a larger cache.
		defer tx.ExecContext(context.WithoutCancel(ctx), "PRAGMA cache_size = "+strconv.Itoa(ix.opts.cacheSize()))
	}
	if bulk {
		for _, cmd := range []string{`INSERT INTO chunks_fts(chunks_fts, rank) VALUES('automerge', 0)`,
			`INSERT INTO chunks_fts(chunks_fts, rank) VALUES('hashsize', ` + strconv.Itoa(ftsBulkHashSize) + `)`} {
			if _, err := tx.ExecContext(ctx, cmd); err != nil {
				return nil, fmt.Errorf("full-text bulk load: %w", err)
			}
		}
	}
	// Links resolve against every file present now (a note that turns out
	// unreadable is there as a plain file: a link to it resolves all the
	// same).
	rctx, cancel := context.WithCancel(ctx)
	results, taken, wait := ix.readNotes(rctx, p.fsys, p.todo, p.stored, p.resolver, p.warm)
	defer func() {
		cancel()
		for range results {
		}
		wait()
	}()
	done := 0
	for r := range inOrder(results) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		done++
		if p.progress != nil {
			p.progress(done, len(p.todo))
		}
		if err := p.store(ctx, w, r); err != nil {
			return nil, err
		}
		taken(r.f)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// The links of the notes written now were resolved against the files
	// present now.
	if len(p.stored) == 0 && !p.partial {
		p.gone = nil // every link in the index is fresh
	}
	if err := w.flushFTS(ctx); err != nil {
		return nil, err
	}
	if err := w.settleBoilerplate(ctx); err != nil {
		return nil, err
	}
	if err := w.reresolve(ctx, p.gone, p.resolver, w.written); err != nil {
		return nil, err
	}
	if p.resolver.keyed != nil {
		// A link it could not look up was stored as unresolved: the
		// transaction must not commit.
		if err := p.resolver.keyed.failed(); err != nil {
			return nil, fmt.Errorf("resolve links: %w", err)
		}
	}
	if bulk {
		for _, cmd := range []string{`INSERT INTO chunks_fts(chunks_fts) VALUES('optimize')`,
			`INSERT INTO chunks_fts(chunks_fts, rank) VALUES('automerge', ` + strconv.Itoa(ftsAutomerge) + `)`,
			`INSERT INTO chunks_fts(chunks_fts, rank) VALUES('hashsize', ` + strconv.Itoa(ftsHashSize) + `)`} {
			if _, err := tx.ExecContext(ctx, cmd); err != nil {
				return nil, fmt.Errorf("full-text bulk load: %w", err)
			}
		}
	}
	// The model a warm start fitted, and the new chunks' vectors, go in
	// with the chunks; the chunks without one wait for it.
	var warmed *warmStored
	if p.warm != nil {
		if warmed, err = ix.searcher.storeWarm(ctx, tx, w, p.warm); err != nil {
			return nil, err
		}
	}
	if err := w.pendNew(ctx); err != nil {
		return nil, err
	}
	// A sync that only touched files' times leaves the vectors (and the
	// pack) as they are.
	var before, after string
	if w.chunks {
		var err error
		if before, after, err = bumpVectorsVersion(ctx, tx); err != nil {
			return nil, err
		}
	}
	if w.lessons {
		prev, err := ix.meta(ctx, tx, metaLessonsVersion)
		if err != nil {
			return nil, err
		}
		cur, change := newVersion(), ""
		if len(p.todo)+len(p.removed) <= maxLessonsChange {
			paths := slices.Clone(p.removed)
			for _, f := range p.todo {
				paths = append(paths, f.path)
			}
			change = lessonsChange(prev, cur, paths)
		}
		if err := setMeta(ctx, tx, metaLessonsVersion, cur); err != nil {
			return nil, err
		}
		if err := setMeta(ctx, tx, metaLessonsChange, change); err != nil {
			return nil, err
		}
	}
	if err := storeCounts(ctx, tx); err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("commit index update: %w", err)
	}
	if w.chunks {
		ix.vstore.advanceVectors(before, after, vectors.Change{DropNotes: w.dropped}, warmed != nil)
	}
	if warmed != nil {
		ix.searcher.keepWarm(warmed)
		p.st.Embedded += warmed.embedded
	}
	return w.states, nil
}

// store writes one changed file as read: a plain or unreadable file, a
// note whose content did not change (only its stat), or a new or changed
// note.
func (p *plan) store(ctx context.Context, w *writer, r parsed) error {
	old, had := p.stored[r.f.path]
	mtime := r.f.mtime
	if Racy(mtime, p.now) {
		mtime = 0 // check it again next time
	}
	switch {
	case r.err != nil || !r.f.note:
		if had && old.note {
			if err := w.removePath(ctx, r.f.path, old); err != nil {
				return err
			}
			p.gone = append(p.gone, r.f.path)
		} else if !had {
			p.gone = append(p.gone, r.f.path)
		}
		reason := ""
		if r.err != nil {
			reason = r.err.Error()
			// A note kept as unreadable is read again at every sync: news
			// only when it is unreadable for another reason.
			was := ""
			if had && !old.note {
				if err := w.tx.QueryRowContext(ctx, "SELECT reason FROM files WHERE path = ?", r.f.path).Scan(&was); err != nil {
					return fmt.Errorf("read index: %w", err)
				}
			}
			if reason != was {
				p.st.Read = append(p.st.Read, r.f.path)
			}
		}
		return w.putFile(ctx, r.f.path, r.f.size, mtime, reason)
	case r.rows == nil: // same content: only the stat changed
		if err := w.touch(ctx, old.id, r.f.size, mtime); err != nil {
			return err
		}
		w.states[r.f.path] = &fileState{id: old.id, size: r.f.size, mtime: mtime, hash: old.hash, note: true}
		return nil
	}
	if had && !old.note {
		if err := w.removePath(ctx, r.f.path, old); err != nil {
			return err
		}
	}
	if !had || !old.note {
		p.gone = append(p.gone, r.f.path)
	}
	id := old.id
	if !old.note {
		id = 0
	}
	if mtime != r.f.mtime {
		r.rows.fields[2] = mtime
	}
	if err := w.putNote(ctx, id, r.rows); err != nil {
		return fmt.Errorf("index %s: %w", r.f.path, err)
	}
	p.st.Parsed++
	p.st.Read = append(p.st.Read, r.f.path)
	return nil
}
