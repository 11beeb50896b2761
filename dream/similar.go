package dream

import (
	"context"
	"slices"

	"github.com/vaultmem/vaultmem/dream/similar"
)

// Which memories merge, which are flagged and which are listed for
// review is similar.Find's; a run takes what it found.

// duplicates plans the merges among the live memories of each type (see
// duplicatesOf).
func (d *Dreamer) duplicates(ctx context.Context, p *plan, rep *Report) {
	byKind := map[string][]*mem{}
	var kinds []string
	for _, m := range p.mems {
		if m.archived {
			continue
		}
		k := string(m.Kind)
		if byKind[k] == nil {
			kinds = append(kinds, k)
		}
		byKind[k] = append(byKind[k], m)
	}
	slices.Sort(kinds)
	for _, k := range kinds {
		d.duplicatesOf(ctx, p, rep, byKind[k])
	}
}

// duplicatesOf plans what becomes of the pairs of alike memories among ms,
// memories of one type (see similar.Find): the merges, archiving their
// losers; the contradictions; and the possible duplicates for review,
// which the LLM, when there is one, may settle (see judge).
func (d *Dreamer) duplicatesOf(ctx context.Context, p *plan, rep *Report, ms []*mem) {
	of := make(map[*similar.Memory]*mem, len(ms))
	sms := make([]*similar.Memory, len(ms))
	for i, m := range ms {
		of[m.Memory], sms[i] = m, m.Memory
	}
	pairOf := func(sp similar.Pair) similarPair { return similarPair{a: of[sp.A], b: of[sp.B], Pair: sp} }
	found := similar.Find(sms, func(sp similar.Pair) similar.Verdict { return d.judge(ctx, p, rep, pairOf(sp)) })
	for _, o := range found.Opposed {
		p.opposed = append(p.opposed, opposition{a: of[o.A], b: of[o.B], why: o.Why, diff: o.Diff})
	}
	for _, sp := range found.Similar {
		p.similar = append(p.similar, pairOf(sp))
	}
	for _, g := range found.Groups {
		mg := &merge{winner: of[g.Winner], reason: g.Reason}
		for _, l := range g.Losers {
			mg.losers = append(mg.losers, of[l])
			of[l].archived = true
		}
		p.merges = append(p.merges, mg)
	}
}

// similarPair is a pair of possible duplicates (see similar.Pair) as a
// run plans them.
type similarPair struct {
	a, b *mem
	similar.Pair
}
