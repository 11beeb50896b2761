package embed

// stem reduces an English word to a stem that its inflections share, so
// that "paints", "painted" and "painting" are one term. It is a light
// stemmer, deliberately conservative: it removes plural and verb
// inflections (-s, -es, -ies, -ed, -ied, -ing) and the adverb -ly, and
// normalises a final -e and -y, following steps 1a, 1b, 1c and 5a of
// Porter's algorithm with the same measure m ("party" and "parties" are
// "parti", "movie" and "movies" "movi"). It leaves derivational suffixes
// (-ness, -ation, -er, -ful) alone: merging "organ" with "organization"
// loses more than it gains. It only touches words of a-z of three letters
// or more; anything else (accents, digits, other scripts) is returned as
// it is. Stems need not be words: they are only compared with each other.
//
// stem works in place: the result may share w's array, and may be one
// byte longer than w (a restored "e").
func stem(w []byte) []byte {
	if len(w) < 3 {
		return w
	}
	for _, c := range w {
		if c < 'a' || c > 'z' {
			return w
		}
	}
	if _, ok := stemExceptions[string(w)]; ok {
		return w
	}
	if len(w) >= 4 {
		w = stemPlural(w)
		if _, ok := stemExceptions[string(w)]; ok {
			return w // "evenings" is "evening", not "even"
		}
	}
	if v, ok := stemVerb(w); ok {
		w = v
	} else {
		w = stemAdverb(w)
	}
	return stemFinalY(stemFinalE(w))
}

// stemExceptions are words that the rules below would wrongly cut.
// They are looked up before and after the plural is removed.
var stemExceptions = map[string]struct{}{
	"news": {}, "always": {}, "series": {}, "species": {}, "lens": {},
	"butterfly": {}, "dragonfly": {}, "firefly": {},
	"morning": {}, "evening": {}, "wedding": {},
}

// stemPlural removes a plural -s (Porter 1a, with -es after sibilants and
// -oes so that "boxes" meets "box" and "heroes" meets "hero").
func stemPlural(w []byte) []byte {
	n := len(w)
	switch {
	case hasSuffix(w, "sses"):
		return w[:n-2]
	case hasSuffix(w, "ies"):
		if n > 4 {
			return w[:n-2] // parties -> parti
		}
		return w[:n-1] // ties -> tie
	case hasSuffix(w, "ss"), hasSuffix(w, "us"), hasSuffix(w, "is"):
		return w
	case hasSuffix(w, "xes"), hasSuffix(w, "ches"), hasSuffix(w, "shes"), hasSuffix(w, "zzes"):
		return w[:n-2]
	case hasSuffix(w, "oes") && n > 4:
		return w[:n-2]
	case w[n-1] == 's':
		return w[:n-1]
	}
	return w
}

// stemVerb removes -ed, -ied and -ing (Porter 1b) and reports whether it
// did. The remaining stem must contain a vowel ("bring" and "shed" stay),
// and is then repaired so that it meets the bare verb: "hoping" and
// "hoped" become "hope", "hopping" becomes "hop".
func stemVerb(w []byte) ([]byte, bool) {
	n := len(w)
	switch {
	case hasSuffix(w, "eed"):
		if measure(w[:n-3]) > 0 {
			return w[:n-1], true // agreed -> agree
		}
		return w, false // need, feed
	case hasSuffix(w, "ied"):
		if n > 4 {
			return w[:n-2], true // carried -> carri
		}
		return w[:n-1], true // tied -> tie
	case hasSuffix(w, "ed"):
		if s := w[:n-2]; hasVowel(s) {
			return repairVerbStem(s), true
		}
	case hasSuffix(w, "ing"):
		if s := w[:n-3]; hasVowel(s) {
			return repairVerbStem(s), true
		}
	}
	return w, false
}

// repairVerbStem is the second half of Porter's step 1b.
func repairVerbStem(s []byte) []byte {
	n := len(s)
	switch {
	case hasSuffix(s, "at"), hasSuffix(s, "bl"), hasSuffix(s, "iz"):
		return append(s, 'e') // creat -> create
	case n >= 2 && s[n-1] == s[n-2] && isConsonant(s, n-1) &&
		s[n-1] != 'l' && s[n-1] != 's' && s[n-1] != 'z':
		return s[:n-1] // hopp -> hop; fall, miss stay
	case measure(s) == 1 && endsCVC(s):
		return append(s, 'e') // hop -> hope
	}
	return s
}

// stemAdverb removes -ly from adverbs ("quickly", "really", "happily")
// but not from nouns and verbs that merely end in it ("family", "apply",
// "supply", "assembly"): the stem must keep four letters and must not end
// in a vowel or in b or p.
func stemAdverb(w []byte) []byte {
	n := len(w)
	if !hasSuffix(w, "ly") {
		return w
	}
	if hasSuffix(w, "ily") {
		if n >= 7 {
			return w[:n-2] // happily -> happi
		}
		return w
	}
	s := w[:n-2]
	if len(s) < 4 {
		return w
	}
	switch s[len(s)-1] {
	case 'a', 'i', 'o', 'u', 'y', 'b', 'p':
		return w
	}
	return s
}

// stemFinalE removes a final -e where Porter's step 5a does, so that the
// bare verb meets its repaired stems ("create" and "creating" are both
// "creat") while short words keep it ("note", "make", "code").
func stemFinalE(w []byte) []byte {
	n := len(w)
	if n < 2 || w[n-1] != 'e' {
		return w
	}
	s := w[:n-1]
	if m := measure(s); m > 1 || m == 1 && !endsCVC(s) {
		return s
	}
	return w
}

// stemFinalY turns a final -y after a vowel-bearing stem into -i
// (Porter 1c), where the plural and verb rules leave "parties", "carried"
// and "happily": "party" and "parties" are both "parti".
func stemFinalY(w []byte) []byte {
	n := len(w)
	if n >= 2 && w[n-1] == 'y' && hasVowel(w[:n-1]) {
		w[n-1] = 'i'
	}
	return w
}

func hasSuffix(w []byte, suffix string) bool {
	return len(w) >= len(suffix) && string(w[len(w)-len(suffix):]) == suffix
}

// isConsonant follows Porter: a letter other than a, e, i, o, u, and
// other than y after a consonant.
func isConsonant(w []byte, i int) bool {
	switch w[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		return i == 0 || !isConsonant(w, i-1)
	}
	return true
}

func hasVowel(w []byte) bool {
	for i := range w {
		if !isConsonant(w, i) {
			return true
		}
	}
	return false
}

// measure is Porter's m: the number of vowel-consonant sequences in w,
// which has the form [C](VC){m}[V].
func measure(w []byte) int {
	m, i, n := 0, 0, len(w)
	for i < n && isConsonant(w, i) {
		i++
	}
	for i < n {
		for i < n && !isConsonant(w, i) {
			i++
		}
		if i == n {
			break
		}
		for i < n && isConsonant(w, i) {
			i++
		}
		m++
	}
	return m
}

// endsCVC is Porter's *o: w ends consonant-vowel-consonant and the last
// consonant is not w, x or y ("hop", "not", but not "snow", "box").
func endsCVC(w []byte) bool {
	n := len(w)
	if n < 3 || !isConsonant(w, n-1) || isConsonant(w, n-2) || !isConsonant(w, n-3) {
		return false
	}
	switch w[n-1] {
	case 'w', 'x', 'y':
		return false
	}
	return true
}
