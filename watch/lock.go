package watch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/vaultmem/vaultmem/vault"
)

// ErrRunning is returned by [New] when another watcher holds the vault.
var ErrRunning = errors.New("watch: a watcher is already running for this vault")

// lockFile is the watcher's lock, relative to the vault root. It lives in
// .vaultmem/tmp/, which git ignores. While held it holds the owner's pid.
const lockFile = vault.TmpDir + "/watch.lock"

// lock takes the vault's watcher lock. A reader checking [Running] may
// hold it for an instant, so it retries for half a second.
func lock(v *vault.Vault) (*vault.FileLock, error) {
	if err := v.EnsureDir(vault.TmpDir); err != nil { // the .gitignore first
		return nil, fmt.Errorf("watch: %w", err)
	}
	fl := v.FileLock(lockFile)
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	ok, err := fl.TryLockContext(ctx, 20*time.Millisecond)
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return nil, fmt.Errorf("watch: lock %s: %w", fl.Path(), err)
	}
	if !ok {
		if pid := fl.Holder(); pid != "" {
			return nil, fmt.Errorf("%w (pid %s; lock %s)", ErrRunning, pid, fl.Path())
		}
		return nil, fmt.Errorf("%w (lock %s)", ErrRunning, fl.Path())
	}
	fl.NoteHolder()
	return fl, nil
}

// Running reports whether a live watcher holds the vault v. A watcher
// that was killed leaves no lock behind: the kernel releases it. The
// lock file is the vault's [vault.FileLock], tried shared for an instant
// and never made: no watcher ever ran where it is missing. The error
// names the lock file: a symbolic link on its path, not a regular file,
// or the lock failing.
func Running(v *vault.Vault) (bool, error) {
	fl := v.FileLock(lockFile)
	// The checks FileLock.TryLock makes, for the shared lock it has none of.
	if err := v.CheckLinks(lockFile); err != nil {
		return false, fmt.Errorf("watch: check %w", err)
	}
	fi, err := os.Lstat(fl.Path())
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("watch: check %w", err)
	case !fi.Mode().IsRegular():
		return false, fmt.Errorf("watch: check lock %s: not a regular file", fl.Path())
	}
	ok, err := fl.TryRLock()
	if err != nil {
		return false, fmt.Errorf("watch: check %s: %w", fl.Path(), err)
	}
	if ok {
		fl.Unlock()
		return false, nil
	}
	return true, nil
}
