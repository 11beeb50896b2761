package watch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
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

// Running reports whether a live watcher holds the vault in dir. A
// watcher that was killed leaves no lock behind: the kernel releases it.
func Running(dir string) (bool, error) {
	p := filepath.Join(dir, filepath.FromSlash(lockFile))
	fi, err := os.Lstat(p)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err == nil && fi.Mode()&os.ModeSymlink != 0 { // never opened through a link (see vault.FileLock)
		return false, fmt.Errorf("watch: check %w", &vault.LinkError{Path: p})
	}
	fl := flock.New(p)
	ok, err := fl.TryRLock()
	if err != nil {
		return false, fmt.Errorf("watch: check %s: %w", p, err)
	}
	if ok {
		fl.Unlock()
		return false, nil
	}
	return true, nil
}
