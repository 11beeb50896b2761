package embed

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
)

// The tall dense blocks of the randomized SVD (documents × ℓ and terms × ℓ,
// ℓ about 138) are float32, row-major: they are only ever multiplied, and
// half the bytes is most of the speed. Everything that is summed over a
// tall dimension (Gram matrices) accumulates in float64, and the small
// ℓ × ℓ matrices are float64 and go through gonum.

// parallelFor calls fn on consecutive chunks [lo, hi) of [0, n), on up to
// GOMAXPROCS goroutines, and returns when all calls have returned. Which
// goroutine runs a chunk varies; callers make each chunk's result depend
// only on the chunk.
func parallelFor(n, chunk int, fn func(lo, hi int)) {
	chunks := (n + chunk - 1) / chunk
	workers := min(runtime.GOMAXPROCS(0), chunks)
	if workers <= 1 {
		for lo := 0; lo < n; lo += chunk {
			fn(lo, min(lo+chunk, n))
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				c := int(next.Add(1)) - 1
				if c >= chunks {
					return
				}
				fn(c*chunk, min((c+1)*chunk, n))
			}
		})
	}
	wg.Wait()
}

// gramChunk is the number of rows summed into one partial Gram matrix.
// Partial sums are added in chunk order, so the result is the same
// whatever the number of CPUs.
const gramChunk = 2048

// gram returns xᵀx, l × l (full, symmetric, row-major), for x rows × l.
func gram(x []float32, rows, l int) []float64 {
	chunks := (rows + gramChunk - 1) / gramChunk
	parts := make([][]float64, chunks)
	parallelFor(chunks, 1, func(lo, hi int) {
		for c := lo; c < hi; c++ {
			g := make([]float64, l*l)
			gramRows(x[c*gramChunk*l:min((c+1)*gramChunk, rows)*l], l, g)
			parts[c] = g
		}
	})
	g := make([]float64, l*l)
	for _, p := range parts {
		for i, v := range p {
			g[i] += v
		}
	}
	for a := range l { // mirror the upper triangle
		for b := a + 1; b < l; b++ {
			g[b*l+a] = g[a*l+b]
		}
	}
	return g
}

// gramRows adds the upper triangle of xᵀx to g, four rows of x at a time.
func gramRows(x []float32, l int, g []float64) {
	rows := len(x) / l
	r := make([]float64, 4*l)
	r0, r1, r2, r3 := r[:l], r[l:2*l], r[2*l:3*l], r[3*l:]
	i := 0
	for ; i+4 <= rows; i += 4 {
		for k := range l {
			r0[k] = float64(x[i*l+k])
			r1[k] = float64(x[(i+1)*l+k])
			r2[k] = float64(x[(i+2)*l+k])
			r3[k] = float64(x[(i+3)*l+k])
		}
		for a := range l {
			c0, c1, c2, c3 := r0[a], r1[a], r2[a], r3[a]
			ga := g[a*l+a : a*l+l]
			s0, s1, s2, s3 := r0[a:a+len(ga)], r1[a:a+len(ga)], r2[a:a+len(ga)], r3[a:a+len(ga)]
			for b := range ga {
				ga[b] += c0*s0[b] + c1*s1[b] + c2*s2[b] + c3*s3[b]
			}
		}
	}
	for ; i < rows; i++ {
		for k := range l {
			r0[k] = float64(x[i*l+k])
		}
		for a := range l {
			c0 := r0[a]
			ga := g[a*l+a : a*l+l]
			s0 := r0[a : a+len(ga)]
			for b := range ga {
				ga[b] += c0 * s0[b]
			}
		}
	}
}

// mulSmall sets out (rows × k) to x·b, where x is rows × l and b is a
// small l × k float64 matrix. When upper is set, b is upper triangular
// (entries below its diagonal are zero and are skipped). out may be x
// itself when k == l: each row is computed in full before it is written.
func mulSmall(x []float32, rows, l int, b []float64, k int, upper bool, out []float32) {
	parallelFor(rows, 256, func(lo, hi int) {
		acc := make([]float64, k)
		for i := lo; i < hi; i++ {
			xi := x[i*l : (i+1)*l]
			clear(acc)
			a := 0
			for ; a+4 <= l; a += 4 {
				start := 0
				if upper {
					start = a
				}
				c0, c1, c2, c3 := float64(xi[a]), float64(xi[a+1]), float64(xi[a+2]), float64(xi[a+3])
				t := acc[start:]
				b0 := b[a*k+start : a*k+start+len(t)]
				b1 := b[(a+1)*k+start : (a+1)*k+start+len(t)]
				b2 := b[(a+2)*k+start : (a+2)*k+start+len(t)]
				b3 := b[(a+3)*k+start : (a+3)*k+start+len(t)]
				for q := range t {
					t[q] += c0*b0[q] + c1*b1[q] + c2*b2[q] + c3*b3[q]
				}
			}
			for ; a < l; a++ {
				start := 0
				if upper {
					start = a
				}
				c0 := float64(xi[a])
				t := acc[start:]
				b0 := b[a*k+start : a*k+start+len(t)]
				for q := range t {
					t[q] += c0 * b0[q]
				}
			}
			oi := out[i*k : (i+1)*k]
			for q, v := range acc {
				oi[q] = float32(v)
			}
		}
	})
}

// gaussian fills x with independent standard normal numbers drawn from
// seed. Each block of rows has its own generator, seeded from seed and
// the block, so the numbers do not depend on the number of CPUs.
func gaussian(x []float32, rows, l int, seed uint64) {
	const block = 1024
	parallelFor(rows, block, func(lo, hi int) {
		rng := rand.New(rand.NewPCG(seed, uint64(lo/block)))
		for i := lo * l; i < hi*l; i++ {
			x[i] = float32(rng.NormFloat64())
		}
	})
}
