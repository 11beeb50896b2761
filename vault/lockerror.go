package vault

import (
	"errors"
	"fmt"
	"time"
)

// DefaultLockTimeout is how long a write waits for the vault lock that
// another process holds, when [WriterOptions.LockTimeout] is 0: a holder
// that is stopped (Ctrl-Z) or another user's never makes a command hang.
const DefaultLockTimeout = 5 * time.Second

// ErrLockTimeout is matched by a *LockError: the vault lock was not free
// within the time a write may wait for it.
var ErrLockTimeout = errors.New("vault: the vault lock is held by another process")

// LockError reports a lock that another process held for longer than the
// write could wait, and who holds it.
type LockError struct {
	// Path is the lock file, absolute.
	Path string
	// PID is the holder's process (0 when not known): the kernel's answer
	// where it gives one (Linux: /proc/locks), else the pid the holder
	// wrote in the lock file. User is the holder's user name ("" when not
	// known).
	PID  int
	User string
	// Waited is how long the write waited.
	Waited time.Duration
	// cause is the context's error when its deadline, not the lock
	// timeout, ended the wait.
	cause error
}

func (e *LockError) Error() string {
	who := "another process"
	if e.PID > 0 {
		who = fmt.Sprintf("pid %d", e.PID)
		if e.User != "" {
			who += " of user " + e.User
		}
	}
	return fmt.Sprintf("the lock %s is held by %s; gave up after %s (a process that is stopped, with Ctrl-Z say, holds it until it is resumed or ended)",
		e.Path, who, e.Waited.Round(time.Millisecond))
}

// Is makes errors.Is(err, ErrLockTimeout) true.
func (e *LockError) Is(target error) bool { return target == ErrLockTimeout }

// Unwrap returns the context's error when the context's deadline ended
// the wait (errors.Is(err, context.DeadlineExceeded) is then true too).
func (e *LockError) Unwrap() error { return e.cause }
