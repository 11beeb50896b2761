package dream

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// The property tests take the memories of the labelled set and change
// them at random, one token at a time: an edit that changes what a memory
// says (a number, a unit, a symbol, an identifier, a negation, a path)
// must never make Dream merge the two; a rewrite by the documented
// normalisations (docs/merge-rules.md) must always make it merge them.

// meaningEdits change what a text says, each where it applies: the edit
// and whether it applied.
var meaningEdits = []struct {
	name string
	edit func(r *rand.Rand, s string) (string, bool)
}{
	{"number", replaceOne(regexp.MustCompile(`\b[0-9]+\b`), func(r *rand.Rand, m string) string { return m + "1" })},
	{"decimal", replaceOne(regexp.MustCompile(`\b[0-9]+\b`), func(r *rand.Rand, m string) string { return "0.0" + m })},
	{"unit", replaceOne(regexp.MustCompile(`\b([0-9]+) ?(seconds|minutes|hours|days|ms|s|m|h|MB|GB|KB)\b`), func(r *rand.Rand, m string) string {
		for _, u := range [][2]string{{"seconds", "minutes"}, {"minutes", "hours"}, {"hours", "days"}, {"days", "weeks"}, {"ms", "s"}, {"MB", "GB"}, {"GB", "TB"}, {"KB", "MB"}} {
			if strings.HasSuffix(m, u[0]) {
				return strings.TrimSuffix(m, u[0]) + u[1]
			}
		}
		if strings.HasSuffix(m, "s") {
			return strings.TrimSuffix(m, "s") + "m"
		}
		return strings.TrimSuffix(strings.TrimSuffix(m, "m"), "h") + "d"
	})},
	{"symbol", func(r *rand.Rand, s string) (string, bool) {
		for _, sw := range [][2]string{{"$", "€"}, {">", "<"}, {"==", "!="}, {"+", "-"}, {"./", "../"}, {"&&", "||"}} {
			if strings.Contains(s, sw[0]) {
				return strings.Replace(s, sw[0], sw[1], 1), true
			}
		}
		return s, false
	}},
	{"identifier", replaceOne(regexp.MustCompile(`\b[a-z]+[A-Z][A-Za-z]*\b|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b`), func(r *rand.Rand, m string) string {
		if strings.Contains(m, "_") {
			return strings.ToLower(m)
		}
		return strings.ToUpper(m[:1]) + m[1:]
	})},
	{"negation", func(r *rand.Rand, s string) (string, bool) {
		for _, v := range []string{" is ", " are ", " must ", " can ", " should ", " will "} {
			if strings.Contains(s, v) {
				return strings.Replace(s, v, v+"not ", 1), true
			}
		}
		return s, false
	}},
	{"no longer", func(r *rand.Rand, s string) (string, bool) {
		for _, v := range []string{" is ", " are ", " uses ", " runs "} {
			if strings.Contains(s, v) {
				return strings.Replace(s, v, v[:len(v)-1]+" no longer ", 1), true
			}
		}
		return s, false
	}},
	{"path", func(r *rand.Rand, s string) (string, bool) {
		for _, sw := range [][2]string{{"./docs/", "../docs/"}, {"docs/", "doc/"}, {"/v1/", "/v2/"}} {
			if strings.Contains(s, sw[0]) {
				return strings.Replace(s, sw[0], sw[1], 1), true
			}
		}
		return s, false
	}},
	{"word", replaceOne(regexp.MustCompile(`\b[a-z]{5,}\b`), func(r *rand.Rand, m string) string { return m + "s" })},
}

// replaceOne is an edit replacing one match of re, chosen at random, by
// with(match).
func replaceOne(re *regexp.Regexp, with func(*rand.Rand, string) string) func(*rand.Rand, string) (string, bool) {
	return func(r *rand.Rand, s string) (string, bool) {
		ms := re.FindAllStringIndex(s, -1)
		if len(ms) == 0 {
			return s, false
		}
		m := ms[r.IntN(len(ms))]
		return s[:m[0]] + with(r, s[m[0]:m[1]]) + s[m[1]:], true
	}
}

// normalisations rewrite a text without changing what it says.
var normalisations = []struct {
	name string
	edit func(r *rand.Rand, s string) (string, bool)
}{
	{"final stop", func(r *rand.Rand, s string) (string, bool) {
		if t, ok := strings.CutSuffix(s, "."); ok {
			return t, true
		}
		return s + ".", true
	}},
	{"spacing", func(r *rand.Rand, s string) (string, bool) {
		return strings.Replace(s, " ", "  ", 1), strings.Contains(s, " ")
	}},
	{"emphasis", replaceOne(regexp.MustCompile(`\b[a-z]{4,}\b`), func(r *rand.Rand, m string) string { return "*" + m + "*" })},
	{"bold", replaceOne(regexp.MustCompile(`\b[a-z]{4,}\b`), func(r *rand.Rand, m string) string { return "**" + m + "**" })},
	{"case of a prose word", replaceOne(regexp.MustCompile(`\b(the|use|run|always|never|before|after)\b`), func(r *rand.Rand, m string) string { return strings.ToUpper(m[:1]) + m[1:] })},
	{"number word", replaceOne(regexp.MustCompile(`\b(two|three|four|five|ten|twenty)\b`), func(r *rand.Rand, m string) string {
		return map[string]string{"two": "2", "three": "3", "four": "4", "five": "5", "ten": "10", "twenty": "20"}[m]
	})},
	{"equivalent term", func(r *rand.Rand, s string) (string, bool) {
		for _, eq := range [][2]string{{"do not", "don't"}, {"Do not", "Don't"}, {"database", "db"}, {"repository", "repo"}, {"pull request", "PR"}, {"PostgreSQL", "Postgres"}} {
			if strings.Contains(s, eq[0]) {
				return strings.Replace(s, eq[0], eq[1], 1), true
			}
		}
		return s, false
	}},
	{"sentence split", func(r *rand.Rand, s string) (string, bool) {
		if i := strings.Index(s, ". "); i > 0 {
			return s[:i+1] + "\n\n" + s[i+2:], true
		}
		return s, false
	}},
}

// propertyTexts are the memories of the labelled set (its pairs' first
// texts), in English, and of a sentence or more; every third with a
// sentence of paths, symbols and identifiers added, for the edits to
// find.
func propertyTexts(t *testing.T) []string {
	extras := []string{
		"The setup is in ./docs/setup.md and costs $5 a month.",
		"Call getUsers with requestIDKey set when retries > 3.",
		"The API lives under /v1/ and reads DB_HOST from the environment.",
		"Run it only when a && b == true, in 30 minutes.",
		"Keep three replicas and two backups of the database for 90 days.",
	}
	var out []string
	for i, lp := range readPairs(t) {
		if lp.lang == "en" && len(strings.Fields(lp.a)) >= 5 {
			if i%3 == 0 {
				out = append(out, lp.a+" "+extras[i%len(extras)])
			} else {
				out = append(out, lp.a)
			}
		}
	}
	return out
}

// TestNeverMergesAChangedMeaning: for random memories and random edits
// that change a number, unit, symbol, identifier, negation, path or word,
// Dream never merges the memory with its edited self.
func TestNeverMergesAChangedMeaning(t *testing.T) {
	texts := propertyTexts(t)
	r := rand.New(rand.NewPCG(36, 1))
	tried, pairs := map[string]int{}, 0
	for range 2000 {
		text := texts[r.IntN(len(texts))]
		e := meaningEdits[r.IntN(len(meaningEdits))]
		edited, ok := e.edit(r, text)
		if !ok || edited == text {
			continue
		}
		tried[e.name]++
		pairs++
		if out := pairOutcome(t, text, edited); out == outMerged {
			t.Errorf("%s edit merged: %q / %q", e.name, text, edited)
		}
	}
	t.Logf("%d edited pairs: %v", pairs, tried)
	for _, e := range meaningEdits {
		if tried[e.name] < 20 {
			t.Errorf("the %s edit was tried %d times, want at least 20", e.name, tried[e.name])
		}
	}
}

// TestAlwaysMergesANormalisation: for random memories rewritten by one to
// three random normalisations, Dream always merges the two.
func TestAlwaysMergesANormalisation(t *testing.T) {
	texts := propertyTexts(t)
	r := rand.New(rand.NewPCG(36, 2))
	tried, pairs := map[string]int{}, 0
	for range 2000 {
		text := texts[r.IntN(len(texts))]
		edited, names := text, []string{}
		for range 1 + r.IntN(3) {
			n := normalisations[r.IntN(len(normalisations))]
			if next, ok := n.edit(r, edited); ok {
				edited = next
				names = append(names, n.name)
				tried[n.name]++
			}
		}
		if edited == text {
			continue
		}
		pairs++
		if out := pairOutcome(t, text, edited); out != outMerged {
			t.Errorf("%v: %s, not merged: %q / %q", names, out, text, edited)
		}
	}
	t.Logf("%d normalised pairs, normalisations applied: %v", pairs, tried)
	for _, n := range normalisations {
		if tried[n.name] < 20 {
			t.Errorf("the %s normalisation was tried %d times, want at least 20", n.name, tried[n.name])
		}
	}
}
