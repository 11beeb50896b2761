package sameness

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// equivalentTerms is the one table of terms that say the same thing
// (docs/merge-rules.md lists it): each line is a normal form, "|", and the
// other spellings that stand for it, matched as whole tokens, in any case
// (a spelling after "=" only as written), in prose only (never in code,
// paths or identifiers). There is no
// stemming and no synonym beyond it: "getUsers" is not "getUser", "test"
// not "tests", "dev" not "develop", "doc" not "docs".
var equivalentTerms = []string{
	"database | db",
	"databases | dbs",
	"repository | repo",
	"repositories | repos",
	"pull request | pr",
	"pull requests | prs",
	"do not | don't",
	"does not | doesn't",
	"can not | can't cannot",
	"will not | won't",
	"is not | isn't",
	"it is | it's",
	"postgresql | postgres",
	"kubernetes | k8s",
	"javascript | js",
	"typescript | =TS", // in capitals only: "ts" is as often a timestamp
	"configuration | config",
	"configurations | configs",
	"environment | env",
	"environments | envs",
	// British spellings, as American.
	"color | colour",
	"colors | colours",
	"colored | coloured",
	"behavior | behaviour",
	"behaviors | behaviours",
	"favorite | favourite",
	"favorites | favourites",
	"license | licence", // the noun: British "license" is the verb, which American spells the same
	"licenses | licences",
	"center | centre",
	"centers | centres",
	"catalog | catalogue",
	"catalogs | catalogues",
}

// izeStems are the verbs British English may spell with -ise: each
// stem's -ise, -ised, -ises, -ising, -isation(s) and -iser(s) stand for
// the -ize spellings.
var izeStems = strings.Fields("organ initial normal serial deserial optim custom recogn priorit author " +
	"final summar minim maxim standard synchron sanit util categor real visual parallel local emphas " +
	"special general capital apolog memo token")

// izeEndings are the endings of izeStems, British then American.
var izeEndings = [][2]string{{"ise", "ize"}, {"ised", "ized"}, {"ises", "izes"}, {"ising", "izing"},
	{"isation", "ization"}, {"isations", "izations"}, {"iser", "izer"}, {"isers", "izers"}}

// termTable maps each spelling of equivalentTerms and izeStems, and
// each normal form of one word, lower-cased, to its normal form's words;
// made at first use (hundreds of entries a command that reads no text
// should not build).
var termTable = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	for _, line := range equivalentTerms {
		norm, others, _ := strings.Cut(line, "|")
		for _, w := range strings.Fields(others) {
			m[w] = strings.Fields(norm) // "=TS" is looked up as written, after "="
		}
		if n := strings.Fields(norm); len(n) == 1 {
			m[n[0]] = n // "PostgreSQL" and "JavaScript" are names of any case too
		}
	}
	for _, stem := range izeStems {
		for _, e := range izeEndings {
			m[stem+e[0]] = []string{stem + e[1]}
		}
	}
	return m
})

// keepCase are words in capitals that are another word in lower case
// ("US" is not "us", "IT" not "it"), and the German polite forms ("Sie"
// is not "sie"), which keep their case where a sentence does not open
// with them.
var (
	keepCaseCapitals = setOf("US IT WHO AM PM OR REST RAM ARM CAN ACT SAT")
	keepCaseGerman   = setOf("Sie Ihnen Ihr Ihre Ihren Ihrem Ihrer Ihres")
)

// classify reads a chunk's core (its punctuation stripped) into at most
// two tokens ("don't" is "do not", "30s" is 30 and s), returning them and
// how many there are.
func classify(core string, initial bool) ([2]cToken, int) {
	var out [2]cToken
	if core == "" {
		return out, 0
	}
	if isTermLike(core) {
		words, ok := termTable()[strings.ToLower(core)]
		if !ok {
			words, ok = termTable()["="+core]
		}
		if ok {
			for i, w := range words {
				out[i] = cToken{s: w, raw: w, kind: wordTok}
			}
			return out, len(words)
		}
	}
	r, n := utf8.DecodeRuneInString(core)
	switch {
	case strings.Contains(core, "://") || strings.HasPrefix(core, "www.") || strings.HasPrefix(core, "mailto:"):
	case isDigitByte(core[0]) || strings.ContainsRune("$€£¥", r) && n < len(core) && isDigitByte(core[n]):
		return numberTokens(core)
	case isProseWord(core):
		out[0] = cToken{s: wordForm(core, initial), raw: core, kind: wordTok}
		return out, 1
	}
	out[0] = cToken{s: escToken(core), raw: core, kind: otherTok}
	return out, 1
}

// isTermLike reports whether a core may be a term of termTable: letters,
// digits and apostrophes.
func isTermLike(core string) bool {
	for _, r := range core {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' {
			return false
		}
	}
	return true
}

// isProseWord reports whether a core is a word: letters (and their
// marks), with apostrophes and hyphens between them.
func isProseWord(core string) bool {
	prevLetter := false
	for _, r := range core {
		switch {
		case unicode.IsLetter(r) || unicode.IsMark(r):
			prevLetter = true
		case (r == '\'' || r == '-') && prevLetter:
			prevLetter = false
		default:
			return false
		}
	}
	return prevLetter
}

// wordForm is a prose word's normal form: lower case, but a name keeps
// its case. A name is written with a capital inside ("iOS", "PostgreSQL",
// "McDonald"), is one capital letter where a sentence does not open
// ("Plan B"), or is listed in keepCaseCapitals or keepCaseGerman.
func wordForm(w string, initial bool) string {
	upper, lower := 0, 0
	pu, pl := 0, 0 // in the part of a hyphenated word or contraction
	for _, r := range w {
		switch {
		case r == '\'' || r == '-':
			pu, pl = 0, 0
		case unicode.IsUpper(r):
			if pl > 0 {
				return w // a capital after a lower-case letter: "iOS", "McDonald"
			}
			pu++
			upper++
		case unicode.IsLower(r):
			if pu > 1 {
				return w // "HTTPServer", "PostgreSQL"
			}
			pl++
			lower++
		}
	}
	switch {
	case lower == 0 && upper == 1 && utf8.RuneCountInString(w) == 1 && !initial && w != "I",
		lower == 0 && keepCaseCapitals[w],
		!initial && keepCaseGerman[w]:
		return w
	}
	return strings.ToLower(w)
}

// setOf is the set of the words of s.
func setOf(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}
