package embed_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/vaultmem/vaultmem/embed"
)

// musicCorpus has two topics. "guitar" and "violin" never occur in one
// document, but both occur with "melody", "song" and "strings"; nothing
// about music occurs with "tax".
var musicCorpus = []string{
	"guitar melody song practice",
	"guitar strings song evening",
	"guitar melody strings concert",
	"violin melody song orchestra",
	"violin strings concert orchestra",
	"violin bow orchestra",
	"tax return accountant deadline",
	"tax refund accountant form",
	"tax form deadline refund",
	"accountant return form",
}

func fit(t *testing.T, docs []string, opts embed.LSAOptions) *embed.LSA {
	t.Helper()
	m, err := embed.FitLSA(context.Background(), docs, opts)
	if err != nil {
		t.Fatalf("FitLSA: %v", err)
	}
	return m
}

func embedOne(t *testing.T, m *embed.LSA, text string) []float32 {
	t.Helper()
	vs, err := m.Embed(context.Background(), []string{text})
	if err != nil {
		t.Fatalf("Embed: %v", err)
	}
	return vs[0]
}

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

// TestLSARelatesWithoutSharedWords is why LSA exists: a query and a
// document with no word in common are close when their words occur in
// the same contexts elsewhere.
func TestLSARelatesWithoutSharedWords(t *testing.T) {
	m := fit(t, musicCorpus, embed.LSAOptions{Dimensions: 2})
	query := embedOne(t, m, "Which guitar should I buy?")
	related := embedOne(t, m, "violin bow orchestra")
	unrelated := embedOne(t, m, "accountant return form")
	rel, unrel := dot(query, related), dot(query, unrelated)
	t.Logf("cos(query, related) = %.3f, cos(query, unrelated) = %.3f", rel, unrel)
	if rel < 0.5 || rel <= unrel+0.3 {
		t.Errorf("cos(query, related) = %.3f, cos(query, unrelated) = %.3f: want the related document clearly closer", rel, unrel)
	}
}

func TestLSAVectors(t *testing.T) {
	m := fit(t, musicCorpus, embed.LSAOptions{Dimensions: 2})
	if got := m.Dimensions(); got != 2 {
		t.Fatalf("Dimensions() = %d, want 2", got)
	}
	texts := []string{"guitar song", "", "the and of", "zebra quokka", "Guitars! Songs!"}
	vs, err := m.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != len(texts) {
		t.Fatalf("got %d vectors for %d texts", len(vs), len(texts))
	}
	for i, v := range vs {
		if len(v) != m.Dimensions() {
			t.Fatalf("vector %d has %d dimensions, want %d", i, len(v), m.Dimensions())
		}
		norm := math.Sqrt(dot(v, v))
		for _, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				t.Fatalf("vector %d of %q has %v", i, texts[i], x)
			}
		}
		known := i == 0 || i == 4
		if known && math.Abs(norm-1) > 1e-5 || !known && norm != 0 {
			t.Errorf("|vector of %q| = %g, want %v", texts[i], norm, map[bool]int{true: 1, false: 0}[known])
		}
	}
	// Inflections and case meet: "Guitars! Songs!" is "guitar song".
	if d := dot(vs[0], vs[4]); d < 1-1e-5 {
		t.Errorf("cos(%q, %q) = %g, want 1", texts[0], texts[4], d)
	}
	if vs, err := m.Embed(context.Background(), nil); err != nil || len(vs) != 0 {
		t.Errorf("Embed(nil) = %v, %v; want no vectors and no error", vs, err)
	}
}

func TestLSASmallCorpora(t *testing.T) {
	tests := []struct {
		name     string
		docs     []string
		wantDims int
	}{
		{"no documents", nil, 1},
		{"empty documents", []string{"", "", ""}, 1},
		{"only stop words", []string{"the and of", "it is what it is"}, 1},
		{"no term in two documents", []string{"alpha beta", "gamma delta"}, 1},
		{"fewer documents than dimensions", []string{"red apple", "red cherry", "green apple", "green pear"}, 3}, // red, green, apple
		{"one document twice", []string{"red apple", "red apple"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := fit(t, tt.docs, embed.LSAOptions{})
			if got := m.Dimensions(); got != tt.wantDims {
				t.Errorf("Dimensions() = %d, want %d", got, tt.wantDims)
			}
			vs, err := m.Embed(context.Background(), append([]string{"red apple", ""}, tt.docs...))
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range vs {
				if len(v) != m.Dimensions() {
					t.Fatalf("vector of %d dimensions, want %d", len(v), m.Dimensions())
				}
				for _, x := range v {
					if math.IsNaN(float64(x)) {
						t.Fatal("NaN in a vector")
					}
				}
			}
			b, _ := m.MarshalBinary()
			if _, err := embed.UnmarshalLSA(b); err != nil {
				t.Errorf("round trip: %v", err)
			}
		})
	}
}

func TestLSADeterministic(t *testing.T) {
	docs := syntheticCorpus(1000, 5)
	a, _ := fit(t, docs, embed.LSAOptions{Dimensions: 64}).MarshalBinary()

	// The same on one CPU: work is split across CPUs, never the sums.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	b, _ := fit(t, docs, embed.LSAOptions{Dimensions: 64}).MarshalBinary()
	if !bytes.Equal(a, b) {
		t.Error("two fits of the same documents differ")
	}
	c, _ := fit(t, docs, embed.LSAOptions{Dimensions: 64, Seed: 2}).MarshalBinary()
	if bytes.Equal(a, c) {
		t.Error("fits with different seeds are identical")
	}
}

func TestLSAID(t *testing.T) {
	m := fit(t, musicCorpus, embed.LSAOptions{Dimensions: 2})
	if !regexp.MustCompile(`^lsa-v2-2-[0-9a-f]{12}$`).MatchString(m.ID()) {
		t.Errorf("ID() = %q, want lsa-v2-2-<12 hex digits>", m.ID())
	}
	if again := fit(t, musicCorpus, embed.LSAOptions{Dimensions: 2}); again.ID() != m.ID() {
		t.Errorf("refit on the same documents: ID %q, want %q", again.ID(), m.ID())
	}
	if other := fit(t, append(musicCorpus, "guitar tax"), embed.LSAOptions{Dimensions: 2}); other.ID() == m.ID() {
		t.Errorf("refit on other documents has the same ID %q", m.ID())
	}
}

func TestLSARoundTrip(t *testing.T) {
	m := fit(t, syntheticCorpus(500, 3), embed.LSAOptions{Dimensions: 16})
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	got, err := embed.UnmarshalLSA(b)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID() != m.ID() || got.Dimensions() != m.Dimensions() {
		t.Errorf("after a round trip: %s (%d), want %s (%d)", got.ID(), got.Dimensions(), m.ID(), m.Dimensions())
	}
	texts := syntheticCorpus(20, 4)
	want, _ := m.Embed(context.Background(), texts)
	have, _ := got.Embed(context.Background(), texts)
	for i := range want {
		for c := range want[i] {
			if want[i][c] != have[i][c] {
				t.Fatalf("text %d: vectors differ after a round trip", i)
			}
		}
	}
	if b2, _ := got.MarshalBinary(); !bytes.Equal(b, b2) {
		t.Error("re-encoding a decoded model gives other bytes")
	}
}

func TestUnmarshalLSARejects(t *testing.T) {
	m := fit(t, musicCorpus, embed.LSAOptions{Dimensions: 2})
	good, _ := m.MarshalBinary()
	for n := range len(good) {
		if _, err := embed.UnmarshalLSA(good[:n]); !errors.Is(err, embed.ErrBadModel) {
			t.Fatalf("UnmarshalLSA of the first %d of %d bytes: err = %v, want ErrBadModel", n, len(good), err)
		}
	}
	for i := range good {
		bad := bytes.Clone(good)
		bad[i] ^= 0x10
		if _, err := embed.UnmarshalLSA(bad); !errors.Is(err, embed.ErrBadModel) {
			t.Fatalf("UnmarshalLSA with byte %d flipped: err = %v, want ErrBadModel", i, err)
		}
	}
	if _, err := embed.UnmarshalLSA(append(bytes.Clone(good), 0)); !errors.Is(err, embed.ErrBadModel) {
		t.Errorf("UnmarshalLSA with a trailing byte: err = %v, want ErrBadModel", err)
	}
	// A last number (of the vectors) that is not finite, under a valid
	// checksum.
	castagnoli := crc32.MakeTable(crc32.Castagnoli)
	for _, x := range []float32{float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN())} {
		bad := bytes.Clone(good[:len(good)-4])
		binary.LittleEndian.PutUint32(bad[len(bad)-4:], math.Float32bits(x))
		bad = binary.LittleEndian.AppendUint32(bad, crc32.Checksum(bad, castagnoli))
		if _, err := embed.UnmarshalLSA(bad); !errors.Is(err, embed.ErrBadModel) || !strings.Contains(err.Error(), "non-finite") {
			t.Errorf("UnmarshalLSA with %v in the vectors: err = %v, want ErrBadModel, non-finite", x, err)
		}
	}
}

func TestLSADrift(t *testing.T) {
	m := fit(t, musicCorpus, embed.LSAOptions{Dimensions: 2})
	tests := []struct {
		texts []string
		want  float64
	}{
		{nil, 0},
		{[]string{"the and of"}, 0},
		{[]string{"guitar songs"}, 0},
		{[]string{"guitar zebra"}, 0.5},
		{[]string{"zebra", "quokka wombat"}, 1},
		{[]string{"Guitars", "violin", "tax", "zebra"}, 0.25},
	}
	for _, tt := range tests {
		if got := m.Drift(tt.texts); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("Drift(%q) = %g, want %g", tt.texts, got, tt.want)
		}
	}
}

func TestLSAConcurrent(t *testing.T) {
	m := fit(t, syntheticCorpus(300, 6), embed.LSAOptions{Dimensions: 8})
	texts := syntheticCorpus(200, 7)
	want, err := m.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for range 3 {
				got, err := m.Embed(context.Background(), texts[g:])
				if err != nil {
					t.Error(err)
					return
				}
				for i := range got {
					for c := range got[i] {
						if got[i][c] != want[g+i][c] {
							t.Errorf("goroutine %d: text %d differs", g, g+i)
							return
						}
					}
				}
				_ = m.ID()
				_ = m.Drift(texts[:5])
			}
		})
	}
	wg.Wait()
}

func TestLSAContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := embed.FitLSA(ctx, musicCorpus, embed.LSAOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("FitLSA with a cancelled context: err = %v, want context.Canceled", err)
	}
	m := fit(t, musicCorpus, embed.LSAOptions{Dimensions: 2})
	if _, err := m.Embed(ctx, musicCorpus); !errors.Is(err, context.Canceled) {
		t.Errorf("Embed with a cancelled context: err = %v, want context.Canceled", err)
	}
}

func TestLSAOptionsInvalid(t *testing.T) {
	for _, opts := range []embed.LSAOptions{{Dimensions: -1}, {MaxVocab: -1}, {MinDF: -1}, {Dimensions: 5000}} {
		if _, err := embed.FitLSA(context.Background(), musicCorpus, opts); err == nil {
			t.Errorf("FitLSA with %+v: no error", opts)
		}
	}
}

func TestLSAMaxVocab(t *testing.T) {
	m := fit(t, musicCorpus, embed.LSAOptions{MaxVocab: 3})
	// Nine terms are in three documents each; ties go by the term, so the
	// three kept are accountant, form and guitar.
	if d := m.Drift([]string{"accountant form guitar melody tax"}); math.Abs(d-0.4) > 1e-9 {
		t.Errorf("Drift = %g, want 0.4 (3 of 5 terms known)", d)
	}
}

// fitEmbed fits a model on docs with FitLSACorpus, each document added
// in order under a key that sorts as its index, and returns the model
// and the documents' vectors, by index.
func fitEmbed(t *testing.T, docs []string, opts embed.LSAOptions) (*embed.LSA, [][]float32) {
	t.Helper()
	c := embed.NewCorpus()
	for i, d := range docs {
		c.Add(fmt.Sprintf("%08d", i), d)
	}
	var vecs [][]float32
	m, err := embed.FitLSACorpus(context.Background(), c, opts, func(_ []string, batch [][]float32) {
		for _, v := range batch {
			vecs = append(vecs, slices.Clone(v))
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return m, vecs
}

// TestFitLSACorpusVectors checks that the vectors FitLSACorpus gives its
// documents are those Embed gives them, and the model is FitLSA's, on
// corpora with repeated words, words too rare to keep, empty and
// stop-word-only documents and CJK text.
func TestFitLSACorpusVectors(t *testing.T) {
	corpora := map[string][]string{
		"music":     musicCorpus,
		"synthetic": syntheticCorpus(2100, 3), // folded in in three batches
		"odd": {
			"", "the and of", "guitar guitar guitar melody", "melody song song",
			"写代码 写代码 测试", "测试 写代码", "unique-word guitar", "song melody guitar",
		},
	}
	for name, docs := range corpora {
		t.Run(name, func(t *testing.T) {
			m, vecs := fitEmbed(t, docs, embed.LSAOptions{Dimensions: 16})
			a, _ := m.MarshalBinary()
			b, _ := fit(t, docs, embed.LSAOptions{Dimensions: 16}).MarshalBinary()
			if !bytes.Equal(a, b) {
				t.Error("FitLSACorpus's model differs from FitLSA's")
			}
			want, err := m.Embed(context.Background(), docs)
			if err != nil {
				t.Fatal(err)
			}
			if len(vecs) != len(docs) {
				t.Fatalf("%d vectors for %d documents", len(vecs), len(docs))
			}
			for i := range docs {
				for c := range want[i] {
					if d := math.Abs(float64(vecs[i][c] - want[i][c])); d > 1e-5 {
						t.Fatalf("document %d (%q), dimension %d: %g, Embed gives %g", i, docs[i], c, vecs[i][c], want[i][c])
					}
				}
			}
		})
	}
}

// TestFitLSACorpus: documents counted one at a time, from several
// goroutines and in any order, give the model FitLSA fits on their texts
// in key order, byte for byte, and the vectors they get when added one
// after another in key order.
func TestFitLSACorpus(t *testing.T) {
	docs := syntheticCorpus(2100, 3) // folded in in three batches
	keys := make([]string, len(docs))
	for i := range docs {
		keys[i] = fmt.Sprintf("note %04d\x00%d", i/4, i%4)
	}
	order := rand.New(rand.NewPCG(5, 6)).Perm(len(docs))
	c := embed.NewCorpus()
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for _, i := range order[w*len(docs)/4 : (w+1)*len(docs)/4] {
				c.Add(keys[i], docs[i])
			}
		})
	}
	wg.Wait()
	if c.Len() != len(docs) {
		t.Fatalf("Len %d, want %d", c.Len(), len(docs))
	}
	// The whole corpus, and a sample of a sixth of it.
	for _, opts := range []embed.LSAOptions{{Dimensions: 16}, {Dimensions: 16, Sample: 350}} {
		var gotKeys []string
		var vecs [][]float32
		m, err := embed.FitLSACorpus(context.Background(), c, opts, func(keys []string, batch [][]float32) {
			gotKeys = append(gotKeys, keys...)
			for _, v := range batch {
				vecs = append(vecs, slices.Clone(v))
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		a, _ := m.MarshalBinary()
		b, _ := fit(t, docs, opts).MarshalBinary() // docs are in key order
		if !bytes.Equal(a, b) {
			t.Errorf("sample %d: FitLSACorpus's model differs from FitLSA's on the texts in key order", opts.Sample)
		}
		if !slices.Equal(gotKeys, keys) {
			t.Fatalf("keys not in order: %q...", gotKeys[:min(5, len(gotKeys))])
		}
		if _, wantVecs := fitEmbed(t, docs, opts); !reflect.DeepEqual(vecs, wantVecs) {
			t.Errorf("sample %d: the vectors differ from those of the documents added in key order", opts.Sample)
		}
		c = embed.NewCorpus() // the fit empties it: count again for the next
		for i := range docs {
			c.Add(keys[i], docs[i])
		}
	}
}

// TestFitLSASample: fitted on a sample of a fifth of the documents, the
// model still tells their topics apart (each document's nearest other
// document is of its topic), as the model fitted on all of them does;
// and the sample changes the model.
func TestFitLSASample(t *testing.T) {
	topics := [][]string{
		strings.Fields("guitar violin melody song orchestra concert chord rhythm tempo piano"),
		strings.Fields("invoice ledger tax payment audit budget refund receipt account balance"),
		strings.Fields("garden tomato compost seed soil harvest weed water sunlight shovel"),
		strings.Fields("compiler linker binary module package build flag test debug cache"),
	}
	r := rand.New(rand.NewPCG(8, 9))
	docs := make([]string, 400)
	for i := range docs {
		words := topics[i%len(topics)]
		var b strings.Builder
		for range 8 + r.IntN(8) {
			b.WriteString(words[r.IntN(len(words))] + " ")
		}
		docs[i] = b.String()
	}
	var models [][]byte
	for _, sample := range []int{0, 80} {
		m, vecs := fitEmbed(t, docs, embed.LSAOptions{Dimensions: 8, Sample: sample})
		b, _ := m.MarshalBinary()
		models = append(models, b)
		right := 0
		for i := range docs {
			best, bestSim := -1, -2.0
			for j := range docs {
				if j != i {
					if s := cosine(vecs[i], vecs[j]); s > bestSim {
						best, bestSim = j, s
					}
				}
			}
			if best%len(topics) == i%len(topics) {
				right++
			}
		}
		if right < len(docs)*95/100 {
			t.Errorf("sample %d: %d of %d documents nearest one of their topic", sample, right, len(docs))
		}
	}
	if bytes.Equal(models[0], models[1]) {
		t.Error("the sample did not change the model: it was not used")
	}
}

func cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}
