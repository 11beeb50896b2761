package hookpolicy

import (
	"github.com/vaultmem/vaultmem/frame"
	"github.com/vaultmem/vaultmem/text"
	"strings"
)

// fit frames items (see package frame) under preamble, each cut to what
// is left of budget tokens, in order: what comes first is kept first;
// the frame's own cost is counted. It returns the context ("" when no
// item has text) and the indices of the items it holds.
func fit(preamble string, budget int, items []frame.Item) (string, []int) {
	var b strings.Builder
	var kept []int
	left := budget - text.EstimateTokens(frame.Overhead(preamble))
	for i, it := range items {
		it.Text = strings.TrimSpace(it.Text)
		if it.Text == "" || left <= 16 {
			continue
		}
		part := it.Render()
		if text.EstimateTokens(part) > left {
			if part = cutItem(it, left); part == "" {
				continue
			}
		}
		left -= text.EstimateTokens(part)
		b.WriteString(part)
		kept = append(kept, i)
	}
	return frame.Wrap(preamble, b.String()), kept
}

// cutItem renders it with its text cut at a line, else a word, and
// marked "…", so that it costs at most n tokens; "" when not even a word
// fits. Escaping may lengthen the cut text, so it is cut again by what
// it is over until it fits.
func cutItem(it frame.Item, n int) string {
	full := it.Text
	it.Text = "…"
	room := n - text.EstimateTokens(it.Render())
	for room > 0 {
		cut := cutToTokens(full, room)
		if cut == "" {
			return ""
		}
		it.Text = cut + "\n…"
		part := it.Render()
		over := text.EstimateTokens(part) - n
		if over <= 0 {
			return part
		}
		room -= over
	}
	return ""
}

// cutToTokens cuts s at a line, else a word, to at most n tokens.
func cutToTokens(s string, n int) string {
	for text.EstimateTokens(s) > n && s != "" {
		cut := strings.LastIndexByte(s, '\n')
		if cut <= 0 || text.EstimateTokens(s[:cut]) < n/2 {
			cut = strings.LastIndexByte(s, ' ')
		}
		if cut <= 0 {
			return ""
		}
		s = s[:cut]
	}
	return s
}
