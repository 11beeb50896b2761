// Package contradict finds the lessons that contradict each other: two
// live lessons whose triggers overlap (the same tool, the same glob, or
// trigger words of which they share at least half) and whose action
// biases say opposite things about a shared topic ("always run X" against
// "never run X"). The pairs looked at come from an inverted index of the
// lessons, never from all pairs, so that many lessons sharing one trigger
// cost little unless they do contradict each other.
//
// It is given what it needs of a lesson through its own Lesson (path,
// trigger entries already classified, action bias); package lesson reads
// the lessons from the index and adapts them. It imports meaning (a
// sentence's polarity) and text (terms, stop words); never lesson.
package contradict

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/vaultmem/vaultmem/meaning"
	"github.com/vaultmem/vaultmem/text"
)

// Contradiction is two lessons whose triggers overlap and whose action
// biases point opposite ways.
type Contradiction struct {
	A, B string `json:"-"`
	// Lessons are the two paths; Overlap what their triggers share; Why
	// the two action biases' polarity words and their shared topic.
	Lessons []string `json:"lessons"`
	Overlap string   `json:"overlap"`
	Why     string   `json:"why"`
}

// Lesson is what finding contradictions needs of a live lesson: its
// path, its trigger's entries in the note's order, each with its kind
// ("tool", "glob", or anything else for trigger words), and its action
// bias.
type Lesson struct {
	Path       string
	Trigger    []Trigger
	ActionBias string
}

// Trigger is one entry of a lesson's trigger: Kind "tool" or "glob" with
// the tool's name or the glob as Value, or another Kind for words.
type Trigger struct {
	Kind, Value string
}

// Find returns the pairs of lessons whose triggers overlap and whose
// action biases point opposite ways (see the package doc), sorted by the
// earlier path, then the later. A rule of thumb: a false alarm costs a
// look; nothing is changed. When ctx is done it stops and returns ctx's
// error.
func Find(ctx context.Context, lessons []Lesson) ([]Contradiction, error) {
	ls := polarLessons(lessons)
	pairs, err := candidates(ctx, ls)
	if err != nil {
		return nil, err
	}
	out := []Contradiction{}
	for k, p := range pairs {
		if k%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if c, ok := contradiction(&ls[p[0]], &ls[p[1]]); ok {
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b Contradiction) int { return cmp.Or(strings.Compare(a.A, b.A), strings.Compare(a.B, b.B)) })
	return out, nil
}

// polar is a lesson whose action bias has a polarity, as Find compares
// it.
type polar struct {
	path string
	// keys are its trigger's keys: "tool:x", "glob:g", "word:t" (one per
	// term of its trigger words); words those terms.
	keys  []string
	words map[string]bool
	// polarity is +1 or -1, and marker the word that says so.
	polarity int
	marker   string
	// topic are the terms of its action bias but stop and polarity words.
	topic map[string]bool
}

// polarLessons are the lessons that may contradict another, in the order
// given: with a trigger, and an action bias that has a polarity.
func polarLessons(lessons []Lesson) []polar {
	var ls []polar
	for _, l := range lessons {
		if len(l.Trigger) == 0 {
			continue
		}
		v := polar{path: l.Path, words: map[string]bool{}, topic: map[string]bool{}}
		v.polarity, v.marker = meaning.Polarity(strings.ToLower(l.ActionBias))
		if v.polarity == 0 {
			continue
		}
		for _, w := range text.Words(strings.ToLower(l.ActionBias)) {
			if len(w) > 1 && !text.IsStopWord(w) && !meaning.IsPolarityWord(w) {
				v.topic[text.Term(w)] = true
			}
		}
		for _, t := range l.Trigger {
			switch kind, val := t.Kind, t.Value; kind {
			case "tool", "glob":
				v.keys = append(v.keys, kind+":"+strings.ToLower(val))
			default:
				for _, w := range text.ContentTerms(val) {
					v.words[w] = true
					v.keys = append(v.keys, "word:"+w)
				}
			}
		}
		ls = append(ls, v)
	}
	return ls
}

// contradiction is the contradiction between a and b, if they are one:
// opposite polarities, triggers that share a tool or a glob, or at least
// half of the smaller's trigger words, and a topic word in common. a is the
// earlier lesson of the two.
func contradiction(a, b *polar) (Contradiction, bool) {
	if a.polarity == b.polarity {
		return Contradiction{}, false
	}
	overlap := shared(a.keys, b.keys)
	if len(overlap) == 0 {
		return Contradiction{}, false
	}
	wordsShared := 0
	for w := range a.words {
		if b.words[w] {
			wordsShared++
		}
	}
	exact := slices.ContainsFunc(overlap, func(k string) bool { return !strings.HasPrefix(k, "word:") })
	if !exact && 2*wordsShared < min(len(a.words), len(b.words)) {
		return Contradiction{}, false
	}
	var topic []string
	for t := range a.topic {
		if b.topic[t] {
			topic = append(topic, t)
		}
	}
	if len(topic) == 0 {
		return Contradiction{}, false
	}
	slices.Sort(topic)
	c := Contradiction{A: a.path, B: b.path, Lessons: []string{a.path, b.path}, Overlap: strings.Join(overlap, ", "),
		Why: fmt.Sprintf("%q vs %q about %s", a.marker, b.marker, strings.Join(topic, ", "))}
	if c.A > c.B {
		c.A, c.B = c.B, c.A
		c.Lessons = []string{c.A, c.B}
	}
	return c, true
}

// shared returns the keys in both a and b, sorted.
func shared(a, b []string) []string {
	var out []string
	for _, k := range a {
		if slices.Contains(b, k) && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// candidates returns the pairs (i < j) of ls that may be a
// contradiction, a superset of those that are, from an inverted index
// rather than from all pairs. The two lessons of a contradiction have
// opposite polarities, a topic word in common, and a trigger key in common,
// so every lesson is indexed under each (trigger key, topic word) of its
// own, by polarity, and looks for partners only under its own such keys,
// among the other polarity: lessons sharing a trigger but all saying
// "always", or about different things, are never paired. Trigger words
// are narrowed further by prefix filtering: two lessons that share no tool
// or glob must share at least half of the smaller one's trigger words (and
// one), so with every lesson's words ordered rarest first, the first word
// they share is among the first len/2+1 words of the smaller; a lesson
// looks up only those, among lessons with as many trigger words or more.
// It stops with ctx's error when ctx is done.
func candidates(ctx context.Context, ls []polar) ([][2]int, error) {
	df := map[string]int{}
	for _, l := range ls {
		for w := range l.words {
			df[w]++
		}
	}
	type key struct{ trigger, topic string }
	posting := map[key]*[2][]int{} // the lessons under a key, by side
	side := func(l *polar) int {
		if l.polarity > 0 {
			return 0
		}
		return 1
	}
	exact := make([][]string, len(ls))  // the tool and glob keys
	prefix := make([][]string, len(ls)) // the word keys looked up
	for i := range ls {
		l := &ls[i]
		var keys []string
		for _, k := range l.keys {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
		var words []string
		for _, k := range keys {
			if w, ok := strings.CutPrefix(k, "word:"); ok {
				words = append(words, w)
			} else {
				exact[i] = append(exact[i], k)
			}
		}
		slices.SortFunc(words, func(a, b string) int { return cmp.Or(cmp.Compare(df[a], df[b]), strings.Compare(a, b)) })
		if len(words) > 0 {
			for _, w := range words[:len(words)/2+1] {
				prefix[i] = append(prefix[i], "word:"+w)
			}
		}
		for _, k := range keys {
			for p := range l.topic {
				post := posting[key{k, p}]
				if post == nil {
					post = &[2][]int{}
					posting[key{k, p}] = post
				}
				post[side(l)] = append(post[side(l)], i)
			}
		}
	}
	seen := map[[2]int]bool{}
	var out [][2]int
	add := func(i, j int) {
		c := [2]int{min(i, j), max(i, j)}
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	for i := range ls {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		l := &ls[i]
		other := 1 - side(l)
		for p := range l.topic {
			if l.polarity > 0 { // a shared tool or glob is found from either side
				for _, k := range exact[i] {
					if post := posting[key{k, p}]; post != nil {
						for _, j := range post[other] {
							add(i, j)
						}
					}
				}
			}
			for _, k := range prefix[i] {
				if post := posting[key{k, p}]; post != nil {
					for _, j := range post[other] {
						if len(ls[j].words) >= len(l.words) {
							add(i, j)
						}
					}
				}
			}
		}
	}
	return out, nil
}
