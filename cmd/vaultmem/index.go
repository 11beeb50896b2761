package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/embed"
	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/vault"
	"github.com/vaultmem/vaultmem/watch"
)

// openIndex opens the vault's index with the configured embedder;
// resident is for a long-running process (see index.Options.Resident).
func (s *session) openIndex(ctx context.Context, resident bool) (*index.Index, error) {
	opts := index.Options{MaxNoteSize: s.cfg.MaxNoteSize, ChunkTokens: s.cfg.ChunkTokens, Resident: resident}
	e := s.cfg.Embedder
	switch e.Provider {
	case "none":
		opts.NoVectors = true
	case "openai":
		key := ""
		if e.APIKeyEnv != "" {
			key = os.Getenv(e.APIKeyEnv)
		}
		oa, err := embed.NewOpenAI(embed.OpenAIOptions{URL: e.URL, Model: e.Model, APIKey: key, Dimensions: e.Dimensions, Timeout: e.Timeout})
		if err != nil {
			return nil, fmt.Errorf("embedder: %w", err)
		}
		opts.Embedder = oa
	case "llama":
		l, err := embed.NewLlama(e.ModelPath, e.GPULayers)
		if err != nil {
			return nil, fmt.Errorf("embedder: %w", err)
		}
		opts.Embedder = l
	}
	// The .gitignore first, so git never sees the cache; a vault that
	// cannot be written gets a read-only or in-memory index (index.Open).
	_ = s.v.EnsureDir(vault.CacheDir)
	return index.Open(ctx, s.cacheDir(), opts)
}

// cacheDir is the sidecar cache folder.
func (s *session) cacheDir() string {
	return s.v.Abs(vault.CacheDir)
}

// openIndexed opens the vault and its index; the caller closes the
// session, which closes both. A command a running server answers gets the
// server's (see serve.go), which closing leaves open.
func (a *app) openIndexed(ctx context.Context, resident bool) (*session, *index.Index, error) {
	if a.served != nil {
		s := *a.served
		s.stderr = a.stderr
		return &s, s.ix, nil
	}
	s, err := a.open()
	if err != nil {
		return nil, nil, err
	}
	ix, err := s.openIndex(ctx, resident)
	if err != nil {
		s.Close()
		return nil, nil, err
	}
	s.ix = ix
	return s, ix, nil
}

// syncIndex brings the index up to date for a reader (search, recall):
// it does nothing while a live watcher keeps the cache current. It warns
// of what it found in the files it read (see warn).
func (a *app) syncIndex(ctx context.Context, s *session, ix *index.Index) (index.Stats, error) {
	if running, err := watch.Running(s.v.Dir); err == nil && running {
		return index.Stats{}, nil
	}
	st, err := a.syncNow(ctx, s, ix, true)
	a.warn(st)
	return st, err
}

// searchWhileSyncing runs find on the index as it is while syncIndex
// brings it up to date, and keeps find's answer when the sync changed
// nothing searches see (the index's version is the same after the sync as
// before find began); otherwise, or when find failed, it runs find again
// on the synced index. A one-shot search so overlaps its stat walk with
// the search, on a machine with a core for each. early tells find whether
// it runs beside the sync, competing with it for the cores (recall then
// runs its stages without their deadlines, which the competition would
// cut short).
func searchWhileSyncing[T any](ctx context.Context, a *app, s *session, ix *index.Index, find func(ctx context.Context, early bool) (T, error)) (T, index.Stats, error) {
	var zero T
	before, err := ix.Version(ctx)
	if err != nil {
		return zero, index.Stats{}, err
	}
	type answer struct {
		v   T
		err error
	}
	early := make(chan answer, 1)
	go func() {
		v, err := find(ctx, true)
		early <- answer{v, err}
	}()
	st, err := a.syncIndex(ctx, s, ix)
	got := <-early // always: the index must not close under find
	if err != nil {
		return zero, st, err
	}
	if err := a.requireBuilt(ctx, ix); err != nil {
		return zero, st, err
	}
	after, err := ix.Version(ctx)
	if err != nil {
		return zero, st, err
	}
	if got.err == nil && after == before {
		return got.v, st, nil
	}
	v, err := find(ctx, false)
	return v, st, err
}

// syncText is syncIndex for a reader that does no vector search (show,
// links, list, tasks): new chunks get their vectors at the next sync that
// needs them, so this one need not load the embedder and the vectors.
func (a *app) syncText(ctx context.Context, s *session, ix *index.Index) (index.Stats, error) {
	if running, err := watch.Running(s.v.Dir); err == nil && running {
		return index.Stats{}, nil
	}
	st, err := a.syncNow(ctx, s, ix, false)
	a.warn(st)
	return st, err
}

// syncNow brings the index up to date, showing progress on a terminal;
// with vectors, the new chunks' vectors too.
func (a *app) syncNow(ctx context.Context, s *session, ix *index.Index, vectors bool) (index.Stats, error) {
	if why := ix.RebuiltBecause(); why != "" && !a.quiet {
		fmt.Fprintf(a.stderr, "warning: the index cache could not be used (%s); rebuilding it\n", why)
	}
	bar := newProgress(a.stderr, "indexing")
	sync := ix.Sync
	if !vectors {
		sync = ix.SyncWithoutVectors
	}
	st, err := sync(ctx, s.v.FS(), bar.update)
	bar.done()
	if err != nil {
		return st, err
	}
	if !a.quiet {
		switch {
		case ix.InMemory():
			fmt.Fprintf(a.stderr, "warning: %s; indexed in memory for this command only\n", ix.ReadOnly())
		case st.ReadOnly != "" && st.Stale > 0:
			fmt.Fprintf(a.stderr, "warning: %s; answering from the index as it is, which misses %d changed files\n", st.ReadOnly, st.Stale)
		}
	}
	if !vectors {
		return st, nil
	}
	// Later commands load the vectors from the pack in milliseconds.
	return st, ix.Pack(ctx)
}

// requireBuilt refuses to answer from an index no sync has filled: its
// empty answer would say nothing about the vault.
func (a *app) requireBuilt(ctx context.Context, ix *index.Index) error {
	built, err := ix.Built(ctx)
	if err != nil {
		return err
	}
	if !built {
		return fmt.Errorf("the index %s is empty: it has not been built yet (run 'vaultmem index')", ix.Path())
	}
	return nil
}

func (a *app) indexCommand() *cli.Command {
	return &cli.Command{
		Name:  "index",
		Usage: "bring the search index (.vaultmem/cache) up to date with the notes",
		Description: "Re-reads only notes that changed since the last run; --rebuild starts from nothing.\n" +
			"With --json: {notes, chunks, parsed, removed, embedded, skipped: [{path, error}],\n" +
			"warnings: [{path, error}], ms}. Search and recall do this themselves before answering.",
		Flags: []cli.Flag{
			jsonFlag(),
			&cli.BoolFlag{Name: "rebuild", Usage: "delete the cache and index every note again"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			s, err := a.open()
			if err != nil {
				return err
			}
			defer s.Close()
			if cmd.Bool("rebuild") {
				if err := index.Remove(s.cacheDir()); err != nil {
					return err
				}
			}
			ix, err := s.openIndex(ctx, false)
			if err != nil {
				return err
			}
			defer ix.Close()
			if why := ix.ReadOnly(); why != "" {
				return fmt.Errorf("cannot update the index: %s", why)
			}
			st, err := a.syncNow(ctx, s, ix, true)
			if err != nil {
				return err
			}
			if cmd.Bool("json") {
				return a.printJSON(struct {
					index.Stats
					MS int64 `json:"ms"`
				}{st, st.Duration.Milliseconds()})
			}
			fmt.Fprintf(a.stdout, "%d notes, %d chunks: %d parsed, %d removed, %d embedded in %v\n",
				st.Notes, st.Chunks, st.Parsed, st.Removed, st.Embedded, st.Duration.Round(time.Millisecond))
			for _, sk := range st.Skipped {
				fmt.Fprintf(a.stdout, "skipped %s: %s\n", sk.Path, sk.Error)
			}
			if !a.quiet {
				for _, w := range st.Warnings {
					fmt.Fprintf(a.stderr, "warning: %s\n", w.Error)
				}
			}
			if st.EmbedError != "" {
				fmt.Fprintf(a.stderr, "warning: no vectors for %s; keyword search still works\n", st.EmbedError)
			}
			return nil
		},
	}
}

// progress draws a one-line progress bar on a terminal; elsewhere it does
// nothing. Short runs draw nothing.
type progress struct {
	w       io.Writer
	label   string
	tty     bool
	start   time.Time
	drawn   bool
	lastErr time.Time
}

func newProgress(w io.Writer, label string) *progress {
	p := &progress{w: w, label: label, start: time.Now()}
	if f, ok := w.(*os.File); ok {
		if info, err := f.Stat(); err == nil && info.Mode()&os.ModeCharDevice != 0 {
			p.tty = true
		}
	}
	return p
}

func (p *progress) update(done, total int) {
	if !p.tty || time.Since(p.start) < 300*time.Millisecond || time.Since(p.lastErr) < 100*time.Millisecond && done < total {
		return
	}
	p.lastErr = time.Now()
	const width = 30
	fill := width * done / max(total, 1)
	fmt.Fprintf(p.w, "\r%s %d/%d [%s%s] %3d%%", p.label, done, total, strings.Repeat("=", fill), strings.Repeat(" ", width-fill), 100*done/max(total, 1))
	p.drawn = true
}

func (p *progress) done() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
