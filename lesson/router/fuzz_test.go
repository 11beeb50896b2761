package router

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"testing"
)

// FuzzReadLog checks that any log parses to records or to a *ParseError
// naming the line, never a panic; that what parses writes back and
// parses the same; and that a model learns from it and scores it within
// (0, 1).
func FuzzReadLog(f *testing.F) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for _, r := range Simulate(World{Lessons: 5, Contexts: 2, Shown: 3, Seed: 1}, 3) {
		enc.Encode(r)
	}
	for _, seed := range []string{
		b.String(),
		"",
		"\n\n",
		`{"lesson":"a.md","outcome":"success"}`,
		`{"time":"2026-11-23T14:02:05+01:00","lesson":"a.md","outcome":"failure","context":"déjà vu 数据库","paths":["../x","/y.go",""],"shown":[null,{"path":"a.md","relevance":1e308,"strength":-0}]}`,
		`{"lesson":"a.md",`,
		"[1]\n{}",
		"{\"lesson\":\"\xff\",\"outcome\":\"x\"}",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, err := ParseLog(bytes.NewReader(data), "fuzz.jsonl")
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Path != "fuzz.jsonl" || pe.Line < 1 {
				t.Fatalf("error %v is not a ParseError naming the file and a line", err)
			}
			return
		}
		var out bytes.Buffer
		enc := json.NewEncoder(&out)
		for _, r := range recs {
			if r.Lesson == "" || r.Outcome == "" {
				t.Fatalf("record without a lesson or an outcome: %+v", r)
			}
			if err := enc.Encode(r); err != nil {
				t.Fatal(err)
			}
		}
		again, err := ParseLog(&out, "again")
		if err != nil {
			t.Fatalf("a log written back does not parse: %v", err)
		}
		if len(again) != len(recs) {
			t.Fatalf("%d records written back, %d read", len(recs), len(again))
		}
		for i := range recs {
			a, b := recs[i], again[i]
			if !a.Time.Equal(b.Time) || a.Lesson != b.Lesson || a.Context != b.Context || len(a.Shown) != len(b.Shown) {
				t.Fatalf("record %d written back differs: %+v, then %+v", i, a, b)
			}
		}
		m := New(Options{Buckets: 1 << 10})
		m.Train(recs)
		for _, r := range recs {
			for _, s := range r.Shown {
				if p := m.Score(r.Situation(), s.Candidate()); !(p > 0 && p < 1) {
					t.Fatalf("Score %v", p)
				}
			}
		}
	})
}

// FuzzDecode checks that any bytes decode to a model or an error, never a
// panic, and that a model decoded encodes back to the same bytes.
func FuzzDecode(f *testing.F) {
	m := New(Options{Buckets: 64})
	m.Train(Simulate(World{Lessons: 5, Contexts: 2, Shown: 3, Seed: 1}, 5))
	f.Add(m.encode())
	f.Add(New(Options{Buckets: 1}).encode())
	f.Add([]byte(formatMagic))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := decode(b)
		if err != nil {
			return
		}
		if got := m.encode(); !bytes.Equal(got, b) {
			t.Fatalf("decoded and encoded again: %d bytes, want the %d read", len(got), len(b))
		}
		p := m.Score(Situation{Text: "x"}, Candidate{Path: "a.md", Relevance: 1, Strength: 1})
		if math.IsNaN(p) {
			t.Fatal("a decoded model scores NaN")
		}
	})
}
