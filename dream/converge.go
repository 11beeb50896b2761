package dream

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/vaultmem/vaultmem/dream/similar"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/vault"
)

// Two machines that merged the same duplicates differently (each chose
// its own survivor, from what it had seen) leave, once git merged their
// notes, memories archived into each other: x merged_into y on one
// machine, y merged_into x on the other, and no live memory between them.
// The next run, on either machine, breaks each such cycle alike: the
// survivor is the member similar.SurvivorFirst puts first (a function of the
// notes alone, never of which machine runs), which comes back (its
// archived and merged_into keys removed, each of its blocks once) and
// takes every block of the others it lacks; the others stay archived,
// merged_into the survivor, their archived date kept. Links to them then
// point at the survivor, as after any merge.

// mergeCycleReason is the reason of a merge that breaks a cycle of
// merged_into, as the report and the dream log give it.
const mergeCycleReason = "merged into each other on two machines"

// maxChain is the longest chain of merged_into a run follows.
const maxChain = 20

// breakCycles plans a merge for each cycle of archived memories whose
// merged_into name each other (see above). Such notes link to each other
// (merged_into is a link), so the index lists them among the merged-away
// notes still linked to.
func (d *Dreamer) breakCycles(ctx context.Context, p *plan, rep *Report) error {
	away, err := d.ix.LinkedMergedAway(ctx)
	if err != nil {
		return err
	}
	done := map[string]bool{}
	for _, a := range away {
		if done[a.Path] {
			continue
		}
		if into, err := d.ix.Lookup(ctx, linkTarget(a.Into)); err == nil && p.inIndex[into] {
			continue // merged into a live memory: most merged-away notes, no read needed
		}
		cycle := d.mergeCycle(ctx, a.Path)
		if len(cycle) < 2 || slices.ContainsFunc(cycle, func(p string) bool { return done[p] }) {
			continue
		}
		var ms []*mem
		for _, path := range cycle {
			done[path] = true
			m, err := d.readArchived(path)
			switch {
			case err != nil && ctx.Err() != nil:
				return ctx.Err()
			case err != nil:
				rep.skip(path, 0, "merged_into each other with %s, and not read: %v", strings.Join(cycle, ", "), err)
			case m != nil && !p.bad[path] && p.by[path] == nil:
				ms = append(ms, m)
			}
		}
		if len(ms) != len(cycle) {
			continue // a member unread (reported), or no live memory's to read: left for a person
		}
		if slices.ContainsFunc(ms, func(m *mem) bool { return m.Kind != ms[0].Kind }) {
			rep.skip(cycle[0], 0, "archived into each other with %s, memories of different types: bring back the one that is right (remove its archived and merged_into keys)", strings.Join(cycle[1:], ", "))
			continue
		}
		planCycle(p, rep, ms)
	}
	return nil
}

// mergeCycle returns the notes on the cycle of merged_into that the chain
// from the note at path enters (from where it enters, in chain order),
// nil when the chain ends (at a live note, a note archived otherwise, a
// name that finds no note) or grows longer than maxChain.
func (d *Dreamer) mergeCycle(ctx context.Context, path string) []string {
	var chain []string
	for range maxChain {
		if i := slices.Index(chain, path); i >= 0 {
			return chain[i:]
		}
		chain = append(chain, path)
		content, _, err := d.w.Read(path)
		if err != nil {
			return nil
		}
		into, merged := markdown.Parse(path, content).Frontmatter.String("merged_into")
		if !merged {
			return nil
		}
		if path, err = d.ix.Lookup(ctx, linkTarget(into)); err != nil {
			return nil
		}
	}
	return nil
}

// readArchived reads the memory at path as it is on disk, archived or
// not: nil when it is no memory note.
func (d *Dreamer) readArchived(path string) (*mem, error) {
	content, hash, err := d.w.Read(path)
	if err != nil {
		return nil, err
	}
	n := markdown.Parse(path, content)
	if n.Frontmatter == nil || !memory.IsType(n.Type()) || vault.IsProposed(n) {
		return nil, nil
	}
	for _, w := range n.Warnings {
		var pe *markdown.ParseError
		if errors.As(w, &pe) && strings.Contains(pe.Error(), "invalid frontmatter") {
			return nil, w
		}
	}
	e := memory.NoteEntry(n)
	return &mem{Memory: &similar.Memory{Path: path, Kind: memory.Type(n.Type()), Name: e.Title, Note: n, Hash: hash}}, nil
}

// planCycle plans the merge that breaks the cycle of ms: the survivor
// (see similar.SurvivorFirst) live again, each of its blocks once, the others
// merged into it by mergeTexts.
func planCycle(p *plan, rep *Report, ms []*mem) {
	sms := make([]*similar.Memory, len(ms))
	for i, m := range ms {
		sms[i] = m.Memory
	}
	similar.MarkCopies(sms)
	slices.SortStableFunc(ms, func(a, b *mem) int { return similar.SurvivorFirst(a.Memory, b.Memory) })
	w := ms[0]
	next, err := markdown.DeleteFrontmatter(w.Path, w.Note.Content, "merged_into")
	if err == nil {
		next, err = markdown.DeleteFrontmatter(w.Path, next, "archived")
	}
	if err != nil {
		rep.skip(w.Path, 0, "merged_into each other with others, and not brought back: %v", err)
		return
	}
	w.Set(onceEach(w.Path, next))
	w.Changed = true
	mg := &merge{winner: w, reason: mergeCycleReason}
	for _, l := range ms[1:] {
		l.archived, l.Changed = true, true
		mg.losers = append(mg.losers, l)
	}
	for _, m := range ms {
		p.mems = append(p.mems, m)
		p.by[m.Path] = m
	}
	slices.SortFunc(p.mems, func(a, b *mem) int { return strings.Compare(a.Path, b.Path) })
	p.merges = append(p.merges, mg)
}

// onceEach returns content (a note at vault path p) with each top-level
// paragraph, list, quote, code block or table of its body that says what
// one before it says (see blockKey) cut out: git's merges of two machines'
// edits can leave a paragraph twice. Headings and rules, which a note
// repeats by design, stay.
func onceEach(p string, content []byte) []byte {
	n := markdown.Parse(p, content)
	seen := map[string]bool{}
	var cuts [][2]int
	for _, s := range n.Spans {
		switch s.Kind {
		case "heading", "rule", "html", "math", "other":
			continue
		}
		k := blockKey(s.Text(n))
		if !seen[k] {
			seen[k] = true
			continue
		}
		end := s.End
		for end < len(content) && (content[end] == ' ' || content[end] == '\t') {
			end++
		}
		for _, c := range n.Comments { // a comment ending the block's line is the block's
			if c.Start == end {
				end = c.End
			}
		}
		for end < len(content) && strings.ContainsRune(" \t\r\n", rune(content[end])) {
			end++
		}
		cuts = append(cuts, [2]int{s.Start, end})
	}
	if len(cuts) == 0 {
		return content
	}
	out := slices.Clone(content)
	for i := len(cuts) - 1; i >= 0; i-- {
		out = slices.Delete(out, cuts[i][0], cuts[i][1])
	}
	if trimmed := bytes.TrimRight(out, " \t\r\n"); len(trimmed) < len(out) || !bytes.HasSuffix(out, []byte("\n")) {
		out = append(trimmed, '\n')
	}
	return out
}
