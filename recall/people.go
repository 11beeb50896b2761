package recall

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/vaultmem/vaultmem/text"
)

// peopleBoost multiplies the score of a chunk of a note of the people a
// question names.
const peopleBoost = 5.0

// maxNameWords is the longest name looked for, in words.
const maxNameWords = 3

// people returns the notes of the people question names, and the names
// it found them by (lower-cased): its runs of up
// to three words (longest first, stop words never starting or ending
// one) that a note's person fields (speakers, participants, authors, ...)
// hold, whole or as a first name. With many people in one vault, "when
// did Caroline go to the beach?" is about Caroline's notes, not another
// person's beach trip.
func (e *Engine) people(ctx context.Context, question string) (notes, named map[string]bool) {
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
	out, named := map[string]bool{}, map[string]bool{}
	if err != nil || len(found) == 0 {
		return out, named
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
		named[names[k]] = true
		for j := r.i; j < r.i+r.n; j++ {
			used[j] = true
		}
	}
	return out, named
}

// speakerBoost multiplies the score of a chunk that one of the people a
// question names says (see speaker): in a transcript of several people,
// what Melanie does is in Melanie's lines.
const speakerBoost = 2.0

// maxSpeakerPrefix is how far into a chunk's first line its speaker's
// label may end.
const maxSpeakerPrefix = 80

// speaker returns who says text when it opens as a line of a transcript
// or chat log does, "Name: words" (after any bold marker such as a turn
// number), lower-cased: a label of one to three words that start with a
// letter. It returns "" for any other text.
func speaker(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	if len(line) > maxSpeakerPrefix {
		line = line[:maxSpeakerPrefix]
	}
	i := strings.Index(line, ": ")
	if i < 0 {
		return ""
	}
	label := strings.TrimSpace(line[:i])
	for strings.HasPrefix(label, "**") { // a bold marker first: "**D5:4** Melanie", or the name: "**Ann**"
		end := strings.Index(label[2:], "**")
		if end < 0 {
			break
		}
		if rest := strings.TrimSpace(label[end+4:]); rest != "" {
			label = rest
		} else {
			label = label[2 : end+2]
		}
	}
	label = strings.Trim(label, "*_ ")
	words := strings.Fields(label)
	if len(words) == 0 || len(words) > maxNameWords {
		return ""
	}
	for _, w := range words {
		if r, _ := utf8.DecodeRuneInString(w); !unicode.IsLetter(r) {
			return ""
		}
	}
	return strings.ToLower(strings.Join(words, " "))
}

// saysNamed reports whether speaker sp is one of the named people: the
// whole name, or its first word where a first name was named.
func saysNamed(sp string, named map[string]bool) bool {
	if sp == "" || len(named) == 0 {
		return false
	}
	first, _, _ := strings.Cut(sp, " ")
	return named[sp] || named[first]
}
