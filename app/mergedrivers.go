package app

import "github.com/vaultmem/vaultmem/internal/mergedriver"

// vaultmem's git merge drivers, as init routes files to them and the
// CLI's merge-* commands run them: see package mergedriver.
type (
	// MergeDriver is one of the merge drivers.
	MergeDriver = mergedriver.Driver
	// MergeFiles are what git gives a merge driver.
	MergeFiles = mergedriver.Files
)

// The merge drivers, and how git runs them.
var (
	ListDriver       = mergedriver.List
	NoteDriver       = mergedriver.Note
	CheckpointDriver = mergedriver.Checkpoint
	CanvasDriver     = mergedriver.Canvas
	// MergeDrivers are the merge drivers, in the order init prints them.
	MergeDrivers = mergedriver.All
	// RunMerge runs a driver on the files git gave it.
	RunMerge = mergedriver.Run
	// MergeNote merges three versions of a memory, task or lesson note.
	MergeNote = mergedriver.MergeNote
)
