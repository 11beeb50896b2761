package vault

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// The paths vaultmem owns in a vault, relative to its root and
// slash-separated. Everything under [DotDir] but the config and the state
// is rebuildable or per machine, and kept out of git by [GitignoreFile].
const (
	// DotDir is vaultmem's folder; a vault is a folder holding it.
	DotDir = ".vaultmem"
	// ConfigFile holds the vault's settings (committed).
	ConfigFile = DotDir + "/config.yaml"
	// GitignoreFile keeps the cache, temp files and locks out of git.
	GitignoreFile = DotDir + "/.gitignore"
	// CacheDir holds the sidecar index (git-ignored, rebuildable).
	CacheDir = DotDir + "/cache"
	// TmpDir holds temp files of atomic writes and the watcher's lock
	// (git-ignored).
	TmpDir = DotDir + "/tmp"
	// StateDir holds what must survive a cache wipe: focus pointers,
	// checkpoints (committed).
	StateDir = DotDir + "/state"
	// LockFile serialises vaultmem's writes across processes
	// (git-ignored).
	LockFile = DotDir + "/lock"
	// MemoryIndexFile is the index of memories an agent loads at start.
	MemoryIndexFile = "MEMORY.md"
)

// GitignoreText is what [EnsureDir] writes to [GitignoreFile]: the cache,
// temp files and the writer's lock stay out of git; the config and state/
// are committed.
const GitignoreText = "# vaultmem: rebuildable cache, temp files and the writer's lock\ncache/\ntmp/\nlock\n"

// EnsureDir creates the folder rel (slash-separated, under [DotDir]) in the
// vault at dir, with its parents. Whenever it creates [DotDir], or finds it
// without a .gitignore, it writes [GitignoreFile] first, so that no cache
// or lock file is ever seen by git before its ignore rule. An existing
// .gitignore is never changed. It returns the error of the first thing it
// could not create (on a read-only vault, say), naming the path.
func EnsureDir(dir, rel string) error {
	dot := filepath.Join(dir, DotDir)
	if err := os.Mkdir(dot, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("create %s: %w", dot, unwrapPathError(err))
	}
	if err := writeNew(filepath.Join(dir, filepath.FromSlash(GitignoreFile)), GitignoreText); err != nil {
		return err
	}
	if rel == "" || rel == DotDir {
		return nil
	}
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(p, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", p, unwrapPathError(err))
	}
	return nil
}

// writeNew writes text to a new file at p; an existing file is left as it
// is.
func writeNew(p, text string) error {
	if _, err := os.Lstat(p); err == nil {
		return nil
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("create %s: %w", p, unwrapPathError(err))
	}
	_, err = f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(p)
		return fmt.Errorf("write %s: %w", p, err)
	}
	return nil
}
