package main

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/dream"
	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/vault"
)

// doctorReport is the JSON of `vaultmem doctor`.
type doctorReport struct {
	OK bool `json:"ok"`
	index.Repair
	// TaskProblems are what is wrong in the task tree as written (parent
	// cycles, links to no task, unknown statuses): the notes are left as
	// they are, for a human to fix.
	TaskProblems []markdown.Problem `json:"task_problems"`
	// LessonProblems are the lessons' frontmatter problems (a strength
	// that is no number in 0..1, no trigger), each left out of matching
	// until a human fixes it.
	LessonProblems []markdown.Problem `json:"lesson_problems"`
	// Skipped are the files that could not be indexed, and Warnings the
	// problems of the notes that were (frontmatter that does not parse),
	// as the index last read them: every one, where a read command warns
	// of a note's once per change of it.
	Skipped  []index.Skip `json:"skipped"`
	Warnings []index.Skip `json:"warnings"`
	// InterruptedDream is when a Dream run that stopped while it wrote
	// had started ("" when none did); --fix finishes it (DreamFinished
	// says what it wrote), as the next Dream would.
	InterruptedDream string        `json:"interrupted_dream,omitempty"`
	DreamFinished    *dream.Report `json:"dream_finished,omitempty"`
	// Leftovers are the temp files killed writers left beside notes
	// (hidden, never notes); --fix removes those over an hour old.
	Leftovers []vault.Leftover `json:"leftover_temp_files"`
	Removed   []string         `json:"removed_temp_files,omitempty"`
}

// leftoverAge is how old a temp file must be for doctor --fix to remove
// it: no write takes anywhere near that long.
const leftoverAge = time.Hour

func (a *app) doctorCommand() *cli.Command {
	return &cli.Command{
		Name:  "doctor",
		Usage: "compare the index with the notes and report (or --fix) any drift",
		Description: "Reads and hashes every note (trusting no file time) and checks every indexed link against\n" +
			"the files, reporting notes missing from the index, notes indexed but gone, notes whose\n" +
			"content changed, links resolved otherwise than the files say, and a damaged cache.\n" +
			"--fix syncs, and rebuilds the cache if drift remains. Exits 1 while drift remains.\n" +
			"Also lists what is wrong in the task tree (parent cycles, depends_on cycles and tasks that\n" +
			"depend on themselves, which can never be ready, parents and dependencies that are no task,\n" +
			"unknown statuses and priorities), by file and line, changing nothing; these do not make\n" +
			"it exit 1; and the lessons whose frontmatter keeps them out of matching, likewise; and every\n" +
			"file that could not be indexed and every warning of a note that could not be fully read (which\n" +
			"other commands print once per change of the note). A Dream run that stopped while it wrote\n" +
			"(killed, say) is reported, and --fix finishes it as the next Dream would. With --json: {ok,\n" +
			"drift: [{path, problem, detail}], fixed, rebuilt, task_problems: [{path, line, reason}],\n" +
			"lesson_problems: [{path, line, reason}], skipped: [{path, error}], warnings: [{path, error}],\n" +
			"interrupted_dream, dream_finished, leftover_temp_files: [{path, mod_time}], removed_temp_files}.\n" +
			"Temp files a killed write left beside notes (hidden: .NAME.md.vaultmem-tmp-*) are listed, and\n" +
			"--fix removes those over an hour old.",
		Flags: []cli.Flag{
			jsonFlag(),
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
			defer ix.Close()
			var rep doctorReport
			if cmd.Bool("fix") {
				bar := newProgress(a.stderr, "repairing")
				rep.Repair, err = ix.Repair(ctx, s.v.FS(), bar.update)
				bar.done()
			} else {
				rep.Drift, err = ix.Check(ctx, s.v.FS())
			}
			if err != nil {
				return err
			}
			rep.OK = len(rep.Drift) == 0
			d := s.dreamer(ix)
			if rep.InterruptedDream, err = d.Interrupted(); err != nil {
				return err
			}
			if rep.InterruptedDream != "" && cmd.Bool("fix") {
				if rep.DreamFinished, err = d.Resume(ctx, true); err != nil {
					return err
				}
				// MEMORY.md without the memories it archived.
				if _, err := a.syncNow(ctx, s, ix, false); err != nil {
					return err
				}
				if _, err := s.store(ix).Reindex(ctx); err != nil {
					return err
				}
				rep.Fixed = true
			} else if rep.InterruptedDream != "" {
				rep.OK = false
			}
			if rep.TaskProblems, err = s.tasks(ix).Problems(ctx); err != nil {
				return err
			}
			rep.TaskProblems = nonNil(rep.TaskProblems)
			lessons, err := ix.Lessons(ctx)
			if err != nil {
				return err
			}
			rep.LessonProblems = []markdown.Problem{}
			for _, l := range lessons {
				for _, p := range l.Problems {
					rep.LessonProblems = append(rep.LessonProblems, markdown.Problem{Path: l.Path, Line: p.Line, Message: p.Message})
				}
			}
			if rep.Skipped, rep.Warnings, err = ix.Findings(ctx, s.v.FS()); err != nil {
				return err
			}
			rep.Skipped, rep.Warnings = nonNil(rep.Skipped), nonNil(rep.Warnings)
			if rep.Leftovers, err = s.v.Leftovers(); err != nil {
				return err
			}
			rep.Leftovers = nonNil(rep.Leftovers)
			if cmd.Bool("fix") {
				for _, l := range rep.Leftovers {
					if time.Since(l.ModTime) > leftoverAge && s.v.RemoveLeftover(l.Path) == nil {
						rep.Removed = append(rep.Removed, l.Path)
					}
				}
			}
			if cmd.Bool("json") {
				if err := a.printJSON(rep); err != nil {
					return err
				}
			} else {
				a.printDrift(rep)
			}
			if rep.InterruptedDream != "" && !cmd.Bool("fix") {
				return codedError{fmt.Errorf("a Dream run started %s stopped while it wrote; run vaultmem doctor --fix (or vaultmem dream) to finish it", rep.InterruptedDream), exitError}
			}
			if !rep.OK && !rep.Fixed {
				return codedError{fmt.Errorf("the index has drifted from the notes (%d problems); run vaultmem doctor --fix", len(rep.Drift)), exitError}
			}
			return nil
		},
	}
}

func (a *app) printDrift(rep doctorReport) {
	a.printFindings(a.stdout, rep.Skipped, rep.Warnings, nil)
	for _, p := range rep.TaskProblems {
		fmt.Fprintf(a.stdout, "%s:%d: task: %s\n", p.Path, p.Line, p.Message)
	}
	for _, p := range rep.LessonProblems {
		fmt.Fprintf(a.stdout, "%s:%d: lesson: %s\n", p.Path, p.Line, p.Message)
	}
	for _, l := range rep.Leftovers {
		if slices.Contains(rep.Removed, l.Path) {
			fmt.Fprintf(a.stdout, "%s: removed: a temp file a killed write left\n", l.Path)
		} else {
			fmt.Fprintf(a.stdout, "%s: a temp file a write left (a killed one, if over an hour old: doctor --fix removes it)\n", l.Path)
		}
	}
	if rep.DreamFinished != nil {
		fmt.Fprintf(a.stdout, "finished the Dream run started %s: %s\n", rep.InterruptedDream, rep.DreamFinished.Summary())
		for _, sk := range rep.DreamFinished.Skipped {
			fmt.Fprintf(a.stdout, "  left %s: %s\n", sk.Path, sk.Reason)
		}
	}
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
