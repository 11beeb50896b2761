package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/dream"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/vault"
)

func (a *app) initCommand() *cli.Command {
	return &cli.Command{
		Name:      "init",
		Usage:     "make a folder (an existing Obsidian vault or a new one) a vaultmem vault",
		ArgsUsage: "[DIR]",
		Description: "Creates .vaultmem/config.yaml, .vaultmem/.gitignore, .vaultmem/state/ and the default\n" +
			"folders (memory/, tasks/, lessons/), and adds to .gitattributes the lines that route MEMORY.md, the\n" +
			"memory, task and lesson notes, the dream log and Dream's checkpoint to vaultmem's merge drivers (to\n" +
			"enable in each clone with the git config commands it prints); run again, it adds the lines it lacks.\n" +
			"In a Claude Code memory folder (MEMORY.md and memory notes side by side) new memories go next to\n" +
			"the others (memory: .) and no folder is made. MEMORY.md's list of memory notes (as Claude writes\n" +
			"it) becomes vaultmem's region, so that no memory is listed twice; every other line of the file\n" +
			"(a title, an instruction a human added) is kept as it was, outside the region, and a list line's\n" +
			"words that the region (showing each note's description) would not show are warned of by line.\n" +
			"The old file is kept in .vaultmem/state. Safe to run again and safe on an existing Obsidian\n" +
			"vault: it creates only what is missing and never touches a note.",
		Flags: []cli.Flag{jsonFlag()},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			dir := a.vaultFlag
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
			res, err := initVault(dir)
			if err != nil {
				return err
			}
			var adopted adoption
			if res.firstInit {
				cfg, err := loadConfig(dir)
				if err != nil {
					return err
				}
				if adopted, err = adoptMemoryIndex(ctx, dir, path.Clean(cfg.Folders.Memory)); err != nil {
					return err
				}
				res.adopted = adopted.listed
			}
			if !a.quiet {
				for _, w := range adopted.warnings {
					fmt.Fprintf(a.stderr, "warning: %s\n", w)
				}
			}
			if cmd.Bool("json") {
				return a.printJSON(map[string]any{"vault": dir, "created": res.created, "gitattributes": res.gitattributes,
					"claude_code_memory_folder": res.claudeCode, "memory_index_adopted": res.adopted,
					"memory_index_kept_lines": adopted.kept, "memory_index_warnings": nonNil(adopted.warnings),
					"merge_driver": mergeDriverCommand, "note_merge_driver": noteDriverCommand, "checkpoint_merge_driver": checkpointDriverCommand})
			}
			switch {
			case len(res.created) == 0 && res.gitattributes == "unchanged":
				fmt.Fprintf(a.stdout, "%s is already a vaultmem vault; nothing to do\n", dir)
			case len(res.created) == 0:
				fmt.Fprintf(a.stdout, "Updated vaultmem vault in %s\n", dir)
			default:
				fmt.Fprintf(a.stdout, "Initialized vaultmem vault in %s\n", dir)
			}
			if res.claudeCode {
				fmt.Fprintf(a.stdout, "  a Claude Code memory folder: new memories are written next to the others (memory: .), no folders made\n")
			}
			if res.adopted > 0 {
				fmt.Fprintf(a.stdout, "  MEMORY.md: its list is now vaultmem's region, listing the %d memories from their notes (the file as it was: %s/%s)\n",
					res.adopted, vault.StateDir, adoptedBackup)
				switch adopted.kept {
				case 0:
				case 1:
					fmt.Fprintf(a.stdout, "  MEMORY.md: its other line is kept as it was, outside the region\n")
				default:
					fmt.Fprintf(a.stdout, "  MEMORY.md: its %d other lines are kept as they were, outside the region\n", adopted.kept)
				}
			}
			for _, c := range res.created {
				fmt.Fprintf(a.stdout, "  created %s\n", c)
			}
			if res.gitattributes != "unchanged" {
				fmt.Fprintf(a.stdout, "  .gitattributes routes MEMORY.md, the memory, task and lesson notes, the logs and Dream's checkpoint to their merge drivers\n")
			}
			fmt.Fprintf(a.stdout, "To merge MEMORY.md, memories, tasks, lessons and Dream's checkpoint without conflicts, enable the merge drivers\n"+
				"in each clone (git config is not committed):\n  %s\n  %s\n  %s\n  %s\n  %s\n  %s\n",
				mergeDriverCommand, mergeDriverLabel, noteDriverCommand, noteDriverLabel, checkpointDriverCommand, checkpointDriverLabel)
			return nil
		},
	}
}

// initResult is what initVault did.
type initResult struct {
	// created lists what it created, as vault-relative paths.
	created []string
	// gitattributes is "created", "appended" or "unchanged".
	gitattributes string
	// claudeCode is true when it wrote the config of a Claude Code memory
	// folder; adopted counts the memories of the MEMORY.md list it turned
	// into vaultmem's region (see adoptMemoryIndex).
	claudeCode bool
	adopted    int
	// firstInit is true when this init wrote the config.
	firstInit bool
}

// initVault creates what is missing.
func initVault(dir string) (initResult, error) {
	res, err := initFolders(dir)
	if err != nil {
		return res, err
	}
	cfg, err := loadConfig(dir)
	if err != nil {
		return res, err
	}
	res.gitattributes, err = ensureGitattributes(dir, gitattributesLines(cfg.Folders.Memory, cfg.Folders.Tasks, cfg.Folders.Lessons, cfg.Dream.Log))
	return res, err
}

// initFolders creates vaultmem's folder, its config and the note folders.
func initFolders(dir string) (initResult, error) {
	var res initResult
	created := []string{}
	info, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) { // a new vault
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return res, fmt.Errorf("init %s: %w", dir, errors.Unwrap(err))
		}
		created = append(created, "./")
	} else if err != nil {
		return res, fmt.Errorf("init %s: %w", dir, errors.Unwrap(err))
	} else if !info.IsDir() {
		return res, fmt.Errorf("init %s: not a folder", dir)
	}
	mkdir := func(rel string) error {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if info, err := os.Stat(p); err == nil {
			if !info.IsDir() {
				return fmt.Errorf("init: %s exists and is not a folder", p)
			}
			return nil
		}
		if err := os.MkdirAll(p, 0o755); err != nil {
			return fmt.Errorf("init: %w", err)
		}
		created = append(created, rel+"/")
		return nil
	}
	write := func(rel, text string) error {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, os.ErrExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("init: %w", err)
		}
		if _, err := f.WriteString(text); err != nil {
			f.Close()
			return fmt.Errorf("init: write %s: %w", p, err)
		}
		if err := f.Close(); err != nil {
			return fmt.Errorf("init: write %s: %w", p, err)
		}
		created = append(created, rel)
		return nil
	}
	configText := defaultConfigText
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(vault.ConfigFile))); errors.Is(err, os.ErrNotExist) {
		if res.claudeCode, err = isClaudeCodeFolder(dir); err != nil {
			return res, err
		}
		if res.claudeCode {
			configText = strings.Replace(defaultConfigText, "\n  memory: memory\n", "\n"+claudeCodeMemoryLine, 1)
		}
	}
	if err := mkdir(vault.DotDir); err != nil {
		return res, err
	}
	if err := write(vault.GitignoreFile, vault.GitignoreText); err != nil {
		return res, err
	}
	if err := write(vault.ConfigFile, configText); err != nil {
		return res, err
	}
	res.firstInit = slices.Contains(created, vault.ConfigFile)
	cfg, err := loadConfig(dir)
	if err != nil {
		return res, err
	}
	folders := []string{vault.StateDir}
	if path.Clean(cfg.Folders.Memory) != "." {
		// A flat folder (Claude Code's) gets no folders: the writer makes
		// one when a note is first written there.
		folders = append(folders, cfg.Folders.Memory, cfg.Folders.Tasks, cfg.Folders.Lessons)
	}
	for _, rel := range folders {
		if err := mkdir(rel); err != nil {
			return res, err
		}
	}
	res.created = created
	return res, nil
}

// claudeCodeMemoryLine replaces "memory: memory" in the config of a
// Claude Code memory folder.
const claudeCodeMemoryLine = `  # Detected as a Claude Code memory folder (MEMORY.md and memory notes
  # at the top level): new memories are written next to the others.
  memory: .
`

// isClaudeCodeFolder reports whether dir is laid out as Claude Code keeps
// a project's memories (~/.claude/projects/<project>/memory/): MEMORY.md
// and, beside it, at least one note whose frontmatter type is a memory
// type. It only reads.
func isClaudeCodeFolder(dir string) (bool, error) {
	if info, err := os.Stat(filepath.Join(dir, vault.MemoryIndexFile)); err != nil || !info.Mode().IsRegular() {
		return false, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false, fmt.Errorf("init %s: %w", dir, err)
	}
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || name == vault.MemoryIndexFile || !markdown.IsNotePath(name) || vault.IsHidden(name) {
			continue
		}
		info, err := e.Info()
		if err != nil || info.Size() > defaultConfig().MaxNoteSize {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue // unreadable: not evidence either way
		}
		if memory.IsType(markdown.Parse(name, b).Type()) {
			return true, nil
		}
	}
	return false, nil
}

// gitattr is one line vaultmem needs in .gitattributes: it routes a
// folder's notes (folder set, "." for the notes at the top) or one file
// (file set) to a merge driver.
type gitattr struct {
	line, folder, file string
}

// covers reports whether a's folder holds the file f.
func (a gitattr) covers(f string) bool {
	switch a.folder {
	case "":
		return false
	case ".":
		return !strings.Contains(f, "/") && strings.HasSuffix(f, markdown.Ext)
	}
	return strings.HasPrefix(f, a.folder+"/")
}

// gitattributesLines are the lines .gitattributes needs for a vault whose
// memories, tasks and lessons are in those folders and whose dream log is
// at dreamLog ("" for the default, dream-log.md in the memory folder):
// the notes of the three folders to the note driver; then, as later lines
// win, the files in them that merge otherwise: MEMORY.md to its driver,
// the dream log to git's union merge (it is only ever appended to); and
// the outcome log (union, appended to as well) and Dream's checkpoint to
// its driver.
func gitattributesLines(memory, tasks, lessons, dreamLog string) []gitattr {
	var lines []gitattr
	for i, f := range []string{memory, tasks, lessons} {
		if f == "" {
			continue
		}
		f = strings.Trim(path.Clean(filepath.ToSlash(f)), "/")
		switch {
		case f == "." && i == 0: // a flat memory folder: the notes at the top
			lines = append(lines, gitattr{line: "/*" + markdown.Ext + " merge=" + noteDriverName, folder: "."})
		case f != "" && f != ".":
			lines = append(lines, gitattr{line: gitattrPattern(f, "/**") + " merge=" + noteDriverName, folder: f})
		}
	}
	if dreamLog == "" {
		dreamLog = path.Join(memory, "dream-log.md") // as Dream defaults it
	}
	dreamLog = strings.TrimPrefix(path.Clean(filepath.ToSlash(dreamLog)), "/")
	for _, f := range [][2]string{
		{vault.MemoryIndexFile, mergeDriverName},
		{dreamLog, "union"},
		{vault.StateDir + "/lessons/outcomes.jsonl", "union"},
		{vault.StateDir + "/" + dream.CheckpointFile, checkpointDriverName},
	} {
		lines = append(lines, gitattr{line: gitattrPattern(f[0], "") + " merge=" + f[1], file: f[0]})
	}
	return lines
}

// gitattrPattern is the .gitattributes pattern of the vault path p
// followed by glob (as it is: "/**" for a folder's files, or ""): anchored
// at the root, p's glob characters escaped, quoted as git reads quoted
// patterns when it holds a space.
func gitattrPattern(p, glob string) string {
	s := "/" + strings.NewReplacer(`\`, `\\`, "*", `\*`, "?", `\?`, "[", `\[`).Replace(p) + glob
	if !strings.ContainsAny(s, " \t\n\"") {
		return s
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\t", `\t`, "\n", `\n`).Replace(s) + `"`
}

// ensureGitattributes makes .gitattributes at the vault root hold lines,
// each routing a file after every line routing a folder that holds it
// (later lines win): it creates the file, or appends the lines it lacks,
// and again a file's line that an appended folder line (or a folder line
// below it) would override (leaving every other byte as it is). It
// returns "created", "appended" or "unchanged".
func ensureGitattributes(dir string, lines []gitattr) (string, error) {
	p := filepath.Join(dir, ".gitattributes")
	b, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return "", fmt.Errorf("init: create %s: %w", p, err)
		}
		var text strings.Builder
		for _, l := range lines {
			text.WriteString(l.line + "\n")
		}
		_, err = f.WriteString(text.String())
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return "", fmt.Errorf("init: write %s: %w", p, err)
		}
		return "created", nil
	}
	if err != nil {
		return "", fmt.Errorf("init: read %s: %w", p, err)
	}
	norm := func(line string) string { return strings.Join(strings.Fields(line), " ") }
	last := map[string]int{} // a line's last place in the file
	for i, line := range strings.Split(string(b), "\n") {
		l := norm(line)
		last[l] = i
		last["/"+l] = i // an unanchored line (any folder's) routes the root's too
	}
	var missing []string
	appended := map[string]bool{}
	for _, l := range lines {
		at, ok := last[norm(l.line)]
		need := !ok
		for _, f := range lines {
			if l.file != "" && f.covers(l.file) {
				fat, fok := last[norm(f.line)]
				need = need || !fok || appended[f.line] || fat > at
			}
		}
		if need {
			missing = append(missing, l.line)
			appended[l.line] = true
		}
	}
	if len(missing) == 0 {
		return "unchanged", nil
	}
	nl := "\n"
	if bytes.Contains(b, []byte("\r\n")) {
		nl = "\r\n"
	}
	add := strings.Join(missing, nl) + nl
	if len(b) > 0 && b[len(b)-1] != '\n' {
		add = nl + add
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return "", fmt.Errorf("init: open %s: %w", p, err)
	}
	_, err = f.WriteString(add)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("init: write %s: %w", p, err)
	}
	return "appended", nil
}
