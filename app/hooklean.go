package app

import (
	"context"

	"github.com/vaultmem/vaultmem/internal/hookpolicy"
)

// OpenForHook opens the vault in dir to answer ev in this process (see
// Hook): without its index when the event reads none (see
// hookpolicy.NeedsIndex), with it otherwise.
// o.NoIndex is ignored. Errors: Open's.
func OpenForHook(ctx context.Context, dir string, ev HookEvent, o Options) (*App, error) {
	o.NoIndex = true
	o.oneEvent = true // see Options.oneEvent
	a, err := Open(ctx, dir, o)
	if err != nil {
		return nil, err
	}
	if !hookpolicy.NeedsIndex(a.writer, ev) {
		return a, nil
	}
	if err := a.attachIndex(ctx); err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}
