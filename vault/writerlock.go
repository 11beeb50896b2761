package vault

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// acquire takes the Writer's turn among goroutines, then the vault lock
// among processes, waiting no longer than the Writer's lock timeout or
// ctx allows. It returns the function that releases them.
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
	ok, err := w.lock.TryLock() // never through a link (see FileLock.TryLock)
	if err == nil && !ok {
		ok, err = w.waitLock(ctx)
	}
	var le *LockError
	if errors.As(err, &le) || errors.Is(err, ErrLink) {
		return nil, err // it names the lock
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
// LockWait after lockPatience, until the lock timeout or ctx's deadline,
// whichever comes first: then it returns a *LockError naming the holder.
// ctx's cancellation is returned as it is.
func (w *Writer) waitLock(ctx context.Context) (bool, error) {
	start := time.Now()
	limit := w.opts.LockTimeout
	if limit <= 0 {
		limit = DefaultLockTimeout
	}
	tctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	ok, err := false, error(nil)
	if w.opts.LockWait != nil && lockPatience < limit {
		pctx, pcancel := context.WithTimeout(tctx, lockPatience)
		ok, err = w.lock.TryLockContext(pctx, lockRetry)
		pcancel()
		if !ok && tctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
			w.opts.LockWait(w.lock.Holder())
			ok, err = w.lock.TryLockContext(tctx, lockRetry)
		}
	} else {
		ok, err = w.lock.TryLockContext(tctx, lockRetry)
	}
	switch {
	case ok:
		return true, nil
	case errors.Is(ctx.Err(), context.Canceled):
		return false, ctx.Err()
	case err != nil && !errors.Is(err, context.DeadlineExceeded):
		return false, err
	}
	pid, user := w.lock.Who()
	return false, &LockError{Path: w.lock.Path(), PID: pid, User: user, Waited: time.Since(start), cause: ctx.Err()}
}
