package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/vault"
)

// The merge drivers' names in .gitattributes and git config, and the
// commands that enable them in a clone (git config is not committed, so
// every clone runs them once; init prints them).
const (
	mergeDriverName    = "vaultmem-memory-index"
	mergeDriverCommand = `git config merge.` + mergeDriverName + `.driver "vaultmem merge-memory-index %O %A %B %P"`
	mergeDriverLabel   = `git config merge.` + mergeDriverName + `.name "vaultmem MEMORY.md region"`

	noteDriverName    = "vaultmem-note"
	noteDriverCommand = `git config merge.` + noteDriverName + `.driver "vaultmem merge-note %O %A %B %P"`
	noteDriverLabel   = `git config merge.` + noteDriverName + `.name "vaultmem task and lesson notes"`
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
			file, versions, err := readVersions(cmd, vault.MemoryIndexFile)
			if err != nil {
				return err
			}
			ours := cmd.Args().Get(1)
			out, err := memory.MergeIndex(file, versions[0], versions[1], versions[2])
			var pe *vault.ParseError
			switch {
			case errors.Is(err, memory.ErrMergeConflict), errors.As(err, &pe):
				return fmt.Errorf("%w; %s is left as your side: edit it (theirs: git show :3:%s), then git add %s", err, file, file, file)
			case err != nil:
				return err
			}
			if err := os.WriteFile(ours, out, 0o644); err != nil {
				return fmt.Errorf("merge %s: write the result: %w", file, err)
			}
			return nil
		},
	}
}

func (a *app) mergeNoteCommand() *cli.Command {
	return &cli.Command{
		Name:      "merge-note",
		Usage:     "merge two versions of a task or lesson note (a git merge driver)",
		ArgsUsage: "BASE OURS THEIRS [PATH]",
		Description: "Git runs it, as `vaultmem merge-note %O %A %B %P`, for the notes .gitattributes routes to it\n" +
			"(vaultmem init routes the tasks and lessons folders): the entries of '## Log' and '## History'\n" +
			"are merged as sets (each side's new entries kept, in time order; one a side removed dropped);\n" +
			"frontmatter keys one side changed take that side's value, and when both changed one, strength and\n" +
			"application_count add up both changes and days (last_applied, finished, ...) take the later; the\n" +
			"rest of the body is merged line by line by `git merge-file`. The result goes to OURS. What cannot be\n" +
			"merged (a key or the same lines changed both ways) exits 1 with OURS holding your side and conflict\n" +
			"markers: git marks the file conflicted. It needs no vault. Enable it with\n" +
			"  " + noteDriverCommand + "\n" +
			"and lines `/tasks/** merge=" + noteDriverName + "` in .gitattributes (vaultmem init writes them).",
		Action: func(ctx context.Context, cmd *cli.Command) error {
			file, versions, err := readVersions(cmd, "note.md")
			if err != nil {
				return err
			}
			ours := cmd.Args().Get(1)
			out, clean, err := vault.MergeNote(file, versions[0], versions[1], versions[2], func(base, ours, theirs []byte) ([]byte, bool, error) {
				return gitMergeFile(ctx, base, ours, theirs)
			})
			if err != nil {
				return fmt.Errorf("merge %s: %w", file, err)
			}
			if err := os.WriteFile(ours, out, 0o644); err != nil {
				return fmt.Errorf("merge %s: write the result: %w", file, err)
			}
			if !clean {
				return fmt.Errorf("merge %s: both sides changed the same thing; it holds your side (and conflict markers where lines clashed): edit it (theirs: git show :3:%s), then git add %s", file, file, file)
			}
			return nil
		},
	}
}

// readVersions checks a merge driver's arguments (BASE OURS THEIRS
// [PATH]) and reads the three versions git gives it; file is PATH, or
// defaultFile without one.
func readVersions(cmd *cli.Command, defaultFile string) (file string, versions [3][]byte, err error) {
	args := cmd.Args().Slice()
	if len(args) < 3 || len(args) > 4 {
		return "", versions, usagef("%s takes BASE OURS THEIRS [PATH], got %d arguments", cmd.Name, len(args))
	}
	file = defaultFile
	if len(args) == 4 && args[3] != "" {
		file = filepath.ToSlash(args[3])
	}
	for i, name := range []string{"base", "ours", "theirs"} {
		b, err := os.ReadFile(args[i])
		if err != nil {
			return file, versions, fmt.Errorf("merge %s: read the %s version: %w", file, name, err)
		}
		versions[i] = b
	}
	return file, versions, nil
}

// gitMergeFile merges texts line by line with `git merge-file`; clean is
// false when lines clashed (the result then has conflict markers).
func gitMergeFile(ctx context.Context, base, ours, theirs []byte) ([]byte, bool, error) {
	dir, err := os.MkdirTemp("", "vaultmem-merge-")
	if err != nil {
		return nil, false, err
	}
	defer os.RemoveAll(dir)
	var paths [3]string
	for i, b := range [][]byte{ours, base, theirs} {
		paths[i] = filepath.Join(dir, []string{"ours", "base", "theirs"}[i])
		if err := os.WriteFile(paths[i], b, 0o600); err != nil {
			return nil, false, err
		}
	}
	c := exec.CommandContext(ctx, "git", "merge-file", "-p", "-L", "ours", "-L", "base", "-L", "theirs", paths[0], paths[1], paths[2])
	var stderr bytes.Buffer
	c.Stderr = &stderr
	out, err := c.Output()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out, true, nil
	case errors.As(err, &ee) && ee.ExitCode() > 0 && ee.ExitCode() < 128:
		return out, false, nil // that many conflicts
	}
	return nil, false, fmt.Errorf("git merge-file: %v %s", err, strings.TrimSpace(stderr.String()))
}
