// Package mergedriver holds vaultmem's git merge drivers: what git runs to
// merge MEMORY.md, memory, task and lesson notes, Dream's checkpoint and
// the task canvases of two clones by what they mean rather than by line.
// Each is named in .gitattributes by vaultmem init and enabled in a
// clone's git config (docs/git.md). It imports the kinds' merge rules and
// the config; app and the CLI's merge-* commands run them.
package mergedriver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/vaultmem/vaultmem/config"
	"github.com/vaultmem/vaultmem/dream/runstate"
	"github.com/vaultmem/vaultmem/gitrepo"
	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/obsidian"
	"github.com/vaultmem/vaultmem/task"
	"github.com/vaultmem/vaultmem/vault"
)

// Driver is one of vaultmem's git merge drivers: vaultmem init routes
// files to it in .gitattributes; each clone enables it once with its git
// config commands (git config is not committed); git runs it through
// [Run].
type Driver struct {
	// Name is the driver's name in .gitattributes and git config.
	Name string
	// Command and Label are the git config commands that enable and name
	// it.
	Command, Label string
	// DefaultPath is the file's path in the repository when git gives
	// none: what its links are relative to, and what errors name.
	DefaultPath string
	// merge merges the versions (base, ours, theirs) of the file at path.
	// A result that is not nil is written to ours, even with an error (a
	// merge with conflict markers); an error makes git mark the file
	// conflicted.
	merge func(ctx context.Context, path string, v [3][]byte) ([]byte, error)
}

// vaultmem's merge drivers.
var (
	// List merges MEMORY.md (vaultmem merge-memory-index): the
	// memories each side lists are merged by path; text outside the list
	// is taken from the side that changed it, merged by line when both
	// did, with conflict markers where they clash.
	List = Driver{Name: "vaultmem-memory-index",
		Command:     `git config merge.vaultmem-memory-index.driver "vaultmem merge-memory-index %O %A %B %P"`,
		Label:       `git config merge.vaultmem-memory-index.name "vaultmem MEMORY.md region"`,
		DefaultPath: vault.MemoryListFile, merge: mergeList}
	// Note merges memory, task and lesson notes (vaultmem
	// merge-note): see [MergeNote].
	Note = Driver{Name: "vaultmem-note",
		Command:     `git config merge.vaultmem-note.driver "vaultmem merge-note %O %A %B %P"`,
		Label:       `git config merge.vaultmem-note.name "vaultmem memory, task and lesson notes"`,
		DefaultPath: "note.md", merge: mergeNote}
	// Checkpoint merges Dream's checkpoint (vaultmem
	// merge-checkpoint): see runstate.MergeCheckpoint.
	Checkpoint = Driver{Name: "vaultmem-checkpoint",
		Command:     `git config merge.vaultmem-checkpoint.driver "vaultmem merge-checkpoint %O %A %B %P"`,
		Label:       `git config merge.vaultmem-checkpoint.name "vaultmem Dream checkpoint"`,
		DefaultPath: vault.StateDir + "/" + runstate.CheckpointFile, merge: mergeCheckpoint}
	// Canvas merges the canvases of the views folder (vaultmem
	// merge-canvas): see obsidian.MergeCanvas.
	Canvas = Driver{Name: "vaultmem-canvas",
		Command:     `git config merge.vaultmem-canvas.driver "vaultmem merge-canvas %O %A %B %P"`,
		Label:       `git config merge.vaultmem-canvas.name "vaultmem task canvas"`,
		DefaultPath: "views/Tasks" + vault.CanvasExt, merge: mergeCanvas}
)

// All are the merge drivers, in the order vaultmem init prints them.
var All = []Driver{List, Note, Checkpoint, Canvas}

// Files are what git gives a merge driver (%O %A %B %P): the files
// holding the base, ours and theirs versions, and the file's path in the
// repository ("" when git gives none).
type Files struct {
	Base, Ours, Theirs string
	Path               string
}

// Run runs driver d on the files git gave it: it reads the three
// versions and writes the merge to f.Ours. An error means git marks the
// file conflicted: it names the file and says what to do; f.Ours then
// holds either our version, untouched, or the merge with git's conflict
// markers, as the error says.
func Run(ctx context.Context, d Driver, f Files) error {
	path := f.Path
	if path == "" {
		path = d.DefaultPath
	}
	var v [3][]byte
	for i, file := range [3]struct{ name, path string }{{"base", f.Base}, {"ours", f.Ours}, {"theirs", f.Theirs}} {
		b, err := os.ReadFile(file.path)
		if err != nil {
			return fmt.Errorf("merge %s: read the %s version: %w", path, file.name, err)
		}
		v[i] = b
	}
	out, err := d.merge(ctx, path, v)
	if out != nil {
		// ours is git's temporary file, not a note: git reads it back.
		if werr := os.WriteFile(f.Ours, out, 0o644); werr != nil {
			return fmt.Errorf("merge %s: write the result: %w", path, werr)
		}
	}
	return err
}

func mergeList(ctx context.Context, path string, v [3][]byte) ([]byte, error) {
	out, err := memory.MergeList(path, v[0], v[1], v[2], func(base, ours, theirs []byte) ([]byte, bool, error) {
		return gitrepo.MergeFile(ctx, base, ours, theirs)
	})
	var pe *markdown.ParseError
	switch {
	case errors.Is(err, memory.ErrMergeConflict):
		return out, fmt.Errorf("%w; %s holds the merge with conflict markers (<<<<<<< ours, =======, >>>>>>> theirs) around both versions of the text outside the list: edit it, then git add %s", err, path, path)
	case errors.As(err, &pe):
		return nil, fmt.Errorf("%w; %s is left as your side: edit it (theirs: git show :3:%s), then git add %s", err, path, path, path)
	case err != nil:
		return nil, err
	}
	return out, nil
}

func mergeNote(ctx context.Context, path string, v [3][]byte) ([]byte, error) {
	out, clean, err := MergeNote(ctx, path, v[0], v[1], v[2])
	switch {
	case err != nil:
		return nil, fmt.Errorf("merge %s: %w", path, err)
	case !clean:
		return out, fmt.Errorf("merge %s: both sides changed the same thing; it holds the merge with conflict markers (<<<<<<< ours, =======, >>>>>>> theirs) around both versions: edit it, then git add %s", path, path)
	}
	return out, nil
}

func mergeCheckpoint(_ context.Context, path string, v [3][]byte) ([]byte, error) {
	out, err := runstate.MergeCheckpoint(path, v[1], v[2])
	if err != nil {
		return nil, fmt.Errorf("merge %s: %w; it is left as your side: the file is safe to delete (git rm %s: the next Dream looks at every memory)", path, err, path)
	}
	return out, nil
}

func mergeCanvas(_ context.Context, path string, v [3][]byte) ([]byte, error) {
	out, err := obsidian.MergeCanvas(path, v[0], v[1], v[2])
	if err != nil {
		return nil, fmt.Errorf("merge %s: %w; it is left as your side: fix it by hand, or take one side (git checkout --ours %s) and run vaultmem task tree --canvas again", path, err, path)
	}
	return out, nil
}

// MergeNote is the note merge driver: it merges two versions of a memory,
// task or lesson note (the file path) from their common base, by the
// kinds' merge rules and git's line merge for the rest (see
// markdown.MergeNote); clean is false when something could not be merged
// (merged then holds git's conflict markers). A lesson's strength is
// computed by the strength rule of the vault that holds path (see
// lessonRulesAt), as its writers compute it.
func MergeNote(ctx context.Context, path string, base, ours, theirs []byte) (merged []byte, clean bool, err error) {
	rules := memory.MergeRules.Union(task.MergeRules).Union(lesson.MergeRulesFor(lessonRulesAt(path)))
	return markdown.MergeNote(path, base, ours, theirs, func(base, ours, theirs []byte) ([]byte, bool, error) {
		return gitrepo.MergeFile(ctx, base, ours, theirs)
	}, rules)
}

// lessonRulesAt is the lessons' strength rule of the vault holding the
// file at path (relative to the working folder, where git runs a merge
// driver: the top of the work tree): the config of the nearest folder
// above it with a .vaultmem. The defaults when there is none, or when its
// config cannot be read (the merge must not fail for it: the vault's
// commands report the config's errors).
func lessonRulesAt(path string) lesson.Rules {
	dir := filepath.Dir(filepath.FromSlash(path))
	for {
		if fi, err := os.Stat(filepath.Join(dir, vault.DotDir)); err == nil && fi.IsDir() {
			c, err := config.LoadConfig(dir)
			if err != nil {
				break
			}
			if r, err := c.Lessons.Rules.Check(); err == nil {
				return r
			}
			break
		}
		if dir == "." || dir == string(filepath.Separator) || filepath.Dir(dir) == dir {
			break
		}
		dir = filepath.Dir(dir)
	}
	return lesson.DefaultRules()
}
