package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/app"
)

func watchCommand(sh *shell) *cli.Command {
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
			// this process answers for the CLI.
			a, err := sh.open(ctx, app.Options{Resident: true})
			if err != nil {
				return err
			}
			defer a.Close()
			asJSON := cmd.Bool("json")
			var last time.Time
			var out sync.Mutex // the watcher and Dream print from two goroutines: whole lines
			err = a.Serve(ctx, app.ServeOptions{RequireWatcher: true,
				Logf: func(format string, args ...any) {
					out.Lock()
					defer out.Unlock()
					fmt.Fprintf(sh.stderr, "warning: "+format+"\n", args...)
				},
				OnBatch: func(b app.WatchBatch) {
					out.Lock()
					defer out.Unlock()
					sh.printBatch(b, asJSON, &last)
				},
				OnDream: func(rep *app.DreamReport) {
					out.Lock()
					defer out.Unlock()
					sh.printDreamEvent(rep, asJSON)
				},
				Started: func() {
					if !asJSON {
						fmt.Fprintf(sh.stderr, "watching %s (Ctrl-C to stop)\n", a.Dir())
					}
				},
			})
			if errors.Is(err, app.ErrWatchRunning) {
				return codedError{err, exitConflict}
			}
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

func (sh *shell) printBatch(b app.WatchBatch, asJSON bool, last *time.Time) {
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
		sh.printFindings(sh.stderr, st.Skipped, st.Warnings, only)
	}
	if asJSON {
		sh.printLine(ev)
		*last = b.Time
		return
	}
	switch {
	case b.Err != nil:
		fmt.Fprintf(sh.stderr, "%s sync failed: %v\n", b.Time.Format("15:04:05"), b.Err)
	case st.Parsed+st.Removed+st.Embedded > 0 || last.IsZero():
		fmt.Fprintf(sh.stdout, "%s %d notes, %d chunks: %d parsed, %d removed, %d embedded in %v\n", b.Time.Format("15:04:05"),
			st.Notes, st.Chunks, st.Parsed, st.Removed, st.Embedded, st.Duration.Round(time.Millisecond))
		if st.EmbedError != "" && !sh.quiet {
			fmt.Fprintf(sh.stderr, "warning: no vectors for %s; keyword search still works\n", st.EmbedError)
		}
	}
	*last = b.Time
}

// dreamEvent is one line of `watch --json` for a Dream run.
type dreamEvent struct {
	Event   string           `json:"event"` // "dream"
	Time    string           `json:"time"`
	Summary string           `json:"summary"`
	Report  *app.DreamReport `json:"report"`
}

// printDreamEvent reports a Dream run of the watcher.
func (sh *shell) printDreamEvent(rep *app.DreamReport, asJSON bool) {
	now := time.Now()
	if asJSON {
		sh.printLine(dreamEvent{Event: "dream", Time: now.UTC().Format(time.RFC3339Nano), Summary: rep.Summary(), Report: rep})
		return
	}
	fmt.Fprintf(sh.stdout, "%s dream: %s\n", now.Format("15:04:05"), rep.Summary())
}
