package app

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/vaultmem/vaultmem/vault"
)

// foldersStampFile, in the cache folder, holds the modification time of
// each folder of the vault as the last sync with vectors found them before
// its walk (a sync without them leaves the new chunks' vectors to the next
// one, which then changes the index).
// A note added, removed or renamed, or written as vaultmem and many
// editors write one (a new file renamed over it), changes its folder's
// time; a note edited in place changes no folder. So the stamp can only
// say that a sync will find changes, never that it will not: it orders
// the work (see WhileSyncing), it skips none.
const foldersStampFile = "folders.stamp"

// folderStamp is the vault's folders stamp (see foldersStampFile).
type folderStamp struct{ v *vault.Vault }

// folderStamp is the stamp of a's vault's folders.
func (a *App) folderStamp() folderStamp { return folderStamp{a.Vault} }

// times lists the vault's folders that are not hidden, the vault's
// own first, each with its modification time, one "time<TAB>path" line
// each. It reads only the folders whose time is not the one the stamp
// holds (a folder's subfolders change only with its time): a vault of
// 13,400 notes in 30 folders is 30 stats, where reading every folder
// takes milliseconds.
func (st folderStamp) times(ctx context.Context) (string, error) {
	before, subs := st.read()
	times, err := st.timesFrom(ctx, before, subs)
	if err != nil && before != nil && ctx.Err() == nil {
		// A folder the stamp names is gone (its parent's time would have
		// said so, unless the stamp is not the vault's): read them all.
		times, err = st.timesFrom(ctx, nil, nil)
	}
	return times, err
}

// timesFrom is folderTimes after the stamp's times and subfolders.
func (st folderStamp) timesFrom(ctx context.Context, before map[string]int64, subs map[string][]string) (string, error) {
	fsys := st.v.FS()
	var b strings.Builder
	var walk func(dir string) error
	walk = func(dir string) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		info, err := fs.Stat(fsys, dir)
		if err != nil {
			return err
		}
		t := info.ModTime().UnixNano()
		fmt.Fprintf(&b, "%d\t%s\n", t, dir)
		children, known := subs[dir]
		if was, ok := before[dir]; !ok || was != t || !known {
			entries, err := fs.ReadDir(fsys, dir)
			if err != nil {
				return err
			}
			children = nil
			for _, e := range entries {
				// A link to a folder is not followed, as the sync does not.
				if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
					children = append(children, path.Join(dir, e.Name()))
				}
			}
		}
		for _, c := range children {
			if err := walk(c); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk("."); err != nil {
		return "", fmt.Errorf("list the folders of %s: %w", st.v.Dir, err)
	}
	return b.String(), nil
}

// read is the stamp's times by folder, and each folder's
// subfolders in it (every folder it lists has an entry, maybe empty);
// nothing when there is none or it does not parse.
func (st folderStamp) read() (times map[string]int64, subs map[string][]string) {
	b, err := os.ReadFile(st.path())
	if err != nil {
		return nil, nil
	}
	times, subs = map[string]int64{}, map[string][]string{}
	for line := range strings.Lines(string(b)) {
		ts, dir, ok := strings.Cut(strings.TrimSuffix(line, "\n"), "\t")
		t, err := strconv.ParseInt(ts, 10, 64)
		if !ok || err != nil || !fs.ValidPath(dir) {
			return nil, nil
		}
		times[dir] = t
		if _, ok := subs[dir]; !ok {
			subs[dir] = nil
		}
		if dir != "." {
			subs[path.Dir(dir)] = append(subs[path.Dir(dir)], dir)
		}
	}
	return times, subs
}

// path is where the stamp is kept.
func (st folderStamp) path() string {
	return filepath.Join(st.v.Abs(vault.CacheDir), foldersStampFile)
}

// changed reports whether a folder of the vault changed since the
// last sync listed them (or there is no stamp): a sync now will find
// something to do. It stats the folders the stamp names, no file.
func (st folderStamp) changed() bool {
	times, _ := st.read()
	if len(times) == 0 {
		return true
	}
	fsys := st.v.FS()
	for dir, want := range times {
		info, err := fs.Stat(fsys, dir)
		if err != nil || !info.IsDir() || info.ModTime().UnixNano() != want {
			return true
		}
	}
	return false
}

// write leaves the folders' times a sync that began after they
// were taken saw. Not written, the next prompt's hook only syncs before
// it searches rather than beside.
func (st folderStamp) write(times string) { writeStamp(st.path(), times) }

// writeStamp leaves text in the cache file p unless it holds it already.
// A stamp is a cache: a failure to write it costs the next command a
// sync, no more.
func writeStamp(p, text string) {
	if b, err := os.ReadFile(p); err == nil && string(b) == text {
		return
	}
	_ = vault.WriteCacheFile(p, func(w io.Writer) error {
		_, err := io.WriteString(w, text)
		return err
	})
}
