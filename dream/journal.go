package dream

import (
	"context"
	"crypto/rand"
	"fmt"
	"strings"

	"github.com/vaultmem/vaultmem/dream/relink"
	"github.com/vaultmem/vaultmem/dream/runstate"
	"github.com/vaultmem/vaultmem/dream/similar"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/vault"
)

// A run that finds a journal (see runstate.JournalFile) finishes it
// first, and so does vaultmem doctor --fix: each write whose note still
// has the hash read is made, one that already has the new content counts
// as made, and one whose note changed since is left as it is and
// reported; a merge whose winner cannot be written archives none of its
// other memories. Then it appends an entry saying what the interrupted
// run did to the dream log, and only then removes the journal, so that a
// run killed at any point leaves either the journal (the next run
// finishes it again) or the entry. Every entry of a run with a journal
// carries the run id, hidden in a comment (see runMark), and an entry
// whose id the log already holds is not written again: each run's work is
// logged exactly once, however often it is finished. The links to
// memories merged away are pointed at the winners by the run that follows
// (see relink.Rewrite).

// JournalFile is the state file of a run in progress (see
// runstate.JournalFile).
const JournalFile = runstate.JournalFile

// named are the memories the journal j writes, by path, with their
// frontmatter names: the log's links show them by name, as a run's own
// entry does.
func named(j *runstate.Journal) map[string]*mem {
	by := map[string]*mem{}
	add := func(s runstate.Step) {
		if s.Content == "" {
			return
		}
		if name, ok := markdown.Parse(s.Path, []byte(s.Content)).Frontmatter.String("name"); ok && strings.TrimSpace(name) != "" {
			by[s.Path] = &mem{Memory: &similar.Memory{Path: s.Path, Name: strings.TrimSpace(name)}}
		}
	}
	for _, jm := range j.Merges {
		add(jm.Winner)
		for _, l := range jm.Losers {
			add(l)
		}
	}
	for _, s := range j.Writes {
		add(s)
	}
	return by
}

// noteWriter is what Dream writes with: a *vault.Writer, which New gives
// every Dreamer. It is an interface so that a test can stop a run at any
// of its writes, as a kill would (see journal_kill_test.go).
type noteWriter interface {
	Read(p string) ([]byte, string, error)
	Write(ctx context.Context, p string, content []byte, expected string) (string, error)
	Update(ctx context.Context, p string, fn func(current []byte) ([]byte, error)) (string, error)
	ReadState(name string) ([]byte, string, error)
	WriteState(ctx context.Context, name string, content []byte, expected string) (string, error)
	RemoveState(ctx context.Context, name, expected string) error
	AppendState(ctx context.Context, name string, line []byte) error
}

var _ noteWriter = (*vault.Writer)(nil)

// stepOf is the journal step of m as planned (nothing to write when its
// content is unchanged).
func stepOf(m *mem) runstate.Step {
	s := runstate.Step{Path: m.Path, From: m.Hash, Fixes: m.fixes}
	if m.Next() != nil {
		s.To, s.Content = markdown.Hash(m.Next()), string(m.Next())
	}
	return s
}

// journalOf is the journal of plan p, nil when it writes no note.
func journalOf(p *plan) *runstate.Journal {
	j := &runstate.Journal{ID: rand.Text(), Started: p.now.UTC().Format("2006-01-02T15:04:05Z07:00")}
	writes := false
	listed := map[*mem]bool{}
	for _, mg := range p.merges {
		jm := runstate.Merge{Reason: mg.reason, Rewritten: mg.rewritten, Keeper: mg.rewritten, Winner: stepOf(mg.winner)}
		listed[mg.winner] = true
		for _, l := range mg.losers {
			jm.Losers = append(jm.Losers, stepOf(l))
			listed[l] = true
		}
		j.Merges = append(j.Merges, jm)
		writes = true
	}
	for _, a := range p.superseded {
		s := stepOf(a.m)
		s.By = a.by.Path
		j.Writes = append(j.Writes, s)
		listed[a.m] = true
		writes = true
	}
	for _, m := range p.mems {
		if m.Next() != nil && !listed[m] {
			j.Writes = append(j.Writes, stepOf(m))
			writes = true
		}
	}
	if !writes {
		return nil
	}
	return j
}

// finished is what finishing an interrupted run did, for the run that
// follows: the memories merged away (to point their links at the
// winners), the memories superseded, and when the run had started; and
// how many of the report's first merges and dates the finish's log entry
// holds (the run's own entry leaves them out).
type finished struct {
	started       string
	moved         map[string]string
	superseded    []archivalPaths
	merged, dated int
}

// archivalPaths is a memory archived as superseded by another, by path.
type archivalPaths struct{ m, by string }

// Resume finishes a run that stopped while it wrote (see JournalFile):
// its writes, the links to the memories it merged away, and a dream log
// entry saying so; nothing when no run was interrupted. MEMORY.md is left
// to the caller (the index has not read the notes Resume wrote). Run does
// all this first on its own; vaultmem doctor --fix calls Resume. Errors:
// ErrRunning (wrapped) when another Dream holds the vault and wait is not
// set; ctx's error; the Writer's when the journal cannot be read or
// removed, the dream log or a note linking to a memory merged away cannot
// be written.
func (d *Dreamer) Resume(ctx context.Context, wait bool) (*Report, error) {
	unlock, err := d.lock(ctx, wait)
	if err != nil {
		return nil, err
	}
	defer unlock()
	rep := newReport(false)
	f, err := d.resume(ctx, rep)
	if err != nil || f == nil {
		return rep, err
	}
	skip := map[string]bool{d.store.ListFile(): true, d.opts.LogFile: true}
	for from := range f.moved {
		skip[from] = true
	}
	if len(f.moved) > 0 {
		res, err := relink.Rewrite(ctx, d.ix, d.w, f.moved, skip, false)
		rep.relinked(res)
		if err != nil {
			return rep, err
		}
	}
	p := &plan{now: d.opts.Now(), by: map[string]*mem{}, finished: f}
	return rep, d.writeLog(ctx, p.logEntry(rep, ""), "", false, rep)
}

// resume finishes the journal's run, if there is one, into rep.
func (d *Dreamer) resume(ctx context.Context, rep *Report) (*finished, error) {
	j, hash, problem, err := runstate.ReadJournal(d.w)
	switch {
	case err != nil:
		return nil, err
	case problem != nil:
		// A journal cut short was being written when the run stopped:
		// nothing was written after it.
		rep.skip(vault.StateDir+"/"+JournalFile, 0, "the journal of an interrupted run does not parse (%v): it was cut short before the run wrote anything, and is removed", problem)
		return nil, d.w.RemoveState(ctx, JournalFile, hash)
	case j == nil:
		return nil, nil
	}
	f := &finished{started: j.Started, moved: map[string]string{}}
	rep.Resumed = j.Started
	merged, dated := len(rep.Merged), len(rep.DatesFixed)
	for _, jm := range j.Merges {
		if err := d.finishMerge(ctx, jm, f, rep); err != nil {
			return nil, err
		}
	}
	for _, s := range j.Writes {
		done, err := d.finishStep(ctx, s, rep)
		if err != nil {
			return nil, err
		}
		if done && s.By != "" {
			rep.Archived = append(rep.Archived, s.Path)
			f.superseded = append(f.superseded, archivalPaths{s.Path, s.By})
		}
		if done {
			rep.DatesFixed = append(rep.DatesFixed, s.Fixes...)
		}
	}
	f.merged, f.dated = len(rep.Merged), len(rep.DatesFixed)
	// The entry before the journal goes: killed in between, the next run
	// finishes the journal again and finds the entry written.
	p := &plan{now: d.opts.Now(), by: named(j)}
	if err := d.writeLog(ctx, p.finishEntry(f, rep.Merged[merged:], rep.DatesFixed[dated:], j.Run()), j.Run(), false, rep); err != nil {
		return nil, err
	}
	if err := d.w.RemoveState(ctx, JournalFile, hash); err != nil {
		return nil, fmt.Errorf("remove the Dream journal: %w", err)
	}
	return f, nil
}

// finishMerge finishes one merge of an interrupted run: its keeper, its
// winner, then the others, none once one before them cannot be written.
func (d *Dreamer) finishMerge(ctx context.Context, jm runstate.Merge, f *finished, rep *Report) error {
	losers := jm.Losers
	var from []string
	if jm.Keeper && len(losers) > 0 {
		done, err := d.finishStep(ctx, losers[0], rep)
		if err != nil || !done {
			return err
		}
		from, losers = append(from, losers[0].Path), losers[1:]
	}
	done, err := d.finishStep(ctx, jm.Winner, rep)
	if err != nil {
		return err
	}
	if !done {
		for _, l := range from {
			rep.skip(l, 0, "archived by an interrupted merge into %s, which changed since: remove its archived and merged_into keys to bring it back", jm.Winner.Path)
		}
		return nil
	}
	for _, l := range losers {
		done, err := d.finishStep(ctx, l, rep)
		if err != nil {
			return err
		}
		if done {
			from = append(from, l.Path)
		}
	}
	for _, l := range from {
		f.moved[l] = jm.Winner.Path
		rep.Archived = append(rep.Archived, l)
	}
	if len(from) > 0 {
		rep.Merged = append(rep.Merged, Merge{Into: jm.Winner.Path, From: from, Reason: jm.Reason, Rewritten: jm.Rewritten})
	}
	return nil
}

// finishStep makes one write of an interrupted run, reporting whether the
// note now has the content planned: it had it already, or still had the
// content read and was written now. A note changed since, or that cannot
// be written, is reported and left as it is.
func (d *Dreamer) finishStep(ctx context.Context, s runstate.Step, rep *Report) (bool, error) {
	if s.To == "" {
		return true, nil // nothing to write
	}
	_, hash, err := d.w.Read(s.Path)
	switch {
	case err != nil:
		rep.skip(s.Path, 0, "an interrupted run's write of it not finished: %v", err)
		return false, nil
	case hash == s.To:
		return true, nil
	case hash != s.From:
		rep.skip(s.Path, 0, "changed since an interrupted run planned to write it: left as it is")
		return false, nil
	}
	if _, err := d.w.Write(ctx, s.Path, []byte(s.Content), s.From); err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		rep.skip(s.Path, 0, "an interrupted run's write of it not finished: %v", err)
		return false, nil
	}
	rep.wrote(s.Path)
	return true, nil
}

// Interrupted reports when the run that stopped while it wrote had
// started ("" when no run did): Resume, or the next run, finishes it.
// Errors are the Writer's when the journal cannot be read.
func (d *Dreamer) Interrupted() (string, error) { return runstate.Interrupted(d.w) }
