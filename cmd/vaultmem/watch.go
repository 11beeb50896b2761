package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/dream"
	"github.com/vaultmem/vaultmem/watch"
)

func (a *app) watchCommand() *cli.Command {
	return &cli.Command{
		Name:  "watch",
		Usage: "keep the index current while the vault is edited (runs until Ctrl-C)",
		Description: "Syncs the index, then watches every folder of the vault and syncs again after each burst\n" +
			"of changes (an editor's save, a git checkout, an agent's write), about 100 ms after it ends.\n" +
			"While it runs, search and recall skip their own sync, and MEMORY.md keeps listing the memories\n" +
			"however they are edited. One watcher runs per vault.\n" +
			"It also runs Dream when its gate opens (dream.auto, every, writes, quiet in the config).\n" +
			"With --json, one line per applied change: {event: \"sync\", time, paths, parsed, removed,\n" +
			"embedded, notes, chunks, ms, rescan, error}, and one per Dream that changed something:\n" +
			"{event: \"dream\", time, summary, report} (report as dream --json prints it).",
		Flags: []cli.Flag{jsonFlag()},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			longRunning()
			// Resident: the keyword index stays in memory, for the queries
			// this process answers for the CLI (see serve.go).
			s, ix, err := a.openIndexed(ctx, true)
			if err != nil {
				return err
			}
			defer s.Close() // and the index
			var last time.Time
			var out sync.Mutex // the watcher and Dream print from two goroutines: whole lines
			keep := &keeper{store: s.store(ix), gate: s.dreamGate(), logf: func(format string, args ...any) {
				out.Lock()
				defer out.Unlock()
				fmt.Fprintf(a.stderr, "warning: "+format+"\n", args...)
			}, onDream: func(rep *dream.Report) {
				out.Lock()
				defer out.Unlock()
				a.printDreamEvent(rep, cmd.Bool("json"))
			}}
			if s.cfg.Dream.Auto {
				keep.dreamer = s.dreamer(ix)
			}
			w, err := watch.New(s.v, ix, watch.Options{OnBatch: func(b watch.Batch) {
				keep.afterBatch(ctx, b)
				out.Lock()
				defer out.Unlock()
				a.printBatch(b, cmd.Bool("json"), &last)
			}})
			if errors.Is(err, watch.ErrRunning) {
				return codedError{err, exitConflict}
			}
			if err != nil {
				return err
			}
			defer w.Close()
			// CLI processes on this machine get their reads answered here.
			stopServing, err := serveQueries(ctx, s, keep.logf)
			if err != nil {
				keep.logf("%v; CLI commands answer in their own process", err)
			}
			defer stopServing()
			var warming sync.WaitGroup
			defer warming.Wait()
			warming.Go(func() { ix.Warm(ctx) }) // a failure only means the first query loads what it needs
			if !cmd.Bool("json") {
				fmt.Fprintf(a.stderr, "watching %s (Ctrl-C to stop)\n", s.v.Dir)
			}
			dreamCtx, stopDream := context.WithCancel(ctx)
			var dreaming sync.WaitGroup
			dreaming.Go(func() { keep.dreamWhenDue(dreamCtx) })
			err = w.Run(ctx)
			stopDream()
			dreaming.Wait()
			if err != nil {
				return err
			}
			return ctx.Err() // Ctrl-C or SIGTERM: exit 130, like any command interrupted
		},
	}
}

// batchEvent is one line of `watch --json` for a sync.
type batchEvent struct {
	Event    string   `json:"event"` // "sync"
	Time     string   `json:"time"`
	Paths    []string `json:"paths"`
	Parsed   int      `json:"parsed"`
	Removed  int      `json:"removed"`
	Embedded int      `json:"embedded"`
	Notes    int      `json:"notes"`
	Chunks   int      `json:"chunks"`
	MS       int64    `json:"ms"`
	Rescan   bool     `json:"rescan"`
	Error    string   `json:"error,omitempty"`
}

func (a *app) printBatch(b watch.Batch, asJSON bool, last *time.Time) {
	st := b.Stats
	ev := batchEvent{Event: "sync", Time: b.Time.UTC().Format(time.RFC3339Nano), Paths: b.Paths, Parsed: st.Parsed, Removed: st.Removed,
		Embedded: st.Embedded, Notes: st.Notes, Chunks: st.Chunks, MS: st.Duration.Milliseconds(), Rescan: b.Rescan}
	if ev.Paths == nil {
		ev.Paths = []string{}
	}
	if b.Err != nil {
		ev.Error = b.Err.Error()
	} else {
		// Every warning as it starts, then those of the files each sync
		// read.
		var only map[string]bool
		if !last.IsZero() {
			only = make(map[string]bool, len(st.Read))
			for _, p := range st.Read {
				only[p] = true
			}
		}
		a.printFindings(a.stderr, st.Skipped, st.Warnings, only)
	}
	if asJSON {
		a.printLine(ev)
		*last = b.Time
		return
	}
	switch {
	case b.Err != nil:
		fmt.Fprintf(a.stderr, "%s sync failed: %v\n", b.Time.Format("15:04:05"), b.Err)
	case st.Parsed+st.Removed+st.Embedded > 0 || last.IsZero():
		fmt.Fprintf(a.stdout, "%s %d notes, %d chunks: %d parsed, %d removed, %d embedded in %v\n", b.Time.Format("15:04:05"),
			st.Notes, st.Chunks, st.Parsed, st.Removed, st.Embedded, st.Duration.Round(time.Millisecond))
		if st.EmbedError != "" && !a.quiet {
			fmt.Fprintf(a.stderr, "warning: no vectors for %s; keyword search still works\n", st.EmbedError)
		}
	}
	*last = b.Time
}

// dreamEvent is one line of `watch --json` for a Dream run.
type dreamEvent struct {
	Event   string        `json:"event"` // "dream"
	Time    string        `json:"time"`
	Summary string        `json:"summary"`
	Report  *dream.Report `json:"report"`
}

// printDreamEvent reports a Dream run of the watcher.
func (a *app) printDreamEvent(rep *dream.Report, asJSON bool) {
	now := time.Now()
	if asJSON {
		a.printLine(dreamEvent{Event: "dream", Time: now.UTC().Format(time.RFC3339Nano), Summary: rep.Summary(), Report: rep})
		return
	}
	fmt.Fprintf(a.stdout, "%s dream: %s\n", now.Format("15:04:05"), rep.Summary())
}
