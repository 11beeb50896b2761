package app

import (
	"context"
	"fmt"

	"github.com/vaultmem/vaultmem/dream"
	"github.com/vaultmem/vaultmem/memory"
)

// Remember writes a memory note, and lists it in MEMORY.md (see
// memory.Store.Remember), the index brought up to date first: it knows the
// memories by name, a memory's identity. Errors: memory.ErrInvalid,
// memory.ErrNameTaken (wrapped, *memory.TakenError); the Writer's.
func (a *App) Remember(ctx context.Context, m memory.Memory, o memory.Options) (memory.Result, error) {
	if err := m.Validate(); err != nil {
		return memory.Result{}, err
	}
	st, err := a.Sync(ctx, SyncOptions{})
	if err != nil {
		return memory.Result{}, err
	}
	if a.opts.OnSync != nil {
		a.opts.OnSync(st)
	}
	res, err := a.memoryStore().Remember(ctx, m, o)
	if err == nil {
		a.Notes().cache(res.Path)
	}
	return res, err
}

// Dream runs Dream once (see dream.Dreamer.Run), the index brought up to
// date first (even while a watcher keeps it, which syncs only after a
// pause). Errors: one saying why when the index cannot be written and
// o is no dry run; dream.ErrRunning (wrapped); Dream's.
func (a *App) Dream(ctx context.Context, o dream.RunOptions) (*dream.Report, error) {
	if why := a.ix.ReadOnly(); why != "" && !o.DryRun {
		return nil, fmt.Errorf("dream writes notes, but %s; try a dry run", why)
	}
	st, err := a.Sync(ctx, SyncOptions{Always: true}) // it plans from the index: it must know a memory written a moment before
	if err != nil {
		return nil, err
	}
	if a.opts.OnSync != nil {
		a.opts.OnSync(st)
	}
	rep, err := a.dreamer().Run(ctx, o)
	if err == nil {
		for _, p := range rep.Changed {
			a.Notes().cache(p)
		}
	}
	return rep, err
}
