package recall

import (
	"context"
	"strings"

	"github.com/vaultmem/vaultmem/text"
)

// peopleBoost multiplies the score of a chunk of a note of the people a
// question names.
const peopleBoost = 5.0

// maxNameWords is the longest name looked for, in words.
const maxNameWords = 3

// people returns the notes of the people question names: its runs of up
// to three words (longest first, stop words never starting or ending
// one) that a note's person fields (speakers, participants, authors, ...)
// hold, whole or as a first name. With many people in one vault, "when
// did Caroline go to the beach?" is about Caroline's notes, not another
// person's beach trip.
func (e *Engine) people(ctx context.Context, question string) map[string]bool {
	words := text.Words(question)
	type run struct{ i, n int }
	var runs []run
	var names []string
	for n := maxNameWords; n >= 1; n-- {
		for i := 0; i+n <= len(words); i++ {
			if len([]rune(words[i])) < 2 || text.IsStopWord(strings.ToLower(words[i])) || text.IsStopWord(strings.ToLower(words[i+n-1])) {
				continue
			}
			runs = append(runs, run{i, n})
			names = append(names, strings.ToLower(strings.Join(words[i:i+n], " ")))
		}
	}
	found, err := e.ix.EntityNotes(ctx, names)
	out := map[string]bool{}
	if err != nil || len(found) == 0 {
		return out
	}
	used := make([]bool, len(words))
	for k, r := range runs { // longest first: "alice smith" before "alice"
		paths := found[names[k]]
		if len(paths) == 0 || used[r.i] || used[r.i+r.n-1] {
			continue
		}
		for _, p := range paths {
			out[p] = true
		}
		for j := r.i; j < r.i+r.n; j++ {
			used[j] = true
		}
	}
	return out
}
