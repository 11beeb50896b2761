package wordnet

import (
	"bufio"
	"slices"
	"strings"
	"testing"
)

func TestNarrower(t *testing.T) {
	for _, c := range []struct {
		noun     string
		has      []string // among its narrower nouns
		hasNot   []string
		wantNone bool
	}{
		{noun: "art", has: []string{"painting", "drawing", "sculpture"}},
		{noun: "store", has: []string{"boutique", "bookshop"}, hasNot: []string{"store"}},
		{noun: "stores", has: []string{"boutique"}},       // regular plural
		{noun: "sisters", has: []string{"stepsister"}},    // -s
		{noun: "boxes", has: []string{"crate", "coffin"}}, // -xes
		{noun: "churches", has: []string{"cathedral"}},    // -ches
		{noun: "kids", has: []string{"child"}},
		{noun: "mice", has: []string{"fieldmouse"}}, // noun.exc
		{noun: "cities", wantNone: true},            // a hub: its plural too
		{noun: "activity", wantNone: true},          // a hub
		{noun: "activities", wantNone: true},        //  and its plural
		{noun: "quickly", wantNone: true},           // not a noun
		{noun: "", wantNone: true},
		{noun: "art\tpainting", wantNone: true},
		{noun: "# Narrower nouns from WordNet 3.0 (Princeton University), made by make.sh.", wantNone: true}, // the notice is no entry
		{noun: "gas", wantNone: true},                                                                        // a noun (a hub), not the plural of "ga"
		{noun: "banks", has: []string{"riverbank"}},                                                          // a noun of its own with none, and a plural
		{noun: "zzzz", wantNone: true},
		{noun: "a", has: []string{"angstrom"}},  // the first entry
		{noun: "zyrian", has: []string{"komi"}}, // the last
	} {
		got := Narrower(c.noun)
		if c.wantNone {
			if got != nil {
				t.Errorf("Narrower(%q) = %v, want none", c.noun, got)
			}
			continue
		}
		for _, w := range c.has {
			if !slices.Contains(got, w) {
				t.Errorf("Narrower(%q) lacks %q: %v", c.noun, w, got)
			}
		}
		for _, w := range c.hasNot {
			if slices.Contains(got, w) {
				t.Errorf("Narrower(%q) holds %q", c.noun, w)
			}
		}
	}
}

// TestTableFindsEveryLine checks the table as make.sh writes it: the
// licence notice first, then lines sorted by noun, each of which the
// binary search finds.
func TestTableFindsEveryLine(t *testing.T) {
	if !strings.Contains(table, "WordNet 3.0 Copyright 2006 by Princeton University") {
		t.Fatal("the table lacks WordNet's licence notice")
	}
	sc := bufio.NewScanner(strings.NewReader(table))
	sc.Buffer(nil, 1<<20)
	prev, n := "", 0
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			if n > 0 {
				t.Fatalf("a comment after the entries: %q", line)
			}
			continue
		}
		noun, rest, ok := strings.Cut(line, "\t")
		if !ok || noun <= prev {
			t.Fatalf("line %q after %q: want noun, tab, nouns, sorted", line, prev)
		}
		if got, ok := find(noun); !ok || got != rest {
			t.Fatalf("find(%q) = %q, %v", noun, got, ok)
		}
		prev = noun
		n++
	}
	if n < 10000 {
		t.Fatalf("%d entries: the table is cut short", n)
	}
}

func BenchmarkNarrower(b *testing.B) {
	for b.Loop() {
		Narrower("cities")
	}
}

// FuzzNarrower: any word, a noun or not, finds a line of the table or
// nothing, never a piece of one.
func FuzzNarrower(f *testing.F) {
	for _, s := range []string{"art", "cities", "", "#", "a", "zyrian", "zz", "\n", "art\t", "書店"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Narrower(s)
		for _, w := range got {
			if w == "" || strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") != "" {
				t.Fatalf("Narrower(%q) holds %q", s, w)
			}
		}
		if line, ok := find(s); ok && !strings.Contains(table, "\n"+s+"\t"+line+"\n") {
			t.Fatalf("find(%q) = %q, not a line of the table", s, line)
		}
	})
}
