package dream

import (
	"slices"
	"strings"

	"github.com/vaultmem/vaultmem/dream/similar"
	"github.com/vaultmem/vaultmem/memory"
)

// Contradictions are memories that say opposite things (see
// similar.Contradiction). Dream flags them for a human and resolves none:
// rules of thumb find them, and a false alarm costs a look, where a wrong
// resolution would cost a memory. A memory whose frontmatter supersedes
// the other resolves the pair.

// contradictions plans the flagged pairs: those flagged before whose
// memories are both live and unchanged stand; pairs with a memory changed
// since the checkpoint are checked (candidates: memories sharing a topic
// term few others use); a memory superseding the other resolves a pair.
func (d *Dreamer) contradictions(p *plan) error {
	old, sum, err := d.store.Flags()
	if err != nil {
		return err
	}
	p.flagsSum = sum
	keep := map[pair]memory.Flag{}
	listed := map[pair]memory.Flag{} // the possible duplicates listed before
	for _, f := range old {
		if f.Kind == memory.Duplicate {
			listed[pairOf(f.A, f.B)] = f
		}
		if !p.live(f.A) || !p.live(f.B) {
			continue
		}
		if f.Kind != memory.Contradiction {
			// A possible duplicate, or a pair the LLM settled apart,
			// stands while both memories stay as they are; a changed one
			// is compared again (see duplicatesOf).
			if a, b := p.by[f.A], p.by[f.B]; a == nil || b == nil || !a.Changed && !b.Changed {
				keep[pairOf(f.A, f.B)] = f
			}
			continue
		}
		if p.cycles[pairOf(f.A, f.B)] {
			keep[pairOf(f.A, f.B)] = f
			continue
		}
		a, b := p.by[f.A], p.by[f.B]
		if a == nil || b == nil { // neither changed: the flag stands
			keep[pairOf(f.A, f.B)] = f
			continue
		}
		if supersedes(a, b) || supersedes(b, a) {
			continue
		}
		if a.Changed || b.Changed {
			if reason, ok := similar.Contradiction(a.Memory, b.Memory); ok {
				f.Reason = reason
			} else {
				continue
			}
		}
		keep[pairOf(f.A, f.B)] = f
	}
	var live []*mem
	var sks []similar.Sketch
	for _, m := range p.mems {
		if !m.archived {
			live, sks = append(live, m), append(sks, similar.SketchOf(m.Memory))
		}
	}
	if p.common == nil { // a full run: every memory is here
		p.common = similar.CommonTerms(sks)
	}
	for _, c := range similar.PolarCandidates(sks, func(i int) bool { return live[i].Changed }, p.common) {
		a, b := live[c[0]], live[c[1]]
		k := pairOf(a.Path, b.Path)
		if _, ok := keep[k]; ok || supersedes(a, b) || supersedes(b, a) {
			continue
		}
		if reason, ok := similar.Contradiction(a.Memory, b.Memory); ok {
			keep[k] = memory.Flag{A: k[0], B: k[1], Reason: reason}
			p.fresh[k] = true
		}
	}
	for k := range p.cycles {
		if _, ok := keep[k]; !ok && p.live(k[0]) && p.live(k[1]) {
			keep[k] = memory.Flag{A: k[0], B: k[1], Reason: "each supersedes the other: keep the supersedes key of the one that is right"}
			p.fresh[k] = true
		}
	}
	for _, o := range p.opposed {
		k := pairOf(o.a.Path, o.b.Path)
		if _, ok := keep[k]; ok || o.a.archived || o.b.archived || supersedes(o.a, o.b) || supersedes(o.b, o.a) {
			continue
		}
		if reason, ok := similar.Contradiction(o.a.Memory, o.b.Memory); ok {
			keep[k] = memory.Flag{A: k[0], B: k[1], Reason: reason}
			p.fresh[k] = true
		}
	}
	for _, f := range p.judgedFlags {
		k := pairOf(f.A, f.B)
		if _, ok := keep[k]; !ok && p.live(f.A) && p.live(f.B) {
			keep[k] = f
			p.fresh[k] = true
		}
	}
	for _, sp := range p.similar {
		k := pairOf(sp.a.Path, sp.b.Path)
		if _, ok := keep[k]; ok || sp.a.archived || sp.b.archived || supersedes(sp.a, sp.b) || supersedes(sp.b, sp.a) {
			continue
		}
		f := memory.Flag{A: k[0], B: k[1], Reason: sp.Reason(), Kind: memory.Duplicate, Found: p.today}
		if was, ok := listed[k]; ok { // found again: as old as it was
			f.Found = was.Found
		} else {
			p.fresh[k] = true
		}
		keep[k] = f
	}
	for _, f := range keep {
		p.flags = append(p.flags, f)
	}
	slices.SortFunc(p.flags, func(a, b memory.Flag) int {
		if c := strings.Compare(pairOf(a.A, a.B)[0], pairOf(b.A, b.B)[0]); c != 0 {
			return c
		}
		return strings.Compare(pairOf(a.A, a.B)[1], pairOf(b.A, b.B)[1])
	})
	p.flagsChanged = !slices.Equal(old, p.flags)
	return nil
}
