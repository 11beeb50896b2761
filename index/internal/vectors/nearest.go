package vectors

import (
	"container/heap"
	"context"
	"runtime"
	"slices"
	"sort"
	"sync"

	"github.com/vaultmem/vaultmem/index/internal/rank"
)

// Nearest returns the k chunks most similar to q (cosine: vectors are
// normalised), best first, among those keep keeps, given their note's and
// their own id (nil: all).
// A large set is scanned in parts on every core. When ctx ends, the scan
// stops and Nearest returns ctx's error.
func (vs *Set) Nearest(ctx context.Context, q []float32, k int, keep func(note, chunk int64) bool) ([]rank.Scored, error) {
	if len(q) != vs.dims || k <= 0 {
		return nil, nil
	}
	n := vs.Len()
	parts := min(runtime.GOMAXPROCS(0), n/minVectorsPerPart, 8)
	if parts <= 1 {
		found := vs.scan(ctx, q, k, keep, 0, n)
		return found, ctx.Err()
	}
	found := make([][]rank.Scored, parts)
	var wg sync.WaitGroup
	for p := range parts {
		wg.Go(func() {
			found[p] = vs.scan(ctx, q, k, keep, p*n/parts, (p+1)*n/parts)
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	all := slices.Concat(found...)
	sort.Slice(all, func(i, j int) bool { return rank.Better(all[i], all[j]) })
	return all[:min(k, len(all))], nil
}

// scanCheck is how many vectors a scan compares between two looks at
// whether its context ended.
const scanCheck = 4096

// minVectorsPerPart is the fewest vectors worth a goroutine of their own.
const minVectorsPerPart = 8192

// scan returns the k best of the vectors from index from to to (over
// both segments, see Set.more), best first; nil when ctx ends first.
func (vs *Set) scan(ctx context.Context, q []float32, k int, keep func(note, chunk int64) bool, from, to int) []rank.Scored {
	h := make(rank.Heap, 0, k+1)
	d := vs.dims
	for seg, off := vs, 0; seg != nil; seg, off = seg.more, off+len(seg.ids) {
		for j := max(from-off, 0); j < min(to-off, len(seg.ids)); j++ {
			if i := off + j; (i-from)%scanCheck == 0 && ctx.Err() != nil {
				return nil
			}
			if keep != nil && !keep(seg.notes[j], seg.ids[j]) || vs.isDead(off+j) {
				continue
			}
			c := rank.Scored{ID: seg.ids[j], Score: float64(seg.scales[j] * dotCodes(q, seg.codes[j*d:j*d+d]))}
			if len(h) < k {
				heap.Push(&h, c)
			} else if rank.Better(c, h[0]) {
				h[0] = c
				heap.Fix(&h, 0)
			}
		}
	}
	out := make([]rank.Scored, len(h))
	for i := len(h) - 1; i >= 0; i-- {
		out[i] = heap.Pop(&h).(rank.Scored)
	}
	return out
}

// dotCodesGo is the dot product of a and the quantized vector codes (of
// equal length) before its scale, with four accumulators so that the
// multiplications overlap. dotCodes is it, or on CPUs with AVX2 and FMA
// the same eight lanes at a time (see dot_amd64.s).
func dotCodesGo(a []float32, codes []int8) float32 {
	codes = codes[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * float32(codes[i])
		s1 += a[i+1] * float32(codes[i+1])
		s2 += a[i+2] * float32(codes[i+2])
		s3 += a[i+3] * float32(codes[i+3])
	}
	for ; i < len(a); i++ {
		s0 += a[i] * float32(codes[i])
	}
	return s0 + s1 + s2 + s3
}
