package index

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/vaultmem/vaultmem/vault"
)

// plan is one sync's changes as apply found them, and what write learns
// while it applies them.
type plan struct {
	fsys     fs.FS
	files    []seen               // every file of the vault now, in path order
	todo     []seen               // the files whose size or time changed
	stored   map[string]fileState // what the index held before
	current  map[string]bool      // the paths of files
	now      time.Time
	progress Progress
	warm     *warmStart
	st       *Stats
	// gone are the paths that appeared or went (links naming them may
	// resolve otherwise now); unreadable the notes that turned out not to
	// be readable, which links resolve to as plain files.
	gone, unreadable []string
}

// apply writes the vault's changes to the index in one transaction. The
// changed notes are read and parsed on every core while this goroutine
// writes the ones already parsed.
//
// It returns the warm start it began, if any (the caller waits for it);
// when nothing changed it writes nothing.
//
// With only set, files is nil and apply looks at only those paths: the
// files are the ones the index holds, those paths as they are now.
func (ix *Index) apply(ctx context.Context, fsys fs.FS, files []seen, only []string, now time.Time, progress Progress, st *Stats) (*warmStart, error) {
	tx, err := ix.db.BeginTx(ctx, nil) // BEGIN IMMEDIATE: one writer at a time
	if err != nil {
		return nil, fmt.Errorf("begin index update: %w", err)
	}
	defer tx.Rollback()
	gen, err := ix.meta(ctx, tx, metaFilesVersion)
	if err != nil {
		return nil, err
	}
	p := &plan{fsys: fsys, files: files, now: now, progress: progress, st: st, current: make(map[string]bool, len(files))}
	p.stored = ix.cachedFiles(gen)
	if p.stored == nil {
		if p.stored, err = ix.stored(ctx, tx); err != nil {
			return nil, err
		}
		ix.cacheFiles(gen, p.stored, nil)
	}
	var look map[string]bool // nil: every file
	if only != nil {
		files = filesNow(fsys, p.stored, only)
		p.files = files
		look = make(map[string]bool, len(only))
		for _, o := range only {
			look[o] = true
		}
	}
	for _, f := range files {
		p.current[f.path] = true
		if look != nil && !look[f.path] {
			continue // not asked about: as the index has it
		}
		s, ok := p.stored[f.path]
		if ok && s.note == f.note && s.size == f.size && s.mtime == f.mtime && s.mtime != 0 {
			continue
		}
		p.todo = append(p.todo, f)
	}
	if len(p.todo) == 0 && len(p.stored) == len(files) {
		return nil, nil // nothing changed
	}
	if p.warm, err = ix.newWarmStart(ctx, tx); err != nil {
		return nil, err
	}
	next := newVersion()
	if err := setMeta(ctx, tx, metaFilesVersion, next); err != nil {
		return p.warm, err
	}
	states, err := ix.write(ctx, tx, p)
	if err != nil {
		return p.warm, err
	}
	ix.cacheFiles(next, p.stored, states)
	return p.warm, nil
}

// filesNow returns the files of stored with the paths only as they are in
// fsys now (gone when they are not there), in path order.
func filesNow(fsys fs.FS, stored map[string]fileState, only []string) []seen {
	byPath := make(map[string]seen, len(stored)+len(only))
	for p, s := range stored {
		byPath[p] = seen{path: p, size: s.size, mtime: s.mtime, note: s.note}
	}
	for _, p := range only {
		info, err := fs.Stat(fsys, p)
		if err != nil || !info.Mode().IsRegular() || vault.IsHidden(p) {
			delete(byPath, p)
			continue
		}
		byPath[p] = seen{path: p, size: info.Size(), mtime: info.ModTime().UnixNano(), note: vault.IsNotePath(p)}
	}
	files := make([]seen, 0, len(byPath))
	for _, f := range byPath {
		files = append(files, f)
	}
	slices.SortFunc(files, func(a, b seen) int { return strings.Compare(a.path, b.path) })
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
	if warm != nil {
		warm.wait()
	}
	if err != nil {
		return fmt.Errorf("index %s: %w", ix.path, err)
	}
	return nil
}

// write applies plan p in its transaction tx, and commits; it returns the
// new state of every path it changed (nil: gone).
func (ix *Index) write(ctx context.Context, tx *sql.Tx, p *plan) (map[string]*fileState, error) {
	w, err := newWriter(ctx, tx)
	if err != nil {
		return nil, err
	}
	defer w.close()
	for path, s := range p.stored {
		if p.current[path] {
			continue
		}
		if err := w.removePath(ctx, path, s); err != nil {
			return nil, err
		}
		p.gone = append(p.gone, path)
		p.st.Removed++
	}

	// Links resolve against every file present now; a note that turns out
	// unreadable is a plain file instead, fixed up after the loop.
	resolver := newResolver(p.files, nil)
	rctx, cancel := context.WithCancel(ctx)
	results, wait := ix.readNotes(rctx, p.fsys, p.todo, p.stored, resolver, p.warm)
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
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// The links of the notes written now were resolved against the files
	// present now, unless some note turned out unreadable.
	fresh := w.written
	if len(p.unreadable) > 0 {
		resolver = newResolver(p.files, p.unreadable)
		fresh = nil
	} else if len(p.stored) == 0 {
		p.gone = nil // every link in the index is fresh
	}
	if err := w.reresolve(ctx, p.gone, resolver, fresh); err != nil {
		return nil, err
	}
	if err := bumpVectorsVersion(ctx, tx); err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("commit index update: %w", err)
	}
	ix.invalidate()
	return w.states, nil
}

// store writes one changed file as read: a plain or unreadable file, a
// note whose content did not change (only its stat), or a new or changed
// note.
func (p *plan) store(ctx context.Context, w *writer, r parsed) error {
	old, had := p.stored[r.f.path]
	mtime := r.f.mtime
	if p.now.Sub(time.Unix(0, mtime)) < racyWindow {
		mtime = 0 // check it again next time
	}
	switch {
	case r.err != nil || !r.f.note:
		if r.f.note {
			p.unreadable = append(p.unreadable, r.f.path)
		}
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
	return nil
}
