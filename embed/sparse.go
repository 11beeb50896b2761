package embed

// csr is a sparse matrix in compressed sparse row form. Row i's entries
// are col[ptr[i]:ptr[i+1]] (ascending) and val[ptr[i]:ptr[i+1]].
type csr struct {
	rows, cols int
	ptr        []int
	col        []int32
	val        []float32
}

// transpose returns aᵀ in CSR form (which is a in CSC form). Each row of
// the result lists its columns in ascending order.
func (a *csr) transpose() *csr {
	t := &csr{rows: a.cols, cols: a.rows, ptr: make([]int, a.cols+1)}
	for _, j := range a.col {
		t.ptr[j+1]++
	}
	for j := range a.cols {
		t.ptr[j+1] += t.ptr[j]
	}
	t.col = make([]int32, len(a.col))
	t.val = make([]float32, len(a.val))
	next := make([]int, a.cols)
	copy(next, t.ptr[:a.cols])
	for i := range a.rows {
		for p := a.ptr[i]; p < a.ptr[i+1]; p++ {
			j := a.col[p]
			t.col[next[j]] = int32(i)
			t.val[next[j]] = a.val[p]
			next[j]++
		}
	}
	return t
}

// mul sets out (a.rows × l) to a·x, where x is a.cols × l; both dense
// matrices are row-major with stride l. Rows are computed in parallel,
// each by one goroutine in a fixed order, so the result does not depend on
// the number of CPUs.
func (a *csr) mul(x []float32, l int, out []float32) {
	parallelFor(a.rows, 64, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			mulRow(a.col[a.ptr[i]:a.ptr[i+1]], a.val[a.ptr[i]:a.ptr[i+1]], x, l, out[i*l:(i+1)*l])
		}
	})
}

// mulRow sets y to Σ val[p]·x[col[p]], four rows of x at a time so that y
// is loaded and stored a quarter as often. This loop is most of the time
// spent fitting a model.
func mulRow(col []int32, val []float32, x []float32, l int, y []float32) {
	clear(y)
	p := 0
	for ; p+4 <= len(col); p += 4 {
		j0, j1, j2, j3 := int(col[p])*l, int(col[p+1])*l, int(col[p+2])*l, int(col[p+3])*l
		v0, v1, v2, v3 := val[p], val[p+1], val[p+2], val[p+3]
		x0 := x[j0 : j0+len(y)]
		x1 := x[j1 : j1+len(y)]
		x2 := x[j2 : j2+len(y)]
		x3 := x[j3 : j3+len(y)]
		for k := range y {
			y[k] += v0*x0[k] + v1*x1[k] + v2*x2[k] + v3*x3[k]
		}
	}
	for ; p < len(col); p++ {
		j := int(col[p]) * l
		v := val[p]
		x0 := x[j : j+len(y)]
		for k := range y {
			y[k] += v * x0[k]
		}
	}
}
