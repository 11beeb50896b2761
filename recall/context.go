package recall

import (
	"context"
	"strings"

	"github.com/vaultmem/vaultmem/index"
)

// contextEngine adds the chunks around the best hits at the extend and
// full stages.
func contextEngine(ctx context.Context, s *search, l level) {
	if l != fast {
		s.context(ctx, perLevel(l, 5, 10))
	}
}

// context adds the chunks next to the best hits in their notes (the
// turns around a line of a conversation, the paragraphs around a
// sentence), each voting with half its hit's score; the chunk right
// after a hit that asks a question votes with all of it, as the reply
// holds the answer the question's words found.
func (s *search) context(ctx context.Context, from int) {
	for _, c := range s.top(from) {
		around, err := cached(s.around, c.hit.Chunk, func() ([]index.Result, error) { return s.e.ix.Around(ctx, c.hit.Chunk, 1) })
		if err != nil {
			return
		}
		asks := strings.Contains(c.hit.Text, "?")
		for _, h := range around {
			n := s.candidate(h)
			if _, done := n.ranks["context"]; done {
				continue
			}
			n.ranks["context"] = 0
			share := 0.5
			if asks && h.Line > c.hit.Line {
				share = 1
			}
			n.rrf += c.rrf * share
		}
	}
}
