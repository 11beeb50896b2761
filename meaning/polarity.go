package meaning

import (
	"strings"
	"sync"
	"unicode"

	"github.com/vaultmem/vaultmem/text"
)

// The words that give a sentence its polarity.
var (
	negativeWords = wordSet("never not no avoid avoids avoided avoiding stop stops stopped dislike dislikes " +
		"disable disabled don't doesn't didn't shouldn't mustn't can't cannot won't isn't aren't")
	positiveWords = wordSet("always do does use uses used using prefer prefers preferred should must enable enabled " +
		"like likes want wants need needs keep require required")
	// polarWords are the markers as text.Words splits them, which are no topic
	// (made at first use: text.Words is not free at start).
	polarWords = sync.OnceValue(func() map[string]bool {
		m := map[string]bool{}
		for w := range negativeWords {
			for _, x := range text.Words(w) {
				m[x] = true
			}
		}
		for w := range positiveWords {
			m[w] = true
		}
		return m
	})
)

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// Polarity returns a lower-cased sentence's polarity (+1 do, -1 do not, 0
// neither) and the word that gives it: its first marker, which is the main
// clause's in the common case ("Always use pnpm, not npm" is positive,
// "Never use tabs" negative), a positive one followed by a negation
// counting as negative ("do not", "should never").
func Polarity(s string) (int, string) {
	words := strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' })
	for i, w := range words {
		w = strings.Trim(w, "'")
		switch {
		case negativeWords[w]:
			return -1, w
		case positiveWords[w]:
			if i+1 < len(words) && (words[i+1] == "not" || words[i+1] == "never") {
				return -1, w + " " + words[i+1]
			}
			return 1, w
		}
	}
	return 0, ""
}

// IsPolarityWord reports whether w (lower-cased, as text.Words splits it) is one
// of the words that give a sentence its polarity: no topic word.
func IsPolarityWord(w string) bool { return polarWords()[w] }
