package proposal

import (
	"context"
	"slices"
	"time"

	"github.com/vaultmem/vaultmem/chat"
	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/memory"
)

// Index is what proposing needs of the index: the live memories and the
// proposals waiting (whose names a proposal must not take), the session
// notes, a note by name and how a wikilink names a note. index.Stores is
// one; it must be current with the vault, and what it lags behind on is
// read from disk.
type Index interface {
	Memories(ctx context.Context) ([]memory.Live, error)
	Lookup(ctx context.Context, nameOrPath string) (string, error)
	LinkText(ctx context.Context, p string) string
	Proposed(ctx context.Context) ([]memory.Proposal, error)
	Sessions(ctx context.Context) ([]index.SessionNote, error)
}

var _ Index = index.Stores{}

// Writer is what proposing reads notes and SessionsFile with, and appends
// to SessionsFile with: a *vault.Writer.
type Writer interface {
	Read(p string) ([]byte, string, error)
	ReadState(name string) ([]byte, string, error)
	AppendState(ctx context.Context, name string, line []byte) error
}

// Store writes a proposed memory (memory.Store.Propose does): its path,
// its hash, or an error wrapping memory.ErrInvalid when the memory is not
// valid.
type Store interface {
	Propose(ctx context.Context, m memory.Memory, source string) (string, string, error)
}

var _ Store = (*memory.Store)(nil)

// Options configure a Proposer.
type Options struct {
	// LLM is the chat endpoint asked for proposals; it must be set.
	LLM *chat.Options
	// Timeout bounds one request when LLM sets none.
	Timeout time.Duration
	// AddLesson writes a proposed lesson (lesson.Store.Add does) and
	// returns its path; nil proposes memories only.
	AddLesson func(ctx context.Context, l lesson.New) (string, error)
}

// Proposer proposes memories and lessons from the session notes of one
// vault. Make one with New.
type Proposer struct {
	w     Writer
	ix    Index
	store Store
	opts  Options
}

// New returns the Proposer reading and recording through w, the notes ix
// holds, writing proposed memories through store.
func New(w Writer, ix Index, store Store, opts Options) *Proposer {
	return &Proposer{w: w, ix: ix, store: store, opts: opts}
}

// Report is what proposing did (or, in a dry run, would do); dream adds
// each field to its own Report's field of that name.
type Report struct {
	// Proposed are the notes proposed (vault paths).
	Proposed []string
	// Sessions counts the session notes read (in a dry run, those a run
	// would read).
	Sessions int
	// Warnings say what went wrong: an LLM that failed, an answer or items
	// of it that did not pass the checks, a proposal left out because its
	// name is taken, lines of SessionsFile that do not parse.
	Warnings []string
	// LLMError says why the LLM was not asked further, when it failed.
	LLMError string
	// Changed are the files written (vault paths), in order.
	Changed []string
}

// wrote records a file written.
func (rep *Report) wrote(p string) {
	if !slices.Contains(rep.Changed, p) {
		rep.Changed = append(rep.Changed, p)
	}
}

// Pending counts the session notes that ended and wait to be read for
// proposals (at most maxSessionsPerRun of them are read by one run).
// Errors are the Writer's, when SessionsFile cannot be read, and the
// index's.
func (d *Proposer) Pending(ctx context.Context) (int, error) {
	log, _, err := d.readSessionLog()
	if err != nil {
		return 0, err
	}
	pending, err := d.pendingSessions(ctx, log)
	if err != nil {
		return 0, err
	}
	return len(pending), nil
}
