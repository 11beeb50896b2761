package router

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
)

// World describes a synthetic world for [Simulate]: lessons, kinds of
// situation, and a hidden truth about which lesson helps where.
type World struct {
	Lessons  int // lessons in the vault, 40 when 0 or less
	Contexts int // kinds of situation, 8 when 0 or less
	Shown    int // candidates the fast path shows, 8 when 0 or less, at most Lessons
	// ContextDependent chooses the truth. When true, each kind of
	// situation has three lessons, chosen at random, that help there
	// (success 0.8 when applied); every other lesson helps with 0.05.
	// Relevance and strength know nothing of it. When false, a lesson
	// helps with 0.05 + 0.9 × its relevance to the kind × its quality
	// (a hidden per-lesson value in [0.2, 1] that strength learns from
	// outcomes), plus a fixed noise per kind and lesson: the static score
	// is the right idea there.
	ContextDependent bool
	// TopBias is how much the agent favours the top of the list it is
	// shown: it applies the lesson at rank r (0 first) with weight
	// 1/(1+TopBias×r). 0 or less is a uniform choice.
	TopBias float64
	Seed    uint64 // the same World gives the same records
}

// Name is the world's name in reports: "context-dependent" or
// "context-free".
func (w World) Name() string {
	if w.ContextDependent {
		return "context-dependent"
	}
	return "context-free"
}

// WorldReport is [Replay]'s report on records simulated in one world.
type WorldReport struct {
	World  string `json:"world"` // [World.Name]
	Seed   uint64 `json:"seed"`
	Report Report `json:"report"`
}

// ReplayWorlds replays n simulated records of each world (context-
// dependent, then context-free) under seeds 1 to seeds, training on the
// first trainFrac of each, with default options.
func ReplayWorlds(n, seeds int, trainFrac float64) []WorldReport {
	var out []WorldReport
	for _, dep := range []bool{true, false} {
		for seed := uint64(1); seed <= uint64(seeds); seed++ {
			w := World{ContextDependent: dep, Seed: seed}
			out = append(out, WorldReport{World: w.Name(), Seed: seed,
				Report: Replay(Simulate(w, n), trainFrac, Options{})})
		}
	}
	return out
}

// Simulation constants; see Simulate.
const (
	simHelpful     = 3    // helpful lessons per kind (context-dependent world)
	simHelps       = 0.8  // their chance of success
	simOther       = 0.05 // every other lesson's (context-dependent world)
	simGeneric     = 0.7  // the share of a lesson's relevance that is the same for every kind
	simKindWords   = 8    // words of a kind's vocabulary
	simCommonWords = 30   // words any situation may use
	simRelNoise    = 0.1  // noise of the relevance a record reports
	simFastNoise   = 0.05 // noise of the fast path's ranking score
	simReinforce   = 0.05 // strength step towards 1 (success) or 0 (failure)
)

// Simulate returns n outcome records of the world w, in time order, the
// way a vault's log would have them:
//
//   - each record is a situation of a kind drawn at random: a text of
//     words from the kind's own vocabulary mixed with common words and a
//     stop word, mostly (70%) the kind's tool, and 0–2 paths mostly in
//     the kind's folder with its extension;
//   - each lesson has a relevance to each kind, fixed, 70% of it the same
//     for every kind (lessons are written in general terms, so the same
//     ones match many situations) and 30% particular to the kind; a
//     record reports it with noise (σ 0.1);
//   - each lesson has a strength that starts near 0.5 and moves 5% of
//     the way to 1 on a success and to 0 on a failure, as reinforcement
//     would;
//   - the fast path ranks all lessons by relevance × strength plus noise
//     (σ 0.05) and shows the top w.Shown, so a lesson that would help is
//     not always shown, and when shown not always first;
//   - the agent applies one shown lesson (see [World.TopBias]), and the
//     outcome is drawn from the hidden truth (see
//     [World.ContextDependent]).
func Simulate(w World, n int) []Record {
	recs, _ := simulate(w, n)
	return recs
}

// simulate is Simulate, also returning for each record the hidden chance
// that each shown candidate helps, in the order of Shown.
func simulate(w World, n int) ([]Record, [][]float64) {
	if w.Lessons <= 0 {
		w.Lessons = 40
	}
	if w.Contexts <= 0 {
		w.Contexts = 8
	}
	if w.Shown <= 0 {
		w.Shown = 8
	}
	w.Shown = min(w.Shown, w.Lessons)
	n = max(n, 0)
	rng := rand.New(rand.NewPCG(w.Seed, 0x6c65_7373_6f6e))
	words := newWordMaker(rng)

	type lesson struct {
		shown    Shown // path, domain, tags; relevance and strength per record
		strength float64
		quality  float64
		generic  float64 // the part of its relevance the same for every kind
	}
	domains := []string{"testing", "git", "db", "build", "deploy", "docs", "editor", "network"}
	tagPool := []string{"db", "ci", "flaky", "perf", "security", "style", "config", "shell", "api", "cache"}
	lessons := make([]lesson, w.Lessons)
	for i := range lessons {
		var tags []string
		for _, t := range rng.Perm(len(tagPool))[:rng.IntN(3)] {
			tags = append(tags, tagPool[t])
		}
		lessons[i] = lesson{
			shown: Shown{
				Path:   fmt.Sprintf("lessons/lesson-%03d.md", i),
				Domain: domains[rng.IntN(len(domains))],
				Tags:   tags,
			},
			strength: clamp01(0.5 + 0.1*rng.NormFloat64()),
			quality:  0.2 + 0.8*rng.Float64(),
			generic:  rng.Float64(),
		}
	}

	tools := []string{"Bash", "Edit", "Read", "Write", "Grep", ""}
	exts := []string{"go", "md", "sql", "yaml", "py", "ts", "sh", "json"}
	common := words.make(simCommonWords)
	type kind struct {
		vocab        []string
		tool, folder string
		ext          string
		relevance    []float64 // per lesson
		truth        []float64 // per lesson: the chance it helps when applied
	}
	kinds := make([]kind, w.Contexts)
	for k := range kinds {
		kd := kind{
			vocab:     words.make(simKindWords),
			tool:      tools[rng.IntN(len(tools))],
			folder:    words.make(1)[0],
			ext:       exts[rng.IntN(len(exts))],
			relevance: make([]float64, w.Lessons),
			truth:     make([]float64, w.Lessons),
		}
		for i := range kd.relevance {
			kd.relevance[i] = simGeneric*lessons[i].generic + (1-simGeneric)*rng.Float64()
		}
		if w.ContextDependent {
			for i := range kd.truth {
				kd.truth[i] = simOther
			}
			for _, i := range rng.Perm(w.Lessons)[:min(simHelpful, w.Lessons)] {
				kd.truth[i] = simHelps
			}
		} else {
			for i := range kd.truth {
				p := 0.05 + 0.9*kd.relevance[i]*lessons[i].quality + 0.05*rng.NormFloat64()
				kd.truth[i] = max(0.01, min(0.99, p))
			}
		}
		kinds[k] = kd
	}

	weights := make([]float64, w.Shown)
	total := 0.0
	for r := range weights {
		weights[r] = 1 / (1 + max(w.TopBias, 0)*float64(r))
		total += weights[r]
	}
	type ranked struct {
		i     int
		rel   float64
		score float64
	}
	pool := make([]ranked, w.Lessons)
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	recs := make([]Record, 0, n)
	truths := make([][]float64, 0, n)
	for j := range n {
		kd := &kinds[rng.IntN(len(kinds))]

		// The situation.
		var text []string
		for range 3 + rng.IntN(3) {
			text = append(text, kd.vocab[rng.IntN(len(kd.vocab))])
		}
		for range 1 + rng.IntN(3) {
			text = append(text, common[rng.IntN(len(common))])
		}
		text = append(text, []string{"the", "to", "a", "of", "and"}[rng.IntN(5)])
		rng.Shuffle(len(text), func(a, b int) { text[a], text[b] = text[b], text[a] })
		tool := kd.tool
		if rng.Float64() < 0.3 {
			tool = tools[rng.IntN(len(tools))]
		}
		var paths []string
		for range rng.IntN(3) {
			folder, ext := kd.folder, kd.ext
			if rng.Float64() < 0.3 {
				folder, ext = common[rng.IntN(len(common))], exts[rng.IntN(len(exts))]
			}
			paths = append(paths, folder+"/"+words.any()+"."+ext)
		}

		// The fast path.
		for i, l := range lessons {
			rel := round3(clamp01(kd.relevance[i] + simRelNoise*rng.NormFloat64()))
			pool[i] = ranked{i, rel, rel*round3(l.strength) + simFastNoise*rng.NormFloat64()}
		}
		slices.SortStableFunc(pool, func(a, b ranked) int {
			switch {
			case a.score > b.score:
				return -1
			case a.score < b.score:
				return 1
			}
			return a.i - b.i
		})
		shown := make([]Shown, w.Shown)
		truth := make([]float64, w.Shown)
		for r, p := range pool[:w.Shown] {
			s := lessons[p.i].shown
			s.Relevance, s.Strength = p.rel, round3(lessons[p.i].strength)
			s.Tags = slices.Clone(s.Tags)
			shown[r] = s
			truth[r] = kd.truth[p.i]
		}

		// The agent.
		pick, x := 0, rng.Float64()*total
		for pick < len(weights)-1 && x >= weights[pick] {
			x -= weights[pick]
			pick++
		}
		l := &lessons[pool[pick].i]
		outcome := Failure
		if rng.Float64() < truth[pick] {
			outcome = Success
			l.strength += simReinforce * (1 - l.strength)
		} else {
			l.strength -= simReinforce * l.strength
		}

		recs = append(recs, Record{
			Time:    start.Add(time.Duration(j)*5*time.Minute + time.Duration(rng.IntN(240))*time.Second),
			Lesson:  l.shown.Path,
			Outcome: outcome,
			Context: strings.Join(text, " "),
			Tool:    tool,
			Paths:   paths,
			Shown:   shown,
			Episode: fmt.Sprintf("tasks/sim-%04d.md", j/10),
			Agent:   "sim",
		})
		truths = append(truths, truth)
	}
	return recs, truths
}

// round3 rounds v to three decimals, as a log would show it.
func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

// wordMaker makes pronounceable pseudo-words.
type wordMaker struct {
	rng  *rand.Rand
	seen map[string]bool
}

func newWordMaker(rng *rand.Rand) *wordMaker {
	return &wordMaker{rng: rng, seen: make(map[string]bool)}
}

// any returns a word of two to four syllables, new or not.
func (m *wordMaker) any() string {
	const consonants, vowels = "bdfgklmnprstvz", "aeiou"
	var b strings.Builder
	for range 2 + m.rng.IntN(3) {
		b.WriteByte(consonants[m.rng.IntN(len(consonants))])
		b.WriteByte(vowels[m.rng.IntN(len(vowels))])
	}
	return b.String()
}

// make returns n words that no call of make returned before.
func (m *wordMaker) make(n int) []string {
	out := make([]string, 0, n)
	for len(out) < n {
		if w := m.any(); !m.seen[w] {
			m.seen[w] = true
			out = append(out, w)
		}
	}
	return out
}
