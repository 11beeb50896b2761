package vault

import (
	"os"
	"strings"

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
	return &FileLock{Flock: flock.New(v.Abs(rel), flock.SetPermissions(0o644), flock.SetFlag(lockFlag())), v: v, rel: rel}
}

// Holder is the pid the lock's holder wrote, "" when it wrote none.
func (l *FileLock) Holder() string {
	b, err := os.ReadFile(l.Path())
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
