package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/index"
)

// doctorReport is the JSON of `vaultmem doctor`.
type doctorReport struct {
	OK    bool          `json:"ok"`
	Drift []index.Drift `json:"drift"`
	// Fixed says --fix repaired the drift (Drift is then what was found
	// before the repair); Rebuilt that it had to rebuild the cache.
	Fixed   bool `json:"fixed"`
	Rebuilt bool `json:"rebuilt"`
}

func (a *app) doctorCommand() *cli.Command {
	return &cli.Command{
		Name:  "doctor",
		Usage: "compare the index with the notes and report (or --fix) any drift",
		Description: "Reads and hashes every note (trusting no file time) and checks every indexed link against\n" +
			"the files, reporting notes missing from the index, notes indexed but gone, notes whose\n" +
			"content changed, links resolved otherwise than the files say, and a damaged cache.\n" +
			"--fix syncs, and rebuilds the cache if drift remains. Exits 1 while drift remains.\n" +
			"With --json: {ok, drift: [{path, problem, detail}], fixed, rebuilt}.",
		Flags: []cli.Flag{
			jsonFlag,
			&cli.BoolFlag{Name: "fix", Usage: "repair the drift: sync, then rebuild if needed"},
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
			ix, err := s.openIndex(ctx, false)
			if err != nil {
				return err
			}
			defer func() { ix.Close() }()
			drift, err := ix.Check(ctx, s.v.FS())
			if err != nil {
				return err
			}
			rep := doctorReport{OK: len(drift) == 0, Drift: drift}
			if len(drift) > 0 && cmd.Bool("fix") {
				// A sync first; a cache it cannot repair is rebuilt.
				var after []index.Drift
				_, err := ix.Sync(ctx, s.v.FS(), nil)
				if err == nil {
					after, err = ix.Check(ctx, s.v.FS())
				}
				if err != nil || len(after) > 0 {
					ix.Close()
					if err := index.Remove(s.cacheDir()); err != nil {
						return err
					}
					if ix, err = s.openIndex(ctx, false); err != nil {
						return err
					}
					if _, err := a.syncNow(ctx, s, ix); err != nil {
						return err
					}
					if after, err = ix.Check(ctx, s.v.FS()); err != nil {
						return err
					}
					rep.Rebuilt = true
				}
				rep.Fixed = len(after) == 0
			}
			if cmd.Bool("json") {
				if err := a.printJSON(rep); err != nil {
					return err
				}
			} else {
				a.printDrift(rep)
			}
			if !rep.OK && !rep.Fixed {
				return codedError{fmt.Errorf("the index has drifted from the notes (%d problems); run vaultmem doctor --fix", len(drift)), exitError}
			}
			return nil
		},
	}
}

func (a *app) printDrift(rep doctorReport) {
	if rep.OK {
		fmt.Fprintln(a.stdout, "the index matches the notes")
		return
	}
	for _, d := range rep.Drift {
		fmt.Fprintf(a.stdout, "%s: %s: %s\n", d.Path, d.Problem, d.Detail)
	}
	switch {
	case rep.Fixed && rep.Rebuilt:
		fmt.Fprintln(a.stdout, "fixed: the cache was rebuilt")
	case rep.Fixed:
		fmt.Fprintln(a.stdout, "fixed: the index was synced")
	}
}
