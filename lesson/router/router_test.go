package router_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/lesson/router"
)

func TestStatic(t *testing.T) {
	for _, tt := range []struct {
		c    router.Candidate
		want float64
	}{
		{router.Candidate{}, 0},
		{router.Candidate{Relevance: 0.8, Strength: 0.5}, 0.4},
		{router.Candidate{Relevance: 1, Strength: 1}, 1},
	} {
		if got := router.Static(tt.c); got != tt.want {
			t.Errorf("Static(%+v) = %v, want %v", tt.c, got, tt.want)
		}
	}
}

// trained returns a model trained on a simulated log.
func trained(t testing.TB) *router.Model {
	t.Helper()
	m := router.New(router.Options{Buckets: 1 << 16})
	m.Train(router.Simulate(router.World{ContextDependent: true, Seed: 7}, 500))
	return m
}

// probes are situations and candidates, odd ones included, to score.
func probes() ([]router.Situation, []router.Candidate) {
	ss := []router.Situation{
		{},
		{Text: "run the integration tests", Tool: "Bash", Paths: []string{"db/x.sql"}},
		{Text: strings.Repeat("many words here ", 50), Paths: []string{"a/b.go", "c/d.md", ".", ""}},
	}
	for _, r := range router.Simulate(router.World{ContextDependent: true, Seed: 7}, 20) {
		ss = append(ss, r.Situation())
	}
	cs := []router.Candidate{
		{},
		{Path: "lessons/lesson-001.md", Relevance: 0.8, Strength: 0.55, Domain: "testing", Tags: []string{"db"}},
		{Path: "lessons/lesson-002.md", Relevance: 0.1, Strength: 0.9},
		{Path: "lessons/x.md", Relevance: math.NaN(), Strength: math.Inf(1)},
		{Path: "lessons/y.md", Relevance: -3, Strength: 7},
	}
	return ss, cs
}

func TestScoreInOpenUnitInterval(t *testing.T) {
	ss, cs := probes()
	if got := router.New(router.Options{}).Score(ss[1], cs[1]); got != 0.5 {
		t.Errorf("a new model scores %v, want 0.5", got)
	}
	m := trained(t)
	for _, s := range ss {
		for _, c := range cs {
			if p := m.Score(s, c); !(p > 0 && p < 1) {
				t.Errorf("Score(%+v, %+v) = %v, want within (0, 1)", s, c, p)
			}
		}
	}
}

func TestLearnMovesScoreTowardsLabel(t *testing.T) {
	ss, cs := probes()
	for _, helped := range []bool{true, false} {
		for _, m := range []*router.Model{router.New(router.Options{}), trained(t)} {
			for _, s := range ss[:4] {
				for _, c := range cs {
					before, n := m.Score(s, c), m.Examples()
					m.Learn(s, c, helped)
					after := m.Score(s, c)
					if helped && !(after > before) || !helped && !(after < before) {
						t.Errorf("Learn(%q, %q, %v) moved the score %v → %v", s.Text, c.Path, helped, before, after)
					}
					if m.Examples() != n+1 {
						t.Errorf("Examples %d after one more, want %d", m.Examples(), n+1)
					}
				}
			}
		}
	}
}

func TestRerankUntrainedIsStaticOrder(t *testing.T) {
	cs := []router.Candidate{
		{Path: "b.md", Relevance: 0.5, Strength: 0.5, Domain: "first"},
		{Path: "c.md", Relevance: 0.9, Strength: 0.9},
		{Path: "b.md", Relevance: 0.5, Strength: 0.5, Domain: "second"},
		{Path: "a.md", Relevance: 0.25, Strength: 1},
		{Path: "d.md"},
	}
	in := clone(cs)
	got := router.New(router.Options{}).Rerank(router.Situation{Text: "x"}, cs)
	// Equal scores: by static, then path, then input order.
	want := []router.Candidate{cs[1], cs[3], cs[0], cs[2], cs[4]}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Rerank = %v, want %v", got, want)
	}
	if !reflect.DeepEqual(cs, in) {
		t.Errorf("Rerank changed its input: %v, was %v", cs, in)
	}
}

func TestRerankLearned(t *testing.T) {
	m := router.New(router.Options{})
	s := router.Situation{Text: "migrate the schema", Tool: "Bash", Paths: []string{"db/001.sql"}}
	other := router.Situation{Text: "write release notes", Tool: "Edit", Paths: []string{"docs/notes.md"}}
	good := router.Candidate{Path: "lessons/backup-first.md", Relevance: 0.3, Strength: 0.5}
	loud := router.Candidate{Path: "lessons/generic.md", Relevance: 0.9, Strength: 0.8}
	for range 20 {
		m.Learn(s, good, true)
		m.Learn(s, loud, false)
		m.Learn(other, loud, true)
		m.Learn(other, good, false)
	}
	cs := []router.Candidate{loud, good}
	in := clone(cs)
	if got := m.Rerank(s, cs); got[0].Path != good.Path {
		t.Errorf("Rerank(%q) = %v, want %s first", s.Text, got, good.Path)
	}
	if got := m.Rerank(other, cs); got[0].Path != loud.Path {
		t.Errorf("Rerank(%q) = %v, want %s first", other.Text, got, loud.Path)
	}
	if !reflect.DeepEqual(cs, in) {
		t.Errorf("Rerank changed its input: %v, was %v", cs, in)
	}
	if got := m.Rerank(s, nil); len(got) != 0 {
		t.Errorf("Rerank(nil) = %v", got)
	}
}

func clone(cs []router.Candidate) []router.Candidate {
	out := slices.Clone(cs)
	for i := range out {
		out[i].Tags = slices.Clone(out[i].Tags)
	}
	return out
}

func TestOptionsDefaults(t *testing.T) {
	got := router.New(router.Options{}).Options()
	if got.Buckets != 1<<18 || got.LearningRate <= 0 || got.L2 <= 0 {
		t.Errorf("defaults %+v", got)
	}
	if got := router.New(router.Options{Buckets: 1 << 30, L2: -1}).Options(); got.Buckets != router.MaxBuckets || got.L2 != 0 {
		t.Errorf("Options{Buckets: 1<<30, L2: -1} became %+v, want MaxBuckets buckets and no L2", got)
	}
}

func TestMarshalDecodeRoundTrip(t *testing.T) {
	m := trained(t)
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	got, err := router.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if got.Examples() != m.Examples() || got.Options() != m.Options() {
		t.Errorf("decoded %d examples, %+v; marshalled %d, %+v", got.Examples(), got.Options(), m.Examples(), m.Options())
	}
	ss, cs := probes()
	same := func() {
		t.Helper()
		for _, s := range ss {
			for _, c := range cs {
				if a, b := m.Score(s, c), got.Score(s, c); a != b {
					t.Fatalf("Score(%q, %q) = %v marshalled, %v decoded", s.Text, c.Path, a, b)
				}
			}
		}
	}
	same()
	// The decoded model goes on learning as the marshalled one does.
	more := router.Simulate(router.World{ContextDependent: true, Seed: 8}, 50)
	m.Train(more)
	got.Train(more)
	same()
}

func TestDecodeBadModels(t *testing.T) {
	b, err := trained(t).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	otherVersion := slices.Clone(b)
	otherVersion[len("VMROUTER")]++
	binary.LittleEndian.PutUint32(otherVersion[len(otherVersion)-4:],
		crc32.Checksum(otherVersion[:len(otherVersion)-4], crc32.MakeTable(crc32.Castagnoli)))
	flipped := slices.Clone(b)
	flipped[len(flipped)/2] ^= 1
	for _, tt := range []struct {
		name   string
		data   []byte
		reason string
	}{
		{"empty", nil, "not a router model"},
		{"garbage", []byte("{\"weights\": [1, 2, 3]}\n"), "not a router model"},
		{"header only", b[:9], "truncated"},
		{"truncated", b[:len(b)/2], "checksum"},
		{"last byte gone", b[:len(b)-1], "checksum"},
		{"flipped bit", flipped, "checksum"},
		{"other version", otherVersion, "format version 2, want 1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m, err := router.Decode(tt.data)
			if m != nil || !errors.Is(err, router.ErrBadModel) {
				t.Fatalf("Decode = %v, %v; want an ErrBadModel", m, err)
			}
			if msg := err.Error(); !strings.Contains(msg, tt.reason) {
				t.Errorf("error %q does not say %q", msg, tt.reason)
			}
		})
	}
}

const goodLine = `{"time":"2026-11-23T14:02:05Z","lesson":"lessons/run-migrations.md","outcome":"success","context":"run the integration tests","tool":"Bash","paths":["db/x.sql"],"shown":[{"path":"lessons/run-migrations.md","relevance":0.8,"strength":0.55,"domain":"testing","tags":["db"]},{"path":"lessons/other.md","relevance":0.4,"strength":0.7,"domain":"git","tags":[]}],"episode":"tasks/t.md","agent":"default"}`

func TestReadLog(t *testing.T) {
	for _, tt := range []struct {
		name  string
		log   string
		n     int // records, when no error
		line  int // the bad line, when an error
		cause string
	}{
		{"empty", "", 0, 0, ""},
		{"blank lines", "\n  \n\r\n", 0, 0, ""},
		{"one", goodLine + "\n", 1, 0, ""},
		{"no final newline", goodLine + "\n\n" + goodLine, 2, 0, ""},
		{"crlf", goodLine + "\r\n" + goodLine + "\r\n", 2, 0, ""},
		{"unknown fields", `{"lesson":"a.md","outcome":"failure","new":1}`, 1, 0, ""},
		{"bad json", goodLine + "\n\n" + `{"lesson":"a.md",` + "\n", 0, 3, "unexpected end"},
		{"not an object", goodLine + "\n[1,2]\n", 0, 2, "not a JSON object"},
		{"no lesson", `{"outcome":"success"}`, 0, 1, "no lesson"},
		{"no outcome", "\n" + `{"lesson":"a.md"}`, 0, 2, "no outcome"},
		{"bad time", `{"lesson":"a.md","outcome":"success","time":"yesterday"}`, 0, 1, "parsing time"},
		{"two objects", `{"lesson":"a.md","outcome":"success"} {}`, 0, 1, "invalid character"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "outcomes.jsonl")
			if err := os.WriteFile(path, []byte(tt.log), 0o644); err != nil {
				t.Fatal(err)
			}
			recs, err := router.ReadLog(path)
			if tt.line == 0 {
				if err != nil || len(recs) != tt.n {
					t.Fatalf("ReadLog = %d records, %v; want %d, no error", len(recs), err, tt.n)
				}
				return
			}
			var pe *router.ParseError
			if !errors.As(err, &pe) || pe.Path != path || pe.Line != tt.line {
				t.Fatalf("ReadLog error %v, want a ParseError at %s:%d", err, path, tt.line)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, path+":"+strconv.Itoa(tt.line)+": ") || !strings.Contains(msg, tt.cause) {
				t.Errorf("error %q, want %s:%d: …%s…", msg, path, tt.line, tt.cause)
			}
		})
	}
	if _, err := router.ReadLog(filepath.Join(t.TempDir(), "none.jsonl")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadLog of a missing file: %v, want fs.ErrNotExist", err)
	}
}

func TestReadLogRecord(t *testing.T) {
	recs, err := router.ParseLog(strings.NewReader(goodLine), "log")
	if err != nil {
		t.Fatal(err)
	}
	r := recs[0]
	if r.Lesson != "lessons/run-migrations.md" || r.Outcome != router.Success || r.Time.Year() != 2026 ||
		r.Tool != "Bash" || len(r.Shown) != 2 || r.Shown[1].Strength != 0.7 || r.Shown[0].Tags[0] != "db" {
		t.Errorf("parsed %+v", r)
	}
}

// writeLog writes recs as an outcome log.
func writeLog(t *testing.T, recs []router.Record) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for _, r := range recs {
		if err := enc.Encode(r); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "outcomes.jsonl")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLogRoundTrip(t *testing.T) {
	recs := router.Simulate(router.World{Seed: 3}, 200)
	got, err := router.ReadLog(writeLog(t, recs))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, recs) {
		t.Errorf("read back differs from what was written")
	}
}

func TestTrainLabels(t *testing.T) {
	s := router.Situation{Text: "run the integration tests", Tool: "Bash", Paths: []string{"db/x.sql"}}
	a := router.Shown{Path: "lessons/a.md", Relevance: 0.5, Strength: 0.5}
	b := router.Shown{Path: "lessons/b.md", Relevance: 0.5, Strength: 0.5}
	rec := func(lesson, outcome string, shown ...router.Shown) router.Record {
		return router.Record{Lesson: lesson, Outcome: outcome, Context: s.Text, Tool: s.Tool, Paths: s.Paths, Shown: shown}
	}
	for _, tt := range []struct {
		name     string
		recs     []router.Record
		examples int
		better   string // a: a scores higher afterwards; "": both below 0.5; none: no check
	}{
		{"success", []router.Record{rec(a.Path, router.Success, a, b)}, 2, a.Path},
		{"failure", []router.Record{rec(a.Path, router.Failure, a, b)}, 2, ""},
		{"nothing shown", []router.Record{rec(a.Path, router.Success)}, 1, a.Path},
		{"lesson not shown", []router.Record{rec(a.Path, router.Success, b)}, 2, a.Path},
		{"other outcome", []router.Record{rec(a.Path, "skipped", a, b)}, 0, "none"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := router.New(router.Options{})
			m.Train(tt.recs)
			if m.Examples() != tt.examples {
				t.Errorf("Examples %d, want %d", m.Examples(), tt.examples)
			}
			sa, sb := m.Score(s, a.Candidate()), m.Score(s, b.Candidate())
			switch tt.better {
			case a.Path:
				if !(sa > sb) {
					t.Errorf("a scores %v, b %v; want a higher", sa, sb)
				}
			case "":
				if !(sa < 0.5 && sb < 0.5) {
					t.Errorf("a scores %v, b %v; want both below 0.5", sa, sb)
				}
			}
		})
	}
}

func TestSimulate(t *testing.T) {
	w := router.World{Lessons: 20, Contexts: 4, Shown: 5, ContextDependent: true, TopBias: 0.5, Seed: 9}
	recs := router.Simulate(w, 300)
	if again := router.Simulate(w, 300); !reflect.DeepEqual(recs, again) {
		t.Error("the same world simulated twice differs")
	}
	w.Seed++
	if other := router.Simulate(w, 300); reflect.DeepEqual(recs, other) {
		t.Error("another seed simulates the same records")
	}
	if len(recs) != 300 {
		t.Fatalf("%d records, want 300", len(recs))
	}
	successes := 0
	for i, r := range recs {
		if i > 0 && !r.Time.After(recs[i-1].Time) {
			t.Errorf("record %d at %v, not after %v", i, r.Time, recs[i-1].Time)
		}
		if len(r.Shown) != 5 || !slices.ContainsFunc(r.Shown, func(s router.Shown) bool { return s.Path == r.Lesson }) {
			t.Errorf("record %d shows %d, lesson %s among them: %v", i, len(r.Shown), r.Lesson, r.Shown)
		}
		if r.Outcome == router.Success {
			successes++
		} else if r.Outcome != router.Failure {
			t.Errorf("record %d outcome %q", i, r.Outcome)
		}
		if r.Context == "" {
			t.Errorf("record %d has no context", i)
		}
	}
	if successes == 0 || successes == len(recs) {
		t.Errorf("%d successes of %d", successes, len(recs))
	}
	if got := router.Simulate(router.World{}, 0); len(got) != 0 {
		t.Errorf("Simulate(0) = %d records", len(got))
	}
}

func TestReplayCounts(t *testing.T) {
	recs := router.Simulate(router.World{Seed: 4}, 400)
	in := slices.Clone(recs)
	rep := router.Replay(recs, 0.25, router.Options{})
	if rep.Train != 100 || rep.Held != 300 || rep.Test == 0 || rep.Test > rep.Held {
		t.Errorf("Replay counts %+v, want 100 trained, 300 held, some tested", rep)
	}
	if !reflect.DeepEqual(recs, in) {
		t.Error("Replay changed its input")
	}
	// Out of order, the same records replay the same: Replay sorts by time.
	shuffled := slices.Clone(recs)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	if got := router.Replay(shuffled, 0.25, router.Options{}); got != rep {
		t.Errorf("shuffled: %+v, want %+v", got, rep)
	}
	for _, tt := range []struct {
		frac        float64
		train, held int
	}{{0, 0, 400}, {-1, 0, 400}, {math.NaN(), 0, 400}, {1, 400, 0}, {2, 400, 0}} {
		got := router.Replay(recs, tt.frac, router.Options{})
		if got.Train != tt.train || got.Held != tt.held {
			t.Errorf("Replay(%v) = %+v, want %d trained, %d held", tt.frac, got, tt.train, tt.held)
		}
		if got.Test == 0 && (got.StaticP1 != 0 || got.LearnedP3 != 0) {
			t.Errorf("Replay(%v) = %+v: rates without tests", tt.frac, got)
		}
	}
	if got := router.Replay(nil, 0.5, router.Options{}); got != (router.Report{}) {
		t.Errorf("Replay(nil) = %+v", got)
	}
}

// replayWorlds are the simulated worlds the replay tests run: 3000
// records, half to train on, three seeds.
const (
	replayRecords = 3000
	replayFrac    = 0.5
)

var replaySeeds = []uint64{1, 2, 3}

func TestReplayContextDependent(t *testing.T) {
	for _, tt := range []struct {
		topBias float64
		margin  float64 // learned P@3 − static P@3 at least
	}{
		// The agent picks any shown lesson: the learned order is far ahead.
		{0, 0.10},
		// The agent favours the top of the list, which the static order
		// (close to the fast path's) gets credit for: still ahead, by less.
		{0.5, 0.05},
	} {
		for _, seed := range replaySeeds {
			w := router.World{ContextDependent: true, TopBias: tt.topBias, Seed: seed}
			rep := router.Replay(router.Simulate(w, replayRecords), replayFrac, router.Options{})
			t.Logf("context-dependent topbias=%v seed=%d: %+v", tt.topBias, seed, rep)
			if rep.Test < 100 {
				t.Errorf("only %d records tested", rep.Test)
			}
			if d := rep.LearnedP3 - rep.StaticP3; d < tt.margin {
				t.Errorf("topbias=%v seed=%d: learned P@3 %.3f, static %.3f: ahead by %.3f, want %.2f",
					tt.topBias, seed, rep.LearnedP3, rep.StaticP3, d, tt.margin)
			}
			if rep.LearnedP1 <= rep.StaticP1 {
				t.Errorf("topbias=%v seed=%d: learned P@1 %.3f, static %.3f", tt.topBias, seed, rep.LearnedP1, rep.StaticP1)
			}
		}
	}
}

func TestReplayContextFree(t *testing.T) {
	// The static formula is the truth here (up to noise); the model may
	// trail it a little, never by much.
	const slack = 0.05
	for _, topBias := range []float64{0, 0.5} {
		for _, seed := range replaySeeds {
			w := router.World{ContextDependent: false, TopBias: topBias, Seed: seed}
			rep := router.Replay(router.Simulate(w, replayRecords), replayFrac, router.Options{})
			t.Logf("context-free topbias=%v seed=%d: %+v", topBias, seed, rep)
			if rep.LearnedP3 < rep.StaticP3-slack {
				t.Errorf("topbias=%v seed=%d: learned P@3 %.3f, static %.3f: behind by more than %.2f",
					topBias, seed, rep.LearnedP3, rep.StaticP3, slack)
			}
		}
	}
}

func TestReplayWorlds(t *testing.T) {
	got := router.ReplayWorlds(400, 2, 0.5)
	var names []string
	for _, r := range got {
		names = append(names, fmt.Sprintf("%s/%d", r.World, r.Seed))
		if r.Report.Train != 200 || r.Report.Test == 0 {
			t.Errorf("%s seed %d: %+v, want 200 trained and some tested", r.World, r.Seed, r.Report)
		}
	}
	want := []string{"context-dependent/1", "context-dependent/2", "context-free/1", "context-free/2"}
	if !slices.Equal(names, want) {
		t.Errorf("worlds %v, want %v", names, want)
	}
	if got[0].Report == got[1].Report {
		t.Error("two seeds gave the same report")
	}
}
