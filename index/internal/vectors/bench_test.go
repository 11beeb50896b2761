package vectors

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkDotCodes compares the vector scan's dot product of 128
// dimensions as dotCodes takes it (AVX2 and FMA where the CPU has them)
// with the plain Go loop, in the same run.
func BenchmarkDotCodes(b *testing.B) {
	rnd := rand.New(rand.NewPCG(5, 6))
	const n, dims = 4096, 128
	q, codes := make([]float32, dims), make([]int8, n*dims)
	for i := range q {
		q[i] = float32(rnd.NormFloat64())
	}
	for i := range codes {
		codes[i] = int8(rnd.IntN(255) - 127)
	}
	for _, k := range []struct {
		name string
		dot  func([]float32, []int8) float32
	}{{"dotCodes", dotCodes}, {"go", dotCodesGo}} {
		b.Run(k.name, func(b *testing.B) {
			var s float32
			for b.Loop() {
				for v := range n {
					s += k.dot(q, codes[v*dims:(v+1)*dims])
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/vector")
			sink = s
		})
	}
}

var sink float32
