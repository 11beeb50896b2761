package app

import (
	"context"
	"errors"
	"slices"

	"github.com/vaultmem/vaultmem/session"
	"github.com/vaultmem/vaultmem/vault"
)

// OpenForHook opens the vault in dir to answer ev in this process (see
// Hook): without its index when the event reads none, with it otherwise.
// o.NoIndex is ignored. Errors: Open's.
func OpenForHook(ctx context.Context, dir string, ev HookEvent, o Options) (*App, error) {
	o.NoIndex = true
	o.directWrites = true // see Options.directWrites
	a, err := Open(ctx, dir, o)
	if err != nil {
		return nil, err
	}
	if !a.hookNeedsIndex(ev) {
		return a, nil
	}
	if err := a.attachIndex(ctx); err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

// hookNeedsIndex reports whether Hook reads the index for ev: for every
// event but the outcome of a tool call no lesson was shown for (the
// session's state holds no lesson under its id), which changes the
// session's state alone. Any doubt (a state that cannot be read) is a
// yes. The client sends a call's outcome after the hook before it has
// answered, so the state read here is the one Hook finds.
func (a *App) hookNeedsIndex(ev HookEvent) bool {
	if ev.Kind != HookAfterTool || ev.Session == "" {
		return true
	}
	if ev.ToolUseID == "" {
		return false // no lesson is taken for a call without an id
	}
	cur, _, err := a.writer.ReadState(session.StateName(ev.Session))
	if errors.Is(err, vault.ErrNotFound) {
		return false
	}
	if err != nil {
		return true
	}
	st, err := session.Decode(cur)
	if err != nil {
		return true
	}
	return slices.ContainsFunc(st.Calls, func(c session.Call) bool { return c.ID == ev.ToolUseID && len(c.Lessons) > 0 })
}
