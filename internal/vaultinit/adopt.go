package vaultinit

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
	"unicode"

	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/vault"
)

// A Claude Code memory folder's MEMORY.md is a list Claude wrote, one line
// per memory note. Left as it is beside vaultmem's region, every memory
// would be listed twice, within a 200-line budget. So init turns the
// list's lines that name a live memory note of the vault into the region,
// generated from the notes, and keeps the file as it was in
// .vaultmem/state. Every other line (a title, a human's "IMPORTANT: always
// answer in French", a list line naming anything else) stays, outside the
// region: those above the list's first line above it, the others below
// it; a heading (## and deeper) over nothing but adopted lines goes, as
// the region has its own. The region shows each memory with its note's
// description: a list line whose words for a memory are not all in its
// note's title and description is adopted with a warning naming the line
// and the words, and one about a memory whose note has no description at
// all is kept as it is (the region would show nothing of its words).

// indexLine matches a list line of MEMORY.md: "- [Title](file.md) — hook".
var indexLine = regexp.MustCompile(`^\s*[-*+] \[(.*)\]\(([^)\s]+)\)(?:\s+[—–-]\s+(.*))?\s*$`)

// headingLine matches a markdown heading; its first group is the #s.
var headingLine = regexp.MustCompile(`^(#{1,6})(?:\s|$)`)

// AdoptedBackup is where Init keeps MEMORY.md as Claude wrote it (in
// .vaultmem/state).
const AdoptedBackup = "MEMORY.before-vaultmem.md"

// adoption is what adoptMemoryList did.
type adoption struct {
	// listed counts the memories the region lists; 0 when MEMORY.md was
	// left as it is.
	listed int
	// kept counts the lines (not blank) of the old file kept outside the
	// region.
	kept int
	// warnings name, by file and line, the words of the old list that
	// MEMORY.md no longer shows.
	warnings []string
}

// adoptMemoryList turns the list lines of the vault dir's MEMORY.md that
// name memory notes into vaultmem's region, listing the memories of the
// memory folder and those the list names, and keeps the file's other
// lines outside the region (see above). It writes nothing when the file
// has a region already or adopts no line.
func adoptMemoryList(ctx context.Context, dir, folder string) (adoption, error) {
	p := filepath.Join(dir, vault.MemoryListFile)
	old, err := os.ReadFile(p)
	if err != nil || strings.Contains(string(old), memory.Begin) || strings.Contains(string(old), memory.End) {
		return adoption{}, nil
	}
	lines := strings.Split(strings.TrimRight(strings.ReplaceAll(string(old), "\r\n", "\n"), "\n"), "\n")
	// The memory note each list line names, and what it says of it.
	targets, said := make([]string, len(lines)), make([]string, len(lines))
	hooks := map[string]string{}
	for i, line := range lines {
		m := indexLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		target, err := url.PathUnescape(m[2])
		if err != nil || !memory.InFolder(path.Clean(target), folder) || !isMemoryNote(dir, target) {
			continue // a link to something else: kept
		}
		targets[i], said[i] = filepath.ToSlash(filepath.Clean(target)), strings.TrimSpace(m[3])
		hooks[targets[i]] = said[i]
	}
	entries, err := memoryEntries(dir, folder, hooks)
	if err != nil {
		return adoption{}, err
	}
	live := map[string]memory.Entry{}
	for _, e := range entries {
		live[e.Path] = e
	}
	var res adoption
	adopted := make([]bool, len(lines))
	first := -1
	for i, t := range targets {
		e, ok := live[t]
		switch {
		case t == "" || !ok: // not a memory's, or an archived one's: kept
			continue
		case said[i] != "" && strings.TrimSpace(e.Hook) == "":
			continue // the region would show nothing of its words: kept
		case !sameWords(said[i], e.Title+" "+e.Hook):
			res.warnings = append(res.warnings, fmt.Sprintf("%s:%d: %q (of %s) is no longer in %s: the region shows the note's description "+
				"(the old file: %s/%s)", vault.MemoryListFile, i+1, said[i], t, vault.MemoryListFile, vault.StateDir, AdoptedBackup))
		}
		adopted[i] = true
		if first < 0 {
			first = i
		}
	}
	if first < 0 {
		return adoption{}, nil
	}
	above, below := keptLines(lines, adopted, first)
	for _, l := range append(above, below...) {
		if strings.TrimSpace(l) != "" {
			res.kept++
		}
	}
	content := ""
	if len(above) > 0 {
		content = strings.Join(above, "\n") + "\n\n"
	}
	content += memory.Begin + "\n" + memory.End + "\n"
	if len(below) > 0 {
		content += "\n" + strings.Join(below, "\n") + "\n"
	}
	next, _, err := memory.Render(vault.MemoryListFile, []byte(content), entries, nil)
	if err != nil {
		return adoption{}, err
	}
	v, err := vault.Open(dir, vault.Folders{Memory: "."})
	if err != nil {
		return adoption{}, err
	}
	defer v.Close()
	w := vault.NewWriter(v, vault.WriterOptions{})
	if _, err := w.WriteState(ctx, AdoptedBackup, old, vault.AnyHash); err != nil {
		return adoption{}, err
	}
	if _, err := w.Write(ctx, vault.MemoryListFile, next, markdown.Hash(old)); err != nil {
		return adoption{}, fmt.Errorf("init: %w", err)
	}
	res.listed = len(entries)
	return res, nil
}

// keptLines returns the lines of MEMORY.md that are not adopted, those
// before line first (0-based) and those after it, without the headings
// (## and deeper) whose section holds adopted lines and nothing else, and
// without blank lines at either end of a part or two in a row.
func keptLines(lines []string, adopted []bool, first int) (above, below []string) {
	drop := make([]bool, len(lines))
	copy(drop, adopted)
	for i, l := range lines {
		m := headingLine.FindStringSubmatch(l)
		if m == nil || len(m[1]) < 2 {
			continue
		}
		listed, other := false, false
		for j := i + 1; j < len(lines) && !headingLine.MatchString(lines[j]); j++ {
			switch {
			case adopted[j]:
				listed = true
			case strings.TrimSpace(lines[j]) != "":
				other = true
			}
		}
		drop[i] = listed && !other
	}
	part := func(from, to int) []string {
		var out []string
		for i := from; i < to; i++ {
			blank := strings.TrimSpace(lines[i]) == ""
			switch {
			case drop[i]:
			case blank && (len(out) == 0 || strings.TrimSpace(out[len(out)-1]) == ""):
			default:
				out = append(out, lines[i])
			}
		}
		for len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "" {
			out = out[:len(out)-1]
		}
		return out
	}
	return part(0, first), part(first, len(lines))
}

// sameWords reports whether every word of s (letters and digits, in any
// case) is among the words of t.
func sameWords(s, t string) bool {
	split := func(s string) []string {
		return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	}
	have := map[string]bool{}
	for _, w := range split(t) {
		have[w] = true
	}
	for _, w := range split(s) {
		if !have[w] {
			return false
		}
	}
	return true
}

// isMemoryNote reports whether the vault path p of dir is a memory note.
func isMemoryNote(dir, p string) bool {
	if !markdown.IsNotePath(p) || strings.HasPrefix(p, "/") || strings.Contains(p, "..") {
		return false
	}
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
	return err == nil && memory.IsType(markdown.Parse(p, b).Type())
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
		if f.Type().IsRegular() && markdown.IsNotePath(f.Name()) && f.Name() != vault.MemoryListFile {
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
		n := markdown.Parse(p, b)
		if !memory.IsLive(n) {
			continue // history (archived, merged by Dream) or a proposal
		}
		out = append(out, memory.NoteEntry(n))
	}
	return out, nil
}
