package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/vault"
)

// The merge driver's name in .gitattributes and git config, and the
// commands that enable it in a clone (git config is not committed, so
// every clone runs them once; init prints them).
const (
	mergeDriverName    = "vaultmem-memory-index"
	mergeDriverCommand = `git config merge.` + mergeDriverName + `.driver "vaultmem merge-memory-index %O %A %B %P"`
	mergeDriverLabel   = `git config merge.` + mergeDriverName + `.name "vaultmem MEMORY.md region"`
)

func (a *app) mergeMemoryIndexCommand() *cli.Command {
	return &cli.Command{
		Name:      "merge-memory-index",
		Usage:     "merge two versions of MEMORY.md (a git merge driver)",
		ArgsUsage: "BASE OURS THEIRS [PATH]",
		Description: "Git runs it, as `vaultmem merge-memory-index %O %A %B %P`, when a merge changed MEMORY.md on\n" +
			"both sides: the memories each side listed are merged by path and the region written as vaultmem\n" +
			"writes it; text outside the region is taken from the side that changed it. The result goes to\n" +
			"OURS. When both sides changed the text outside the region, OURS is left as it is, and it exits 1:\n" +
			"git marks the file conflicted, to be resolved by hand. PATH is the file's path in the repository\n" +
			"(default MEMORY.md), from which its links are relative. It needs no vault. Enable it with\n" +
			"  " + mergeDriverCommand + "\n" +
			"and the line `/MEMORY.md merge=" + mergeDriverName + "` in .gitattributes (vaultmem init writes it).",
		Action: func(ctx context.Context, cmd *cli.Command) error {
			args := cmd.Args().Slice()
			if len(args) < 3 || len(args) > 4 {
				return usagef("%s takes BASE OURS THEIRS [PATH], got %d arguments", cmd.Name, len(args))
			}
			file := vault.MemoryIndexFile
			if len(args) == 4 && args[3] != "" {
				file = filepath.ToSlash(args[3])
			}
			var versions [3][]byte
			for i, name := range []string{"base", "ours", "theirs"} {
				b, err := os.ReadFile(args[i])
				if err != nil {
					return fmt.Errorf("merge %s: read the %s version: %w", file, name, err)
				}
				versions[i] = b
			}
			out, err := memory.MergeIndex(file, versions[0], versions[1], versions[2])
			var pe *vault.ParseError
			switch {
			case errors.Is(err, memory.ErrMergeConflict), errors.As(err, &pe):
				return fmt.Errorf("%w; %s is left as your side: edit it (theirs: git show :3:%s), then git add %s", err, file, file, file)
			case err != nil:
				return err
			}
			if err := os.WriteFile(args[1], out, 0o644); err != nil {
				return fmt.Errorf("merge %s: write the result: %w", file, err)
			}
			return nil
		},
	}
}
