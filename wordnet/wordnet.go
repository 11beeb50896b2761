// Package wordnet gives the narrower nouns of an English noun, from
// WordNet 3.0: "art" gives "painting", "drawing", "sculpture" and more;
// "store" gives "boutique" and "bookshop". Recall looks for them when a
// question's words are broader than the words that answer it ("What kind
// of art does Ann make?" against "I painted a sunset").
//
// The table (narrower.tsv, made by make.sh from Debian's wordnet-base)
// holds, for each noun, the one-word nouns of its two most frequent
// senses and of their hyponyms two levels down; broad nouns with more
// than 60 of them ("activity", "child") have none, as their narrower
// terms say nothing in particular. It carries WordNet's licence
// (LICENSE-WordNet), as every copy must.
package wordnet

import (
	_ "embed"
	"strings"
)

//go:generate sh make.sh

//go:embed narrower.tsv
var table string

// Narrower returns the narrower nouns of noun, a lower-cased word, or
// nil when the table has none. A plural finds its singular: irregular
// ones ("mice") through WordNet's exceptions, in the table, and regular
// ones ("cities", "boxes", "banks") by WordNet's rules for nouns.
func Narrower(noun string) []string {
	line, known := find(noun)
	if line != "" {
		return fields(line)
	}
	// Not a noun, or one without narrower nouns that may be a plural too
	// ("banks"; but "gas" is no plural of "ga": the singular must have
	// three letters at least).
	for _, r := range pluralRules {
		if base, ok := strings.CutSuffix(noun, r.suffix); ok && (!known || len(base+r.singular) >= 3) && base != "" {
			if line, ok := find(base + r.singular); ok {
				return fields(line)
			}
		}
	}
	return nil
}

// fields is strings.Fields, but nil for none.
func fields(line string) []string {
	if line == "" {
		return nil
	}
	return strings.Fields(line)
}

// pluralRules are WordNet's detachment rules for nouns (morphy), in its
// order.
var pluralRules = []struct{ suffix, singular string }{
	{"s", ""}, {"ses", "s"}, {"xes", "x"}, {"zes", "z"}, {"ches", "ch"}, {"shes", "sh"}, {"men", "man"}, {"ies", "y"},
}

// find returns the narrower nouns of noun as its line of the table
// gives them, by binary search over the table's sorted lines.
func find(noun string) (string, bool) {
	if noun == "" || strings.ContainsAny(noun, "\t\n") {
		return "", false
	}
	lo, hi := 0, len(table) // the line starting at or after lo, before hi
	for lo < hi {
		mid := lo + (hi-lo)/2
		start := strings.LastIndexByte(table[:mid], '\n') + 1
		end := start + strings.IndexByte(table[start:], '\n')
		key, rest, entry := strings.Cut(table[start:end], "\t") // the notice's lines have no tab
		switch {
		case key == noun && entry:
			return rest, true
		case key == noun:
			return "", false
		case key < noun:
			lo = end + 1
		default:
			hi = start
		}
	}
	return "", false
}
