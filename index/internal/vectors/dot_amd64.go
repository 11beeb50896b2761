package vectors

import "golang.org/x/sys/cpu"

// useAVX2 says the vector scan may use dotAVX2.
var useAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// dotAVX2 returns the dot product of the n float32s at a and the n int8
// codes at codes; n must be a multiple of 8. In dot_amd64.s.
//
//go:noescape
func dotAVX2(a *float32, codes *int8, n int) float32

// dotCodes is the dot product of a and codes (of equal length) before the
// codes' scale: eight lanes at a time with AVX2 and FMA (a sixth of
// dotCodesGo's time on 128 dimensions: BenchmarkDotCodes), dotCodesGo
// without them. The sums differ from dotCodesGo's by float rounding only.
func dotCodes(a []float32, codes []int8) float32 {
	codes = codes[:len(a)]
	n := len(a) &^ 7
	if !useAVX2 || n == 0 {
		return dotCodesGo(a, codes)
	}
	s := dotAVX2(&a[0], &codes[0], n)
	if n < len(a) {
		s += dotCodesGo(a[n:], codes[n:])
	}
	return s
}
