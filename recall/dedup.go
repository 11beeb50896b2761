package recall

import (
	"strings"

	"github.com/vaultmem/vaultmem/meaning"
	"github.com/vaultmem/vaultmem/text"
)

// dedup drops, from candidates in rank order, exact duplicates (the same
// normalised text) and near duplicates of a better-ranked item (see
// text.NearDuplicate) that say the same thing: two chunks alike but for a
// date, a number, a name or a negation (meaning.Differ) are both kept, since
// the agent needs to see both. It stops once the kept items hold limit
// tokens: the rest did not fit.
func dedup(ranked []*candidate, limit int) []*candidate {
	var out []*candidate
	var kept []text.WordSet
	seen := map[string]bool{}
	tokens := 0
	for _, c := range ranked {
		if tokens >= limit {
			break
		}
		w := c.words()
		key := strings.Join(w, " ")
		if key == "" {
			key = c.hit.Path + "\x00" + c.hit.Heading // an empty chunk: one per heading
		}
		if seen[key] {
			continue
		}
		ws := text.NewWordSet(w)
		dup := false
		for i, k := range kept {
			if ws.MayBeNear(k) && ws.Similarity(k) >= text.NearDuplicate {
				if _, differs := meaning.Differ(c.hit.Text, c.hit.Text, out[i].hit.Text, out[i].hit.Text); !differs {
					dup = true
					break
				}
			}
		}
		if dup {
			continue
		}
		seen[key] = true
		kept = append(kept, ws)
		out = append(out, c)
		tokens += c.hit.Tokens
	}
	return out
}
