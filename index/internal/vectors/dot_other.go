//go:build !amd64

package vectors

// useAVX2 is false off amd64: there is no assembly scan.
const useAVX2 = false

// dotCodes is the dot product of a and codes (of equal length) before the
// codes' scale.
func dotCodes(a []float32, codes []int8) float32 { return dotCodesGo(a, codes) }
