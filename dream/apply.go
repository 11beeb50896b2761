package dream

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/vaultmem/vaultmem/dream/relink"
	"github.com/vaultmem/vaultmem/dream/runstate"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/vault"
)

// apply carries out the plan (in a dry run, only reports it): the merges
// (the winner first; its duplicates only once it is written), the
// superseded memories, the date fixes, the links to the memories merged
// away, the flagged pairs, MEMORY.md, the dream log and the checkpoint.
// Every note is written compare-before-write against what the plan read.
func (d *Dreamer) apply(ctx context.Context, p *plan, dryRun bool, rep *Report) error {
	// The journal first: a run that stops from here on is finished by the
	// next (see JournalFile).
	journalHash := ""
	j := journalOf(p)
	if j != nil && !dryRun {
		var err error
		if journalHash, err = runstate.WriteJournal(ctx, d.w, j); err != nil {
			return err
		}
	}
	// write writes m's planned content, reporting whether it did: a note
	// that changed since it was read, grew too large or cannot be written
	// (a read-only file) is skipped and reported.
	write := func(m *mem) (bool, error) {
		if !dryRun {
			h, err := d.w.Write(ctx, m.Path, m.Next(), m.Hash)
			var ce *vault.ConflictError
			switch {
			case err != nil && ctx.Err() != nil:
				return false, ctx.Err()
			case errors.As(err, &ce):
				rep.skip(m.Path, 0, "changed while Dream ran (an editor saved it): left as it is; the next run looks at it again")
			case err != nil:
				rep.skip(m.Path, 0, "not written: %v", err)
			}
			if err != nil {
				m.Set(nil)
				m.archived = false
				return false, nil
			}
			m.Hash = h
		}
		rep.wrote(m.Path)
		rep.DatesFixed = append(rep.DatesFixed, m.fixes...)
		return true, nil
	}
	done := map[*mem]bool{}
	var relinks []*merge
	for _, mg := range p.merges {
		// The LLM's text replaces the winner's words, which live on in the
		// first note merged away: that note is written first, and the
		// winner only once it is.
		var keeper *mem
		if mg.rewritten {
			keeper = mg.losers[0]
			ok, err := write(keeper)
			if err != nil {
				return err
			}
			if !ok {
				mg.winner.Set(nil)
				for _, l := range mg.losers {
					l.Set(nil)
					l.archived = false
				}
				done[mg.winner], done[keeper] = true, true
				continue
			}
		}
		if mg.winner.Next() != nil {
			ok, err := write(mg.winner)
			if err != nil {
				return err
			}
			if !ok {
				if keeper != nil {
					d.undo(ctx, keeper, rep)
				}
				for _, l := range mg.losers {
					l.Set(nil)
					l.archived = false
				}
				done[mg.winner] = true
				continue
			}
		}
		done[mg.winner] = true
		into := Merge{Into: mg.winner.Path, Reason: mg.reason, Rewritten: mg.rewritten}
		for _, l := range mg.losers {
			if l == keeper {
				into.From = append(into.From, l.Path)
				rep.Archived = append(rep.Archived, l.Path)
				done[l] = true
				continue
			}
			ok, err := write(l)
			if err != nil {
				return err
			}
			done[l] = true
			if ok {
				into.From = append(into.From, l.Path)
				rep.Archived = append(rep.Archived, l.Path)
			}
		}
		if len(into.From) > 0 {
			rep.Merged = append(rep.Merged, into)
			relinks = append(relinks, mg)
		}
	}
	for _, a := range p.superseded {
		if ok, err := write(a.m); err != nil {
			return err
		} else if ok {
			rep.Archived = append(rep.Archived, a.m.Path)
		}
		done[a.m] = true
	}
	for _, m := range p.mems {
		if m.Next() != nil && !done[m] {
			if _, err := write(m); err != nil {
				return err
			}
		}
	}
	moved := map[string]string{}
	skip := map[string]bool{d.store.ListFile(): true, d.opts.LogFile: true}
	for b := range p.bad {
		skip[b] = true
	}
	for _, mg := range relinks {
		skip[mg.winner.Path] = true
		for _, l := range mg.losers {
			skip[l.Path] = true
			if l.archived {
				moved[l.Path] = mg.winner.Path
			}
		}
	}
	if p.finished != nil {
		for from, to := range p.finished.moved {
			moved[from], skip[from] = to, true
		}
	}
	if err := d.leftovers(ctx, moved, skip); err != nil {
		return err
	}
	if len(moved) > 0 {
		res, err := relink.Rewrite(ctx, d.ix, d.w, moved, skip, dryRun)
		rep.relinked(res)
		if err != nil {
			return err
		}
		for notePath, h := range res.Written {
			if m := p.by[notePath]; m != nil {
				m.Hash = h // a memory whose links moved: the checkpoint records it as it is now
			}
		}
	}
	// The notes are written: whatever fails from here on, the log and the
	// checkpoint still record them.
	errFlags := d.applyFlags(ctx, p, dryRun, rep)
	d.suggest(ctx, p, rep)
	errList := d.relist(ctx, p, dryRun, rep)
	errLog := d.writeLog(ctx, p.logEntry(rep, j.Run()), j.Run(), dryRun, rep)
	if err := errors.Join(errFlags, errList, errLog, d.applyCheckpoint(ctx, p, dryRun, rep)); err != nil {
		return err // the journal stays: the next run finishes what is left
	}
	if journalHash != "" {
		if err := d.w.RemoveState(ctx, JournalFile, journalHash); err != nil {
			return fmt.Errorf("remove the Dream journal: %w", err)
		}
	}
	return nil
}

// leftovers adds to moved the memories merged away by earlier runs that
// notes still link to (a run that stopped before it pointed the links at
// the winner, a note that changed while it ran), each to the live memory
// it went into (through a chain of merges), and adds them to skip: their
// own links stay as they were.
func (d *Dreamer) leftovers(ctx context.Context, moved map[string]string, skip map[string]bool) error {
	away, err := d.ix.LinkedMergedAway(ctx)
	if err != nil {
		return err
	}
	for _, a := range away {
		if _, ok := moved[a.Path]; ok {
			continue
		}
		if into := d.liveInto(ctx, a.Into); into != "" && into != a.Path {
			moved[a.Path], skip[a.Path] = into, true
		}
	}
	return nil
}

// liveInto is the live note that the merged_into value into names, found
// through the merged_into of the archived notes on the way (at most ten);
// "" when there is none.
func (d *Dreamer) liveInto(ctx context.Context, into string) string {
	for range 10 {
		p, err := d.ix.Lookup(ctx, linkTarget(into))
		if err != nil {
			return ""
		}
		content, _, err := d.w.Read(p)
		if err != nil {
			return ""
		}
		fm := markdown.Parse(p, content).Frontmatter
		next, merged := fm.String("merged_into")
		if !merged {
			if fm.Value("archived") != nil {
				return ""
			}
			return p
		}
		into = next
	}
	return ""
}

// undo puts back the note m was before the run wrote it (a merge whose
// winner could not be written after it), unless a human changed it since;
// either way the report says so.
func (d *Dreamer) undo(ctx context.Context, m *mem, rep *Report) {
	if _, err := d.w.Write(ctx, m.Path, m.Note.Content, m.Hash); err != nil {
		rep.skip(m.Path, 0, "archived for a merge that could not finish, and not put back (%v): remove its archived and merged_into keys to bring it back", err)
		return
	}
	rep.Changed = slices.DeleteFunc(rep.Changed, func(p string) bool { return p == m.Path })
	m.Hash = markdown.Hash(m.Note.Content)
	m.Set(nil)
	m.archived = false
}

// applyFlags writes the flagged pairs that stand (both memories still
// live after the writes) when they changed, and reports them.
func (d *Dreamer) applyFlags(ctx context.Context, p *plan, dryRun bool, rep *Report) error {
	var flags []memory.Flag
	for _, f := range p.flags {
		if p.live(f.A) && p.live(f.B) {
			flags = append(flags, f)
			k := pairOf(f.A, f.B)
			c := Contradiction{Paths: [2]string{k[0], k[1]}, Reason: f.Reason, New: p.fresh[k]}
			switch f.Kind {
			case memory.Contradiction:
				rep.Contradictions = append(rep.Contradictions, c)
			case memory.Duplicate:
				rep.PossibleDuplicates = append(rep.PossibleDuplicates, c)
			}
		}
	}
	old, _, err := d.store.Flags()
	if err != nil {
		return err
	}
	// As written: with their text's fingerprints now, after this run's
	// writes (see memory.Flag.TextA).
	if flags, err = d.store.Fingerprinted(ctx, flags, rep.Changed); err != nil {
		return err
	}
	if slices.Equal(old, flags) {
		return nil
	}
	if !dryRun {
		if err := d.store.SetFlags(ctx, flags, p.flagsSum); err != nil {
			return fmt.Errorf("write the flagged pairs: %w", err)
		}
	}
	rep.wrote(vault.StateDir + "/" + memory.ReviewsFile)
	return nil
}

// relist rewrites MEMORY.md's region: the live memories after the run,
// and under "Needs review" the flagged pairs and the proposals.
func (d *Dreamer) relist(ctx context.Context, p *plan, dryRun bool, rep *Report) error {
	indexed, err := d.ix.Memories(ctx)
	if err != nil {
		return err
	}
	var entries []memory.Entry
	listed := map[string]bool{}
	for _, im := range indexed {
		listed[im.Path] = true
		m, read := p.by[im.Path]
		switch {
		case read && m.archived:
		case read:
			entries = append(entries, m.entry())
		case !p.gone[im.Path]:
			entries = append(entries, memory.EntryOf(im)) // skipped, not gone: still listed
		}
	}
	for _, m := range p.mems {
		if !m.archived && !listed[m.Path] {
			entries = append(entries, m.entry()) // live again (see breakCycles): the index still has it archived
		}
	}
	flags, _, err := d.store.Flags()
	if err != nil {
		return err
	}
	if dryRun {
		flags = nil
		for _, c := range rep.Contradictions {
			flags = append(flags, memory.Flag{A: c.Paths[0], B: c.Paths[1], Reason: c.Reason})
		}
		for _, c := range rep.PossibleDuplicates {
			flags = append(flags, memory.Flag{A: c.Paths[0], B: c.Paths[1], Reason: c.Reason, Kind: memory.Duplicate})
		}
	}
	proposals, err := d.ix.Proposed(ctx)
	if err != nil {
		return err
	}
	proposals = append(proposals, p.proposals...) // not in the index yet
	isNew := func(c Contradiction) bool { return c.New }
	reportComing := len(p.proposals) > 0 || slices.ContainsFunc(rep.Contradictions, isNew) || slices.ContainsFunc(rep.PossibleDuplicates, isNew)
	st, changed, err := d.store.RelistEntries(ctx, entries, flags, proposals, memory.RelistOptions{DryRun: dryRun, ReportComing: reportComing})
	rep.MemoryIndex = IndexReport{Path: d.store.ListFile(), ListStats: st, Changed: changed}
	var pe *markdown.ParseError
	switch {
	case errors.As(err, &pe): // broken by a human while Dream ran
		rep.MemoryIndex.Error = err.Error()
		rep.skip(pe.Path, pe.Line, "not written: %v", pe.Err)
		return nil
	case errors.Is(err, vault.ErrConflict), errors.Is(err, vault.ErrTooLarge):
		rep.MemoryIndex.Error = err.Error()
		rep.skip(d.store.ListFile(), 0, "not written (%v); the next write of a memory lists them again", err)
		return nil
	case err != nil:
		return err
	}
	if changed {
		rep.wrote(d.store.ListFile())
	}
	return nil
}

// applyCheckpoint records the live memories the run leaves.
func (d *Dreamer) applyCheckpoint(ctx context.Context, p *plan, dryRun bool, rep *Report) error {
	memories := map[string]string{}
	for _, im := range p.indexed {
		if !p.gone[im.Path] {
			memories[im.Path] = im.Hash // not read: as the index saw it
		}
	}
	for _, m := range p.mems {
		if m.archived {
			delete(memories, m.Path)
		} else {
			memories[m.Path] = m.Hash
		}
	}
	if dryRun {
		if p.cp == nil || len(p.cp.Memories) != len(memories) || changedSince(p.cp, memories) {
			rep.wrote(vault.StateDir + "/" + CheckpointFile)
		}
		return nil
	}
	wrote, err := runstate.WriteCheckpoint(ctx, d.w, p.cp, p.cpSum, memories, p.now)
	if err != nil {
		return fmt.Errorf("write the Dream checkpoint: %w", err)
	}
	if wrote {
		rep.wrote(vault.StateDir + "/" + CheckpointFile)
	}
	return nil
}

// changedSince reports whether memories differ from cp's.
func changedSince(cp *runstate.Checkpoint, memories map[string]string) bool {
	for p, h := range memories {
		if cp.Memories[p] != runstate.ShortHash(h) {
			return true
		}
	}
	return false
}
