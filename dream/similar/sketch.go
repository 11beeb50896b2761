package similar

import (
	"bytes"
	"encoding/gob"
	"io"
	"os"
	"slices"

	"github.com/vaultmem/vaultmem/vault"
)

// A sketch is what finding a memory's duplicates and contradictions needs
// of it: its distinct words and its polar sentences' terms. An incremental
// run compares the changed memories with every other through their
// sketches, kept between runs in the cache, and reads from disk only the
// changed memories and those a sketch says may pair with one: the same
// candidates a full run finds, without reading every memory.

// Sketch is one memory's sketch. Its fields are exported for the cache's
// encoding only.
type Sketch struct {
	Hash    string // of the content it was made from
	Kind    string
	TextKey string   // see TextKey
	Tokens  []string // distinct words (see Memory.tokens)
	Sents   []SentSketch
}

// SentSketch is a polar sentence: its polarity and topic terms.
type SentSketch struct {
	Polarity int
	Terms    []string
}

// SketchOf makes m's sketch, from m as read (its words, its text key) and
// as planned (its polar sentences).
func SketchOf(m *Memory) Sketch {
	sk := Sketch{Hash: m.Hash, Kind: string(m.Kind), TextKey: TextKey(m), Tokens: m.tokens()}
	for _, s := range sentences(m) {
		sk.Sents = append(sk.Sents, SentSketch{s.polarity, s.terms})
	}
	return sk
}

// ReadSketches returns the sketches cached in the file at abs (see
// WriteSketches), by path; none when the cache is missing or unreadable
// (the run then reads what it needs).
func ReadSketches(abs string) map[string]Sketch {
	out := map[string]Sketch{}
	b, err := os.ReadFile(abs)
	if err == nil && gob.NewDecoder(bytes.NewReader(b)).Decode(&out) != nil {
		out = map[string]Sketch{}
	}
	return out
}

// WriteSketches caches sks (by path) in the file at abs, whose folder
// exists, replacing it whole (see vault.WriteCacheFile).
func WriteSketches(abs string, sks map[string]Sketch) error {
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(sks); err != nil {
		return err
	}
	return vault.WriteCacheFile(abs, func(w io.Writer) error {
		_, err := w.Write(b.Bytes())
		return err
	})
}

// NearCandidates returns the pairs (by index into sks) of sketches of one
// kind alike enough to compare (see alikeCandidates), one of each pair in
// focus.
func NearCandidates(sks []Sketch, focus func(int) bool) [][2]int {
	byKind := map[string][]int{}
	for i, sk := range sks {
		byKind[sk.Kind] = append(byKind[sk.Kind], i)
	}
	var out [][2]int
	for _, ids := range byKind {
		sets := make([][]string, len(ids))
		for j, i := range ids {
			sets[j] = sks[i].Tokens
		}
		for _, c := range alikeCandidates(sets, func(j int) bool { return focus(ids[j]) }) {
			out = append(out, [2]int{ids[c[0]], ids[c[1]]})
		}
	}
	return out
}

// CommonTerms are the terms too many polar sentences share (more than
// maxTopicShare) to pair them: computed over every memory's sketch, so
// that an incremental run and a full one pair the same memories.
func CommonTerms(sks []Sketch) map[string]bool {
	n := map[string]int{}
	for _, sk := range sks {
		if sk.Kind != "feedback" && sk.Kind != "user" {
			continue
		}
		for _, s := range sk.Sents {
			for _, t := range s.Terms {
				n[t]++
			}
		}
	}
	out := map[string]bool{}
	for t, c := range n {
		if c > maxTopicShare {
			out[t] = true
		}
	}
	return out
}

// PolarCandidates returns the pairs (by index into sks) of sketches of
// feedback or user memories, one of each pair in focus, with a sentence
// each of opposite polarity about the same terms: an inverted index of
// the polar sentences' terms (but common, see CommonTerms) counts the
// terms each pair of sentences shares, so that no pair of memories is
// compared whose sentences share too few.
func PolarCandidates(sks []Sketch, focus func(int) bool, common map[string]bool) [][2]int {
	type ref struct{ m, s int }
	pos, neg := map[string][]ref{}, map[string][]ref{}
	for i, sk := range sks {
		if sk.Kind != "feedback" && sk.Kind != "user" {
			continue
		}
		for j, s := range sk.Sents {
			list := pos
			if s.Polarity < 0 {
				list = neg
			}
			for _, t := range s.Terms {
				list[t] = append(list[t], ref{i, j})
			}
		}
	}
	shared := map[[2]ref]int{}
	for t, ps := range pos {
		ns := neg[t]
		if len(ns) == 0 || common[t] {
			continue
		}
		for _, x := range ps {
			for _, y := range ns {
				if x.m != y.m && (focus(x.m) || focus(y.m)) {
					shared[[2]ref{x, y}]++
				}
			}
		}
	}
	seen := map[[2]int]bool{}
	var out [][2]int
	for xy, n := range shared {
		x, y := sks[xy[0].m].Sents[xy[0].s], sks[xy[1].m].Sents[xy[1].s]
		if n < min(2, len(x.Terms), len(y.Terms)) || 2*n <= len(x.Terms)+len(y.Terms)-n {
			continue
		}
		k := [2]int{min(xy[0].m, xy[1].m), max(xy[0].m, xy[1].m)}
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	slices.SortFunc(out, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return a[1] - b[1]
	})
	return out
}
