package index

import (
	"strings"

	"github.com/vaultmem/vaultmem/text"
)

// cjkText is what the cjk column of chunks_fts holds for the texts (a
// chunk's note's fields and its own): the bigrams of each CJK run, so
// that unicode61 sees two-character tokens. It equals the bigrams of the
// texts joined by spaces, without making that string: a run never spans
// two texts.
func cjkText(texts ...string) string {
	var parts []string
	for _, s := range texts {
		for _, r := range text.CJKRuns(s) {
			parts = append(parts, text.Bigrams(r))
		}
	}
	return strings.Join(parts, " ")
}
