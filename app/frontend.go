package app

import (
	"context"

	"github.com/vaultmem/vaultmem/dream"
	"github.com/vaultmem/vaultmem/eval"
	"github.com/vaultmem/vaultmem/gitrepo"
	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/obsidian"
	"github.com/vaultmem/vaultmem/recall"
	"github.com/vaultmem/vaultmem/task"
	"github.com/vaultmem/vaultmem/vault"
	"github.com/vaultmem/vaultmem/watch"
)

// What the front ends (cmd/vaultmem, mcpserver) print and pass of the
// packages below app, re-exported so that they import app alone: the
// types are the lower packages' own (aliases), the sentinels the same
// values, so errors.Is and the JSON they print are unchanged.

// Paging, the index's sync and its edges.
type (
	// Page chooses a page of a list: an offset and a limit (at most
	// MaxLimit); see Page.Check.
	Page = index.Page
	// PageInfo says where a page is in its list and whether more follow.
	PageInfo = index.PageInfo
	// SyncStats is what a sync did: the notes it read, the files it
	// skipped and the warnings of those it read.
	SyncStats = index.Stats
	// SyncSkip is a file a sync skipped, or a warning of one it read,
	// naming the file.
	SyncSkip = index.Skip
	// Edge is a link between two notes, as Show and Links give it.
	Edge = index.Edge
	// SearchMode is how Search matches: keyword, vector or hybrid.
	SearchMode = index.Mode
	// IndexProgress is told how a long sync or check goes (done of all).
	IndexProgress = index.Progress
)

// Paginate returns the page p chooses of items and where it is; an
// Invalid error (index.ErrBadPage) for a page out of bounds. The one
// paging rule, for a front end that pages a list it holds whole.
func Paginate[T any](items []T, p Page) ([]T, PageInfo, error) { return index.Paginate(items, p) }

// ParseSearchMode checks a search mode's name ("" is hybrid); an error
// naming the modes otherwise.
func ParseSearchMode(s string) (SearchMode, error) { return index.ParseMode(s) }

// Recall's results and bounds.
type (
	// RecallResult is what Recall gives: the context and how it was found.
	RecallResult = recall.Result
	// RecallIntent is what a question is after (simple-fact, …).
	RecallIntent = recall.Intent
)

// RecallMaxBudget is the largest budget, in tokens, Recall takes.
const RecallMaxBudget = recall.MaxBudget

// ParseRecallIntent checks an intent's name; an error naming the six
// intents otherwise.
func ParseRecallIntent(s string) (RecallIntent, error) { return recall.ParseIntent(s) }

// Memories.
type (
	// Memory is a memory to write (Remember).
	Memory = memory.Memory
	// MemoryType is a memory's type (user, feedback, project, reference).
	MemoryType = memory.Type
	// MemoryOptions say how Remember writes: an update, and the hash the
	// note must still have.
	MemoryOptions = memory.Options
	// MemoryResult is what Remember wrote.
	MemoryResult = memory.Result
	// MemoryInvalidError is a memory refused, naming its fields at fault;
	// it matches ErrMemoryInvalid.
	MemoryInvalidError = memory.InvalidError
	// MemoryTakenError is a memory refused for a name another memory holds;
	// it matches ErrNameTaken.
	MemoryTakenError = memory.TakenError
)

// Sentinels of memories, for errors.Is.
var (
	// ErrMemoryInvalid matches a memory refused for its fields (Invalid).
	ErrMemoryInvalid = memory.ErrInvalid
	// ErrNameTaken matches a memory refused for a name taken (Conflict).
	ErrNameTaken = memory.ErrNameTaken
)

// IsMemoryType reports whether t is a memory type.
func IsMemoryType(t string) bool { return memory.IsType(t) }

// MemoryListFile is MEMORY.md's vault path by default.
const MemoryListFile = vault.MemoryListFile

// Dream and the watcher.
type (
	// DreamOptions say how Dream runs: a dry run, over every memory, waiting
	// for another run.
	DreamOptions = dream.RunOptions
	// DreamReport is what a run of Dream did.
	DreamReport = dream.Report
	// WatchBatch is what the watcher synced of one batch of changes.
	WatchBatch = watch.Batch
)

// Sentinels of Dream and the watcher, for errors.Is.
var (
	// ErrDreamRunning matches a Dream refused while another holds the vault.
	ErrDreamRunning = dream.ErrRunning
	// ErrWatchRunning matches a watcher refused while another runs.
	ErrWatchRunning = watch.ErrRunning
)

// The vault's layout, its lock and the machine's trusted vaults.
const (
	// DotDir is the folder that makes a folder a vault (.vaultmem).
	DotDir = vault.DotDir
	// StateDir is the vault's committed state folder.
	StateDir = vault.StateDir
	// LockFile is the vault lock's vault path.
	LockFile = vault.LockFile
)

// ErrLockTimeout matches a write that waited for another process's vault
// lock past its wait (Conflict).
var ErrLockTimeout = vault.ErrLockTimeout

// TrustFile is the file that lists the vaults this user trusts.
func TrustFile() (string, error) { return vault.TrustFile() }

// TrustedVaults lists the vaults this user trusts, sorted.
func TrustedVaults() ([]string, error) { return vault.TrustedVaults() }

// Trust adds dir's vault to the trusted ones; added is false when it was
// there already. Errors: the trust file's, naming it.
func Trust(dir string) (vaultPath string, added bool, err error) { return vault.Trust(dir) }

// Untrust removes dir's vault from the trusted ones; removed is false
// when it was not there.
func Untrust(dir string) (vaultPath string, removed bool, err error) { return vault.Untrust(dir) }

// What init did with a view file (ViewWritten.Status).
const (
	ViewCreated   = obsidian.Created
	ViewUpdated   = obsidian.Updated
	ViewUnchanged = obsidian.Unchanged
	ViewKept      = obsidian.Kept
)

// ViewWritten is what init did with one view file.
type ViewWritten = obsidian.Written

// DefaultAgent is the agent id of a call that names none.
const DefaultAgent = task.DefaultAgent

// ErrTaskInvalid matches a task request refused for its arguments (an
// agent id that is none, too); class Invalid.
var ErrTaskInvalid = task.ErrInvalid

// GitTopLevel is the top folder of the git repository holding dir; an
// error when dir is in none.
func GitTopLevel(ctx context.Context, dir string) (string, error) { return gitrepo.TopLevel(ctx, dir) }

// GitIgnores reports whether the git repository at project ignores the
// file at rel (its rules alone, tracked or not); inRepo is false when
// project is in no repository (then ignored is false).
func GitIgnores(ctx context.Context, project, rel string) (ignored, inRepo bool) {
	if _, err := gitrepo.Run(ctx, project, "rev-parse", "--git-dir"); err != nil {
		return false, false
	}
	// --no-index: the rules alone, whether or not the file is tracked.
	_, err := gitrepo.Run(ctx, project, "check-ignore", "-q", "--no-index", "--", rel)
	return err == nil, true
}

// EvalOptions configure EvalLoCoMo.
type EvalOptions struct {
	// Budget is recall's budget per question, in tokens (> 0).
	Budget int
	// Intent, if set, skips the classification of every question.
	Intent RecallIntent
	// NoVectors indexes without an embedder (keyword search only).
	NoVectors bool
	// Together indexes every conversation in one vault.
	Together bool
	// Answers keeps each question's answer in the report.
	Answers bool
	// BudgetFill is recall's budget fill (recall.budget_fill: greedy or
	// shared; "" the default).
	BudgetFill string
}

type (
	// EvalReport is what an evaluation found.
	EvalReport = eval.Report
	// EvalAnswer is one question's answer in an EvalReport.
	EvalAnswer = eval.Answer
)

// EvalLoCoMo runs the LoCoMo benchmark over the data set in dir (see
// eval.LoCoMo): a harness over its own vaults, not a use case of an
// opened one, so it takes no App.
func EvalLoCoMo(ctx context.Context, dir string, o EvalOptions) (*EvalReport, error) {
	fill, err := recall.ParseBudgetFill(o.BudgetFill)
	if err != nil {
		return nil, invalid(err)
	}
	return eval.LoCoMo(ctx, dir, eval.Options{Budget: o.Budget, Intent: o.Intent, BudgetFill: fill,
		Index: index.Options{NoVectors: o.NoVectors, Resident: true}, Together: o.Together, Answers: o.Answers})
}

// The sentinels and error types a front end words for its user (the MCP
// server's tool errors), for errors.Is and errors.As.
var (
	// ErrNotFound matches a note (or file) that is not there (Invalid).
	ErrNotFound = vault.ErrNotFound
	// ErrOutside matches a path that leads out of the vault.
	ErrOutside = vault.ErrOutside
	// ErrInvalidPath matches a path the vault refuses (Invalid).
	ErrInvalidPath = vault.ErrInvalidPath
	// ErrTooLarge matches a note over max_note_size.
	ErrTooLarge = vault.ErrTooLarge
	// ErrBadFrontmatter matches frontmatter that does not parse.
	ErrBadFrontmatter = markdown.ErrBadFrontmatter
	// ErrTaskState matches a task change the task's state refuses
	// (Conflict): another agent holds it, children are open.
	ErrTaskState = task.ErrState
	// ErrNoFocus matches a task use case that names no task while the
	// agent has no focus.
	ErrNoFocus = task.ErrNoFocus
	// ErrNotTask matches a name of a note that is no task.
	ErrNotTask = task.ErrNotTask
	// ErrBadBudget matches a recall budget out of range.
	ErrBadBudget = recall.ErrBadBudget
	// ErrBadPage matches a page out of bounds (Invalid).
	ErrBadPage = index.ErrBadPage
	// ErrBadQuery matches a query the index refuses.
	ErrBadQuery = index.ErrBadQuery
)

// ConflictError is an edit refused because the note is not as the caller
// read it (changed, gone, or there when a new note was asked for).
type ConflictError = vault.ConflictError

// SearchResult is a chunk Search found.
type SearchResult = index.Result
