package outcomelog

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/vaultmem/vaultmem/vault"
)

// StreaksFile, in the cache folder (Log.CacheDir), holds for each
// outcome log file, with the size, time and SHA-256 it had when read, a
// summary of each lesson's records in it (see runs): what Failing needs.
// Every listing of MEMORY.md asks Failing, and a log of 100,000 records
// (26 MB) read whole took 1 to 2 s and 185 MB each time; a file whose
// size and time are unchanged is taken from here, and one only appended
// to has only its new lines read.
const StreaksFile = "lesson-outcome-streaks.json"

// streaksVersion changes when the meaning of StreaksFile does; a file of
// another version is ignored.
const streaksVersion = 1

// run is a lesson's records summed up for its failing streak: how many
// outcomes and successes, the time of its latest success, the times of
// its failures after it, and its latest record's time and strength after.
// Its fold (add) does not depend on the order records come in, so a file
// appended to out of time order, or many files, sum up alike; a failure
// at the very time of the latest success does not count after it.
type run struct {
	Outcomes    int         `json:"n"`
	Successes   int         `json:"ok"`
	LastSuccess time.Time   `json:"last_ok"`
	Failures    []time.Time `json:"fail"`
	Last        time.Time   `json:"last"`
	After       float64     `json:"after"`
}

// add folds record r into u.
func (u *run) add(r Record) {
	u.Outcomes++
	if r.Time.After(u.Last) || u.Outcomes == 1 {
		u.Last, u.After = r.Time, r.After
	}
	if r.Outcome != "success" {
		if r.Time.After(u.LastSuccess) || u.LastSuccess.IsZero() {
			u.Failures = append(u.Failures, r.Time)
		}
		return
	}
	u.Successes++
	if r.Time.After(u.LastSuccess) || u.LastSuccess.IsZero() {
		u.LastSuccess = r.Time
		u.Failures = slices.DeleteFunc(u.Failures, func(t time.Time) bool { return !t.After(r.Time) })
	}
}

// merge folds o into u.
func (u *run) merge(o run) {
	u.Outcomes += o.Outcomes
	u.Successes += o.Successes
	if o.Last.After(u.Last) {
		u.Last, u.After = o.Last, o.After
	}
	if o.Successes > 0 && (u.Successes == o.Successes || o.LastSuccess.After(u.LastSuccess)) {
		u.LastSuccess = o.LastSuccess
	}
	fails := append(slices.Clone(u.Failures), o.Failures...)
	if u.Successes > 0 {
		fails = slices.DeleteFunc(fails, func(t time.Time) bool { return !t.After(u.LastSuccess) })
	}
	u.Failures = fails
}

// streak is u's streak as FailingStreaks gives it, for the lesson at p.
func (u run) streak(p string) Streak {
	fails := slices.SortedFunc(slices.Values(u.Failures), time.Time.Compare)
	s := Streak{Path: p, Failures: len(fails), Outcomes: u.Outcomes, Successes: u.Successes, Strength: u.After}
	if len(fails) > 0 {
		s.Since, s.Last = fails[0], fails[len(fails)-1]
	}
	return s
}

// streakFile is a log file's entry in StreaksFile.
type streakFile struct {
	stamp
	Runs map[string]*run `json:"runs"`
}

// streakCache is StreaksFile's content: each log file's entry, by its
// name under the state folder.
type streakCache struct {
	Version int                    `json:"version"`
	Files   map[string]*streakFile `json:"files"`
}

// runs sums up the outcome log's records by lesson path (see run), from
// StreaksFile for the files unchanged since it was written (a Log
// without FS or CacheDir reads every file). Errors: Read's.
func (l Log) runs() (map[string]*run, error) {
	files, err := l.files()
	if err != nil {
		return nil, err
	}
	cached := l.loadStreaks()
	next := &streakCache{Version: streaksVersion, Files: map[string]*streakFile{}}
	changed := false
	total := map[string]*run{}
	for _, name := range files {
		if !strings.HasSuffix(name, ".jsonl") {
			continue
		}
		st, ok := l.stat(name)
		c := cached.Files[name]
		if ok && c != nil && c.Size == st.Size && c.ModNano == st.ModNano {
			next.Files[name] = c
			mergeRuns(total, c.Runs)
			continue
		}
		b, _, err := l.State.ReadState(name)
		if errors.Is(err, vault.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		changed = true
		// Only the new lines of a file only appended to since it was read.
		runs, from, first := map[string]*run{}, 0, 1
		if ok && c != nil && c.Sum != "" && c.Size > 0 && c.Size < int64(len(b)) && b[c.Size-1] == '\n' && sum(b[:c.Size]) == c.Sum {
			runs, from, first = cloneRuns(c.Runs), int(c.Size), 1+bytes.Count(b[:c.Size], []byte("\n"))
		}
		recs, err := Parse(vault.StateDir+"/"+name, b[from:], first)
		if err != nil {
			return nil, err
		}
		addRuns(runs, recs)
		mergeRuns(total, runs)
		// A line appended between the stat and the read makes the file
		// longer than the stat said: not cached, lest the next call trust
		// a short summary.
		if ok && int64(len(b)) == st.Size {
			st.Sum = sum(b)
			next.Files[name] = &streakFile{stamp: st, Runs: runs}
		}
	}
	if changed || len(next.Files) != len(cached.Files) {
		l.saveStreaks(next)
	}
	return total, nil
}

// mergeRuns folds the runs of from into into, by path, copying what it
// adds (from, a cached file's, stays as it is).
func mergeRuns(into map[string]*run, from map[string]*run) {
	for p, u := range from {
		if t := into[p]; t != nil {
			t.merge(*u)
		} else {
			c := *u
			c.Failures = slices.Clone(u.Failures)
			into[p] = &c
		}
	}
}

// cloneRuns is a copy of from that folding into leaves from as it is.
func cloneRuns(from map[string]*run) map[string]*run {
	out := make(map[string]*run, len(from))
	mergeRuns(out, from)
	return out
}

// loadStreaks reads StreaksFile; an absent, damaged or other version's
// file is an empty cache (everything in it is made again from the log).
func (l Log) loadStreaks() *streakCache {
	empty := &streakCache{Files: map[string]*streakFile{}}
	if !l.cached() {
		return empty
	}
	b, err := os.ReadFile(filepath.Join(l.CacheDir, StreaksFile))
	if err != nil {
		return empty
	}
	var c streakCache
	if json.Unmarshal(b, &c) != nil || c.Version != streaksVersion || c.Files == nil {
		return empty
	}
	return &c
}

// saveStreaks writes c to StreaksFile; a failure is ignored (the cache
// only saves time).
func (l Log) saveStreaks(c *streakCache) {
	if !l.cached() {
		return
	}
	if b, err := json.Marshal(c); err == nil {
		writeCache(filepath.Join(l.CacheDir, StreaksFile), b)
	}
}

// Streak is a lesson whose latest outcomes in the log are Failures
// failures in a row, the first of them at Since and the last at Last,
// with its whole record in the log: Outcomes, of which Successes
// succeeded, and the strength the last one left (Strength).
type Streak struct {
	Path      string    `json:"path"`
	Name      string    `json:"name"`
	Failures  int       `json:"failures"`
	Since     time.Time `json:"since"`
	Last      time.Time `json:"last"`
	Outcomes  int       `json:"outcomes"`
	Successes int       `json:"successes"`
	Strength  float64   `json:"strength"`
}

// FailingStreaks returns the lessons whose latest n or more outcomes in
// recs (the outcome log) are all failures, the longest streak first (then
// by path); none when n < 1. The records' order does not matter, only
// their times: a failure at the very time of a lesson's latest success
// does not count after it. Names are left empty: the log has only paths.
func FailingStreaks(recs []Record, n int) []Streak {
	runs := map[string]*run{}
	addRuns(runs, recs)
	return failing(runs, n)
}

// addRuns adds each record to its lesson's run in runs.
func addRuns(runs map[string]*run, recs []Record) {
	for _, r := range recs {
		u := runs[r.Lesson]
		if u == nil {
			u = &run{}
			runs[r.Lesson] = u
		}
		u.add(r)
	}
}

// failing is the streaks of n failures or more of runs, by path, the
// longest first (then by path).
func failing(runs map[string]*run, n int) []Streak {
	out := []Streak{}
	if n < 1 {
		return out
	}
	for p, u := range runs {
		if len(u.Failures) >= n {
			out = append(out, u.streak(p))
		}
	}
	slices.SortFunc(out, func(a, b Streak) int {
		return cmp.Or(cmp.Compare(b.Failures, a.Failures), strings.Compare(a.Path, b.Path))
	})
	return out
}

// Failing returns the lessons whose latest n or more logged outcomes are
// failures (see FailingStreaks), their names left empty; none when n < 1.
// The log's files unchanged since the last call are not read again (see
// StreaksFile). Errors: Read's (a line that is no record names the file
// and line).
func (l Log) Failing(n int) ([]Streak, error) {
	if n < 1 {
		return []Streak{}, nil
	}
	runs, err := l.runs()
	if err != nil {
		return nil, err
	}
	return failing(runs, n), nil
}
