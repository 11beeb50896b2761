package app

import (
	"context"
	"time"

	"github.com/vaultmem/vaultmem/dream"
	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/task"
	"github.com/vaultmem/vaultmem/vault"
)

// Checkup is what Doctor found, and with fix did.
type Checkup struct {
	OK bool `json:"ok"`
	index.Repair
	// TaskProblems are what is wrong in the task tree as written (parent
	// cycles, links to no task, unknown statuses): the notes are left as
	// they are, for a human to fix.
	TaskProblems []markdown.Problem `json:"task_problems"`
	// LessonProblems are the lessons' frontmatter problems (a strength
	// that is no number in 0..1, no trigger), each left out of matching
	// until a human fixes it.
	LessonProblems []markdown.Problem `json:"lesson_problems"`
	// Proposed are the memories and lessons Dream proposed from session
	// notes that wait to be accepted (status: proposed): not live until a
	// person or an agent removes the key. They do not make the vault
	// unwell.
	Proposed []memory.Proposal `json:"proposed"`
	// Unowned are the user memories without an owner in a vault several
	// people share (see memory.Store.Unowned): everyone's until a person
	// adds owner: to their own. They do not make the vault unwell.
	Unowned []memory.Entry `json:"unowned_user_memories"`
	// Skipped are the files that could not be indexed, and Warnings the
	// problems of the notes that were (frontmatter that does not parse),
	// as the index last read them: every one, where a read command warns
	// of a note's once per change of it.
	Skipped  []index.Skip `json:"skipped"`
	Warnings []index.Skip `json:"warnings"`
	// InterruptedDream is when a Dream run that stopped while it wrote
	// had started ("" when none did); --fix finishes it (DreamFinished
	// says what it wrote), as the next Dream would.
	InterruptedDream string        `json:"interrupted_dream,omitempty"`
	DreamFinished    *dream.Report `json:"dream_finished,omitempty"`
	// Leftovers are the temp files killed writers left beside notes
	// (hidden, never notes); --fix removes those over an hour old.
	Leftovers []vault.Leftover `json:"leftover_temp_files"`
	Removed   []string         `json:"removed_temp_files,omitempty"`
	// GitignoreLacks is the rule .vaultmem/.gitignore lacks to keep the
	// agent sessions' state out of git ("" when it has it): a vault made
	// before the rule existed, whose .gitignore vaultmem never rewrites
	// on its own. --fix adds it (GitignoreFixed).
	GitignoreLacks string `json:"gitignore_lacks,omitempty"`
	GitignoreFixed bool   `json:"gitignore_fixed,omitempty"`
	// Tracked are the per-machine folders git still tracks (committed
	// before .gitignore kept them out), each with the command that stops
	// it.
	Tracked []TrackedState `json:"tracked_machine_state,omitempty"`
	// Conflicted are vaultmem's own files (MEMORY.md, the committed state)
	// that git left with conflict markers, each with its fix; they make
	// the vault unwell (vaultmem reads through them meanwhile).
	Conflicted []Conflicted `json:"conflicted"`
	// DriversOff are the merge drivers this clone's git config lacks
	// (each with the command that enables it): a warning.
	DriversOff []DriverOff `json:"merge_drivers_off,omitempty"`
	// ConflictCopies are the memories, tasks and lessons that a sync
	// service copied beside the note they copy (see vault.ConflictCopy),
	// each with what to do. They are warnings: a person compares the two
	// and keeps one; they do not make the vault unwell.
	ConflictCopies []ConflictCopy `json:"conflict_copies"`
}

// TrackedState is a per-machine folder that git still tracks, and the
// command that stops it (the files stay).
type TrackedState struct {
	Path string `json:"path"`
	Fix  string `json:"fix"`
}

// ConflictCopy is a note that a sync service copied beside its original.
type ConflictCopy struct {
	// Path is the copy's vault path, Original the original's.
	Path     string `json:"path"`
	Original string `json:"original"`
	// Service names the sync service whose name the copy has.
	Service string `json:"service"`
	// Kind is "memory", "task" or "lesson".
	Kind string `json:"kind"`
	// Fix says what to do.
	Fix string `json:"fix"`
}

// leftoverAge is how old a temp file must be for Doctor to remove
// it: no write takes anywhere near that long.
const leftoverAge = time.Hour

// Doctor checks the vault: the index against the notes (every note read
// and hashed, every link resolved again: see index.Check), the task tree
// and the lessons as written, the sync services' conflict copies of
// memories, tasks and lessons, the proposals waiting to be accepted, every
// warning of a note, a Dream run that
// stopped while it wrote, and temp files killed writes left. With fix it
// repairs what can be: syncs (rebuilding the cache if drift remains),
// finishes the stopped Dream run (see dream.Dreamer.Resume) and lists the
// memories again, and removes the temp files over an hour old; progress,
// if set, is told how the repair goes. The notes as written are never
// changed to fix what is wrong in them: that is a human's to decide. It
// also reports a .vaultmem/.gitignore that would let the agent sessions'
// state into git, and with fix adds the rule.
func (a *App) Doctor(ctx context.Context, fix bool, progress index.Progress) (Checkup, error) {
	d := doctor{a}
	var rep Checkup
	var err error
	if fix {
		rep.Repair, err = a.ix.Repair(ctx, a.Vault.FS(), progress)
	} else {
		rep.Drift, err = a.ix.Check(ctx, a.Vault.FS())
	}
	if err != nil {
		return rep, err
	}
	rep.OK = len(rep.Drift) == 0
	if err := d.checkDream(ctx, fix, &rep); err != nil {
		return rep, err
	}
	if rep.TaskProblems, err = a.taskStore().Problems(ctx); err != nil {
		return rep, err
	}
	rep.TaskProblems = NonNil(rep.TaskProblems)
	lessons, err := a.ix.Kinds().Lessons(ctx)
	if err != nil {
		return rep, err
	}
	rep.LessonProblems = []markdown.Problem{}
	for _, l := range lessons {
		for _, p := range l.Problems {
			rep.LessonProblems = append(rep.LessonProblems, markdown.Problem{Path: l.Path, Line: p.Line, Message: p.Message})
		}
	}
	if rep.ConflictCopies, err = d.conflictCopies(ctx); err != nil {
		return rep, err
	}
	if rep.Proposed, err = a.ix.Kinds().Proposed(ctx); err != nil {
		return rep, err
	}
	rep.Proposed = NonNil(rep.Proposed)
	if rep.Unowned, err = a.memoryStore().Unowned(ctx); err != nil {
		return rep, err
	}
	rep.Unowned = NonNil(rep.Unowned)
	if rep.Skipped, rep.Warnings, err = a.ix.Findings(ctx, a.Vault.FS()); err != nil {
		return rep, err
	}
	rep.Skipped, rep.Warnings = NonNil(rep.Skipped), NonNil(rep.Warnings)
	if rep.Leftovers, err = a.Vault.Leftovers(); err != nil {
		return rep, err
	}
	rep.Leftovers = NonNil(rep.Leftovers)
	if fix {
		for _, l := range rep.Leftovers {
			if time.Since(l.ModTime) > leftoverAge && a.Vault.RemoveLeftover(l.Path) == nil {
				rep.Removed = append(rep.Removed, l.Path)
			}
		}
	}
	if err := d.checkMerges(ctx, &rep); err != nil {
		return rep, err
	}
	rep.Conflicted = NonNil(rep.Conflicted)
	return rep, d.checkGitignore(ctx, fix, &rep)
}

// doctor is Doctor's checks of one App's vault, each a part of its
// report.
type doctor struct{ a *App }

// checkDream reports a Dream run that stopped while it wrote, and with
// fix finishes it and lists the memories again without those it archived.
func (d doctor) checkDream(ctx context.Context, fix bool, rep *Checkup) error {
	a := d.a
	dr := a.dreamer()
	var err error
	if rep.InterruptedDream, err = dr.Interrupted(); err != nil || rep.InterruptedDream == "" {
		return err
	}
	if !fix {
		rep.OK = false
		return nil
	}
	if rep.DreamFinished, err = dr.Resume(ctx, true); err != nil {
		return err
	}
	if _, err := a.Sync(ctx, SyncOptions{Always: true}); err != nil {
		return err
	}
	if _, err := a.memoryStore().Relist(ctx); err != nil {
		return err
	}
	rep.Fixed = true
	return nil
}

// conflictCopies lists the live memories, tasks and lessons that are a
// sync service's copy of another live note of their kind.
func (d doctor) conflictCopies(ctx context.Context) ([]ConflictCopy, error) {
	a := d.a
	notes, err := a.ix.Searcher().List(ctx, index.Query{})
	if err != nil {
		return nil, err
	}
	kindOf := func(typ string) string {
		switch {
		case memory.IsType(typ):
			return "memory"
		case typ == task.Type, typ == lesson.Type:
			return typ
		}
		return ""
	}
	kinds := map[string]string{}
	for _, n := range notes {
		if k := kindOf(n.Type); k != "" {
			kinds[n.Path] = k
		}
	}
	out := []ConflictCopy{}
	for _, n := range notes {
		k := kinds[n.Path]
		if k == "" {
			continue
		}
		orig, service, ok := vault.ConflictCopy(n.Path, func(p string) bool { return kinds[p] == k })
		if ok && kinds[orig] == k {
			out = append(out, ConflictCopy{Path: n.Path, Original: orig, Service: service, Kind: k, Fix: vault.ConflictCopyAdvice(n.Path, orig, service)})
		}
	}
	return out, nil
}
