package embed

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// randomSparse returns an n × m sparse matrix whose rows mix two of
// topics latent topics, plus a few random entries (the noise that makes
// the spectrum's tail), and its dense copy. With strength > 0, a topic is
// a fixed vector over 30 columns, scaled by strength and a random weight,
// so that the leading singular values stand out; with strength 0, it is
// 8 random entries among its 30 columns, like words of a topic, and the
// spectrum falls slowly.
func randomSparse(n, m, topics int, strength float64, seed uint64) (*csr, *mat.Dense) {
	r := rand.New(rand.NewPCG(seed, 1))
	dense := mat.NewDense(n, m, nil)
	a := &csr{rows: n, cols: m, ptr: make([]int, n+1)}
	for i := range n {
		row := map[int]float32{}
		for range 2 {
			topic := r.IntN(topics)
			if strength > 0 {
				w := strength * r.Float64()
				for c := range 30 {
					row[(topic*37+c)%m] += float32(w * (1 + float64((c*7+topic)%5)))
				}
				continue
			}
			for range 8 {
				row[(topic*37+r.IntN(30))%m] += float32(r.Float64())
			}
		}
		for range 4 {
			row[r.IntN(m)] += float32(r.Float64())
		}
		for j := range m {
			if v, ok := row[j]; ok {
				a.col = append(a.col, int32(j))
				a.val = append(a.val, v)
				dense.Set(i, j, float64(v))
			}
		}
		a.ptr[i+1] = len(a.col)
	}
	return a, dense
}

// exactSVD returns the singular values and right singular vectors of d.
func exactSVD(t *testing.T, d *mat.Dense) ([]float64, *mat.Dense) {
	t.Helper()
	var svd mat.SVD
	if !svd.Factorize(d, mat.SVDThin) {
		t.Fatal("exact SVD failed")
	}
	var v mat.Dense
	svd.VTo(&v)
	return svd.Values(nil), &v
}

func checkOrthonormal(t *testing.T, v []float32, m, k int) {
	t.Helper()
	for c := range k {
		for d := c; d < k; d++ {
			var dot float64
			for j := range m {
				dot += float64(v[j*k+c]) * float64(v[j*k+d])
			}
			want := 0.0
			if c == d {
				want = 1
			}
			if math.Abs(dot-want) > 1e-4 {
				t.Fatalf("VᵀV[%d,%d] = %g, want %g", c, d, dot, want)
			}
		}
	}
}

// TestTruncatedSVDGap: when the leading singular values stand clear of
// the rest, the randomized SVD finds them and their vectors.
func TestTruncatedSVDGap(t *testing.T) {
	const n, m, k = 300, 200, 8
	a, dense := randomSparse(n, m, k, 2, 3)
	v, sigma, err := truncatedSVD(context.Background(), a, a.transpose(), k, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(sigma) != k {
		t.Fatalf("got %d singular values, want %d", len(sigma), k)
	}
	exact, ev := exactSVD(t, dense)
	for i, s := range sigma {
		if rel := math.Abs(s-exact[i]) / exact[i]; rel > 1e-4 {
			t.Errorf("σ%d = %g, exact %g (relative error %.1e)", i, s, exact[i], rel)
		}
	}
	for c := range k {
		var dot float64
		for j := range m {
			dot += float64(v[j*k+c]) * ev.At(j, c)
		}
		if math.Abs(dot) < 0.9999 {
			t.Errorf("singular vector %d: |cos| with the exact one = %.5f", c, math.Abs(dot))
		}
	}
	checkOrthonormal(t, v, m, k)
}

// TestTruncatedSVDFlat: with a slowly falling spectrum, the hard case for
// randomized methods, the subspace found still holds nearly as much of
// A's energy (Σσ²) as the best one, and every Ritz value is a lower bound
// of the exact singular value.
func TestTruncatedSVDFlat(t *testing.T) {
	const n, m, k = 300, 200, 20
	a, dense := randomSparse(n, m, 20, 0, 3)
	v, sigma, err := truncatedSVD(context.Background(), a, a.transpose(), k, 1)
	if err != nil {
		t.Fatal(err)
	}
	exact, _ := exactSVD(t, dense)
	var got, best float64
	for i, s := range sigma {
		got += s * s
		best += exact[i] * exact[i]
		if s > exact[i]*(1+1e-5) {
			t.Errorf("σ%d = %g, above the exact %g", i, s, exact[i])
		}
	}
	t.Logf("energy %.4f of the best rank-%d subspace; σ₀ %.4g/%.4g, σ%d %.4g/%.4g",
		got/best, k, sigma[0], exact[0], k-1, sigma[k-1], exact[k-1])
	if got < 0.9*best {
		t.Errorf("energy %.4f of the best subspace's, want at least 0.9", got/best)
	}
	checkOrthonormal(t, v, m, k)
}

// TestTruncatedSVDRankDeficient has fewer independent rows than the
// dimensions asked for: the extra directions are dropped, not invented.
func TestTruncatedSVDRankDeficient(t *testing.T) {
	a, _ := randomSparse(8, 300, 20, 0, 5)
	// Duplicate the 8 rows three times: rank 8, 24 rows.
	b := &csr{rows: 24, cols: a.cols, ptr: []int{0}}
	for range 3 {
		for i := range a.rows {
			b.col = append(b.col, a.col[a.ptr[i]:a.ptr[i+1]]...)
			b.val = append(b.val, a.val[a.ptr[i]:a.ptr[i+1]]...)
			b.ptr = append(b.ptr, len(b.col))
		}
	}
	_, sigma, err := truncatedSVD(context.Background(), b, b.transpose(), 20, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(sigma) != 8 {
		t.Errorf("got %d singular values %v, want 8", len(sigma), sigma)
	}
}
