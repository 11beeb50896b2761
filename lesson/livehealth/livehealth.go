// Package livehealth is the live health of the lessons: what a
// long-running process (vaultmem mcp, watch) sees of its own matches and
// outcomes, the hot cache's hits and misses aside
// (lesson.Matcher.CacheStats). Health keeps it in bounded memory: the
// latencies of the last LatencyWindow matches in a ring, and a few
// counters per lesson shown. The lessons that keep failing are not kept
// here but read from the outcome log (package lesson/outcomelog), the
// durable record every process appends to, so that they survive a restart
// and a CLI process that never saw a match finds them too.
//
// It is told of each match shown and each outcome applied by package
// lesson's Health, which adapts the fast path's results to its Lesson.
// It imports lesson/strength (its rounding); never lesson.
package livehealth

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/vaultmem/vaultmem/lesson/strength"
)

// LatencyWindow is how many of the latest matches' latencies Health keeps
// for its percentiles.
const LatencyWindow = 1024

// Health counts what one process's lessons did: the latency of each
// match, the lessons each match showed, and the outcomes that followed a
// showing. Its zero value is not usable; make one with New. It is
// safe for concurrent use.
type Health struct {
	mu    sync.Mutex
	since time.Time
	// ring holds the latest latencies, in ms; next is where the next goes
	// and matches how many were ever observed.
	ring    [LatencyWindow]float64
	next    int
	matches int
	lessons map[string]*shownLesson
}

// shownLesson is one lesson's live counters.
type shownLesson struct {
	name string
	// shown counts the matches that returned it; pending says one did
	// since its last outcome.
	shown   int
	pending bool
	// outcomes counts the outcomes applied to it; followed those that
	// came after a showing, and successes those of them that succeeded.
	outcomes, followed, successes int
}

// New returns an empty Health counting from since (the process's start,
// as the report shows it).
func New(since time.Time) *Health {
	return &Health{since: since, lessons: map[string]*shownLesson{}}
}

// Lesson is a lesson as Health counts it: its path, and its name as last
// shown or applied.
type Lesson struct {
	Path, Name string
}

// Matched counts a match that was shown to its asker: its latency, ms
// milliseconds, and each lesson it returned, shown. A nil Health counts
// nothing.
func (h *Health) Matched(ms float64, shown []Lesson) {
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ring[h.next] = ms
	h.next = (h.next + 1) % LatencyWindow
	h.matches++
	for _, m := range shown {
		l := h.lesson(m.Path)
		l.name = m.Name
		l.shown++
		l.pending = true
	}
}

// Applied counts an outcome applied to lesson a, a success or not: it
// followed a showing when a match showed the lesson since its last
// outcome. An empty name keeps the one last shown. A nil Health counts
// nothing.
func (h *Health) Applied(a Lesson, success bool) {
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	l := h.lesson(a.Path)
	if a.Name != "" {
		l.name = a.Name
	}
	l.outcomes++
	if l.pending {
		l.followed++
		if success {
			l.successes++
		}
		l.pending = false
	}
}

// lesson is the counters of the lesson at path p, made at first use.
func (h *Health) lesson(p string) *shownLesson {
	l := h.lessons[p]
	if l == nil {
		l = &shownLesson{}
		h.lessons[p] = l
	}
	return l
}

// HotCache is the fast path's hot cache's hits and misses, and the share
// of lookups it answered (null before the first lookup).
type HotCache struct {
	Hits    int      `json:"hits"`
	Misses  int      `json:"misses"`
	HitRate *float64 `json:"hit_rate"`
}

// Latency is the match latency's percentiles, in milliseconds, over the
// latest Window matches of Matches observed (nearest rank; null before the
// first match). P50 ≤ P95 ≤ P99 always.
type Latency struct {
	Matches int      `json:"matches"`
	Window  int      `json:"window"`
	P50     *float64 `json:"p50_ms"`
	P95     *float64 `json:"p95_ms"`
	P99     *float64 `json:"p99_ms"`
}

// LessonLive is one lesson's live counters: how often a match showed it,
// how many outcomes it had, how many of them followed a showing and
// succeeded, and SuccessRate, successes over outcomes that followed a
// showing (null when none did).
type LessonLive struct {
	Path        string   `json:"path"`
	Name        string   `json:"name"`
	Shown       int      `json:"shown"`
	Outcomes    int      `json:"outcomes"`
	Followed    int      `json:"followed"`
	Successes   int      `json:"successes"`
	SuccessRate *float64 `json:"success_rate"`
}

// HealthCounts is a snapshot of a Health: since when it counts, the
// latency percentiles and the lessons' counters, most shown first (then by
// path).
type HealthCounts struct {
	Since   time.Time    `json:"since"`
	Latency Latency      `json:"latency"`
	Lessons []LessonLive `json:"lessons"`
}

// Counts returns a snapshot of h.
func (h *Health) Counts() HealthCounts {
	h.mu.Lock()
	n := min(h.matches, LatencyWindow)
	window := slices.Clone(h.ring[:n])
	out := HealthCounts{Since: h.since, Latency: Latency{Matches: h.matches, Window: n}, Lessons: make([]LessonLive, 0, len(h.lessons))}
	for p, l := range h.lessons {
		ll := LessonLive{Path: p, Name: l.name, Shown: l.shown, Outcomes: l.outcomes, Followed: l.followed, Successes: l.successes}
		if l.followed > 0 {
			r := strength.Round(float64(l.successes) / float64(l.followed))
			ll.SuccessRate = &r
		}
		out.Lessons = append(out.Lessons, ll)
	}
	h.mu.Unlock()
	slices.Sort(window)
	out.Latency.P50, out.Latency.P95, out.Latency.P99 = percentile(window, 50), percentile(window, 95), percentile(window, 99)
	slices.SortFunc(out.Lessons, func(a, b LessonLive) int {
		return cmp.Or(cmp.Compare(b.Shown, a.Shown), strings.Compare(a.Path, b.Path))
	})
	return out
}

// percentile is the nearest-rank q-th percentile of sorted; nil when it
// is empty.
func percentile(sorted []float64, q float64) *float64 {
	if len(sorted) == 0 {
		return nil
	}
	i := max(int(math.Ceil(q/100*float64(len(sorted))))-1, 0)
	v := sorted[i]
	return &v
}

// CacheOf is the hot cache's counts as HotCache reports them.
func CacheOf(hits, misses int) HotCache {
	hc := HotCache{Hits: hits, Misses: misses}
	if hits+misses > 0 {
		r := strength.Round(float64(hits) / float64(hits+misses))
		hc.HitRate = &r
	}
	return hc
}
