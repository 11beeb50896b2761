package lesson_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/embed"
	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/vault"
)

// benchWords is the vocabulary of the benchmark's lessons and situations.
var benchWords = strings.Fields(`test tests integration unit migration migrations database schema deploy release build
	compile lint format commit push merge rebase branch review docker image container kubernetes pod service config
	secret token cache index query search api endpoint client server request response timeout retry queue worker job
	cron schedule log logs metric alert dashboard backup restore upgrade downgrade dependency version lockfile module
	package install vendor script shell bash python node golang rust java frontend backend css html template render
	auth login session cookie password user admin role permission file path folder upload download storage bucket
	network proxy dns certificate tls port socket thread lock race deadlock memory leak profile benchmark flaky slow
	fast error panic crash exception stack trace debug breakpoint fixture mock stub golden snapshot coverage report`)

// benchTools are the tools of the benchmark's tool triggers.
var benchTools = []string{"Bash", "Edit", "Write", "Read", "Grep", "WebFetch", "Task", "NotebookEdit"}

// lessonVault writes a vault of n lessons (a trigger of two or three
// words, a tool now and then, a path glob now and then), indexes it, and
// returns a Store over it, the index, and the situations of a replayed log: texts of
// a few words, most of them recurring (a Zipf law over 500 situations).
func lessonVault(b *testing.B, n int) (*lesson.Store, *index.Index, []lesson.Situation) {
	dir := b.TempDir()
	r := rand.New(rand.NewPCG(7, uint64(n)))
	words := func(k int) string {
		ws := make([]string, k)
		for i := range ws {
			ws[i] = benchWords[r.IntN(len(benchWords))]
		}
		return strings.Join(ws, " ")
	}
	os.MkdirAll(filepath.Join(dir, "lessons"), 0o755)
	for i := range n {
		trigger := []string{words(2 + r.IntN(2))}
		if r.IntN(5) == 0 {
			trigger = append(trigger, "tool:"+benchTools[r.IntN(len(benchTools))])
		}
		if r.IntN(8) == 0 {
			trigger = append(trigger, benchWords[r.IntN(len(benchWords))]+"/**/*."+[]string{"go", "sql", "ts", "py"}[r.IntN(4)])
		}
		fields := []markdown.Field{{Key: "type", Value: "lesson"}, {Key: "name", Value: fmt.Sprintf("Lesson %d", i)},
			{Key: "trigger", Value: trigger}, {Key: "action_bias", Value: "always " + words(4)},
			{Key: "strength", Value: float64(20+r.IntN(80)) / 100}}
		body := "When " + words(8) + ", " + words(10) + ".\n\n## History\n\n- 2026-11-01 10:00 created at 0.5\n"
		if err := os.WriteFile(filepath.Join(dir, "lessons", fmt.Sprintf("l%05d.md", i)), markdown.Format(fields, body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	ctx := context.Background()
	v, err := vault.Open(dir, vault.Folders{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { v.Close() })
	ix, err := index.Open(ctx, v.Abs(vault.CacheDir), index.Options{NoVectors: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ix.Close() })
	if _, err := ix.Sync(ctx, v.FS(), nil); err != nil {
		b.Fatal(err)
	}
	st, err := lesson.NewStore(vault.NewWriter(v, vault.WriterOptions{}), ix.Stores(), lesson.Options{FS: v.FS()})
	if err != nil {
		b.Fatal(err)
	}
	distinct := make([]lesson.Situation, 500)
	for i := range distinct {
		distinct[i] = lesson.Situation{Text: "about to " + words(3+r.IntN(5))}
		if r.IntN(3) == 0 {
			distinct[i].Tool = benchTools[r.IntN(len(benchTools))]
		}
		if r.IntN(4) == 0 {
			distinct[i].Paths = []string{benchWords[r.IntN(len(benchWords))] + "/x/y.go"}
		}
	}
	zipf := rand.NewZipf(rand.New(rand.NewPCG(9, 9)), 1.1, 1, uint64(len(distinct)-1))
	replay := make([]lesson.Situation, 5000)
	for i := range replay {
		replay[i] = distinct[zipf.Uint64()]
	}
	return st, ix, replay
}

// p50p99 reports the median and 99th percentile of lat in milliseconds.
func p50p99(b *testing.B, lat []time.Duration) {
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds())/1e6, "p50-ms")
	b.ReportMetric(float64(lat[min(len(lat)-1, len(lat)*99/100)].Nanoseconds())/1e6, "p99-ms")
}

// benchMeaning is the vector side of the benchmark's fast path: an LSA
// model fitted on the lessons' own texts (the benchmark's vault has no
// other notes), and no notes around them. What a match costs is the same
// as with the vault's model: one situation embedded, every lesson's
// vector scanned.
type benchMeaning struct {
	e lesson.Embedder
}

func (m benchMeaning) Embedder(context.Context) (lesson.Embedder, error) { return m.e, nil }

func (benchMeaning) Around(context.Context, []lesson.Lesson) (map[string][]string, error) {
	return map[string][]string{}, nil
}

// newBenchMeaning fits the benchmark's LSA model on the lessons of ix.
func newBenchMeaning(b *testing.B, ix *index.Index) benchMeaning {
	ls, err := ix.Kinds().Lessons(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	docs := make([]string, len(ls))
	for i, l := range ls {
		docs[i] = l.Name + "\n" + strings.Join(l.Trigger, "\n") + "\n" + l.ActionBias + "\n" + l.Text
	}
	e, err := embed.FitLSA(context.Background(), docs, embed.LSAOptions{})
	if err != nil {
		b.Fatal(err)
	}
	return benchMeaning{e}
}

// BenchmarkMatch times the fast path in process (as the MCP server runs
// it) over 1,000 and 10,000 lessons: cold (no hot cache: every situation
// ranked), cold with the vector side (an LSA model of 128 dimensions: the
// situation embedded and every lesson's vector scanned), and hot (the hot
// cache on, situations replayed from a log where most recur), with the
// hot cache's hit rate.
func BenchmarkMatch(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		_, ix, replay := lessonVault(b, n)
		ctx := context.Background()
		meaning := newBenchMeaning(b, ix)
		for _, mode := range []string{"cold", "cold+meaning", "hot"} {
			b.Run(fmt.Sprintf("lessons=%d/%s", n, mode), func(b *testing.B) {
				opts := lesson.MatcherOptions{}
				if mode != "hot" {
					opts.CacheSize = -1
				}
				if mode == "cold+meaning" {
					opts.Meaning = meaning
				}
				m := lesson.NewMatcher(ix.Stores(), opts)
				if _, err := m.Match(ctx, replay[0], 0); err != nil { // load the lessons
					b.Fatal(err)
				}
				var lat []time.Duration
				i := 0
				for b.Loop() {
					start := time.Now()
					if _, err := m.Match(ctx, replay[i%len(replay)], 0); err != nil {
						b.Fatal(err)
					}
					lat = append(lat, time.Since(start))
					i++
				}
				p50p99(b, lat)
				if hits, misses := m.CacheStats(); mode == "hot" {
					b.ReportMetric(float64(hits)/float64(hits+misses), "hit-rate")
				}
			})
		}
	}
}

// BenchmarkOutcome times an outcome at 10,000 lessons: the note rewritten
// (lock, atomic write with fsync), the log appended, the index refreshed.
func BenchmarkOutcome(b *testing.B) {
	st, _, _ := lessonVault(b, 10_000)
	ctx := context.Background()
	var lat []time.Duration
	i := 0
	for b.Loop() {
		start := time.Now()
		if _, err := st.Outcome(ctx, lesson.Outcome{Lesson: fmt.Sprintf("lessons/l%05d.md", (i*7919)%10_000), Success: i%3 != 0}); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
		i++
	}
	p50p99(b, lat)
}

// sharedTriggerVault writes a vault of n lessons that all share the
// trigger tool:Bash (besides two or three words of their own), saying
// "always" about four words of the benchmark's vocabulary, but one in
// never that says "never" (none when never is 0), indexes it, and returns
// a Store over it.
func sharedTriggerVault(b *testing.B, n, never int) *lesson.Store {
	dir := b.TempDir()
	r := rand.New(rand.NewPCG(11, uint64(n)))
	words := func(k int) string {
		ws := make([]string, k)
		for i := range ws {
			ws[i] = benchWords[r.IntN(len(benchWords))]
		}
		return strings.Join(ws, " ")
	}
	os.MkdirAll(filepath.Join(dir, "lessons"), 0o755)
	for i := range n {
		marker := "always "
		if never > 0 && i%never == 0 {
			marker = "never "
		}
		fields := []markdown.Field{{Key: "type", Value: "lesson"}, {Key: "name", Value: fmt.Sprintf("Lesson %d", i)},
			{Key: "trigger", Value: []string{"tool:Bash", words(2 + r.IntN(2))}}, {Key: "action_bias", Value: marker + words(4)}}
		if err := os.WriteFile(filepath.Join(dir, "lessons", fmt.Sprintf("l%05d.md", i)), markdown.Format(fields, "Body.\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	ctx := context.Background()
	v, err := vault.Open(dir, vault.Folders{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { v.Close() })
	ix, err := index.Open(ctx, v.Abs(vault.CacheDir), index.Options{NoVectors: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ix.Close() })
	if _, err := ix.Sync(ctx, v.FS(), nil); err != nil {
		b.Fatal(err)
	}
	st, err := lesson.NewStore(vault.NewWriter(v, vault.WriterOptions{}), ix.Stores(), lesson.Options{FS: v.FS()})
	if err != nil {
		b.Fatal(err)
	}
	return st
}

// BenchmarkContradictions times Contradictions over 2,000 and 5,000
// lessons that all share a trigger (reading them from the index
// included): all saying "always" (no contradiction, every pair overlaps),
// and one in ten saying "never" (many contradictions), with the
// contradictions found.
func BenchmarkContradictions(b *testing.B) {
	for _, n := range []int{2_000, 5_000} {
		for _, never := range []int{0, 10} {
			st := sharedTriggerVault(b, n, never)
			ctx := context.Background()
			name := "all-always"
			if never > 0 {
				name = fmt.Sprintf("never-1-in-%d", never)
			}
			b.Run(fmt.Sprintf("lessons=%d/%s", n, name), func(b *testing.B) {
				var found int
				for b.Loop() {
					cs, err := st.Contradictions(ctx)
					if err != nil {
						b.Fatal(err)
					}
					found = len(cs)
				}
				b.ReportMetric(float64(found), "contradictions")
			})
		}
	}
}
