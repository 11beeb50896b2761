package app

import (
	"context"
	"errors"
	"sync"

	"github.com/vaultmem/vaultmem/dream"
	"github.com/vaultmem/vaultmem/watch"
)

// ServeOptions configure Serve. The zero value works.
type ServeOptions struct {
	// Logf reports what goes wrong and what the process cannot do (no
	// watcher, no socket); nil discards it.
	Logf func(format string, args ...any)
	// OnBatch is told of each batch of changes the watcher applied to the
	// index, once MEMORY.md lists the memories again.
	OnBatch func(watch.Batch)
	// OnDream is told of each run of Dream that changed something.
	OnDream func(*dream.Report)
	// FirstSync, if set, makes Serve sync the index first, telling it how
	// the sync goes, then FirstSyncDone how it ended (an MCP server's
	// start-up, which answers meanwhile); else the watcher's first batch
	// is the first sync.
	FirstSync     func(done, total int)
	FirstSyncDone func(error)
	// RequireWatcher makes Serve fail (watch.ErrRunning) when another
	// process watches the vault; without it Serve goes on without a
	// watcher, and reads sync first (see Sync).
	RequireWatcher bool
	// Started, if set, is told when Serve watches and answers.
	Started func()
}

// Serve keeps the vault for a long-running process until ctx ends: it
// syncs the index, loads its keyword index and vectors, answers the ops of
// CLI processes and hooks (see Handle) over a local socket, watches the
// vault to keep the index current and MEMORY.md listing the memories
// however they are edited (Obsidian, git, an agent), and runs Dream when
// its gate opens (dream.auto in the config). Errors: watch.ErrRunning
// (with RequireWatcher) and the watcher's; ctx's error is not one.
func (a *App) Serve(ctx context.Context, o ServeOptions) error {
	logf := o.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	dreams := &dreamScheduler{app: a, logf: logf, onDream: o.OnDream}
	w, err := watch.New(a.Vault, a.ix, watch.Options{OnBatch: func(b watch.Batch) {
		defer func() { // no note may stop the process
			if r := recover(); r != nil {
				logf("recovered after syncing %v: %v", b.Paths, r)
			}
		}()
		if b.Err != nil && o.OnBatch == nil {
			logf("sync: %v", b.Err)
		}
		if b.Err == nil && b.Stats.Parsed+b.Stats.Removed > 0 {
			dreams.edited(b.Time)
			a.relistAfter(ctx, b, logf)
		}
		if o.OnBatch != nil {
			o.OnBatch(b)
		}
	}})
	switch {
	case err != nil && o.RequireWatcher:
		return err
	case errors.Is(err, watch.ErrRunning):
		logf("another watcher keeps the index current")
	case err != nil:
		logf("no watcher (%v); syncing before each read", err)
	}
	if w != nil {
		defer w.Close()
	}
	if o.FirstSync != nil {
		// The first sync (a cold index of a large vault takes seconds).
		st, err := a.ix.Sync(ctx, a.Vault.FS(), o.FirstSync)
		if o.FirstSyncDone != nil {
			o.FirstSyncDone(err)
		}
		switch {
		case ctx.Err() != nil:
			return nil
		case err != nil:
			logf("first sync: %v", err)
		case st.ReadOnly != "" && st.Stale > 0:
			logf("the index cannot be updated (%s); %d files changed since it was built", st.ReadOnly, st.Stale)
		}
	}
	var background sync.WaitGroup
	defer background.Wait()
	// The keyword index and the vectors, before the first query needs
	// them; a failure only means that query loads them.
	background.Go(func() { a.ix.Searcher().Warm(ctx) })
	stopServing, err := a.listen(ctx, logf)
	if err != nil {
		logf("%v; CLI commands answer in their own process", err)
	}
	defer stopServing()
	if o.Started != nil {
		o.Started()
	}
	if w == nil {
		<-ctx.Done()
		return nil
	}
	// Dream runs on its own here, where the watcher sees the edits that
	// must hold it back.
	dreamCtx, stopDream := context.WithCancel(ctx)
	background.Go(func() { dreams.run(dreamCtx) })
	err = w.Run(ctx)
	stopDream()
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// relistAfter lists the memories again in MEMORY.md after batch b changed
// the notes, unless the one note it changed is MEMORY.md itself (whose own
// change is vaultmem's write, or a human's edit outside the list, which
// listing again keeps).
func (a *App) relistAfter(ctx context.Context, b watch.Batch, logf func(string, ...any)) {
	store := a.memoryStore()
	if len(b.Paths) == 1 && b.Paths[0] == store.ListFile() {
		return
	}
	if _, err := store.Relist(ctx); err != nil {
		logf("%s not updated: %v", store.ListFile(), err)
	}
}
