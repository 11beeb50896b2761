// Package vaultinit makes a folder a vaultmem vault, or completes one:
// .vaultmem/ with its config, .gitignore and state folder, the note
// folders, the .gitattributes lines that route vaultmem's files to its
// merge drivers, the adoption of a Claude Code memory folder's MEMORY.md,
// and the Obsidian bases of the views folder, each made only where it is
// missing and written over no person's edit. vaultmem init and setup run
// it (through app); it imports config, mergedriver, the kinds and vault.
package vaultinit

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

	"github.com/vaultmem/vaultmem/config"
	"github.com/vaultmem/vaultmem/dream"
	"github.com/vaultmem/vaultmem/internal/mergedriver"
	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/obsidian"
	"github.com/vaultmem/vaultmem/vault"
)

// Result is what Init did.
type Result struct {
	// Vault is the vault folder, absolute.
	Vault string `json:"vault"`
	// Created lists what it created, as vault-relative paths.
	Created []string `json:"created"`
	// Gitattributes is "created", "appended" or "unchanged".
	Gitattributes string `json:"gitattributes"`
	// ClaudeCode is true when it wrote the config of a Claude Code memory
	// folder (new memories next to the others, no folders made).
	ClaudeCode bool `json:"claude_code_memory_folder"`
	// Adopted counts the memories of MEMORY.md's list it turned into
	// vaultmem's region; KeptLines the old file's other lines, kept
	// outside it; Warnings the words of the old list MEMORY.md no longer
	// shows, by line.
	Adopted   int      `json:"memory_index_adopted"`
	KeptLines int      `json:"memory_index_kept_lines"`
	Warnings  []string `json:"memory_index_warnings"`
	// Views says what it did with each Obsidian base of the views folder:
	// created, updated, unchanged, or kept (a person changed it; with the
	// reason).
	Views []obsidian.Written `json:"views"`
	// firstInit is true when this init wrote the config.
	firstInit bool
}

// Init makes the folder dir (made when missing) a vaultmem vault, or
// completes one: .vaultmem/ with its config, .gitignore and state folder,
// the note folders, the .gitattributes lines that route vaultmem's files
// to its merge drivers (see MergeDrivers); in a Claude Code memory folder,
// MEMORY.md's list becomes vaultmem's region (the old file kept in
// .vaultmem/state), every other line of it kept; the Obsidian bases of
// the views folder, each written only where it overwrites no person's
// edit (see obsidian.Write). It creates only what is missing and never
// touches a note. Errors name the file at fault.
func Init(ctx context.Context, dir string) (Result, error) {
	// A bad config (the vault's, which others write, or the user's) stops
	// init before it writes anything.
	if info, err := os.Stat(dir); err != nil || info.IsDir() {
		if _, err := config.LoadConfig(dir); err != nil {
			return Result{}, err
		}
	}
	res, err := initFolders(dir)
	if err != nil {
		return res, err
	}
	cfg, err := config.LoadConfig(dir)
	if err != nil {
		return res, err
	}
	res.Vault, res.Warnings = dir, []string{}
	attrs := gitattributesLines(cfg.Folders.Memory, cfg.Folders.Tasks, cfg.Folders.Lessons, cfg.Dream.Log)
	if strings.TrimSpace(cfg.Folders.Views) != "" { // the canvases task tree --canvas writes there
		pattern := "/*" + vault.CanvasExt
		if f := cfg.ViewsFolder(); f != "" {
			pattern = gitattrPattern(f, pattern)
		}
		attrs = append(attrs, gitattr{line: pattern + " merge=" + mergedriver.Canvas.Name})
	}
	if res.Gitattributes, err = ensureGitattributes(dir, attrs); err != nil {
		return res, err
	}
	if res.firstInit {
		ad, err := adoptMemoryList(ctx, dir, path.Clean(cfg.Folders.Memory))
		if err != nil {
			return res, err
		}
		res.Adopted, res.KeptLines, res.Warnings = ad.listed, ad.kept, nonNil(ad.warnings)
	}
	if res.Views, err = writeBases(ctx, dir, cfg); err != nil {
		return res, err
	}
	return res, nil
}

// initFolders creates vaultmem's folder, its config and the note folders:
// through the vault's root, each folder and file looked at before it is
// made, so that none is made through a symbolic link or outside the
// vault, whatever the config names (see vault.Vault.MkdirAll).
func initFolders(dir string) (Result, error) {
	var res Result
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
	v, err := vault.Open(dir, vault.Folders{})
	if err != nil {
		return res, fmt.Errorf("init: %w", err)
	}
	defer v.Close()
	mkdir := func(rel string) error {
		made, err := v.MkdirAll(rel)
		if err != nil {
			return fmt.Errorf("init: %w", err)
		}
		if made {
			created = append(created, rel+"/")
		}
		return nil
	}
	write := func(rel, text string) error {
		made, err := v.WriteNew(rel, []byte(text))
		if err != nil {
			return fmt.Errorf("init: %w", err)
		}
		if made {
			created = append(created, rel)
		}
		return nil
	}
	if _, err := v.Root().Lstat(filepath.FromSlash(vault.ConfigFile)); errors.Is(err, os.ErrNotExist) {
		if res.ClaudeCode, err = isClaudeCodeFolder(dir); err != nil {
			return res, err
		}
	}
	configText := config.DefaultConfigFile(res.ClaudeCode)
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
	cfg, err := config.LoadConfig(dir)
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
	res.Created = created
	return res, nil
}

// isClaudeCodeFolder reports whether dir is laid out as Claude Code keeps
// a project's memories (~/.claude/projects/<project>/memory/): MEMORY.md
// and, beside it, at least one note whose frontmatter type is a memory
// type. It only reads.
func isClaudeCodeFolder(dir string) (bool, error) {
	if info, err := os.Stat(filepath.Join(dir, vault.MemoryListFile)); err != nil || !info.Mode().IsRegular() {
		return false, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false, fmt.Errorf("init %s: %w", dir, err)
	}
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || name == vault.MemoryListFile || !markdown.IsNotePath(name) || vault.IsHidden(name) {
			continue
		}
		info, err := e.Info()
		if err != nil || info.Size() > config.DefaultConfig().MaxNoteSize {
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
// the outcome log and Dream's record of the session notes it read (union,
// appended to as well), Dream's review list and the record of the view
// files vaultmem wrote (union: one record a line, read as the union) and
// Dream's checkpoint to its driver.
func gitattributesLines(memory, tasks, lessons, dreamLog string) []gitattr {
	var lines []gitattr
	for i, f := range []string{memory, tasks, lessons} {
		if f == "" {
			continue
		}
		f = strings.Trim(path.Clean(filepath.ToSlash(f)), "/")
		switch {
		case f == "." && i == 0: // a flat memory folder: the notes at the top
			lines = append(lines, gitattr{line: "/*" + markdown.Ext + " merge=" + mergedriver.Note.Name, folder: "."})
		case f != "" && f != ".":
			lines = append(lines, gitattr{line: gitattrPattern(f, "/**") + " merge=" + mergedriver.Note.Name, folder: f})
		}
	}
	dreamLog = strings.TrimPrefix(path.Clean(filepath.ToSlash(dream.LogFile(memory, dreamLog))), "/")
	for _, f := range [][2]string{
		{vault.MemoryListFile, mergedriver.List.Name},
		{dreamLog, "union"},
		{vault.StateDir + "/" + lesson.LogFile, "union"},
		{vault.StateDir + "/" + dream.SessionsFile, "union"},
		{vault.StateDir + "/" + reviewsFile, "union"},
		{vault.StateDir + "/" + obsidian.StateFile, "union"},
		{vault.StateDir + "/" + dream.CheckpointFile, mergedriver.Checkpoint.Name},
	} {
		lines = append(lines, gitattr{line: gitattrPattern(f[0], "") + " merge=" + f[1], file: f[0]})
	}
	// The outcome log's files, a person a month: appended to only.
	outcomes := vault.StateDir + "/" + lesson.LogDir
	return append(lines, gitattr{line: gitattrPattern(outcomes, "/**") + " merge=union", folder: outcomes})
}

// reviewsFile is Dream's review list in .vaultmem/state (a name
// gitattributesLines' parameter hides).
const reviewsFile = memory.ReviewsFile

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
// returns "created", "appended" or "unchanged". It never writes through a
// symbolic link, nor to a file with other names (see vault.Vault.Append).
func ensureGitattributes(dir string, lines []gitattr) (string, error) {
	v, err := vault.Open(dir, vault.Folders{})
	if err != nil {
		return "", fmt.Errorf("init: %w", err)
	}
	defer v.Close()
	const name = ".gitattributes"
	b, err := v.ReadOwn(name)
	if errors.Is(err, os.ErrNotExist) {
		var text strings.Builder
		for _, l := range lines {
			text.WriteString(l.line + "\n")
		}
		made, err := v.WriteNew(name, []byte(text.String()))
		if err != nil {
			return "", fmt.Errorf("init: %w", err)
		}
		if !made { // appeared meanwhile: it is someone's, left as it is
			return "unchanged", nil
		}
		return "created", nil
	}
	if err != nil {
		return "", fmt.Errorf("init: %w", err)
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
	if err := v.Append(name, []byte(add)); err != nil {
		return "", fmt.Errorf("init: %w", err)
	}
	return "appended", nil
}

// writeBases writes the Obsidian bases into the views folder of the vault
// dir (none when the config names no folder), never over a person's edit
// (see obsidian.Write).
func writeBases(ctx context.Context, dir string, cfg config.Config) ([]obsidian.Written, error) {
	if strings.TrimSpace(cfg.Folders.Views) == "" {
		return []obsidian.Written{}, nil
	}
	rules, err := cfg.Lessons.Rules.Check()
	if err != nil {
		return nil, err
	}
	v, err := vault.Open(dir, vault.Folders{Memory: cfg.Folders.Memory, Tasks: cfg.Folders.Tasks, Lessons: cfg.Folders.Lessons})
	if err != nil {
		return nil, err
	}
	defer v.Close()
	w := vault.NewWriter(v, vault.WriterOptions{MaxNoteSize: cfg.MaxNoteSize})
	out, err := obsidian.Write(ctx, w, cfg.ViewsFolder(), obsidian.Bases(obsidian.Options{ReviewBelow: rules.ReviewBelow}))
	if err != nil {
		return out, fmt.Errorf("init: views: %w", err)
	}
	return out, nil
}

// nonNil makes JSON print [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
