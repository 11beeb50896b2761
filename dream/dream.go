package dream

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/vaultmem/vaultmem/chat"
	"github.com/vaultmem/vaultmem/dream/runstate"
	"github.com/vaultmem/vaultmem/dream/similar"
	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/vault"
)

// Index is what Dream needs of the index: the live memories, the notes
// whose frontmatter does not parse, the links to a memory, the memories
// merged away that notes still link to, the proposals waiting to be
// accepted and the session notes.
// index.Stores is one. It must be current with the vault (synced, or kept
// so by a watcher); what it lags behind on, Dream reads from disk.
type Index interface {
	Memories(ctx context.Context) ([]memory.Live, error)
	BadFrontmatter(ctx context.Context, folder string) ([]markdown.Problem, error)
	Backlinks(ctx context.Context, path string) ([]string, error)
	Edges(ctx context.Context, f index.EdgeFilter) ([]index.Edge, error)
	LinkedMergedAway(ctx context.Context) ([]index.MergedAway, error)
	Lookup(ctx context.Context, nameOrPath string) (string, error)
	LinkText(ctx context.Context, p string) string
	Proposed(ctx context.Context) ([]memory.Proposal, error)
	Sessions(ctx context.Context) ([]index.SessionNote, error)
}

var _ Index = index.Stores{}

// Options configure a Dreamer. The zero value works.
type Options struct {
	// Folder is the memory folder ("" means "memory"): where the dream log
	// goes and where notes whose frontmatter does not parse are reported.
	Folder string
	// LogFile is the dream log's vault path; "" means Folder/dream-log.md.
	LogFile string
	// Commit makes each run that changes something one git commit of the
	// files it wrote (only those), when the vault is in a git repository.
	Commit bool
	// LLM, when set, rewrites merged memories into one text and suggests
	// how to resolve contradictions; any failure falls back to the
	// deterministic result.
	LLM *chat.Options
	// Lessons, when set, decays lesson strength (today is YYYY-MM-DD) and
	// returns the lessons it changed or, in a dry run, would change.
	Lessons func(ctx context.Context, today string, dryRun bool) ([]string, error)
	// Propose, with LLM, has each run read the session notes that ended
	// since and propose memories and lessons from them, each a note with
	// status: proposed (see package proposal). Without LLM nothing is proposed.
	Propose bool
	// AddLesson writes a lesson Dream proposes (lesson.Store.Add does) and
	// returns its path; nil proposes memories only.
	AddLesson func(ctx context.Context, l lesson.New) (string, error)
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Dreamer runs Dream on one vault. Make one with New.
type Dreamer struct {
	v     *vault.Vault
	w     noteWriter // a *vault.Writer but in tests
	ix    Index
	store *memory.Store
	opts  Options
}

// New returns the Dreamer of vault v, writing through w, with the memories
// ix holds, and MEMORY.md and the flagged pairs kept by store.
func New(v *vault.Vault, w *vault.Writer, ix Index, store *memory.Store, opts Options) *Dreamer {
	if opts.Folder == "" {
		opts.Folder = "memory"
	}
	opts.LogFile = LogFile(opts.Folder, opts.LogFile)
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Dreamer{v: v, w: w, ix: ix, store: store, opts: opts}
}

// RunOptions say how one run goes.
type RunOptions struct {
	// DryRun plans and reports, and writes nothing.
	DryRun bool
	// Full looks at every memory, not only those changed since the
	// checkpoint (and their neighbours).
	Full bool
	// Wait waits for another Dream to finish instead of returning
	// ErrRunning.
	Wait bool
}

// Report is what a run did (or, in a dry run, would do).
type Report struct {
	DryRun bool `json:"dry_run"`
	// Merged are the duplicates merged, each into the more complete note.
	Merged []Merge `json:"merged"`
	// Archived are the memories archived: merged into another, or
	// superseded.
	Archived []string `json:"archived"`
	// Contradictions are the pairs flagged for a human, new and standing.
	Contradictions []Contradiction `json:"contradictions"`
	// PossibleDuplicates are the pairs alike but not provably the same,
	// listed for a human to settle (see docs/merge-rules.md), new and
	// standing.
	PossibleDuplicates []Contradiction `json:"possible_duplicates"`
	// Judged are the LLM's verdicts on possible duplicates this run.
	Judged []Judgement `json:"judged,omitempty"`
	// DatesFixed are the relative dates made absolute.
	DatesFixed []DateFix `json:"dates_fixed"`
	// LinksRewritten are the notes whose links to an archived memory now
	// point at the memory it was merged into.
	LinksRewritten []string `json:"links_rewritten"`
	// MemoryIndex is MEMORY.md after the run.
	MemoryIndex IndexReport `json:"memory_index"`
	// Changed are the files written (vault paths), in order.
	Changed []string `json:"changed"`
	// Skipped are the memories and notes left alone, and why.
	Skipped []Skip `json:"skipped"`
	// Lessons are the lessons whose strength decayed.
	Lessons []string `json:"lessons,omitempty"`
	// Proposed are the notes proposed from session notes (memories and
	// lessons with status: proposed, waiting to be accepted), and
	// Sessions counts the session notes read for them (in a dry run,
	// those a run would read).
	Proposed []string `json:"proposed"`
	Sessions int      `json:"sessions_read,omitempty"`
	// Warnings say what went wrong in proposing: an LLM that failed, an
	// answer or items of it that did not pass the checks, a proposal left
	// out because its name is taken.
	Warnings []string `json:"warnings,omitempty"`
	// Memories counts the live memories; Examined those looked at (changed
	// since the checkpoint), which is all of them on a full run.
	Memories int `json:"memories"`
	Examined int `json:"examined"`
	// Resumed is when a run that stopped while it wrote had started, when
	// this run finished it first (see JournalFile); its merges, archives
	// and dates are in this report.
	Resumed string `json:"resumed,omitempty"`
	// Log is the dream log note, when this run added an entry to it.
	Log string `json:"log,omitempty"`
	// Commit is the git commit of the run's changes, when one was made;
	// CommitError says why none was when one was asked for.
	Commit      string `json:"commit,omitempty"`
	CommitError string `json:"commit_error,omitempty"`
	// LLMError says why the LLM's help was not used, when it failed.
	LLMError string `json:"llm_error,omitempty"`
	MS       int64  `json:"ms"`
}

// Merge is one merge: the notes of From were merged into Into.
type Merge struct {
	Into string   `json:"into"`
	From []string `json:"from"`
	// Reason says how they were proved the same: "same text" (equal after
	// the normalisations of docs/merge-rules.md), "contained" (every
	// sentence of the others is in Into), "same_as" (a person said so) or
	// "judged the same by the LLM".
	Reason string `json:"reason"`
	// Rewritten says the merged text is the LLM's.
	Rewritten bool `json:"rewritten,omitempty"`
}

// Contradiction is a pair of memories that may contradict each other (or,
// in PossibleDuplicates, that may be duplicates).
type Contradiction struct {
	Paths  [2]string `json:"paths"`
	Reason string    `json:"reason"`
	// New says this run found it (else an earlier run did, and it stands).
	New bool `json:"new"`
	// Suggestion is the LLM's suggested resolution, when there is one.
	Suggestion string `json:"suggestion,omitempty"`
}

// DateFix is a relative date made absolute (see runstate.DateFix: a
// run's journal records them with its writes).
type DateFix = runstate.DateFix

// Skip is a note Dream left alone.
type Skip struct {
	Path   string `json:"path"`
	Line   int    `json:"line,omitempty"`
	Reason string `json:"reason"`
}

// IndexReport is MEMORY.md after a run.
type IndexReport struct {
	Path string `json:"path"`
	memory.ListStats
	// Changed says the run rewrote it.
	Changed bool `json:"changed"`
	// Error says why it could not be written (its markers are broken).
	Error string `json:"error,omitempty"`
}

// Run runs Dream once: it plans from the memories on disk and, unless
// ro.DryRun, applies the plan. Errors: ErrRunning (wrapped) when another
// Dream holds the vault and ro.Wait is not set; ctx's error; the index's
// and the Writer's when a read or a state file fails. A note that cannot
// be changed (a human edited it meanwhile, its frontmatter does not
// parse) is not an error: it is reported in Skipped.
func (d *Dreamer) Run(ctx context.Context, ro RunOptions) (*Report, error) {
	start := time.Now()
	unlock, err := d.lock(ctx, ro.Wait)
	if err != nil {
		return nil, err
	}
	defer unlock()
	rep := newReport(ro.DryRun)
	var fin *finished
	if ro.DryRun {
		if _, _, err := d.w.ReadState(JournalFile); err == nil {
			rep.skip(vault.StateDir+"/"+JournalFile, 0, "a run stopped while it wrote; the next run that writes finishes it first")
		}
	} else if fin, err = d.resume(ctx, rep); err != nil {
		return rep, err
	}
	now := d.opts.Now()
	// The proposals first, before the plan reads the memories: they are
	// no live memories, and the LLM may take a while. A MEMORY.md with
	// broken markers stops the run before it writes anything.
	if err := d.store.CheckList(); err != nil {
		return nil, err
	}
	proposals, err := d.propose(ctx, now, ro.DryRun, rep)
	if err != nil {
		return rep, err
	}
	p, err := d.plan(ctx, ro, now, rep)
	if err != nil {
		return nil, err
	}
	p.finished, p.proposals = fin, proposals
	if err := d.apply(ctx, p, ro.DryRun, rep); err != nil {
		return rep, err
	}
	if !ro.DryRun {
		// A cache: without it the next run reads more.
		if d.v.EnsureDir(vault.CacheDir) == nil {
			_ = similar.WriteSketches(d.v.Abs(sketchFile), keptSketches(p, p.sketches))
		}
	}
	if d.opts.Lessons != nil {
		if rep.Lessons, err = d.opts.Lessons(ctx, p.today, ro.DryRun); err != nil {
			return rep, fmt.Errorf("decay lessons: %w", err)
		}
	}
	if !ro.DryRun && d.opts.Commit && len(rep.Changed) > 0 {
		rep.Commit, err = d.commit(ctx, rep)
		if err != nil {
			rep.CommitError = err.Error()
		}
	}
	rep.MS = time.Since(start).Milliseconds()
	return rep, nil
}

// newReport is an empty report.
func newReport(dryRun bool) *Report {
	return &Report{DryRun: dryRun, Merged: []Merge{}, Archived: []string{}, Contradictions: []Contradiction{}, PossibleDuplicates: []Contradiction{},
		DatesFixed: []DateFix{}, LinksRewritten: []string{}, Changed: []string{}, Skipped: []Skip{}, Proposed: []string{}}
}

// skip records a note left alone.
func (rep *Report) skip(p string, line int, format string, args ...any) {
	rep.Skipped = append(rep.Skipped, Skip{Path: p, Line: line, Reason: fmt.Sprintf(format, args...)})
}

// wrote records a file written.
func (rep *Report) wrote(p string) {
	if !slices.Contains(rep.Changed, p) {
		rep.Changed = append(rep.Changed, p)
	}
}

// Summary is the report in one line, for a log or an agent.
func (rep *Report) Summary() string {
	verb := "changed"
	if rep.DryRun {
		verb = "would change"
	}
	s := fmt.Sprintf("%d memories (%d looked at): %d merged, %d archived, %d contradictions flagged (%d new), %d possible duplicates to review (%d new), %d dates fixed, %d notes relinked; %s %d files",
		rep.Memories, rep.Examined, len(rep.Merged), len(rep.Archived), len(rep.Contradictions), countNew(rep.Contradictions),
		len(rep.PossibleDuplicates), countNew(rep.PossibleDuplicates),
		len(rep.DatesFixed), len(rep.LinksRewritten), verb, len(rep.Changed))
	switch {
	case len(rep.Proposed) > 0:
		s += fmt.Sprintf("; %d proposed (status: proposed, to accept or delete) from %d session notes read", len(rep.Proposed), rep.Sessions)
	case rep.Sessions > 0 && rep.DryRun:
		s += fmt.Sprintf("; %d session notes to read for proposals", rep.Sessions)
	case rep.Sessions > 0:
		s += fmt.Sprintf("; %d session notes read, nothing proposed", rep.Sessions)
	}
	if len(rep.Skipped) > 0 {
		s += fmt.Sprintf("; %d skipped", len(rep.Skipped))
	}
	if len(rep.Warnings) > 0 {
		s += fmt.Sprintf("; %d warnings", len(rep.Warnings))
	}
	if rep.MemoryIndex.Error != "" {
		s += "; MEMORY.md not written: " + rep.MemoryIndex.Error
	}
	return s + "."
}
