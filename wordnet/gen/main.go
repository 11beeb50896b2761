// Command gen makes wordnet's table of narrower nouns from the WordNet
// 3.0 database files (Debian's wordnet-base: data.noun, index.noun,
// noun.exc). See ../make.sh, which fetches them and runs it.
//
// For each noun of letters a-z, the table holds the one-word nouns of its
// first -senses senses and of the hyponyms (instance hyponyms included)
// of those senses down -levels levels; a noun with more than -hub of them
// gets none: the broad nouns ("activity", "thing") are hubs whose
// narrower terms say nothing in particular. Every noun has its line, with
// narrower nouns or without, so that a lookup never takes a noun ending
// in s ("gas") for a plural. A plural of noun.exc ("children") gets its
// singular's line.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

func main() {
	dict := flag.String("dict", "/usr/share/wordnet", "folder of the WordNet database files")
	out := flag.String("out", "narrower.tsv", "table to write")
	senses := flag.Int("senses", 2, "senses of a noun to follow, most frequent first")
	levels := flag.Int("levels", 2, "levels of hyponyms to follow")
	hub := flag.Int("hub", 60, "most narrower nouns a noun may have")
	flag.Parse()
	if err := run(*dict, *out, *senses, *levels, *hub); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// synset is one sense: its words and its hyponyms' offsets.
type synset struct {
	words    []string
	hyponyms []string
}

var word = regexp.MustCompile(`^[a-z]+$`)

func run(dict, out string, senses, levels, hub int) error {
	synsets, err := readData(filepath.Join(dict, "data.noun"))
	if err != nil {
		return err
	}
	index, err := readIndex(filepath.Join(dict, "index.noun"))
	if err != nil {
		return err
	}
	table := map[string][]string{}
	for noun, offsets := range index {
		if !word.MatchString(noun) {
			continue
		}
		narrower := map[string]bool{}
		for _, off := range offsets[:min(senses, len(offsets))] {
			frontier := []string{off}
			for range levels + 1 {
				var next []string
				for _, o := range frontier {
					s, ok := synsets[o]
					if !ok {
						return fmt.Errorf("index.noun: %q names synset %s, which data.noun lacks", noun, o)
					}
					for _, w := range s.words {
						if word.MatchString(w) {
							narrower[w] = true
						}
					}
					next = append(next, s.hyponyms...)
				}
				frontier = next
			}
		}
		delete(narrower, noun)
		table[noun] = nil // a noun, even with none: no plural to strip
		if len(narrower) <= hub {
			table[noun] = slices.Sorted(maps.Keys(narrower))
		}
	}
	if err := addPlurals(filepath.Join(dict, "noun.exc"), table); err != nil {
		return err
	}
	return write(out, table)
}

// readData reads data.noun's synsets by offset.
func readData(p string) (map[string]synset, error) {
	out := map[string]synset{}
	err := eachLine(p, func(n int, line string) error {
		if strings.HasPrefix(line, "  ") { // the licence
			return nil
		}
		f := strings.Fields(strings.SplitN(line, " | ", 2)[0])
		bad := fmt.Errorf("%s:%d: not a synset line", p, n)
		if len(f) < 4 {
			return bad
		}
		count, err := strconv.ParseInt(f[3], 16, 0)
		if err != nil || len(f) < 5+2*int(count) {
			return bad
		}
		var s synset
		i := 4
		for range count {
			w := strings.ToLower(f[i])
			if j := strings.IndexByte(w, '('); j > 0 { // an adjective's marker: "(p)"
				w = w[:j]
			}
			s.words = append(s.words, w)
			i += 2
		}
		pointers, err := strconv.Atoi(f[i])
		if err != nil || len(f) < i+1+4*pointers {
			return bad
		}
		i++
		for range pointers {
			symbol, offset, pos := f[i], f[i+1], f[i+2]
			if (symbol == "~" || symbol == "~i") && pos == "n" {
				s.hyponyms = append(s.hyponyms, offset)
			}
			i += 4
		}
		out[f[0]] = s
		return nil
	})
	return out, err
}

// readIndex reads index.noun: each noun's synsets, most frequent sense
// first.
func readIndex(p string) (map[string][]string, error) {
	out := map[string][]string{}
	err := eachLine(p, func(n int, line string) error {
		if strings.HasPrefix(line, "  ") {
			return nil
		}
		f := strings.Fields(line)
		count := 0
		if len(f) > 2 {
			count, _ = strconv.Atoi(f[2])
		}
		if count == 0 || len(f) < count+4 {
			return fmt.Errorf("%s:%d: not an index line", p, n)
		}
		out[f[0]] = f[len(f)-count:]
		return nil
	})
	return out, err
}

// addPlurals gives each irregular plural of noun.exc its singular's line.
func addPlurals(p string, table map[string][]string) error {
	return eachLine(p, func(n int, line string) error {
		f := strings.Fields(line)
		if len(f) < 2 {
			return fmt.Errorf("%s:%d: not an exception line", p, n)
		}
		singular, known := table[f[1]]
		if _, own := table[f[0]]; !own && known && word.MatchString(f[0]) {
			table[f[0]] = singular
		}
		return nil
	})
}

func eachLine(p string, fn func(n int, line string) error) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		if err := fn(n, sc.Text()); err != nil {
			return err
		}
	}
	return sc.Err()
}

// write writes the table sorted by noun, one line each: the noun, a tab,
// its narrower nouns separated by spaces.
func write(p string, table map[string][]string) error {
	f, err := os.Create(p)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	for _, noun := range slices.Sorted(maps.Keys(table)) {
		fmt.Fprintf(w, "%s\t%s\n", noun, strings.Join(table[noun], " "))
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
