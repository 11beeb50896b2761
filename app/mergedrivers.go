package app

import (
	"context"

	"github.com/vaultmem/vaultmem/gitrepo"
	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/task"
)

// MergeDriver is one of vaultmem's git merge drivers: Init routes files
// to it in .gitattributes; each clone enables it once with its git config
// commands (git config is not committed).
type MergeDriver struct {
	// Name is the driver's name in .gitattributes and git config.
	Name string
	// Command and Label are the git config commands that enable and name
	// it.
	Command, Label string
}

// vaultmem's merge drivers.
var (
	// ListDriver merges MEMORY.md (vaultmem merge-memory-index).
	ListDriver = MergeDriver{"vaultmem-memory-index",
		`git config merge.vaultmem-memory-index.driver "vaultmem merge-memory-index %O %A %B %P"`,
		`git config merge.vaultmem-memory-index.name "vaultmem MEMORY.md region"`}
	// NoteDriver merges memory, task and lesson notes (vaultmem
	// merge-note).
	NoteDriver = MergeDriver{"vaultmem-note",
		`git config merge.vaultmem-note.driver "vaultmem merge-note %O %A %B %P"`,
		`git config merge.vaultmem-note.name "vaultmem memory, task and lesson notes"`}
	// CheckpointDriver merges Dream's checkpoint (vaultmem
	// merge-checkpoint).
	CheckpointDriver = MergeDriver{"vaultmem-checkpoint",
		`git config merge.vaultmem-checkpoint.driver "vaultmem merge-checkpoint %O %A %B %P"`,
		`git config merge.vaultmem-checkpoint.name "vaultmem Dream checkpoint"`}
)

// MergeDrivers are the merge drivers, in the order Init prints them.
var MergeDrivers = []MergeDriver{ListDriver, NoteDriver, CheckpointDriver}

// noteMergeRules are the merge rules of the note kinds the note driver
// merges: memories, tasks and lessons.
var noteMergeRules = memory.MergeRules.Union(task.MergeRules).Union(lesson.MergeRules)

// MergeNote is the note merge driver: it merges two versions of a memory,
// task or lesson note (the file path) from their common base, by the
// kinds' merge rules and git's line merge for the rest (see
// markdown.MergeNote); clean is false when something could not be merged
// (merged then holds git's conflict markers).
func MergeNote(ctx context.Context, path string, base, ours, theirs []byte) (merged []byte, clean bool, err error) {
	return markdown.MergeNote(path, base, ours, theirs, func(base, ours, theirs []byte) ([]byte, bool, error) {
		return gitrepo.MergeFile(ctx, base, ours, theirs)
	}, noteMergeRules)
}
