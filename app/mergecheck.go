package app

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io/fs"
	"path"
	"strings"

	"github.com/vaultmem/vaultmem/dream"
	"github.com/vaultmem/vaultmem/gitrepo"
	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/obsidian"
	"github.com/vaultmem/vaultmem/vault"
)

// Conflicted is one of vaultmem's own files that git left with conflict
// markers: the file, the line of the first marker, and what to do.
type Conflicted struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Fix  string `json:"fix"`
}

// DriverOff is a merge driver .gitattributes routes files to that this
// clone's git config does not define (git config is not committed): git
// then merges those files by line, and vaultmem's files conflict.
type DriverOff struct {
	Name    string `json:"name"`
	Command string `json:"command"`
}

// unionFix is the fix of a file git merges by its union rule.
const unionFix = "it was merged without git's union rule: vaultmem reads both sides' lines as they are; delete the marker lines and git add it (vaultmem init adds the rule to .gitattributes)"

// ownFileFix says how to settle a conflict in one of vaultmem's own
// files, by its vault path; "" for a file this check does not read.
func ownFileFix(p string) string {
	state := strings.TrimPrefix(p, vault.StateDir+"/")
	switch {
	case p == vault.MemoryListFile:
		return "both sides' text outside the list is between the markers: keep what you want, delete the marker lines, git add it (the list itself is rewritten from the notes)"
	case state == dream.CheckpointFile:
		return "safe to delete: git rm it (the next Dream looks at every memory)"
	case state == obsidian.StateFile, state == dream.SessionsFile, state == memory.ReviewsFile, state == lesson.LogFile, strings.HasPrefix(state, lesson.LogDir+"/"):
		return unionFix
	case strings.HasPrefix(p, vault.StateDir+"/"):
		return "keep one version, delete the marker lines, git add it"
	}
	return ""
}

// checkMerges reports vaultmem's own files that hold git's conflict
// markers (MEMORY.md and the committed state files: notes are reported as
// notes whose frontmatter does not parse), and, in a git vault, the merge
// drivers this clone has not enabled. A conflicted file makes the vault
// unwell; a driver not enabled is a warning.
func (d doctor) checkMerges(ctx context.Context, rep *Checkup) error {
	a := d.a
	files := []string{vault.MemoryListFile}
	err := fs.WalkDir(a.Vault.Root().FS(), vault.StateDir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return fs.SkipDir
		case err != nil:
			return err
		case d.IsDir() && (p == vault.StateDir+"/sessions" || p == vault.StateDir+"/"+"focus"):
			return fs.SkipDir // per machine: never merged
		case d.Type().IsRegular() && path.Base(p) != dream.JournalFile:
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, p := range files {
		b, err := a.Vault.Root().ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		if line := conflictLine(b); line > 0 {
			rep.Conflicted = append(rep.Conflicted, Conflicted{Path: p, Line: line, Fix: ownFileFix(p)})
		}
	}
	if len(rep.Conflicted) > 0 {
		rep.OK = false
	}
	if _, err := gitrepo.TopLevel(ctx, a.Vault.Dir); err != nil {
		return nil // not a git vault
	}
	for _, d := range MergeDrivers {
		if out, err := gitrepo.Run(ctx, a.Vault.Dir, "config", "--get", "merge."+d.Name+".driver"); err != nil || strings.TrimSpace(out) == "" {
			rep.DriversOff = append(rep.DriversOff, DriverOff{Name: d.Name, Command: d.Command})
		}
	}
	return nil
}

// conflictLine is the line of b's first conflict marker, 0 when it has
// none.
func conflictLine(b []byte) int {
	if !bytes.Contains(b, []byte("=======")) {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for n := 1; sc.Scan(); n++ {
		if markdown.IsConflictMarker(sc.Text()) {
			return n
		}
	}
	return 0
}
