package app

import (
	"context"

	"github.com/vaultmem/vaultmem/internal/hookpolicy"
)

// OpenForHook opens the vault in dir to answer ev in this process (see
// Hook): without its index when the event reads none (see
// hookpolicy.NeedsIndex), with it otherwise. A tool call's hooks read
// only lessons (Options.LessonsOnly): the walk of the whole vault waits
// for the next prompt or start while the lessons folder is as the last
// sync saw it. o.NoIndex and o.LessonsOnly are set here. Errors: Open's.
func OpenForHook(ctx context.Context, dir string, ev HookEvent, o Options) (*App, error) {
	o.NoIndex = true
	o.oneEvent = true // see Options.oneEvent
	o.LessonsOnly = ev.Kind == HookBeforeTool || ev.Kind == HookAfterTool
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
