package vectors

import (
	"bytes"
	"context"
	"math/rand/v2"
	"reflect"
	"testing"
)

// testDelta is a delta of two changes over vectors of 8 dimensions.
func testDelta() *Delta {
	rnd := rand.New(rand.NewPCG(5, 6))
	vec := func() []byte {
		v := make([]float32, 8)
		for i := range v {
			v[i] = float32(rnd.NormFloat64())
		}
		return Encode(v)
	}
	return &Delta{Base: "aa01", Target: "bb02", Dims: 8, Changes: []Change{
		{DropNotes: map[int64]bool{3: true, 9: true}, IDs: []int64{40, 41}, Notes: []int64{9, 9}, Vecs: [][]byte{vec(), vec()}},
		{IDs: []int64{42}, Notes: []int64{12}, Vecs: [][]byte{vec()}},
	}}
}

// TestDeltaRoundTrip: a delta decodes to what was encoded.
func TestDeltaRoundTrip(t *testing.T) {
	d := testDelta()
	got, err := DecodeDelta(EncodeDelta(d))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, d) {
		t.Errorf("decoded %+v, want %+v", got, d)
	}
}

// TestDeltaDamaged: a torn, damaged or foreign delta is an error, never
// a part of one.
func TestDeltaDamaged(t *testing.T) {
	whole := EncodeDelta(testDelta())
	for cut := range len(whole) {
		if _, err := DecodeDelta(whole[:cut]); err == nil {
			t.Errorf("a delta cut to %d of %d bytes decoded", cut, len(whole))
		}
	}
	for i := range whole {
		b := bytes.Clone(whole)
		b[i] ^= 0x10
		if _, err := DecodeDelta(b); err == nil {
			t.Errorf("a delta with byte %d changed decoded", i)
		}
	}
	if _, err := DecodeDelta(append(bytes.Clone(whole), 0)); err == nil {
		t.Error("a delta with a byte after its checksum decoded")
	}
}

// TestDeltaApply: a pack's set with a delta applied holds what the set
// changed one change at a time holds, at the delta's target.
func TestDeltaApply(t *testing.T) {
	d := testDelta()
	pack := New(8, "e", "aa01", 40)
	var want []int64
	for i := range int64(40) {
		pack.Add(100+i, i%10, d.Changes[1].Vecs[0])
		if i%10 != 3 && i%10 != 9 {
			want = append(want, 100+i, i%10)
		}
	}
	want = append(want, 40, 9, 41, 9, 42, 12)
	got := d.Apply(pack)
	if got.Version() != "bb02" || got.FromPack() {
		t.Errorf("applied: version %q, from the pack %v", got.Version(), got.FromPack())
	}
	var live []int64
	i := 0
	for seg := got; seg != nil; seg = seg.more {
		for j, id := range seg.ids {
			if !got.isDead(i) {
				live = append(live, id, seg.notes[j])
			}
			i++
		}
	}
	if got.more == nil {
		t.Error("vectors added to a full set were copied with it, not put in a second segment")
	}
	if !reflect.DeepEqual(live, want) {
		t.Errorf("applied: chunks and notes %v, want %v", live, want)
	}
}

// TestSegments: a set of many vectors with a few added in a second
// segment finds, on every core, what one set of all of them finds, and
// packs as it does.
func TestSegments(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 8))
	vec := func() []float32 {
		v := make([]float32, 8)
		for i := range v {
			v[i] = float32(rnd.NormFloat64())
		}
		return v
	}
	const n, added = 20000, 300
	one := New(8, "e", "v", n+added)
	big := New(8, "e", "v", n)
	var ids, notes []int64
	var vecs [][]byte
	for i := range int64(n + added) {
		b := Encode(vec())
		one.Add(i, i/3, b)
		if i < n {
			big.Add(i, i/3, b)
		} else {
			ids, notes, vecs = append(ids, i), append(notes, i/3), append(vecs, b)
		}
	}
	two := big.With(ids, notes, vecs, "v")
	if two.more == nil || two.Len() != one.Len() {
		t.Fatalf("a few vectors added to a full set: second segment %v, %d vectors, want %d", two.more != nil, two.Len(), one.Len())
	}
	for range 5 {
		q := vec()
		got, _ := two.Nearest(context.Background(), q, 400, nil)
		want, _ := one.Nearest(context.Background(), q, 400, nil)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("two segments find %v, one %v", got[:5], want[:5])
		}
	}
	var a, b bytes.Buffer
	if err := WritePack(&a, two); err != nil {
		t.Fatal(err)
	}
	if err := WritePack(&b, one); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two segments pack otherwise than one set of the same vectors")
	}
}
