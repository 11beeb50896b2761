package embed

import (
	"context"
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// Randomized truncated SVD (Halko, Martinsson and Tropp, "Finding
// structure with randomness", SIAM Review 2011): subspace iteration on
// the term side, since the model keeps only the right singular vectors V.
//
//	Q₀ = Ω                          terms × ℓ, Gaussian
//	Qᵢ = orth(Aᵀ (A Qᵢ₋₁))          i = 1, 2: two power iterations
//	C  = A Q₂;  CᵀC = W Λ Wᵀ        Rayleigh–Ritz: the small ℓ × ℓ problem
//	V  = Q₂ W,  σ = √Λ              the leading k columns
//
// with ℓ = k + 10 (oversampling). It is Algorithms 4.4 and 5.1 of the
// paper with the range found for Aᵀ, and with the re-orthonormalisation
// after the products with Aᵀ only: A's singular values fall slowly (σ₁/σ₁₃₈
// is 10–50 on real text), so the document-side blocks A·Q are well
// conditioned, and orthonormalising them (documents × ℓ, the larger side)
// would cost more than a product with A and change nothing. A Gaussian Ω
// is itself well conditioned, so it is not orthonormalised either. A stays
// sparse throughout; only ℓ-wide blocks are dense. The cost is five
// products with A or Aᵀ, two Gram matrices of a terms × ℓ block and one
// of a documents × ℓ block, and two products of a terms × ℓ block with a
// small matrix:
// about 0.6 s for 40,000 documents × 30,000 terms on two cores, most of
// it in mulRow, gramRows and mulSmall.
//
// Orthonormalisation is Cholesky QR (Gram matrix in float64, R⁻¹ applied
// in place), repeated when the block is poorly conditioned, and
// Householder QR when it is numerically rank-deficient (a corpus with
// fewer independent documents than ℓ), which Cholesky cannot factor.

// oversampling is the number of extra columns of the random test matrix.
const oversampling = 10

// powerIterations is the number of products with AᵀA.
const powerIterations = 2

// minSigma is the smallest singular value kept, relative to the largest.
// Below it a direction is rounding noise (there are fewer independent
// documents than dimensions), and since queries are projected on every
// kept direction whatever its σ, a noise direction would add noise.
const minSigma = 1e-4

// truncatedSVD returns the leading right singular vectors of a, at most k
// of them, as a.cols × k' row-major float32 (k' ≤ k), and the singular
// values, descending. at is aᵀ. a must have at least one non-zero entry.
func truncatedSVD(ctx context.Context, a, at *csr, k int, seed uint64) ([]float32, []float64, error) {
	n, m := a.rows, a.cols
	l := min(k+oversampling, n, m)
	k = min(k, l)

	q := make([]float32, m*l)
	gaussian(q, m, l, seed)
	docBlock := make([]float32, n*l)
	for i := range powerIterations {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		a.mul(q, l, docBlock)
		at.mul(docBlock, l, q)
		if i < powerIterations-1 {
			orthonormalize(q, m, l)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}

	// The last orthonormalisation, Q = Z R⁻¹, is left implicit: R⁻¹ is
	// folded into the small matrices below instead of being applied to
	// the terms × ℓ block, which saves a pass over it. When the block is
	// too poorly conditioned for that, it is orthonormalised for real
	// and R⁻¹ is the identity.
	rinv, cond, ok := choleskyFactor(q, m, l)
	if !ok || cond > condRepeat {
		orthonormalize(q, m, l)
		rinv = identity(l)
	}

	// Rayleigh–Ritz: the SVD of A restricted to span(Q), through the
	// eigenvectors of the ℓ × ℓ matrix (AQ)ᵀ(AQ) = R⁻ᵀ (AZ)ᵀ(AZ) R⁻¹.
	a.mul(q, l, docBlock)
	r := mat.NewDense(l, l, rinv)
	var h mat.Dense
	h.Mul(r.T(), mat.NewDense(l, l, gram(docBlock, n, l)))
	h.Mul(&h, r)
	sym := mat.NewSymDense(l, nil)
	for i := range l {
		for j := i; j < l; j++ {
			sym.SetSym(i, j, (h.At(i, j)+h.At(j, i))/2)
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(sym, true) {
		return nil, nil, errNoConvergence
	}
	lambda := eig.Values(nil) // ascending
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	sigma := make([]float64, 0, k)
	for i := l - 1; i >= 0 && len(sigma) < k; i-- {
		s := math.Sqrt(max(lambda[i], 0))
		if len(sigma) > 0 && s < minSigma*sigma[0] || s == 0 {
			break
		}
		sigma = append(sigma, s)
	}
	k = len(sigma)
	// V = Q W = Z (R⁻¹ W), with W the kept eigenvectors, largest first.
	w := mat.NewDense(l, k, nil)
	for c := range k {
		for i := range l {
			w.Set(i, c, vecs.At(i, l-1-c))
		}
	}
	var rw mat.Dense
	rw.Mul(r, w)
	v := make([]float32, m*k)
	mulSmall(q, m, l, rw.RawMatrix().Data, k, false, v)
	fixSigns(v, m, k)
	return v, sigma, nil
}

// fixSigns flips each column of v (rows × k) so that its entry of largest
// magnitude is positive: a singular vector's sign is arbitrary, and a
// fixed one keeps refits of similar corpora comparable.
func fixSigns(v []float32, rows, k int) {
	best := make([]float32, k)
	for r := range rows {
		for c, x := range v[r*k : (r+1)*k] {
			if abs32(x) > abs32(best[c]) {
				best[c] = x
			}
		}
	}
	for r := range rows {
		row := v[r*k : (r+1)*k]
		for c := range row {
			if best[c] < 0 {
				row[c] = -row[c]
			}
		}
	}
}

func identity(l int) []float64 {
	x := make([]float64, l*l)
	for i := range l {
		x[i*l+i] = 1
	}
	return x
}

func abs32(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }

// Condition numbers (of the Gram matrix, the square of the block's) that
// decide how a block is orthonormalised.
const (
	condRepeat = 1e6  // above: a second Cholesky QR pass
	condGiveUp = 1e12 // above: Householder QR
)

// orthonormalize replaces x (rows × l, rows ≥ l) by an orthonormal basis
// of its column space (completed arbitrarily when x is rank-deficient).
func orthonormalize(x []float32, rows, l int) {
	for pass := 0; pass < 2; pass++ {
		cond, ok := choleskyQR(x, rows, l)
		if !ok {
			householderQR(x, rows, l)
			return
		}
		if cond <= condRepeat {
			return
		}
	}
}

// choleskyQR orthonormalises x through the Cholesky factor R of xᵀx,
// x ← x R⁻¹, and returns the condition number of xᵀx. It does nothing and
// reports false when that condition number is too large for the result to
// be orthonormal.
func choleskyQR(x []float32, rows, l int) (float64, bool) {
	rinv, cond, ok := choleskyFactor(x, rows, l)
	if !ok {
		return 0, false
	}
	mulSmall(x, rows, l, rinv, l, true, x)
	return cond, true
}

// choleskyFactor returns R⁻¹ (l × l, upper triangular, row-major), where
// R is the Cholesky factor of xᵀx, and the condition number of xᵀx; it
// reports false when that is too large for x R⁻¹ to be orthonormal.
func choleskyFactor(x []float32, rows, l int) ([]float64, float64, bool) {
	var chol mat.Cholesky
	if !chol.Factorize(mat.NewSymDense(l, gram(x, rows, l))) || chol.Cond() > condGiveUp {
		return nil, 0, false
	}
	var u, inv mat.TriDense
	chol.UTo(&u)
	if err := inv.InverseTri(&u); err != nil {
		return nil, 0, false
	}
	rinv := make([]float64, l*l)
	for i := range l {
		for j := i; j < l; j++ {
			rinv[i*l+j] = inv.At(i, j)
		}
	}
	return rinv, chol.Cond(), true
}

// householderQR orthonormalises x with LAPACK's Householder QR, which
// always yields orthonormal columns.
func householderQR(x []float32, rows, l int) {
	g := blas64.General{Rows: rows, Cols: l, Stride: l, Data: make([]float64, rows*l)}
	for i, v := range x {
		g.Data[i] = float64(v)
	}
	tau := make([]float64, l)
	work := make([]float64, 1)
	lapack64.Geqrf(g, tau, work, -1)
	work = make([]float64, max(int(work[0]), l))
	lapack64.Geqrf(g, tau, work, len(work))
	lapack64.Orgqr(g, tau, work, -1)
	if n := int(work[0]); n > len(work) {
		work = make([]float64, n)
	}
	lapack64.Orgqr(g, tau, work, len(work))
	for i, v := range g.Data {
		x[i] = float32(v)
	}
}
