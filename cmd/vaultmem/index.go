package main

import (
	"context"
	"fmt"
	"time"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/app"
)

func indexCommand(sh *shell) *cli.Command {
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
			if cmd.Bool("rebuild") {
				a, err := sh.open(ctx, app.Options{NoIndex: true})
				if err != nil {
					return err
				}
				err = a.RemoveIndex()
				a.Close()
				if err != nil {
					return err
				}
			}
			a, err := sh.open(ctx, app.Options{})
			if err != nil {
				return err
			}
			defer a.Close()
			if why := a.IndexReadOnly(); why != "" {
				return fmt.Errorf("cannot update the index: %s", why)
			}
			st, err := a.Sync(ctx, app.SyncOptions{Vectors: true, Always: true})
			if err != nil {
				return err
			}
			sh.printIndexed(cmd, st)
			return nil
		},
	}
}

// printIndexed prints what the index command's sync did, every warning
// included.
func (sh *shell) printIndexed(cmd *cli.Command, st app.SyncStats) {
	if cmd.Bool("json") {
		sh.printJSON(struct {
			app.SyncStats
			MS int64 `json:"ms"`
		}{st, st.Duration.Milliseconds()})
		return
	}
	fmt.Fprintf(sh.stdout, "%d notes, %d chunks: %d parsed, %d removed, %d embedded in %v\n",
		st.Notes, st.Chunks, st.Parsed, st.Removed, st.Embedded, st.Duration.Round(time.Millisecond))
	for _, sk := range st.Skipped {
		fmt.Fprintf(sh.stdout, "skipped %s: %s\n", sk.Path, sk.Error)
	}
	if !sh.quiet {
		for _, w := range st.Warnings {
			fmt.Fprintf(sh.stderr, "warning: %s\n", w.Error)
		}
	}
	if st.EmbedError != "" {
		fmt.Fprintf(sh.stderr, "warning: no vectors for %s; keyword search still works\n", st.EmbedError)
	}
}
