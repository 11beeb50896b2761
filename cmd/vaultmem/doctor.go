package main

import (
	"context"
	"fmt"
	"slices"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/app"
)

func doctorCommand(sh *shell) *cli.Command {
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
			"interrupted_dream, dream_finished, leftover_temp_files: [{path, mod_time}], removed_temp_files,\n" +
			"proposed: [{path, type, title, source}], conflict_copies: [{path, original, service, kind, fix}]}.\n" +
			"The memories, tasks and lessons a sync service copied beside the note they copy (\"X 2.md\",\n" +
			"\"X (conflict 2026-11-29).md\", ...: see docs/memories-and-dream.md) are listed with what to do,\n" +
			"without making it exit 1. The memories and lessons Dream proposed from session\n" +
			"notes (status: proposed, not live until accepted) are listed too, without making it exit 1.\n" +
			"Temp files a killed write left beside notes (hidden: .NAME.md.vaultmem-tmp-*) are listed, and\n" +
			"--fix removes those over an hour old. A .vaultmem/.gitignore that lets the agent sessions' state\n" +
			"(state/sessions/: their prompts and cwd) into git is reported (gitignore_lacks), and --fix\n" +
			"adds the rule (gitignore_fixed). What of the vault's config is ignored for want of your\n" +
			"consent ('vaultmem allow') is reported too (with --json: config: {approved, changed, privileged,\n" +
			"ignored, refused_env, ...}), without making it exit 1.",
		Flags: []cli.Flag{
			jsonFlag(),
			&cli.BoolFlag{Name: "fix", Usage: "repair the drift: sync, then rebuild if needed"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			sh.consentTold = true // in the report, below
			a, err := sh.open(ctx, app.Options{})
			if err != nil {
				return err
			}
			defer a.Close()
			bar := newProgress(sh.stderr, "repairing")
			rep, err := a.Doctor(ctx, cmd.Bool("fix"), bar.update)
			bar.done()
			if err != nil {
				return err
			}
			if cmd.Bool("json") {
				if err := sh.printJSON(struct {
					app.Checkup
					Config app.Consent `json:"config"`
				}{rep, a.Consent}); err != nil {
					return err
				}
			} else {
				for _, n := range a.Consent.Notices() {
					fmt.Fprintf(sh.stdout, "config: %s\n", n)
				}
				sh.printDrift(rep)
			}
			if rep.InterruptedDream != "" && !cmd.Bool("fix") {
				return codedError{fmt.Errorf("a Dream run started %s stopped while it wrote; run vaultmem doctor --fix (or vaultmem dream) to finish it", rep.InterruptedDream), exitError}
			}
			if len(rep.Drift) > 0 && !rep.Fixed {
				return codedError{fmt.Errorf("the index has drifted from the notes (%d problems); run vaultmem doctor --fix", len(rep.Drift)), exitError}
			}
			if len(rep.Conflicted) > 0 {
				return codedError{fmt.Errorf("%d of vaultmem's files hold git's conflict markers (%s first); settle them as said above", len(rep.Conflicted), rep.Conflicted[0].Path), exitError}
			}
			return nil
		},
	}
}

func (sh *shell) printDrift(rep app.Checkup) {
	sh.printFindings(sh.stdout, rep.Skipped, rep.Warnings, nil)
	for _, p := range rep.TaskProblems {
		fmt.Fprintf(sh.stdout, "%s:%d: task: %s\n", p.Path, p.Line, p.Message)
	}
	for _, p := range rep.LessonProblems {
		fmt.Fprintf(sh.stdout, "%s:%d: lesson: %s\n", p.Path, p.Line, p.Message)
	}
	for _, c := range rep.ConflictCopies {
		fmt.Fprintf(sh.stdout, "%s: %s: %s\n", c.Path, c.Kind, c.Fix)
	}
	for _, p := range rep.Proposed {
		from := ""
		if p.Source != "" {
			from = " from [[" + p.Source + "]]"
		}
		fmt.Fprintf(sh.stdout, "%s: proposed by Dream%s (a %s): accept it by removing status: proposed, or delete it\n", p.Path, from, p.Type)
	}
	for _, e := range rep.Unowned {
		fmt.Fprintf(sh.stdout, "%s: a user memory without owner: in a shared vault, so every teammate is given it: add owner: <your email> if it is yours, or make it a feedback or project memory\n", e.Path)
	}
	for _, l := range rep.Leftovers {
		if slices.Contains(rep.Removed, l.Path) {
			fmt.Fprintf(sh.stdout, "%s: removed: a temp file a killed write left\n", l.Path)
		} else {
			fmt.Fprintf(sh.stdout, "%s: a temp file a write left (a killed one, if over an hour old: doctor --fix removes it)\n", l.Path)
		}
	}
	switch {
	case rep.GitignoreFixed:
		fmt.Fprintf(sh.stdout, ".vaultmem/.gitignore: added %s: this machine's agents' session state and focus stay out of git\n", rep.GitignoreLacks)
	case rep.GitignoreLacks != "":
		fmt.Fprintf(sh.stdout, ".vaultmem/.gitignore: lacks %s, so this machine's agents' session state (prompts, cwd) or focus would be committed; doctor --fix adds it\n", rep.GitignoreLacks)
	}
	for _, tr := range rep.Tracked {
		fmt.Fprintf(sh.stdout, "%s: per machine, but git still tracks it (committed before it was ignored): %s\n", tr.Path, tr.Fix)
	}
	for _, c := range rep.Conflicted {
		fmt.Fprintf(sh.stdout, "%s:%d: git's conflict markers: %s\n", c.Path, c.Line, c.Fix)
	}
	for _, d := range rep.DriversOff {
		fmt.Fprintf(sh.stdout, "git: the merge driver %s is not enabled in this clone, so git merges its files by line: %s\n", d.Name, d.Command)
	}
	if rep.DreamFinished != nil {
		fmt.Fprintf(sh.stdout, "finished the Dream run started %s: %s\n", rep.InterruptedDream, rep.DreamFinished.Summary())
		for _, sk := range rep.DreamFinished.Skipped {
			fmt.Fprintf(sh.stdout, "  left %s: %s\n", sk.Path, sk.Reason)
		}
	}
	if len(rep.Drift) == 0 {
		fmt.Fprintln(sh.stdout, "the index matches the notes")
		return
	}
	for _, d := range rep.Drift {
		fmt.Fprintf(sh.stdout, "%s: %s: %s\n", d.Path, d.Problem, d.Detail)
	}
	switch {
	case rep.Fixed && rep.Rebuilt:
		fmt.Fprintln(sh.stdout, "fixed: the cache was rebuilt")
	case rep.Fixed:
		fmt.Fprintln(sh.stdout, "fixed: the index was synced")
	}
}
