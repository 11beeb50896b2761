package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/vault"
)

// A Claude Code memory folder's MEMORY.md is a list Claude wrote, one line
// per memory note. Left as it is beside vaultmem's region, every memory
// would be listed twice, within a 200-line budget. When every line of it
// is such a list line (or a heading) naming a memory note of the vault,
// init turns the list into the region, generated from the notes, and keeps
// the file as it was in .vaultmem/state. A list whose line says more of a
// memory than its note does (a hook where the note has no description) is
// left as it is: the region would lose those words.

// indexLine matches a list line of MEMORY.md: "- [Title](file.md) — hook".
var indexLine = regexp.MustCompile(`^\s*[-*+] \[(.*)\]\(([^)\s]+)\)(?:\s+[—–-]\s+(.*))?\s*$`)

// adoptedBackup is where init keeps MEMORY.md as Claude wrote it.
const adoptedBackup = "MEMORY.before-vaultmem.md"

// adoptMemoryIndex turns the list of the vault dir's MEMORY.md into
// vaultmem's region, listing the memories of the memory folder and those
// the list names, and returns how many it lists; 0 (and nothing written)
// when the file holds anything else.
func adoptMemoryIndex(ctx context.Context, dir, folder string) (int, error) {
	p := filepath.Join(dir, vault.MemoryIndexFile)
	old, err := os.ReadFile(p)
	if err != nil || strings.Contains(string(old), memory.Begin) || strings.Contains(string(old), memory.End) {
		return 0, nil
	}
	var head []string
	hooks := map[string]string{}
	listed := 0
	for _, line := range strings.Split(strings.ReplaceAll(string(old), "\r\n", "\n"), "\n") {
		m := indexLine.FindStringSubmatch(line)
		switch {
		case strings.TrimSpace(line) == "":
		case m == nil && strings.HasPrefix(line, "#") && listed == 0:
			head = append(head, line)
		case m == nil:
			return 0, nil // prose of someone's: leave the file as it is
		default:
			target, err := url.PathUnescape(m[2])
			if err != nil || !isMemoryNote(dir, target) {
				return 0, nil
			}
			hooks[filepath.ToSlash(filepath.Clean(target))] = m[3]
			listed++
		}
	}
	if listed == 0 {
		return 0, nil
	}
	entries, err := memoryEntries(dir, folder, hooks)
	if err != nil {
		return 0, err
	}
	for _, e := range entries {
		if e.Hook == "" && strings.TrimSpace(hooks[e.Path]) != "" {
			return 0, nil
		}
	}
	v, err := vault.Open(dir, vault.Folders{Memory: "."})
	if err != nil {
		return 0, err
	}
	defer v.Close()
	w := vault.NewWriter(v, vault.WriterOptions{})
	if _, err := w.WriteState(ctx, adoptedBackup, old, vault.AnyHash); err != nil {
		return 0, err
	}
	start := strings.Join(head, "\n")
	if start != "" {
		start += "\n"
	}
	next, _, err := memory.Render(vault.MemoryIndexFile, []byte(start), entries, nil)
	if err != nil {
		return 0, err
	}
	if _, err := w.Write(ctx, vault.MemoryIndexFile, next, vault.Hash(old)); err != nil {
		return 0, fmt.Errorf("init: %w", err)
	}
	return len(entries), nil
}

// isMemoryNote reports whether the vault path p of dir is a memory note.
func isMemoryNote(dir, p string) bool {
	if !vault.IsNotePath(p) || strings.HasPrefix(p, "/") || strings.Contains(p, "..") {
		return false
	}
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
	return err == nil && vault.Parse(p, b).Kind().IsMemory()
}

// memoryEntries are the live memory notes of the vault dir's memory
// folder (its top level) and those the old list named (hooks' keys), as
// MEMORY.md lists them.
func memoryEntries(dir, folder string, hooks map[string]string) ([]memory.Entry, error) {
	paths := map[string]bool{}
	for p := range hooks {
		paths[p] = true
	}
	files, err := os.ReadDir(filepath.Join(dir, filepath.FromSlash(folder)))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	for _, f := range files {
		if f.Type().IsRegular() && vault.IsNotePath(f.Name()) && f.Name() != vault.MemoryIndexFile {
			paths[path.Join(folder, f.Name())] = true
		}
	}
	var out []memory.Entry
	for p := range paths {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		n := vault.Parse(p, b)
		fm := n.Frontmatter.JSON()
		_, archived := fm["archived"]
		if !n.Kind().IsMemory() || archived {
			continue
		}
		out = append(out, memory.NoteEntry(n))
	}
	return out, nil
}
