package main

import (
	"context"
	"path/filepath"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/app"
)

func mergeListCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name:      "merge-memory-index",
		Usage:     "merge two versions of MEMORY.md (a git merge driver)",
		ArgsUsage: "BASE OURS THEIRS [PATH]",
		Description: "Git runs it, as `vaultmem merge-memory-index %O %A %B %P`, when a merge changed MEMORY.md on\n" +
			"both sides: the memories each side listed are merged by path and the region written as vaultmem\n" +
			"writes it; text outside the region is taken from the side that changed it, merged line by line\n" +
			"when both did. The result goes to OURS. Lines outside the region both sides changed differently are\n" +
			"left between git's conflict markers in OURS, and it exits 1: git marks the file conflicted, to be\n" +
			"resolved by hand (no side's line is lost). PATH is the file's path in the repository\n" +
			"(default MEMORY.md), from which its links are relative. It needs no vault. Enable it with\n" +
			"  " + app.ListDriver.Command + "\n" +
			"and the line `/MEMORY.md merge=" + app.ListDriver.Name + "` in .gitattributes (vaultmem init writes it).",
		Action: mergeAction(app.ListDriver),
	}
}

func mergeNoteCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name:      "merge-note",
		Usage:     "merge two versions of a memory, task or lesson note (a git merge driver)",
		ArgsUsage: "BASE OURS THEIRS [PATH]",
		Description: "Git runs it, as `vaultmem merge-note %O %A %B %P`, for the notes .gitattributes routes to it\n" +
			"(vaultmem init routes the memory, tasks and lessons folders). The entries of '## Log' and '## History'\n" +
			"are merged as lists: each side's new entries kept, in time order; one a side removed dropped; one a side\n" +
			"changed takes the change. Frontmatter keys one side changed take that side's value; when both changed one,\n" +
			"application_count adds up both changes (it stops at the largest integer), days (last_applied,\n" +
			"finished, ...) take the later, created the earlier; a lesson's strength is computed again from the\n" +
			"merged History (never summed), by the lesson rules of the vault holding PATH; a task both sides claimed\n" +
			"goes to the earlier start (then the lower agent id), the other claim logged. The rest of the body is merged line by\n" +
			"line by `git merge-file`; a note both sides added (no base) keeps ours' text and every paragraph of\n" +
			"theirs it lacks. Lines end as most of ours' do. The result goes to OURS.\n" +
			"What cannot be merged exits 1 and git marks the file conflicted: OURS holds the merge with git's\n" +
			"conflict markers around both versions of each clash, a frontmatter key both sides changed, a log entry\n" +
			"both sides changed, lines of the body both changed; in the frontmatter, for example:\n" +
			"  <<<<<<< ours\n  status: done\n  =======\n  status: blocked\n  >>>>>>> theirs\n" +
			"(until it is edited the frontmatter does not parse, so that nothing, Obsidian or vaultmem, takes one\n" +
			"side for the merge). Keep one version, delete the marker lines, then git add the file. It needs no vault.\n" +
			"Enable it with\n" +
			"  " + app.NoteDriver.Command + "\n" +
			"and lines `/tasks/** merge=" + app.NoteDriver.Name + "` in .gitattributes (vaultmem init writes them).",
		Action: mergeAction(app.NoteDriver),
	}
}

func mergeCheckpointCommand(sh *shell) *cli.Command {
	file := app.CheckpointDriver.DefaultPath
	return &cli.Command{
		Name:      "merge-checkpoint",
		Usage:     "merge two versions of Dream's checkpoint (a git merge driver)",
		ArgsUsage: "BASE OURS THEIRS [PATH]",
		Description: "Git runs it, as `vaultmem merge-checkpoint %O %A %B %P`, when two clones both ran Dream and so both\n" +
			"rewrote " + file + ": the merge lists the memories both versions list with the same hash\n" +
			"and the later run time; every other memory is left out, which only makes the next run look at it again.\n" +
			"The result goes to OURS. A version that does not parse exits 1 naming it and the line, OURS left as it is:\n" +
			"the file is safe to delete (git rm it: the next run looks at every memory). It needs no vault.\n" +
			"Enable it with\n" +
			"  " + app.CheckpointDriver.Command + "\n" +
			"and the line `/" + file + " merge=" + app.CheckpointDriver.Name + "` in .gitattributes (vaultmem init writes it).",
		Action: mergeAction(app.CheckpointDriver),
	}
}

func mergeCanvasCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name:      "merge-canvas",
		Usage:     "merge two versions of a canvas of the views folder (a git merge driver)",
		ArgsUsage: "BASE OURS THEIRS [PATH]",
		Description: "Git runs it, as `vaultmem merge-canvas %O %A %B %P`, when both sides changed a canvas of the views\n" +
			"folder (views/Tasks.canvas, which task tree --canvas writes). Nodes and edges are merged by id, and\n" +
			"the keys of each one by one: what one side added is kept, what one side removed is dropped (unless\n" +
			"the other changed it), what one side changed takes the change; what both changed differently takes\n" +
			"ours (the canvas is a view, written again from the notes by task tree --canvas). A card an arrow\n" +
			"joins stays. The result goes to OURS, as vaultmem writes canvases. A version that is not JSON Canvas\n" +
			"exits 1 naming it and the line, OURS left as it is: git marks the file conflicted. It needs no vault.\n" +
			"Enable it with\n" +
			"  " + app.CanvasDriver.Command + "\n" +
			"and the line `/views/*.canvas merge=" + app.CanvasDriver.Name + "` in .gitattributes (vaultmem init writes it).",
		Action: mergeAction(app.CanvasDriver),
	}
}

// mergeAction runs merge driver d on the arguments git gives it (BASE
// OURS THEIRS [PATH]).
func mergeAction(d app.MergeDriver) cli.ActionFunc {
	return func(ctx context.Context, cmd *cli.Command) error {
		args := cmd.Args().Slice()
		if len(args) < 3 || len(args) > 4 {
			return usagef("%s takes BASE OURS THEIRS [PATH], got %d arguments", cmd.Name, len(args))
		}
		f := app.MergeFiles{Base: args[0], Ours: args[1], Theirs: args[2]}
		if len(args) == 4 {
			f.Path = filepath.ToSlash(args[3])
		}
		return app.RunMerge(ctx, d, f)
	}
}
