package vectors

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// TestDotCodes: every length (the eight- and 32-lane steps and the rest)
// gives the exact sum on small integers, whatever the order of the
// additions, and within float rounding of dotCodesGo on unit vectors.
func TestDotCodes(t *testing.T) {
	t.Logf("AVX2 and FMA: %v", useAVX2)
	rnd := rand.New(rand.NewPCG(3, 4))
	for n := range 300 {
		a, codes := make([]float32, n), make([]int8, n)
		var want float32
		for i := range n {
			a[i], codes[i] = float32(i%7-3), int8(rnd.IntN(255)-127)
			want += a[i] * float32(codes[i])
		}
		if got := dotCodes(a, codes); got != want {
			t.Errorf("dotCodes of length %d = %v, want %v", n, got, want)
		}
		var norm float64
		for i := range n {
			a[i] = float32(rnd.NormFloat64())
			norm += float64(a[i]) * float64(a[i])
		}
		for i := range n {
			a[i] /= float32(math.Sqrt(norm))
		}
		got, want := dotCodes(a, codes), dotCodesGo(a, codes)
		if math.Abs(float64(got-want)) > 1e-4*max(1, math.Abs(float64(want))) {
			t.Errorf("length %d: dotCodes %v, dotCodesGo %v", n, got, want)
		}
	}
}

// TestQuantize: a quantized unit vector gives back every component
// within half a step, its cosine with another unit vector within 1 %,
// and a zero or broken vector gives scale 0, never NaN.
func TestQuantize(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	unit := func(n int) []float32 {
		v := make([]float32, n)
		var sum float64
		for i := range v {
			v[i] = float32(rnd.NormFloat64())
			sum += float64(v[i] * v[i])
		}
		for i := range v {
			v[i] /= float32(math.Sqrt(sum))
		}
		return v
	}
	for range 200 {
		v, q := unit(128), unit(128)
		codes := make([]int8, len(v))
		scale := quantize(v, codes)
		var exact float32
		for i, x := range v {
			if d := math.Abs(float64(x - scale*float32(codes[i]))); d > float64(scale)/2+1e-7 {
				t.Fatalf("component %d: %v comes back as %v", i, x, scale*float32(codes[i]))
			}
			exact += x * q[i]
		}
		if got := scale * dotCodes(q, codes); math.Abs(float64(got-exact)) > 0.01 {
			t.Fatalf("cosine %v quantized, %v exact", got, exact)
		}
	}
	for _, v := range [][]float32{{0, 0, 0}, {float32(math.NaN()), 1, 0}, {float32(math.Inf(1)), 0, 0}} {
		codes := []int8{5, 5, 5}
		if scale := quantize(v, codes); scale != 0 || codes[0]|codes[1]|codes[2] != 0 {
			t.Errorf("quantize(%v) = %v, %v; want 0 and zero codes", v, scale, codes)
		}
	}
}

// TestVectorSetDelta: a set changed by without and with (dead vectors
// skipped, new ones appended, compacted past an eighth dead) finds what a
// set read afresh from the same vectors finds, and packs to it.
func TestVectorSetDelta(t *testing.T) {
	const dims = 16
	r := rand.New(rand.NewPCG(1, 2))
	vec := func() []float32 {
		v := make([]float32, dims)
		for i := range v {
			v[i] = float32(r.NormFloat64())
		}
		return v
	}
	type entry struct {
		id, note int64
		v        []float32
	}
	var live []entry
	fresh := func() *Set {
		vs := &Set{dims: dims, embedID: "e", version: "v"}
		var ids, notes []int64
		var vecs [][]byte
		for _, e := range live {
			ids, notes, vecs = append(ids, e.id), append(notes, e.note), append(vecs, Encode(e.v))
		}
		return vs.With(ids, notes, vecs, "v")
	}
	add := func(vs *Set, note int64, n int) *Set {
		var ids, notes []int64
		var vecs [][]byte
		for range n {
			e := entry{int64(1000*note) + int64(len(live)), note, vec()}
			live = append(live, e)
			ids, notes, vecs = append(ids, e.id), append(notes, e.note), append(vecs, Encode(e.v))
		}
		return vs.With(ids, notes, vecs, "v")
	}
	drop := func(vs *Set, notes ...int64) *Set {
		gone := map[int64]bool{}
		for _, n := range notes {
			gone[n] = true
		}
		live = slices.DeleteFunc(live, func(e entry) bool { return gone[e.note] })
		return vs.Without(gone, "v")
	}
	vs := &Set{dims: dims, embedID: "e", version: "v"}
	for note := range int64(40) {
		vs = add(vs, note, 3)
	}
	old, probe := vs, vec()
	oldWant, _ := old.Nearest(context.Background(), probe, 5, nil)
	check := func(step string) {
		t.Helper()
		want := fresh()
		for range 5 {
			q := vec()
			got, _ := vs.Nearest(context.Background(), q, 7, nil)
			exp, _ := want.Nearest(context.Background(), q, 7, nil)
			if !reflect.DeepEqual(got, exp) {
				t.Fatalf("%s: nearest %v, a fresh set finds %v", step, got, exp)
			}
		}
		var buf bytes.Buffer
		if err := WritePack(&buf, vs); err != nil {
			t.Fatal(err)
		}
		packed, err := DecodePack(buf.Bytes(), "v")
		if err != nil || !reflect.DeepEqual(packed.ids, want.ids) || !reflect.DeepEqual(packed.codes, want.codes) {
			t.Fatalf("%s: the pack holds %v (%v), want %v", step, packed, err, want.ids)
		}
	}
	vs = drop(vs, 3)
	check("one note dropped")
	if vs.ndead != 3 {
		t.Errorf("dead %d, want 3 (not compacted yet)", vs.ndead)
	}
	vs = add(vs, 3, 4) // the note again, rewritten
	vs = add(vs, 77, 2)
	check("notes added")
	vs = drop(vs, 5, 6, 7)
	check("more dropped")
	vs = drop(vs, 8, 9) // 18 of 126 dead: over an eighth, compacted
	if vs.ndead != 0 {
		t.Errorf("dead %d after passing an eighth, want a compacted set", vs.ndead)
	}
	check("compacted")
	vs = add(vs, 90, 5)
	check("added after compaction")
	// The first set, which searches may still hold, is as it was.
	if again, _ := old.Nearest(context.Background(), probe, 5, nil); !reflect.DeepEqual(again, oldWant) || old.Len() != 120 || old.ndead != 0 {
		t.Errorf("the first set changed: %d vectors, %d dead, nearest %v, was %v", old.Len(), old.ndead, again, oldWant)
	}
}
