package router

import (
	"math"
	"path"
	"strings"
	"unicode"
)

// The model's features. A situation becomes context terms and a candidate
// becomes lesson terms, each a short prefixed string:
//
//	w:word   a word of Situation.Text (see words), at most maxWords
//	t:tool   Situation.Tool, lower cased
//	e:ext    the extension of a Situation.Paths entry, lower cased, no dot
//	d:dir    the first folder of a Situation.Paths entry, lower cased
//	l:path   Candidate.Path, as it is: the lesson's identity
//	o:domain Candidate.Domain, lower cased
//	g:tag    a Candidate.Tags entry, lower cased, without a leading '#'
//
// Both sides also have the always-present term "*". Every pair of a
// context term and a lesson term is one hashed feature, except "*"×"*"
// (that is the bias): a word crossed with a lesson learns where the
// lesson helps, "*" crossed with a lesson learns how often it helps at
// all, and a word crossed with "*" learns how often anything helps in
// such situations. The hashed features of one example share the value
// 1/√n, so the example's length does not set its step size.
//
// Changing any of this (the prefixes, words, stopWords, the hash) changes
// what a saved model's weights mean, so it must bump formatVersion.

const (
	maxWords = 32 // distinct words of a situation's text that count
	maxPaths = 8  // paths of a situation that count
	maxTags  = 16 // tags of a candidate that count
	maxRunes = 40 // longer words (hashes, base64) are dropped
)

// stopWords are words too common to say anything about a situation.
var stopWords = func() map[string]bool {
	m := make(map[string]bool)
	for _, w := range strings.Fields(`
		a an the and or but nor so yet if then else
		of to in on at by for with from into onto about as than
		is are was were be been being am do does did done have has had
		i me my we our you your he she it its they them their this that these those
		there here what which who whom when where why how
		not no can could will would shall should may might must
		all any some each just also very too only own same such up down out over
		let lets please now`) {
		m[w] = true
	}
	return m
}()

// words splits text into lower-cased runs of letters and digits, drops
// stop words and words over maxRunes runes, and keeps the first
// occurrence of each in order.
func words(text string) []string {
	var out []string
	seen := make(map[string]bool)
	for _, f := range strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		w := strings.ToLower(f)
		if stopWords[w] || seen[w] || len([]rune(w)) > maxRunes {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

// contextTerms returns the context terms of s (without "*"), each once.
func contextTerms(s Situation) []string {
	ws := words(s.Text)
	if len(ws) > maxWords {
		ws = ws[:maxWords]
	}
	terms := make([]string, 0, len(ws)+1+2*min(len(s.Paths), maxPaths))
	for _, w := range ws {
		terms = append(terms, "w:"+w)
	}
	if t := strings.ToLower(strings.TrimSpace(s.Tool)); t != "" {
		terms = append(terms, "t:"+t)
	}
	for i, p := range s.Paths {
		if i == maxPaths {
			break
		}
		p = strings.TrimPrefix(path.Clean(strings.ToLower(p)), "/")
		if p == "." || p == "" {
			continue
		}
		if ext := strings.TrimPrefix(path.Ext(p), "."); ext != "" {
			terms = append(terms, "e:"+ext)
		}
		if dir, rest, ok := strings.Cut(p, "/"); ok && dir != "" && dir != ".." && rest != "" {
			terms = append(terms, "d:"+dir)
		}
	}
	return dedupe(terms)
}

// lessonTerms returns the lesson terms of c (without "*"), each once.
func lessonTerms(c Candidate) []string {
	terms := make([]string, 0, 2+min(len(c.Tags), maxTags))
	if c.Path != "" {
		terms = append(terms, "l:"+c.Path)
	}
	if d := strings.ToLower(strings.TrimSpace(c.Domain)); d != "" {
		terms = append(terms, "o:"+d)
	}
	for i, t := range c.Tags {
		if i == maxTags {
			break
		}
		if t = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(t), "#")); t != "" {
			terms = append(terms, "g:"+t)
		}
	}
	return dedupe(terms)
}

// dedupe drops later repeats from terms, in place.
func dedupe(terms []string) []string {
	out := terms[:0]
	for i, t := range terms {
		dup := false
		for _, u := range terms[:i] {
			if u == t {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, t)
		}
	}
	return out
}

// anyTerm is the hash of "*", the term present on both sides.
var anyTerm = hashTerm("*")

// hashTerms returns "*" and the hashes of terms, "*" first.
func hashTerms(terms []string) []uint64 {
	hs := make([]uint64, 0, len(terms)+1)
	hs = append(hs, anyTerm)
	for _, t := range terms {
		hs = append(hs, hashTerm(t))
	}
	return hs
}

// hashTerm is 64-bit FNV-1a, written out so that it is fixed by this file
// rather than by a library.
func hashTerm(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// cross hashes the pair of a context term and a lesson term (the order
// matters) with the SplitMix64 finaliser.
func cross(ctx, lesson uint64) uint64 {
	x := ctx ^ (lesson * 0x9e3779b97f4a7c15) ^ 0x5851f42d4c957f2d
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// features appends to dst the buckets of the hashed features of a
// context (hashTerms of contextTerms) and a lesson (hashTerms of
// lessonTerms), and returns it with the value each of them has.
func features(dst []uint32, ctx, lesson []uint64, buckets int) ([]uint32, float64) {
	start := len(dst)
	for i, c := range ctx {
		for j, l := range lesson {
			if i == 0 && j == 0 {
				continue // "*"×"*" is the bias
			}
			dst = append(dst, uint32(cross(c, l)%uint64(buckets)))
		}
	}
	n := len(dst) - start
	if n == 0 {
		return dst, 0
	}
	return dst, 1 / math.Sqrt(float64(n))
}
