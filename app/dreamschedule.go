package app

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/vaultmem/vaultmem/dream"
)

// dreamScheduler runs Dream in a long-running process when its gate
// opens: the gate waits for the vault to be quiet, so the scheduler is
// told of every edit the watcher sees.
type dreamScheduler struct {
	app     *App
	logf    func(format string, args ...any)
	onDream func(*dream.Report)

	mu       sync.Mutex
	lastEdit time.Time // of the last batch that changed a note
}

// edited notes that the watcher saw a note change at t.
func (s *dreamScheduler) edited(t time.Time) {
	s.mu.Lock()
	s.lastEdit = t
	s.mu.Unlock()
}

// run asks Dream's gate every little while, and runs Dream when it opens,
// until ctx ends; it returns at once when the config turns automatic runs
// off.
func (s *dreamScheduler) run(ctx context.Context) {
	if !s.app.Config.Dream.Auto {
		return
	}
	d, gate := s.app.dreamer(), s.app.dreamGate()
	every := min(max(gate.Quiet/2, 100*time.Millisecond), time.Minute)
	if gate.Quiet <= 0 {
		every = 30 * time.Second
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			s.runIfDue(ctx, d, gate)
		}
	}
}

// runIfDue runs Dream once if its gate is open.
func (s *dreamScheduler) runIfDue(ctx context.Context, d *dream.Dreamer, gate dream.Gate) {
	s.mu.Lock()
	last := s.lastEdit
	s.mu.Unlock()
	due, _, err := d.Due(ctx, gate, last)
	if err != nil || !due {
		if err != nil && ctx.Err() == nil {
			s.logf("dream: %v", err)
		}
		return
	}
	rep, err := d.Run(ctx, dream.RunOptions{})
	switch {
	case errors.Is(err, dream.ErrRunning), ctx.Err() != nil:
	case err != nil:
		s.logf("dream: %v", err)
	case len(rep.Changed) > 0 && s.onDream != nil:
		s.onDream(rep)
	}
}
