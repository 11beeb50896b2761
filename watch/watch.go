package watch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/vault"
)

// Options configure a Watcher. The zero value works.
type Options struct {
	// Debounce is how long the vault must stay quiet before a batch is
	// synced; 0 means 25 ms.
	Debounce time.Duration
	// MaxDelay bounds how long a continuous stream of events can put a
	// sync off; 0 means 2 s.
	MaxDelay time.Duration
	// PackDelay is how long after the last sync the vector pack is
	// written for other processes (see index.Index.Pack); 0 means 1 s.
	PackDelay time.Duration
	// OnBatch, if set, is called after each applied sync, from the
	// watcher's goroutine.
	OnBatch func(Batch)
}

func (o Options) debounce() time.Duration  { return orDefault(o.Debounce, 25*time.Millisecond) }
func (o Options) maxDelay() time.Duration  { return orDefault(o.MaxDelay, 2*time.Second) }
func (o Options) packDelay() time.Duration { return orDefault(o.PackDelay, time.Second) }

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// Batch is what one sync applied.
type Batch struct {
	// Time is when the sync finished.
	Time time.Time
	// Paths are the vault paths whose events made the batch (sorted,
	// deduplicated); the sync itself looks at every file.
	Paths []string
	// Rescan says the batch was a full rescan: the start, an event queue
	// overflow, or a folder that appeared, moved or went.
	Rescan bool
	// Stats is the sync's result.
	Stats index.Stats
	// Err is the sync's error, if it failed (the watcher carries on and
	// tries again at the next event).
	Err error
}

// Index is what a watcher needs of the index: *index.Index is one.
type Index interface {
	// Sync brings the index up to date with the vault in fsys.
	Sync(ctx context.Context, fsys fs.FS, progress index.Progress) (index.Stats, error)
	// SyncPaths brings the files at paths up to date, without a walk.
	SyncPaths(ctx context.Context, fsys fs.FS, paths []string) (index.Stats, error)
	// Pack writes what other processes load quickly (see index.Index.Pack).
	Pack(ctx context.Context) error
}

var _ Index = (*index.Index)(nil)

// Watcher keeps an index current with its vault. Make one with [New]; it
// does nothing until [Watcher.Run].
type Watcher struct {
	v    *vault.Vault
	ix   Index
	opts Options
	lock *vault.FileLock

	mu      sync.Mutex
	fsw     *fsnotify.Watcher
	watched map[string]bool // vault-relative folders with a watch ("." is the root)
	// walked is when the last sync walked the whole vault.
	walked time.Time
}

// fullSyncEvery is how often a batch walks the whole vault although its
// events named the paths that changed: a safety net for events the
// operating system dropped without saying so.
const fullSyncEvery = time.Minute

// New prepares a watcher of the vault in dir that syncs into ix, taking
// the vault's watcher lock. It returns an error wrapping [ErrRunning]
// (and naming the owner's pid) when another watcher holds the vault.
func New(v *vault.Vault, ix Index, opts Options) (*Watcher, error) {
	fl, err := lock(v)
	if err != nil {
		return nil, err
	}
	return &Watcher{v: v, ix: ix, opts: opts, lock: fl, watched: map[string]bool{}}, nil
}

// Close releases the lock. Call it after Run returns.
func (w *Watcher) Close() error {
	return w.lock.Unlock()
}

// Run syncs the index once, then watches the vault and syncs after every
// burst of changes until ctx ends; then it returns nil. It fails only
// when the vault cannot be watched at all.
func (w *Watcher) Run(ctx context.Context) error {
	fsw, err := fsnotify.NewBufferedWatcher(4096)
	if err != nil {
		return fmt.Errorf("watch: %w", err)
	}
	defer fsw.Close()
	w.mu.Lock()
	w.fsw = fsw
	w.mu.Unlock()

	pending := map[string]bool{}
	rescan := true
	var first time.Time // the oldest event not yet synced
	quiet := time.NewTimer(0)
	pack := time.NewTimer(time.Hour)
	pack.Stop()
	defer quiet.Stop()
	defer pack.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-fsw.Events:
			if !ok {
				return nil
			}
			p, keep := w.relevant(ev)
			if !keep {
				continue
			}
			pending[p] = true
			if ev.Has(fsnotify.Create) || ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
				if w.isFolder(p) || w.wasFolder(p) {
					rescan = true // folders to watch or drop
				}
			}
			if first.IsZero() {
				first = time.Now()
			}
			wait := min(w.opts.debounce(), time.Until(first.Add(w.opts.maxDelay())))
			quiet.Reset(max(wait, 0))
		case err, ok := <-fsw.Errors:
			if !ok {
				return nil
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				rescan = true
				quiet.Reset(w.opts.debounce())
			}
		case <-quiet.C:
			b := w.sync(ctx, pending, rescan)
			if ctx.Err() != nil {
				return nil
			}
			pending, rescan, first = map[string]bool{}, false, time.Time{}
			if w.opts.OnBatch != nil {
				w.opts.OnBatch(b)
			}
			pack.Reset(w.opts.packDelay())
		case <-pack.C:
			w.ix.Pack(ctx) // a failure only slows other processes' first vector search
		}
	}
}

// sync reconciles the watches with the folders on disk (on a rescan),
// then syncs the index: the paths the events named, or, on a rescan (a
// folder came or went, events were dropped) and once a minute, the whole
// vault, whose walk finds a new folder's files written before its watch
// existed.
//
// A panic in the sync (a bug that some note's content triggers) is
// recovered and reported as the batch's error: the watcher goes on.
func (w *Watcher) sync(ctx context.Context, pending map[string]bool, rescan bool) (b Batch) {
	b = Batch{Rescan: rescan, Paths: sortedKeys(pending)}
	defer func() {
		if r := recover(); r != nil {
			b.Time, b.Err = time.Now(), fmt.Errorf("watch: internal error while syncing (please report it): %v", r)
		}
	}()
	if rescan {
		if err := w.reconcile(); err != nil {
			b.Err = err
		}
	}
	var st index.Stats
	var err error
	if rescan || time.Since(w.walked) > fullSyncEvery {
		st, err = w.ix.Sync(ctx, w.v.FS(), nil)
		w.walked = time.Now()
	} else {
		st, err = w.ix.SyncPaths(ctx, w.v.FS(), b.Paths)
	}
	b.Stats, b.Time = st, time.Now()
	if b.Err == nil {
		b.Err = err
	}
	return b
}

// relevant turns an event into a vault path, dropping what is not the
// vault's: dot-folders (.obsidian, .git, .vaultmem, .trash), dot-files
// and editors' temp files.
func (w *Watcher) relevant(ev fsnotify.Event) (string, bool) {
	rel, err := filepath.Rel(w.v.Dir, ev.Name)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return "", false
	}
	p := filepath.ToSlash(rel)
	if vault.IsHidden(p) {
		return "", false
	}
	return p, true
}

// isFolder reports whether p is a folder now.
func (w *Watcher) isFolder(p string) bool {
	info, err := w.v.Root().Lstat(filepath.FromSlash(p))
	return err == nil && info.IsDir()
}

// wasFolder reports whether p is a watched folder (it may be gone).
func (w *Watcher) wasFolder(p string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.watched[p]
}

// reconcile adds a watch to every folder of the vault that lacks one and
// drops the watches of folders that are gone.
func (w *Watcher) reconcile() error {
	want := map[string]bool{}
	err := fs.WalkDir(w.v.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == "." {
				return err
			}
			return nil // a folder that went mid-walk
		}
		if !d.IsDir() {
			return nil
		}
		if p != "." && strings.HasPrefix(d.Name(), ".") {
			return fs.SkipDir
		}
		want[p] = true
		return nil
	})
	if err != nil {
		return fmt.Errorf("watch: list folders: %w", err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for p := range w.watched {
		if !want[p] {
			w.fsw.Remove(w.v.Abs(p)) // gone already: an error we need not see
			delete(w.watched, p)
		}
	}
	var failed []string
	for p := range want {
		if w.watched[p] {
			continue
		}
		if err := w.fsw.Add(w.v.Abs(p)); err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				failed = append(failed, p+": "+err.Error())
			}
			continue
		}
		w.watched[p] = true
	}
	if len(failed) > 0 {
		return fmt.Errorf("watch: cannot watch %d folder(s): %s", len(failed), strings.Join(failed, "; "))
	}
	return nil
}

// Folders returns how many folders are watched.
func (w *Watcher) Folders() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.watched)
}
