package vectors

import (
	"context"
	"slices"
	"testing"
)

// fixed embeds each text as the vector it is given for it: a situation
// placed exactly where a test wants it.
type fixed map[string][]float32

func (f fixed) ID() string      { return "fixed" }
func (f fixed) Dimensions() int { return 2 }
func (f fixed) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = f[t]
	}
	return out, nil
}

// TestNearest: the lessons found by meaning are the most similar, at
// most Top, above the floor (minMeaning) and within meaningShare of the
// best; a blank text or a vector of another length finds none.
func TestNearest(t *testing.T) {
	p := NewProjector(2)
	vec := func(x, y float32) Vec {
		v := []float32{x, y}
		Normalize(v)
		c := Vec{V: v, Sig: make([]uint64, SigWords)}
		p.Sign(v, c.Sig)
		return c
	}
	// Lessons at cosines 1, 0.8, 0.6 and 0.1 from (1, 0).
	set := NewSet(fixed{"east": {1, 0}, "north": {0, 1}, "short": {1}}, p,
		[]Vec{vec(0.6, 0.8), vec(1, 0), vec(0.8, 0.6), vec(0.1, 0.995)})
	for _, tc := range []struct {
		text string
		want []int32
	}{
		{"east", []int32{1, 2}},  // 1 and 0.8; 0.6 is past Top
		{"north", []int32{3, 0}}, // 0.995 and 0.8 (within 0.8 of the best)
		{"   ", nil},
		{"short", nil},
	} {
		top, n, err := set.Nearest(context.Background(), tc.text, &Scratch{})
		if err != nil {
			t.Fatal(err)
		}
		var got []int32
		for _, h := range top[:n] {
			got = append(got, h.Doc)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q: %v, want %v", tc.text, got, tc.want)
		}
	}
	var none *Set
	if _, n, err := none.Nearest(context.Background(), "east", &Scratch{}); n != 0 || err != nil {
		t.Errorf("no vector side: %d found, %v", n, err)
	}
	// One lesson far below the best is cut by meaningShare.
	cut := NewSet(fixed{"east": {1, 0}}, p, []Vec{vec(1, 0), vec(0.3, 0.954)})
	if _, n, _ := cut.Nearest(context.Background(), "east", &Scratch{}); n != 1 {
		t.Errorf("share: %d found, want 1 (0.3 is under 0.8 of 1)", n)
	}
}
