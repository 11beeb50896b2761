package dream

import (
	"context"

	"github.com/vaultmem/vaultmem/dream/relink"
	"github.com/vaultmem/vaultmem/markdown"
)

// After a merge, every link to a memory merged away (outside the merged
// notes, MEMORY.md and the dream log) is pointed at the memory it went
// into, with its text kept (see relink.Rewrite): by the run that merged,
// or, after an interrupted one, by the run that finishes it.

// relinked records in rep what relink.Rewrite did.
func (rep *Report) relinked(res *relink.Result) {
	for _, s := range res.Skipped {
		rep.skip(s.Path, 0, "%s", s.Reason)
	}
	for _, p := range res.Rewritten {
		rep.wrote(p)
		rep.LinksRewritten = append(rep.LinksRewritten, p)
	}
}

// relinkWinners points the links of each winner, as planned, that name a
// memory this run merges away at the memory that one goes into (see
// relink.Winners).
func relinkWinners(ctx context.Context, ix relink.Index, p *plan) {
	moved := map[string]string{}
	for _, mg := range p.merges {
		for _, l := range mg.losers {
			moved[l.Path] = mg.winner.Path
		}
	}
	if len(moved) == 0 {
		return
	}
	winners := make([]*markdown.Note, len(p.merges))
	for i, mg := range p.merges {
		winners[i] = mg.winner.Parsed()
	}
	for i, next := range relink.Winners(ctx, ix, winners, moved) {
		if next != nil {
			p.merges[i].winner.Set(next)
		}
	}
}
