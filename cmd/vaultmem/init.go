package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/app"
)

func initCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name:      "init",
		Usage:     "make a folder (an existing Obsidian vault or a new one) a vaultmem vault",
		ArgsUsage: "[DIR]",
		Description: "Creates .vaultmem/config.yaml, .vaultmem/.gitignore, .vaultmem/state/ and the default\n" +
			"folders (memory/, tasks/, lessons/), and adds to .gitattributes the lines that route MEMORY.md, the\n" +
			"memory, task and lesson notes, the logs and state files, Dream's checkpoint and the canvases to their merge rules (to\n" +
			"enable in each clone with the git config commands it prints); run again, it adds the lines it lacks.\n" +
			"In a Claude Code memory folder (MEMORY.md and memory notes side by side) new memories go next to\n" +
			"the others (memory: .) and no folder is made. MEMORY.md's list of memory notes (as Claude writes\n" +
			"it) becomes vaultmem's region, so that no memory is listed twice; every other line of the file\n" +
			"(a title, an instruction a human added) is kept as it was, outside the region, and a list line's\n" +
			"words that the region (showing each note's description) would not show are warned of by line.\n" +
			"The old file is kept in .vaultmem/state. It writes Obsidian bases (views of the memories, tasks,\n" +
			"lessons and sessions) in the views folder (views/), each only while it is as vaultmem last wrote\n" +
			"it: one a person changed is kept, and said so. Safe to run again and safe on an existing Obsidian\n" +
			"vault: it creates only what is missing and never touches a note. With --json, views lists\n" +
			"{path, status: created|updated|unchanged|kept, reason}.",
		Flags: []cli.Flag{jsonFlag()},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			dir := sh.vaultFlag
			switch cmd.Args().Len() {
			case 0:
			case 1:
				dir = cmd.Args().First()
			default:
				return usagef("init takes at most one DIR")
			}
			if dir == "" {
				dir = "."
			}
			dir, err := filepath.Abs(dir)
			if err != nil {
				return err
			}
			res, err := app.Init(ctx, dir)
			if err != nil {
				return err
			}
			for _, w := range res.Warnings {
				sh.warnf("%s", w)
			}
			if cmd.Bool("json") {
				return sh.printJSON(struct {
					app.InitResult
					ListDriver       string `json:"merge_driver"`
					NoteDriver       string `json:"note_merge_driver"`
					CheckpointDriver string `json:"checkpoint_merge_driver"`
				}{res, app.ListDriver.Command, app.NoteDriver.Command, app.CheckpointDriver.Command})
			}
			sh.printInit(res)
			return nil
		},
	}
}

// printInit says what init did, and how to enable the merge drivers.
func (sh *shell) printInit(res app.InitResult) {
	w := sh.stdout
	views := false // a view written
	for _, v := range res.Views {
		views = views || v.Status == app.ViewCreated || v.Status == app.ViewUpdated
	}
	switch {
	case len(res.Created) == 0 && res.Gitattributes == "unchanged" && !views:
		fmt.Fprintf(w, "%s is already a vaultmem vault; nothing to do\n", res.Vault)
	case len(res.Created) == 0:
		fmt.Fprintf(w, "Updated vaultmem vault in %s\n", res.Vault)
	default:
		fmt.Fprintf(w, "Initialized vaultmem vault in %s\n", res.Vault)
	}
	if res.ClaudeCode {
		fmt.Fprintf(w, "  a Claude Code memory folder: new memories are written next to the others (memory: .), no folders made\n")
	}
	if res.Adopted > 0 {
		fmt.Fprintf(w, "  MEMORY.md: its list is now vaultmem's region, listing the %d memories from their notes (the file as it was: %s/%s)\n",
			res.Adopted, app.StateDir, app.AdoptedBackup)
		switch res.KeptLines {
		case 0:
		case 1:
			fmt.Fprintf(w, "  MEMORY.md: its other line is kept as it was, outside the region\n")
		default:
			fmt.Fprintf(w, "  MEMORY.md: its %d other lines are kept as they were, outside the region\n", res.KeptLines)
		}
	}
	for _, c := range res.Created {
		fmt.Fprintf(w, "  created %s\n", c)
	}
	for _, v := range res.Views {
		switch v.Status {
		case app.ViewCreated:
			fmt.Fprintf(w, "  wrote %s (Obsidian views)\n", v.Path)
		case app.ViewUpdated:
			fmt.Fprintf(w, "  updated %s (Obsidian views)\n", v.Path)
		case app.ViewKept:
			fmt.Fprintf(w, "  kept %s: %s\n", v.Path, v.Reason)
		}
	}
	if res.Gitattributes != "unchanged" {
		fmt.Fprintf(w, "  .gitattributes routes MEMORY.md, the memory, task and lesson notes, the logs, the state files, Dream's checkpoint and the task canvas to their merge rules\n")
	}
	fmt.Fprintf(w, "To merge MEMORY.md, memories, tasks, lessons, Dream's checkpoint and canvases without conflicts, enable the merge drivers\n"+
		"in each clone (git config is not committed):\n")
	for _, d := range app.MergeDrivers {
		fmt.Fprintf(w, "  %s\n  %s\n", d.Command, d.Label)
	}
}
