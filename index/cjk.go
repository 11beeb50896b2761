package index

import (
	"strings"

	"github.com/vaultmem/vaultmem/text"
)

// cjkText is what the cjk column of chunks_fts holds for a text: the
// bigrams of each CJK run, so that unicode61 sees two-character tokens.
func cjkText(s string) string {
	runs := text.CJKRuns(s)
	parts := make([]string, len(runs))
	for i, r := range runs {
		parts[i] = text.Bigrams(r)
	}
	return strings.Join(parts, " ")
}
