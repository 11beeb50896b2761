package runstate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/vaultmem/vaultmem/vault"
)

// A run that stops while it writes (killed, out of power, a note it cannot
// write) must not leave a merge half done: a winner holding the text of a
// memory still live beside it, a memory archived whose links still point
// at it, a merge the dream log never mentions. So before its first write
// a run writes its journal: every note it is about to write, in order,
// with the hash it read and the content it will write, under a run id.
// Once the run has written its notes and its dream log entry, it removes
// the journal; the run that finds one finishes it first (package dream
// says how).

// JournalFile is the state file of a run in progress (under
// .vaultmem/state, kept out of git: it is one machine's unfinished work).
const JournalFile = "dream-journal.json"

// Journal is what a run is about to write.
type Journal struct {
	// ID names the run in the dream log; a journal written before runs
	// had ids has none.
	ID string `json:"id,omitempty"`
	// Started is when the run started (RFC 3339).
	Started string  `json:"started"`
	Merges  []Merge `json:"merges,omitempty"`
	// Writes are the other notes: superseded memories, then dated ones.
	Writes []Step `json:"writes,omitempty"`
}

// Merge is one merge: with Keeper, its first loser (which keeps the
// winner's words that the LLM's text replaces) is written first, then the
// winner, then the others.
type Merge struct {
	Reason    string `json:"reason"`
	Rewritten bool   `json:"rewritten,omitempty"`
	Keeper    bool   `json:"keeper,omitempty"`
	Winner    Step   `json:"winner"`
	Losers    []Step `json:"losers"`
}

// Step is one note to write: from the content of hash From ("" for a
// note left as it is) to Content, of hash To ("" when there is nothing
// to write).
type Step struct {
	Path    string `json:"path"`
	From    string `json:"from"`
	To      string `json:"to,omitempty"`
	Content string `json:"content,omitempty"`
	// By is the memory that supersedes this one, when it is archived so.
	By string `json:"by,omitempty"`
	// Fixes are the dates the write makes absolute.
	Fixes []DateFix `json:"fixes,omitempty"`
}

// DateFix is a relative date made absolute: in the note at Path, on line
// Line, From ("next Thursday") given the date To ("2026-03-05").
type DateFix struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	From string `json:"from"`
	To   string `json:"to"`
}

// Run is the id the dream log knows the journal's run by: its ID, or for
// a journal written before runs had ids, when it started; "" for no
// journal.
func (j *Journal) Run() string {
	if j == nil {
		return ""
	}
	if j.ID != "" {
		return j.ID
	}
	return "started " + j.Started
}

// WriteJournal records j (before a run's first write), returning the
// file's hash, to remove it with once the run is done. Errors are s's,
// wrapped.
func WriteJournal(ctx context.Context, s States, j *Journal) (string, error) {
	b, err := json.MarshalIndent(j, "", " ")
	if err != nil {
		return "", err
	}
	h, err := s.WriteState(ctx, JournalFile, append(b, '\n'), vault.AnyHash)
	if err != nil {
		return "", fmt.Errorf("write the Dream journal: %w", err)
	}
	return h, nil
}

// ReadJournal returns the journal s holds and its hash; a nil journal
// when there is none. A journal that does not parse was cut short while
// it was written, before its run wrote anything: it is returned as a
// problem (why it does not parse), with its hash, to remove it with. err
// is s's, wrapped, when the file cannot be read.
func ReadJournal(s States) (j *Journal, hash string, problem error, err error) {
	b, hash, err := s.ReadState(JournalFile)
	if errors.Is(err, vault.ErrNotFound) {
		return nil, "", nil, nil
	}
	if err != nil {
		return nil, "", nil, fmt.Errorf("read the Dream journal: %w", err)
	}
	j = &Journal{}
	if err := json.Unmarshal(b, j); err != nil {
		return nil, hash, err, nil
	}
	return j, hash, nil, nil
}

// Interrupted reports when the run that stopped while it wrote had
// started ("" when no run did; "(unknown: the journal is cut short)"
// when its journal does not say). Errors are s's, wrapped, when the
// journal cannot be read.
func Interrupted(s States) (string, error) {
	j, _, problem, err := ReadJournal(s)
	switch {
	case err != nil:
		return "", err
	case j == nil && problem == nil:
		return "", nil
	case problem != nil || j.Started == "":
		return "(unknown: the journal is cut short)", nil
	}
	return j.Started, nil
}
