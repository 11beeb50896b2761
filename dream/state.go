package dream

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/vaultmem/vaultmem/dream/runstate"
	"github.com/vaultmem/vaultmem/vault"
)

// CheckpointFile is the state file where a run records what it saw (see
// runstate.CheckpointFile).
const CheckpointFile = runstate.CheckpointFile

// ErrRunning is returned when another Dream holds the vault's Dream lock.
var ErrRunning = errors.New("another Dream is running on this vault")

// lockFile is the Dream lock, beside the writer's (git-ignored).
const lockFile = vault.TmpDir + "/dream.lock"

// lock takes the Dream lock: at once, or, with wait, as long as ctx
// allows. It returns the function that releases it.
func (d *Dreamer) lock(ctx context.Context, wait bool) (func(), error) {
	if err := d.v.EnsureDir(vault.TmpDir); err != nil {
		return nil, err
	}
	fl := d.v.FileLock(lockFile)
	ok, err := fl.TryLock()
	if err == nil && !ok && wait {
		ok, err = fl.TryLockContext(ctx, 50*time.Millisecond)
	}
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", fl.Path(), err)
	}
	if !ok {
		if pid := fl.Holder(); pid != "" {
			return nil, fmt.Errorf("%w (pid %s)", ErrRunning, pid)
		}
		return nil, ErrRunning
	}
	fl.NoteHolder() // who holds it, for the next one
	return func() { fl.Unlock() }, nil
}

// Gate says when the long-running processes (vaultmem mcp, vaultmem
// watch) run Dream on their own: when both the time and the writes since
// the last run reach their marks (with proposals on, a session note that
// ended and waits to be read counts as a write), and the vault has been
// quiet a while.
type Gate struct {
	// Every is the least time between two runs; 0 means 24 hours.
	Every time.Duration
	// Writes is the least number of memories written (new or changed)
	// since the last run; 0 means 5.
	Writes int
	// Quiet is how long the vault must have gone unedited, so that Dream
	// never runs while a human is mid-edit; 0 means a minute.
	Quiet time.Duration
}

func (g Gate) every() time.Duration { return orDefault(g.Every, 24*time.Hour) }
func (g Gate) quiet() time.Duration { return orDefault(g.Quiet, time.Minute) }
func (g Gate) writes() int {
	if g.Writes <= 0 {
		return 5
	}
	return g.Writes
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// Due reports whether g lets Dream run now, given when the vault was last
// edited (the zero time: never seen), and says why or why not. It asks
// the index which memories changed since the checkpoint: no note is read.
func (d *Dreamer) Due(ctx context.Context, g Gate, lastEdit time.Time) (bool, string, error) {
	now := d.opts.Now()
	if !lastEdit.IsZero() && now.Sub(lastEdit) < g.quiet() {
		return false, "the vault was edited less than " + g.quiet().String() + " ago", nil
	}
	cp, _, _, err := runstate.ReadCheckpoint(d.w)
	if err != nil {
		return false, "", err
	}
	if cp != nil {
		if last, err := time.Parse(time.RFC3339, cp.LastRun); err == nil && now.Sub(last) < g.every() {
			return false, fmt.Sprintf("the last run was %s ago", now.Sub(last).Round(time.Minute)), nil
		}
	}
	ms, err := d.ix.Memories(ctx)
	if err != nil {
		return false, "", err
	}
	writes := 0
	for _, m := range ms {
		if cp == nil || cp.Memories[m.Path] != runstate.ShortHash(m.Hash) {
			writes++
		}
	}
	what := fmt.Sprintf("%d memories written", writes)
	if d.proposing() {
		// A session that ended counts as a write: Dream proposes from it.
		pending, err := d.proposer().Pending(ctx)
		if err != nil {
			return false, "", err
		}
		writes += pending
		what += fmt.Sprintf(" and %d session notes ended", pending)
	}
	if writes < g.writes() {
		return false, fmt.Sprintf("%s since the last run, fewer than %d", what, g.writes()), nil
	}
	return true, what + " since the last run", nil
}
