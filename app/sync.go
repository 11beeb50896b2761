package app

import (
	"bytes"
	"context"
	"fmt"

	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/watch"
)

// SyncOptions say how Sync brings the index up to date.
type SyncOptions struct {
	// Vectors embeds the new chunks too (what vector search needs); else
	// they get their vectors at the next sync that asks for them.
	Vectors bool
	// Always syncs even while a watcher keeps the index current.
	Always bool
}

// Sync brings the index up to date with the notes (nothing while a live
// watcher keeps it current, unless o.Always; nothing for Options.LessonsOnly
// while the lessons folder is as the last sync saw it), telling Options.Progress
// how it goes and Options.Notify when the index cannot be written. Its
// Stats name the notes it read (their warnings in Warnings) and the files
// it could not.
func (a *App) Sync(ctx context.Context, o SyncOptions) (index.Stats, error) {
	if !o.Always {
		if running, err := watch.Running(a.Vault); err == nil && running {
			return index.Stats{}, nil
		}
	}
	if a.opts.LessonsOnly && !o.Always && a.lessonStamp().unchanged(ctx) {
		return index.Stats{}, nil
	}
	// Taken before the walk, so that a lesson or folder changed during the
	// sync is another listing at the next look (see stampLessons).
	listing, racy, listErr := a.lessonStamp().listing(ctx)
	var folders string
	var foldersErr error
	if o.Vectors {
		folders, foldersErr = a.folderStamp().times(ctx)
	}
	sync := a.ix.Sync
	if !o.Vectors {
		sync = a.ix.SyncWithoutVectors
	}
	st, err := sync(ctx, a.Vault.FS(), a.opts.Progress)
	if err != nil {
		return st, err
	}
	if st.ReadOnly == "" && !a.ix.InMemory() && st.Stale == 0 {
		if listErr == nil && !racy && !a.lessonStamp().skipped(st) {
			a.lessonStamp().write(ctx, listing)
		}
		// Only a sync with vectors: one without leaves the new chunks'
		// vectors to the next sync with them, which changes the index.
		if foldersErr == nil && o.Vectors {
			a.folderStamp().write(folders)
		}
	}
	switch {
	case a.ix.InMemory():
		a.notify("%s; indexed in memory for this command only", a.ix.ReadOnly())
	case st.ReadOnly != "" && st.Stale > 0:
		a.notify("%s; answering from the index as it is, which misses %d changed files", st.ReadOnly, st.Stale)
	case st.ReadOnly == "" && a.memoriesChanged(st):
		a.relist(ctx)
	}
	if !o.Vectors {
		return st, nil
	}
	// Later commands load the vectors from the pack in milliseconds.
	return st, a.ix.Pack(ctx)
}

// RequireBuilt refuses to answer from an index no sync has filled: its
// empty answer would say nothing about the vault.
func (a *App) RequireBuilt(ctx context.Context) error {
	built, err := a.ix.Built(ctx)
	if err != nil {
		return err
	}
	if !built {
		return fmt.Errorf("the index %s is empty: it has not been built yet (run 'vaultmem index')", a.ix.Path())
	}
	return nil
}

// WhileSyncing runs find on the index as it is while Sync (with vectors)
// brings it up to date, and keeps find's answer when the sync changed
// nothing searches see (the index's version is the same after the sync as
// before find began); otherwise, or when find failed, it runs find again
// on the synced index. A one-shot query so overlaps its stat walk with
// the search, on a machine with a core for each. early tells find whether
// it runs beside the sync, competing with it for the cores (recall then
// runs its stages without their deadlines, which the competition would
// cut short). When a folder of the vault changed since the last sync
// with vectors (a note added, removed, or written by vaultmem since: see
// foldersStampFile) the sync will change the index and throw find's early
// answer away: then it syncs first and finds once.
func WhileSyncing[T any](ctx context.Context, a *App, find func(ctx context.Context, early bool) (T, error)) (T, index.Stats, error) {
	var zero T
	if a.folderStamp().changed() {
		st, err := a.Sync(ctx, SyncOptions{Vectors: true})
		if err != nil {
			return zero, st, err
		}
		if err := a.RequireBuilt(ctx); err != nil {
			return zero, st, err
		}
		v, err := find(ctx, false)
		return v, st, err
	}
	before, err := a.ix.Version(ctx)
	if err != nil {
		return zero, index.Stats{}, err
	}
	type answer struct {
		v   T
		err error
	}
	early := make(chan answer, 1)
	go func() {
		v, err := find(ctx, true)
		early <- answer{v, err}
	}()
	st, err := a.Sync(ctx, SyncOptions{Vectors: true})
	got := <-early // always: the index must not close under find
	if err != nil {
		return zero, st, err
	}
	if err := a.RequireBuilt(ctx); err != nil {
		return zero, st, err
	}
	after, err := a.ix.Version(ctx)
	if err != nil {
		return zero, st, err
	}
	if got.err == nil && after == before {
		return got.v, st, nil
	}
	v, err := find(ctx, false)
	return v, st, err
}

// memoriesChanged reports whether a sync's changes may change MEMORY.md:
// it read a note of the memory folder or MEMORY.md itself, or a note went
// (a rename is one).
func (a *App) memoriesChanged(st index.Stats) bool {
	if st.Removed > 0 {
		return true
	}
	folder, list := a.Vault.Folders().Memory, a.memoryStore().ListFile()
	for _, p := range st.Read {
		if p == list || memory.InFolder(p, folder) {
			return true
		}
	}
	return false
}

// relist lists the memories again in MEMORY.md after a sync saw them
// change without a watcher (which lists them after its own syncs; see
// Serve): a memory renamed, merged or edited in Obsidian, or a
// contradiction settled by an edit, shows at the next command or hook,
// not at the next write of a memory. Only a MEMORY.md that holds
// vaultmem's region is listed again: a command that reads makes none, nor
// adds a region to a person's (remember, init and Dream do). A MEMORY.md it rewrites is indexed at once, so that the index
// still matches the notes (doctor). MEMORY.md that cannot be written, or
// indexed, is told, never an error of the command that synced.
func (a *App) relist(ctx context.Context) {
	store := a.memoryStore()
	list := store.ListFile()
	current, before, err := a.writer.Read(list)
	if err != nil || !bytes.Contains(current, []byte(memory.Begin)) {
		// None, or none with vaultmem's region yet (a person's own list,
		// which init or a write of a memory takes over, not a read), or
		// unreadable (the listing would fail the same way).
		return
	}
	if _, err := store.Relist(ctx); err != nil {
		a.notify("%s not updated: %v", list, err)
		return
	}
	if _, after, err := a.writer.Read(list); err == nil && after != before {
		if _, err := a.ix.SyncPaths(ctx, a.Vault.FS(), []string{list}); err != nil {
			a.notify("%s not indexed: %v", list, err)
		}
	}
}
