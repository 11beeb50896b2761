package vault

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gofrs/flock"
)

// FileLock is one of vaultmem's lock files under .vaultmem (the writer's,
// the watcher's, Dream's): held by one process at a time and released by
// the kernel when the process dies, never opened through a symbolic link,
// and naming its holder's pid (see NoteHolder) for the next process that
// has to wait. Its flock methods (TryLock, TryLockContext, Unlock, Path)
// are those of github.com/gofrs/flock. Make one with [Vault.FileLock].
type FileLock struct {
	*flock.Flock
	v   *Vault
	rel string
}

// FileLock returns the lock file at rel, a slash path under [DotDir]
// ([LockFile], or a file under [TmpDir]); it creates nothing until it is
// locked.
func (v *Vault) FileLock(rel string) *FileLock {
	return &FileLock{Flock: NewLockAt(v.Abs(rel)), v: v, rel: rel}
}

// NewLockAt returns a lock on the file at path, an absolute path outside
// a Vault's own folders (an index's cache lock, whose folder a caller
// chose), opened as a FileLock's: created if missing, never through a
// symbolic link in its place and never waiting on a FIFO (on Unix). The
// caller checks the folders above it (see CheckNotLink).
func NewLockAt(path string) *flock.Flock {
	return flock.New(path, flock.SetPermissions(0o644), flock.SetFlag(lockFlag()))
}

// check refuses a lock file that is a symbolic link, or under one, or
// is not a regular file (a FIFO, a folder): the lock is taken on nothing
// but a file of vaultmem's.
func (l *FileLock) check() error {
	if err := l.v.CheckLinks(l.rel); err != nil {
		return err
	}
	fi, err := l.v.root.Lstat(filepath.FromSlash(l.rel))
	if err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("lock %s: not a regular file", l.Path())
	}
	return nil
}

// TryLock is flock's TryLock, once the lock file is checked: no symbolic
// link on its path (a *LinkError), a regular file if it exists.
func (l *FileLock) TryLock() (bool, error) {
	if err := l.check(); err != nil {
		return false, err
	}
	return l.Flock.TryLock()
}

// TryLockContext is flock's TryLockContext, once the lock file is checked
// as TryLock checks it.
func (l *FileLock) TryLockContext(ctx context.Context, retryDelay time.Duration) (bool, error) {
	if err := l.check(); err != nil {
		return false, err
	}
	return l.Flock.TryLockContext(ctx, retryDelay)
}

// Lock is flock's Lock, once the lock file is checked as TryLock checks
// it. It waits as long as the holder holds the lock: vaultmem's commands
// use TryLockContext, with a limit.
func (l *FileLock) Lock() error {
	if err := l.check(); err != nil {
		return err
	}
	return l.Flock.Lock()
}

// Holder is the pid of the lock's holder as [FileLock.Who] finds it, ""
// when it is not known.
func (l *FileLock) Holder() string {
	if pid, _ := l.Who(); pid > 0 {
		return strconv.Itoa(pid)
	}
	return ""
}

// Who is the process holding the lock and its user, as far as they can
// be known (0 and "" otherwise): where the kernel says who holds a lock
// on the file (Linux's /proc/locks, matched by the file's device and
// inode), its answer, since the pid in the file is only what the last
// holder that could write it wrote (a holder of another user cannot);
// else that pid. The user is the process's owner, else the lock file's.
// It reads the lock file without following a symbolic link.
func (l *FileLock) Who() (pid int, user string) {
	name := filepath.FromSlash(l.rel)
	fi, err := l.v.root.Lstat(name)
	if err != nil || !fi.Mode().IsRegular() {
		return 0, ""
	}
	if pid = kernelHolder(fi); pid > 0 {
		return pid, processUser(pid)
	}
	b, err := l.v.root.ReadFile(name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) || len(b) > 64 {
		return 0, ""
	}
	if pid, err = strconv.Atoi(strings.TrimSpace(string(b))); err != nil || pid <= 0 {
		return 0, ""
	}
	if user = processUser(pid); user == "" {
		user = fileUser(fi)
	}
	return pid, user
}

// LockHolder is who holds a lock on the file at the absolute path p, as
// [FileLock.Who] finds it for a lock of the vault's, for lock files that
// are not (the index's): the kernel's answer where it gives one, else the
// pid written in the file. 0 and "" when not known. It does not follow a
// symbolic link.
func LockHolder(p string) (pid int, user string) {
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return 0, ""
	}
	if pid = kernelHolder(fi); pid > 0 {
		return pid, processUser(pid)
	}
	return 0, ""
}
