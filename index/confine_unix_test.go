//go:build unix

package index

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/gofrs/flock"
	"github.com/vaultmem/vaultmem/vault"
)

// TestCacheNeverThroughALink: the cache folder, or a file of the cache,
// is a symbolic link to another user's folder or file (a shared vault).
// Open and Remove refuse it, naming the link, and never write, rebuild or
// delete what it leads to: a file there that is no database (which a
// rebuild would delete) is left byte for byte.
func TestCacheNeverThroughALink(t *testing.T) {
	const garbage = "not a database, another user's file\n"
	for _, tc := range []struct {
		name, link, target string
	}{
		{"the cache folder", "cache", "theirs"},
		{"the database", "cache/" + DBFile, "theirs/" + DBFile},
		{"its write-ahead log", "cache/" + DBFile + "-wal", "theirs/" + DBFile},
		{"the vector pack", "cache/" + packFile, "theirs/" + DBFile},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			theirs := filepath.Join(out, "theirs")
			if err := os.Mkdir(theirs, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(theirs, DBFile), []byte(garbage), 0o644); err != nil {
				t.Fatal(err)
			}
			cache := filepath.Join(t.TempDir(), "cache")
			if tc.link != "cache" {
				if err := os.Mkdir(cache, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			at := filepath.Join(filepath.Dir(cache), filepath.FromSlash(tc.link))
			if err := os.Symlink(filepath.Join(out, filepath.FromSlash(tc.target)), at); err != nil {
				t.Fatal(err)
			}
			check := func(what string, err error) {
				t.Helper()
				var le *vault.LinkError
				if !errors.As(err, &le) || le.Path != at {
					t.Errorf("%s: %v, want a *vault.LinkError naming %s", what, err, at)
				}
				entries, _ := os.ReadDir(theirs)
				if b, _ := os.ReadFile(filepath.Join(theirs, DBFile)); string(b) != garbage || len(entries) != 1 {
					t.Errorf("%s: their folder holds %d files, their file %q", what, len(entries), b)
				}
			}
			ix, err := Open(context.Background(), cache, Options{NoVectors: true})
			if err == nil {
				ix.Close()
			}
			check("Open", err)
			check("Remove", Remove(cache))
		})
	}
}

// TestOpenNeverWaitsForeverForTheCacheLock: a process that holds the
// cache's lock (a rebuild) and is stopped never makes Open hang: it fails
// with a *vault.LockError naming the holder (here this process, as the
// kernel says on Linux).
func TestOpenNeverWaitsForeverForTheCacheLock(t *testing.T) {
	dir := t.TempDir()
	held := flock.New(filepath.Join(dir, DBFile+".lock"))
	if err := held.Lock(); err != nil {
		t.Fatal(err)
	}
	defer held.Unlock()
	ix, err := Open(context.Background(), dir, Options{NoVectors: true})
	if err == nil {
		ix.Close()
	}
	var le *vault.LockError
	if !errors.As(err, &le) || !errors.Is(err, vault.ErrLockTimeout) || le.Path != held.Path() {
		t.Fatalf("Open while another holds the cache lock: %v, want a *vault.LockError", err)
	}
	if runtime.GOOS == "linux" && le.PID != os.Getpid() {
		t.Errorf("the holder is pid %d, want this process, %d", le.PID, os.Getpid())
	}
}
