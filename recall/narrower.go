package recall

import (
	"context"
	"slices"
	"strings"

	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/text"
	"github.com/vaultmem/vaultmem/wordnet"
)

// narrowerWeight is the weight of the narrower engine's votes: under a
// third of the keyword engine's, as a narrower term is a guess at what a
// question means, not what it says.
const narrowerWeight = 0.3

// narrowerRows bounds the chunks the narrower engine's search ranks: a
// keyword search ranks every chunk holding any of its words, and a
// broad question's narrower nouns ("store": shop, bank, base, fund, ...)
// can be common words of a vault.
const narrowerRows = 1000

// maxNarrowerTerms is the most narrower nouns looked for, the question's
// first nouns' first: a long question holds hundreds of nouns, and the
// index counts the chunks holding each term (see search.rarest).
const maxNarrowerTerms = 150

// narrowerEngine runs narrower at the extend stage.
func narrowerEngine(ctx context.Context, s *search, l level) {
	if l == extend {
		s.narrower(ctx, max(10, s.budget/25))
	}
}

// narrower finds the chunks that hold a narrower term of a noun of the
// question (see wordnet.Narrower): "What kind of art does Ann make?" is
// answered by "I painted a sunset", which holds none of its words. The
// names of the people the question names are not looked up.
func (s *search) narrower(ctx context.Context, n int) {
	words := text.Words(s.query)
	have := make(map[string]bool, len(words))
	for _, w := range words {
		have[w] = true
	}
	named := map[string]bool{}
	for name := range s.named {
		for _, w := range strings.Fields(name) {
			named[w] = true
		}
	}
	var terms []string
	for _, w := range words {
		if text.IsStopWord(w) || named[w] {
			continue
		}
		for _, t := range wordnet.Narrower(w) {
			if !have[t] && len(terms) < maxNarrowerTerms {
				have[t] = true
				terms = append(terms, t)
			}
		}
	}
	terms = s.rarest(ctx, terms, narrowerRows)
	if len(terms) == 0 {
		return
	}
	hits, err := s.e.ix.Search(ctx, index.Query{Text: strings.Join(terms, " "), Mode: index.Keyword, Limit: n, AnyWord: true, NoSnippets: true, Loaded: s.loaded})
	if err == nil {
		s.add("narrower", hits, narrowerWeight)
	}
}

// rarest returns the words of terms that some chunk holds, rarest first,
// as many as together are held by at most rows chunks.
func (s *search) rarest(ctx context.Context, terms []string, rows int) []string {
	df, err := s.e.ix.Frequencies(ctx, terms, rows+1)
	if err != nil {
		return nil
	}
	order := make([]int, 0, len(terms))
	for i := range terms {
		if df[i] > 0 {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return df[a] - df[b] })
	var out []string
	for _, i := range order {
		if rows -= df[i]; rows < 0 {
			break
		}
		out = append(out, terms[i])
	}
	return out
}
