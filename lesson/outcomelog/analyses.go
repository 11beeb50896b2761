package outcomelog

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/vaultmem/vaultmem/lesson/router"
	"github.com/vaultmem/vaultmem/lesson/strength"
)

// Trend is one domain's outcomes in one month.
type Trend struct {
	Domain      string  `json:"domain"`
	Month       string  `json:"month"` // YYYY-MM
	Outcomes    int     `json:"outcomes"`
	Successes   int     `json:"successes"`
	SuccessRate float64 `json:"success_rate"`
	// MeanStrength is the mean strength the outcomes left their lessons at.
	MeanStrength float64 `json:"mean_strength"`
}

// Trends returns, by domain and month, the outcomes of recs of domain
// (any for "", "(none)" for the lessons without one) logged on the days
// (UTC) from since to until, both included (a zero time: no bound), their
// success rate and the mean strength they left, by domain then month.
func Trends(recs []Record, domain string, since, until time.Time) []Trend {
	domain = strings.ToLower(strings.TrimSpace(domain))
	type acc struct {
		n, ok int
		sum   float64
	}
	by := map[[2]string]*acc{}
	for _, r := range recs {
		d := r.Domain
		if d == "" {
			d = "(none)"
		}
		if domain != "" && d != domain {
			continue
		}
		if day := r.Time.UTC().Truncate(24 * time.Hour); !since.IsZero() && day.Before(since) || !until.IsZero() && day.After(until) {
			continue
		}
		k := [2]string{d, r.Time.UTC().Format("2006-01")}
		a := by[k]
		if a == nil {
			a = &acc{}
			by[k] = a
		}
		a.n++
		if r.Outcome == "success" {
			a.ok++
		}
		a.sum += r.After
	}
	out := []Trend{}
	for k, a := range by {
		out = append(out, Trend{Domain: k[0], Month: k[1], Outcomes: a.n, Successes: a.ok,
			SuccessRate: strength.Round(float64(a.ok) / float64(a.n)), MeanStrength: strength.Round(a.sum / float64(a.n))})
	}
	slices.SortFunc(out, func(a, b Trend) int {
		return cmp.Or(strings.Compare(a.Domain, b.Domain), strings.Compare(a.Month, b.Month))
	})
	return out
}

// Measures are the outcome log's quality measures (lesson.Stats shows
// them with the lessons' counts).
type Measures struct {
	// Outcomes counts the records, Successes the successful ones.
	Outcomes, Successes int
	// Precision is the share of the lessons shown (for outcomes logged
	// with a context) that were the one applied; Recall the share of
	// those outcomes whose lesson had been shown. Nil without such
	// outcomes.
	Precision, Recall *float64
	// StrengthSuccess is the correlation of a lesson's strength before an
	// outcome with the outcome's success (point-biserial, -1..1); nil when
	// it cannot be computed.
	StrengthSuccess *float64
}

// Measure measures recs (see Measures), each ratio rounded as strengths
// are (strength.Round).
func Measure(recs []Record) Measures {
	var st Measures
	st.Outcomes = len(recs)
	shownTotal, withContext, hit := 0, 0, 0
	var xs, ys []float64
	for _, r := range recs {
		ok := 0.0
		if r.Outcome == "success" {
			st.Successes++
			ok = 1
		}
		xs, ys = append(xs, r.Before), append(ys, ok)
		if r.Context == "" && r.Tool == "" && len(r.Paths) == 0 {
			continue
		}
		withContext++
		shownTotal += len(r.Shown)
		if slices.ContainsFunc(r.Shown, func(sh router.Shown) bool { return sh.Path == r.Lesson }) {
			hit++
		}
	}
	if shownTotal > 0 {
		p := strength.Round(float64(hit) / float64(shownTotal))
		st.Precision = &p
	}
	if withContext > 0 {
		r := strength.Round(float64(hit) / float64(withContext))
		st.Recall = &r
	}
	if c, ok := correlation(xs, ys); ok {
		c = strength.Round(c)
		st.StrengthSuccess = &c
	}
	return st
}

// correlation is Pearson's r of xs and ys; false when either does not
// vary.
func correlation(xs, ys []float64) (float64, bool) {
	n := float64(len(xs))
	if n < 2 {
		return 0, false
	}
	var mx, my float64
	for i := range xs {
		mx += xs[i]
		my += ys[i]
	}
	mx, my = mx/n, my/n
	var sxy, sxx, syy float64
	for i := range xs {
		dx, dy := xs[i]-mx, ys[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return 0, false
	}
	return sxy / math.Sqrt(sxx*syy), true
}
