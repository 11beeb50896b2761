package sameness

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vaultmem/vaultmem/text"
)

// The property tests build random memories from parts whose spellings are
// known: one edit of a number, unit, symbol, identifier, path or negation
// must make them differ; any mix of the documented normalisations must not.

// proseWords are words no normalisation touches but case: no number,
// unit, month, table term, conjunction or abbreviation.
var proseWords = strings.Fields("run tests deploy service cache before merging use staging build check keep " +
	"set limit to in out with after worker queue retry timeout we the this that from into all each server " +
	"branch release review file folder index token owner")

// editable is a part of a sentence and the edits that change what it says.
type editable struct {
	kind  string
	text  string
	edits []string // texts that say something else in its place
}

// editableParts makes the parts of property (a), each with its edits.
func editableParts(r *rand.Rand) editable {
	n := 1 + r.IntN(500)
	m := n + 1 + r.IntN(50)
	switch k := r.IntN(7); k {
	case 0:
		d := fmt.Sprintf("0.%d", 1+r.IntN(9))
		return editable{"number", fmt.Sprint(n), []string{fmt.Sprint(m), fmt.Sprint(n * 10), "-" + fmt.Sprint(n)}}.
			orDecimal(r, d)
	case 1:
		groups := [][]string{{"s", "sec", "seconds"}, {"ms", "milliseconds"}, {"min", "minutes"}, {"h", "hours", "hr"},
			{"d", "days"}, {"GB", "gigabytes"}, {"MB", "megabytes"}, {"KiB", "kibibytes"}, {"m"}, {"km"}}
		g := r.IntN(len(groups))
		u := groups[g][r.IntN(len(groups[g]))]
		other := groups[(g+1+r.IntN(len(groups)-1))%len(groups)]
		return editable{"unit", fmt.Sprintf("%d %s", n, u), []string{
			fmt.Sprintf("%d %s", m, u), fmt.Sprintf("%d %s", n, other[r.IntN(len(other))])}}
	case 2:
		pairs := [][2]string{{"$5", "€5"}, {"$5", "£5"}, {"!=", "=="}, {">", "<"}, {">=", "<="}, {"+1", "-1"},
			{"~1", "^1"}, {"x=1", "x==1"}, {"@alice", "@bob"}, {"#urgent", "#later"}, {"5%", "50%"}, {"$40k", "$40m"}, {"2am", "2pm"}}
		p := pairs[r.IntN(len(pairs))]
		if r.IntN(2) == 0 {
			p[0], p[1] = p[1], p[0]
		}
		return editable{"symbol", p[0], []string{p[1]}}
	case 3:
		ids := []string{"DB_HOST", "getUsers", "requestIDKey", "MAX_RETRIES", "snake_case_name", "HTTPServer", "iOS", "x86_64"}
		id := ids[r.IntN(len(ids))]
		return editable{"identifier", id, []string{flipCase(r, id), dropChar(r, id)}}
	case 4:
		paths := []string{"./build", "../build", "/etc/hosts", "src/main.go", "~/.npmrc", "--force-with-lease", "--dry-run"}
		p := paths[r.IntN(len(paths))]
		edits := []string{flipCase(r, p), dropChar(r, p)}
		if strings.HasPrefix(p, "./") {
			edits = append(edits, "."+p)
		}
		return editable{"path", p, edits}
	case 5:
		negs := []string{"not", "never", "no"}
		w := negs[r.IntN(len(negs))]
		return editable{"negation", w, []string{negs[(indexOf(negs, w)+1)%3], "always"}}
	default:
		return editable{"code", "`" + proseWords[r.IntN(len(proseWords))] + "`", []string{"`" + strings.ToUpper(proseWords[r.IntN(len(proseWords))]) + "`"}}
	}
}

// orDecimal makes a number part a decimal one half of the time, whose
// edits move its zeros ("0.1" to "0.01", "1.5" to "1.05").
func (e editable) orDecimal(r *rand.Rand, d string) editable {
	if r.IntN(2) == 0 {
		return e
	}
	return editable{"decimal", d, []string{strings.Replace(d, ".", ".0", 1), d + "1", strings.TrimPrefix(d, "0")}}
}

func indexOf(s []string, w string) int {
	for i, x := range s {
		if x == w {
			return i
		}
	}
	return -1
}

// flipCase flips the case of one letter of s, the first it finds from a
// random place.
func flipCase(r *rand.Rand, s string) string {
	b := []byte(s)
	start := r.IntN(len(b))
	for k := range b {
		i := (start + k) % len(b)
		switch c := b[i]; {
		case c >= 'a' && c <= 'z':
			b[i] = c - 32
			return string(b)
		case c >= 'A' && c <= 'Z':
			b[i] = c + 32
			return string(b)
		}
	}
	return s + "x"
}

// dropChar removes one character of s that is not its only letter.
func dropChar(r *rand.Rand, s string) string {
	i := r.IntN(len(s))
	if out := s[:i] + s[i+1:]; strings.ContainsAny(out, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") {
		return out
	}
	return s + "x"
}

// TestCanonicalEditsDiffer is property (a): a random memory and the same
// memory with one number, unit, symbol, identifier, negation, path or
// code span changed are never Same, nor does either contain the other.
func TestCanonicalEditsDiffer(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 2000; iter++ {
		var sentences [][]string // each sentence's parts, prose words between
		var parts []editable
		var where [][2]int
		for s := 0; s < 1+r.IntN(3); s++ {
			var words []string
			for k := 0; k < 2+r.IntN(4); k++ {
				words = append(words, proseWords[r.IntN(len(proseWords))])
				if r.IntN(2) == 0 {
					e := editableParts(r)
					parts = append(parts, e)
					where = append(where, [2]int{s, len(words)})
					words = append(words, e.text)
				}
			}
			words = append(words, proseWords[r.IntN(len(proseWords))])
			sentences = append(sentences, words)
		}
		if len(parts) == 0 {
			continue
		}
		k := r.IntN(len(parts))
		edit := parts[k].edits[r.IntN(len(parts[k].edits))]
		a := render(sentences)
		sentences[where[k][0]][where[k][1]] = edit
		b := render(sentences)
		if Same(a, b) || Contains(a, b) || Contains(b, a) {
			t.Fatalf("iteration %d, %s edit %q -> %q:\n%q\n%q\nSame or contained: %s", iter, parts[k].kind, parts[k].text, edit, a, b, Canonical(a))
		}
	}
}

func render(sentences [][]string) string {
	var out []string
	for _, s := range sentences {
		out = append(out, strings.Join(s, " ")+".")
	}
	return strings.Join(out, " ")
}

// spellings are parts of property (b): each the spellings that say one
// thing, by a documented normalisation.
var spellings = [][]string{
	{"3", "three", "Three"},
	{"25", "twenty-five", "twenty five"},
	{"42", "forty-two"},
	{"205", "two hundred and five", "two hundred five"},
	{"1000", "1,000", "1 000", "one thousand"},
	{"2500000", "2,500,000", "2.5 million"},
	{"0.05", "0.05"},
	{"30 seconds", "30s", "30 sec", "thirty seconds", "30 secs", "30 s"},
	{"2 minutes", "2 min", "120 seconds", "two minutes", "120s", "2 mins"},
	{"1 hour", "60 minutes", "1h", "one hour", "3600 s", "1 hr"},
	{"500ms", "0.5 seconds", "500 milliseconds"},
	{"2 GB", "2 gigabytes", "two GB"},
	{"1 KB", "1 kB", "1 kilobyte"},
	{"1 KiB", "1024 bytes"},
	{"5%", "5 percent", "five percent", "5 per cent", "5 %"},
	{"2026-03-01", "1 March 2026", "March 1, 2026", "Mar 1 2026", "March 1st, 2026", "2026/3/1", "Mar. 1, 2026"},
	{"db", "database", "DB", "Database"},
	{"repo", "repository"},
	{"PR", "pull request", "pr"},
	{"PRs", "pull requests"},
	{"don't", "do not", "DON'T", "do NOT"},
	{"can't", "cannot", "can not"},
	{"k8s", "Kubernetes", "kubernetes", "K8s"},
	{"colour", "color"},
	{"organise", "organize", "Organise"},
	{"Postgres", "PostgreSQL", "postgres"},
	{"JS", "JavaScript", "javascript"},
	{"config", "configuration"},
	{"env", "environment", "ENV"},
	{"DB_HOST"},
	{"getUsers"},
	{"`make test`"},
	{"./build"},
	{"--force"},
}

// spell writes a prose word in one of the ways that keep it: its case,
// emphasis, quotes or brackets.
func spell(r *rand.Rand, w string) string {
	switch r.IntN(9) {
	case 0:
		return strings.ToUpper(w[:1]) + w[1:]
	case 1:
		if !keepCaseCapitals[strings.ToUpper(w)] {
			return strings.ToUpper(w)
		}
	case 2:
		return "*" + w + "*"
	case 3:
		return "**" + w + "**"
	case 4:
		return "_" + w + "_"
	case 5:
		return `"` + w + `"`
	case 6:
		return "(" + w + ")"
	case 7:
		return w + ","
	}
	return w
}

// memory is the plan of a random memory for property (b): sentences of
// prose words and parts, by index into spellings, and lists.
type memory struct {
	sentences []planned
}

type planned struct {
	words []any // a string (a prose word) or an int (a part of spellings)
	list  []string
	lead  []string
}

func plan(r *rand.Rand) memory {
	var m memory
	for s := 0; s < 1+r.IntN(4); s++ {
		var p planned
		if r.IntN(4) == 0 {
			p.lead = []string{proseWords[r.IntN(len(proseWords))]}
			seen := map[string]bool{}
			for len(p.list) < 3+r.IntN(3) {
				w := proseWords[r.IntN(len(proseWords))]
				if !seen[w] && !text.IsStopWord(w) {
					seen[w] = true
					p.list = append(p.list, w)
				}
			}
		} else {
			for k := 0; k < 2+r.IntN(4); k++ {
				p.words = append(p.words, proseWords[r.IntN(len(proseWords))])
				if r.IntN(2) == 0 {
					p.words = append(p.words, r.IntN(len(spellings)))
				}
			}
			p.words = append(p.words, proseWords[r.IntN(len(proseWords))])
		}
		m.sentences = append(m.sentences, p)
	}
	return m
}

// write writes a memory's plan in random spellings.
func (m memory) write(r *rand.Rand) string {
	var b strings.Builder
	for i, p := range m.sentences {
		if i > 0 {
			b.WriteString([]string{" ", "\n", "\n\n"}[r.IntN(3)])
		}
		if p.list != nil {
			items := append([]string(nil), p.list...)
			r.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
			if r.IntN(2) == 0 {
				fmt.Fprintf(&b, "%s %s and %s.", strings.TrimSuffix(spell(r, p.lead[0]), ","), strings.Join(items[:len(items)-1], ", "), items[len(items)-1])
				continue
			}
			if i > 0 {
				b.WriteString("\n\n")
			}
			fmt.Fprintf(&b, "%s:\n", p.lead[0])
			for _, it := range items {
				fmt.Fprintf(&b, "%s %s\n", []string{"-", "*", "+"}[r.IntN(3)], it)
			}
			b.WriteString("\n\n")
			continue
		}
		var words []string
		for _, w := range p.words {
			switch w := w.(type) {
			case string:
				words = append(words, spell(r, w))
			case int:
				s := spellings[w]
				words = append(words, s[r.IntN(len(s))])
			}
		}
		b.WriteString(strings.Join(words, " "))
		b.WriteString([]string{".", ";", "!", "."}[r.IntN(4)])
	}
	return b.String()
}

// TestCanonicalNormalisationsSame is property (b): one memory written
// twice, each time with random spellings of its parts (case, emphasis,
// punctuation, number words, units, dates, table terms), list orders and
// sentence breaks, is Same, and each contains the other.
func TestCanonicalNormalisationsSame(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for iter := 0; iter < 2000; iter++ {
		m := plan(r)
		a, b := m.write(r), m.write(r)
		if !Same(a, b) {
			t.Fatalf("iteration %d: not Same:\n%q\n%q\n%s\n%s", iter, a, b, Canonical(a), Canonical(b))
		}
		if !Contains(a, b) || !Contains(b, a) {
			t.Fatalf("iteration %d: Same but not contained:\n%q\n%q", iter, a, b)
		}
	}
}

// FuzzCanonical: no panic, a text is Same as itself (its normal form is
// the same on every run) and contains itself when it has a sentence, and
// nothing contains the empty text.
func FuzzCanonical(f *testing.F) {
	for _, r := range canonicalRules {
		for _, p := range append(r.same, r.not...) {
			f.Add(p.a)
		}
	}
	f.Add("- [ ] a\n  - b\n    1. c\n> d\n```\ne\n```\n    f\n# g\n***\n")
	f.Add("*a **b** _c_ __d__ ~~e~~ `f` [g](h) [[i|j]] <http://k> \\*l\\*")
	f.Add("1,000 1 000 0.01 v1.5 2026-03-01 三天 30s 5% $40k ../.. ./ --force !=")
	f.Fuzz(func(t *testing.T, s string) {
		if c := Canonical(s); c != Canonical(s) || !Same(s, strings.Clone(s)) {
			t.Errorf("%q: Canonical differs from run to run", s)
		}
		if utf8.ValidString(s) && hasSentence(s) && !Contains(s, s) {
			t.Errorf("%q does not contain itself", s)
		}
		if Contains(s, "") {
			t.Errorf("%q contains the empty text", s)
		}
	})
}

// TestCanonicalLargeInputs runs Canonical on 100 KB inputs built to make
// a quadratic step show (unclosed backticks, brackets and emphasis, deep
// nesting, long runs of digits, numerals and commas). It asserts no time:
// a quadratic step would take minutes on these and end the test binary.
func TestCanonicalLargeInputs(t *testing.T) {
	const size = 100 << 10
	punctuationOnly := map[string]bool{"quotes": true, "lists": true, "brackets": true, "parens": true}
	for name, unit := range map[string]string{
		"backticks":  "` `` ``` ",
		"brackets":   "[[ [ ( ",
		"emphasis":   "*a _b **c __d ",
		"quotes":     ">",
		"lists":      "- ",
		"nested":     "  - a\n",
		"digits":     "1 000 ",
		"numerals":   "三",
		"commas":     "a, ",
		"ands":       "a, b and ",
		"colons":     "a: b, c and d, ",
		"parens":     "((((",
		"dots":       "...",
		"words":      "twenty five hundred thousand ",
		"urls":       "http://a.b/_c_ ",
		"cjk":        "部署前运行测试。",
		"mixed":      "Run the Tests, e.g. 30s or 2 GB on 2026-03-01; ",
		"wikilinks":  "[[a ",
		"autolinks":  "<a ",
		"long token": "a",
	} {
		s := strings.Repeat(unit, size/len(unit))
		if c := Canonical(s); c == "" && !punctuationOnly[name] {
			t.Errorf("%s: empty normal form", name)
		}
	}
	// A long lead before many items would make Contains spell out each
	// item with it: past its bound, Contains says no rather than work on.
	lead := strings.Repeat("word ", 4000) + "\n" + strings.Repeat("- x\n", 20000)
	if Contains(lead, lead) {
		t.Errorf("a lead of 20 KB before 20,000 items: contained, want over the bound")
	}
	if small := "Avoid these.\n" + strings.Repeat("- x\n", 100); !Contains(small, small) {
		t.Errorf("a short lead before 100 items: not contained in itself")
	}
}

// hasSentence reports whether s has a sentence for Contains, within the
// bound Contains(s, s) keeps.
func hasSentence(s string) bool {
	budget := containsBudget(s, s) / 2
	ss, ok := sentencesOf(canonicalUnits(s), "", &budget)
	return ok && len(ss) > 0
}
