package vault

import (
	"context"
	"errors"
	"fmt"
)

// acquire takes the Writer's turn among goroutines, then the vault lock
// among processes, both as long as ctx allows. It returns the function that
// releases them.
func (w *Writer) acquire(ctx context.Context) (unlock func() error, err error) {
	select {
	case w.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("wait for the vault lock: %w", ctx.Err())
	}
	defer func() {
		if err != nil {
			<-w.sem
		}
	}()
	// The lock file lives in .vaultmem, which a fresh vault or a wiped cache
	// may lack; creating tmp creates both, and the .gitignore first.
	if err := w.v.EnsureDir(TmpDir); err != nil {
		return nil, err
	}
	if _, err := w.inside(w.v.Abs(TmpDir), TmpDir); err != nil {
		return nil, err
	}
	ok, err := w.lock.TryLock()
	if err == nil && !ok {
		ok, err = w.waitLock(ctx)
	}
	if err != nil {
		return nil, fmt.Errorf("lock vault (%s): %w", w.lock.Path(), err)
	}
	if !ok {
		return nil, fmt.Errorf("lock vault (%s): not acquired", w.lock.Path())
	}
	w.lock.NoteHolder()
	return func() error {
		defer func() { <-w.sem }()
		if err := w.lock.Unlock(); err != nil {
			return fmt.Errorf("unlock vault: %w", err)
		}
		return nil
	}, nil
}

// waitLock waits for the vault lock another process holds, telling
// LockWait after lockPatience.
func (w *Writer) waitLock(ctx context.Context) (bool, error) {
	if w.opts.LockWait != nil {
		pctx, cancel := context.WithTimeout(ctx, lockPatience)
		ok, err := w.lock.TryLockContext(pctx, lockRetry)
		cancel()
		if ok || ctx.Err() != nil || err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return ok, err
		}
		w.opts.LockWait(w.lock.Holder())
	}
	return w.lock.TryLockContext(ctx, lockRetry)
}
