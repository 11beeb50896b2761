package lesson

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/vaultmem/vaultmem/vault"
)

// TallyFile, in the cache folder (Options.CacheDir), holds the outcome
// log's counts per lesson, per log file, with the size and modification
// time each file had when counted. Review's weak rule needs only these
// counts, and reading every person's every month of the log at each
// session's start cost tens of milliseconds on a big vault; a log file is
// only appended to, so one whose size and time are unchanged is counted
// from here and only the file being written this month is read again.
const TallyFile = "lesson-outcome-tally.json"

// tallyVersion changes when the meaning of TallyFile's counts does; a
// file of another version is ignored.
const tallyVersion = 1

// tally is a lesson's logged outcomes and how many were successes.
type tally [2]int

// fileTally is one log file's counts, with what the file was when counted.
// The counts stay raw JSON until a file changes: decoding every file's
// counts at each review cost more than the totals it saves reading.
type fileTally struct {
	Size    int64           `json:"size"`
	ModNano int64           `json:"mod_ns"`
	Counts  json.RawMessage `json:"counts"`
}

// tallyCache is TallyFile's content: each cached file's counts and their
// sum, Totals, kept in step with them (the file is written whole, at once).
type tallyCache struct {
	Version int                   `json:"version"`
	Files   map[string]*fileTally `json:"files"`
	Totals  map[string]tally      `json:"totals"`
}

// logTally counts the outcome log's records per lesson path: outcomes and
// successes, over every file ReadLog reads. Its answers and errors are
// ReadLog's (a file whose line is not a record is an error naming the
// file and line): a file is read again whenever its size or time differs
// from the cache's, and a file that is not a regular file in the vault's
// folder (or a Store without FS or CacheDir) is always read.
func (s *Store) logTally() (map[string]tally, error) {
	out, ok, err := s.countLog(s.loadTally())
	if err == nil && !ok { // a damaged cache: count again without it
		out, _, err = s.countLog(&tallyCache{Files: map[string]*fileTally{}})
	}
	return out, err
}

// countLog is logTally from the cache cached, which it writes again when a
// file changed; not ok when a cached file's counts do not decode.
func (s *Store) countLog(cached *tallyCache) (map[string]tally, bool, error) {
	files, err := s.w.ListState(LogDir)
	if err != nil {
		return nil, false, err
	}
	next := &tallyCache{Version: tallyVersion, Files: map[string]*fileTally{}}
	fresh := map[string]map[string]tally{} // the files read and cacheable
	uncached := map[string]tally{}         // the counts of the files that cannot be cached
	for _, name := range append([]string{LogFile}, files...) {
		if !strings.HasSuffix(name, ".jsonl") {
			continue
		}
		info, ok := s.statLog(name)
		if ok {
			if c := cached.Files[name]; c != nil && c.Size == info.Size() && c.ModNano == info.ModTime().UnixNano() {
				next.Files[name] = c
				continue
			}
		}
		b, _, err := s.w.ReadState(name)
		if errors.Is(err, vault.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, false, err
		}
		recs, err := parseLog(vault.StateDir+"/"+name, b)
		if err != nil {
			return nil, false, err
		}
		counts := map[string]tally{}
		for _, r := range recs {
			t := counts[r.Lesson]
			t[0]++
			if r.Outcome == "success" {
				t[1]++
			}
			counts[r.Lesson] = t
		}
		// The stat is taken before the read: a line appended in between
		// makes the file longer than the stat said, and then its counts
		// are not cached, lest the next review trust short counts.
		if !ok || int64(len(b)) != info.Size() {
			addTally(uncached, counts, 1)
			continue
		}
		raw, err := json.Marshal(counts)
		if err != nil {
			return nil, false, err
		}
		next.Files[name] = &fileTally{Size: info.Size(), ModNano: info.ModTime().UnixNano(), Counts: raw}
		fresh[name] = counts
	}
	totals := cached.Totals
	if len(fresh) > 0 || len(next.Files) != len(cached.Files) {
		// Some file changed, came or went: the totals lose the counts of
		// the cached files not kept and gain those of the files read.
		totals = map[string]tally{}
		addTally(totals, cached.Totals, 1)
		for name, c := range cached.Files {
			if next.Files[name] == c {
				continue
			}
			var old map[string]tally
			if json.Unmarshal(c.Counts, &old) != nil {
				return nil, false, nil
			}
			addTally(totals, old, -1)
		}
		for _, counts := range fresh {
			addTally(totals, counts, 1)
		}
		for l, t := range totals {
			if t[0] == 0 {
				delete(totals, l)
			}
		}
		next.Totals = totals
		s.saveTally(next)
	}
	out := map[string]tally{}
	addTally(out, totals, 1)
	addTally(out, uncached, 1)
	return out, true, nil
}

// addTally adds sign times the counts of from to into.
func addTally(into, from map[string]tally, sign int) {
	for l, t := range from {
		u := into[l]
		into[l] = tally{u[0] + sign*t[0], u[1] + sign*t[1]}
	}
}

// statLog returns the state file name's information when the Store can
// cache its counts: it has the vault's files and a cache folder, and the
// file is a regular file (not a link, which ReadState does not follow).
func (s *Store) statLog(name string) (fs.FileInfo, bool) {
	if s.fsys == nil || s.cacheDir == "" {
		return nil, false
	}
	info, err := fs.Lstat(s.fsys, vault.StateDir+"/"+name)
	if err != nil || !info.Mode().IsRegular() {
		return nil, false
	}
	return info, true
}

// loadTally reads TallyFile; an absent, unreadable or other version's
// file is an empty cache, since every count in it can be made again from
// the log.
func (s *Store) loadTally() *tallyCache {
	empty := &tallyCache{Files: map[string]*fileTally{}}
	if s.cacheDir == "" || s.fsys == nil {
		return empty
	}
	b, err := os.ReadFile(filepath.Join(s.cacheDir, TallyFile))
	if err != nil {
		return empty
	}
	var c tallyCache
	if json.Unmarshal(b, &c) != nil || c.Version != tallyVersion || c.Files == nil || c.Totals == nil {
		return empty
	}
	return &c
}

// saveTally writes c to TallyFile through a temporary file and a rename,
// so a concurrent review reads the old cache or the new one, never half.
// A failure is ignored: the cache only saves time (a read-only vault's
// review still answers, reading the whole log).
func (s *Store) saveTally(c *tallyCache) {
	if s.cacheDir == "" || s.fsys == nil {
		return
	}
	b, err := json.Marshal(c)
	if err != nil {
		return
	}
	tmp, err := os.CreateTemp(s.cacheDir, TallyFile+".*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), filepath.Join(s.cacheDir, TallyFile)) != nil {
		os.Remove(tmp.Name())
	}
}
