package outcomelog

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/vaultmem/vaultmem/vault"
)

// TallyFile, in the cache folder (Log.CacheDir), holds the outcome
// log's counts per lesson, with the size and modification time each log
// file had when counted; TallyFilesFile holds the counts of each file, read
// only when a file changed. lesson's review (its weak rule) needs only these counts,
// and reading every person's every month of the log at each session's
// start cost tens of milliseconds on a big vault; a log file is only
// appended to, so one whose size and time are unchanged is counted from
// here and only the file being written this month is read again.
const (
	TallyFile      = "lesson-outcome-tally.json"
	TallyFilesFile = "lesson-outcome-tally-files.json"
)

// tallyVersion changes when the meaning of TallyFile's counts does; a
// file of another version is ignored.
const tallyVersion = 3

// Tally is a lesson's logged outcomes ([0]) and how many of them were
// successes ([1]); TallyFile keeps it as that pair.
type Tally [2]int

// tallyCache is TallyFile's content: the stamps of the files counted, the
// sum of their counts, and the SHA-256 of the TallyFilesFile that holds
// each one's counts (so that a files file written by another process in
// between is known not to go with these totals).
type tallyCache struct {
	Version  int              `json:"version"`
	Files    map[string]stamp `json:"files"`
	Totals   map[string]Tally `json:"totals"`
	FilesSum string           `json:"files_sha256"`
}

// Tally counts the outcome log's records per lesson path: outcomes and
// successes, over every file Read reads. Its answers and errors are
// Read's (a file whose line is not a record is an error naming the
// file and line): a file is read again whenever its size or time differs
// from the cache's, and a file that is not a regular file in the vault's
// folder (or a Log without FS or CacheDir) is always read.
func (l Log) Tally() (map[string]Tally, error) {
	out, ok, err := l.countLog(l.loadTally())
	if err == nil && !ok { // a damaged cache: count again without it
		out, _, err = l.countLog(&tallyCache{})
	}
	return out, err
}

// countLog is Tally from the cache cached, which it writes again when a
// file changed; not ok when the counts of cached files were needed but
// TallyFilesFile does not go with cached.
func (l Log) countLog(cached *tallyCache) (map[string]Tally, bool, error) {
	files, err := l.files()
	if err != nil {
		return nil, false, err
	}
	kept := map[string]stamp{}
	fresh := map[string]map[string]Tally{} // the files read and cacheable
	grown := map[string]bool{}             // of those, the ones whose new lines alone were counted
	freshStamps := map[string]stamp{}
	uncached := map[string]Tally{} // the counts of the files that cannot be cached
	for _, name := range files {
		if !strings.HasSuffix(name, ".jsonl") {
			continue
		}
		st, ok := l.stat(name)
		c, found := cached.Files[name]
		if ok && found && c.Size == st.Size && c.ModNano == st.ModNano {
			kept[name] = c
			continue
		}
		b, _, err := l.State.ReadState(name)
		if errors.Is(err, vault.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, false, err
		}
		// A file only appended to since it was counted (what was counted
		// is still its start, ending a line) has only its new lines
		// parsed; any other change has the whole file parsed again.
		from, first := 0, 1
		if ok && found && c.Sum != "" && c.Size > 0 && c.Size < int64(len(b)) && b[c.Size-1] == '\n' && sum(b[:c.Size]) == c.Sum {
			from, first = int(c.Size), 1+bytes.Count(b[:c.Size], []byte("\n"))
		}
		recs, err := Parse(vault.StateDir+"/"+name, b[from:], first)
		if err != nil {
			return nil, false, err
		}
		counts := map[string]Tally{}
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
		if !ok || int64(len(b)) != st.Size {
			if from > 0 { // the counted start stays in the cache
				kept[name] = c
			}
			addTally(uncached, counts, 1)
			continue
		}
		st.Sum = sum(b)
		fresh[name], freshStamps[name], grown[name] = counts, st, from > 0
	}
	totals := cached.Totals
	if len(fresh) > 0 || len(kept) != len(cached.Files) {
		// Some file changed, came or went: the totals lose the counts of
		// the cached files not kept and gain those of the files read (of
		// a file that grew, those of its new lines).
		perFile := map[string]json.RawMessage{} // each file's counts, decoded only for the files that changed
		if len(cached.Files) > 0 {
			var ok bool
			if perFile, ok = l.loadFileCounts(cached.FilesSum); !ok {
				return nil, false, nil
			}
		}
		counted := func(name string) (map[string]Tally, bool) {
			var c map[string]Tally
			return c, json.Unmarshal(perFile[name], &c) == nil && c != nil
		}
		totals = map[string]Tally{}
		addTally(totals, cached.Totals, 1)
		for name := range cached.Files {
			if _, ok := kept[name]; !ok && !grown[name] {
				old, ok := counted(name)
				if !ok {
					return nil, false, nil
				}
				addTally(totals, old, -1)
				delete(perFile, name)
			}
		}
		for name, counts := range fresh {
			addTally(totals, counts, 1)
			if grown[name] {
				old, ok := counted(name)
				if !ok {
					return nil, false, nil
				}
				addTally(old, counts, 1)
				counts = old
			}
			raw, err := json.Marshal(counts)
			if err != nil {
				return nil, false, err
			}
			perFile[name], kept[name] = raw, freshStamps[name]
		}
		for l, t := range totals {
			if t[0] == 0 {
				delete(totals, l)
			}
		}
		l.saveTally(&tallyCache{Version: tallyVersion, Files: kept, Totals: totals}, perFile)
	}
	out := map[string]Tally{}
	addTally(out, totals, 1)
	addTally(out, uncached, 1)
	return out, true, nil
}

// addTally adds sign times the counts of from to into.
func addTally(into, from map[string]Tally, sign int) {
	for l, t := range from {
		u := into[l]
		into[l] = Tally{u[0] + sign*t[0], u[1] + sign*t[1]}
	}
}

// loadTally reads TallyFile; an absent, unreadable or other version's
// file is an empty cache, since every count in it can be made again from
// the log.
func (l Log) loadTally() *tallyCache {
	if !l.cached() {
		return &tallyCache{}
	}
	b, err := os.ReadFile(filepath.Join(l.CacheDir, TallyFile))
	if err != nil {
		return &tallyCache{}
	}
	var c tallyCache
	if json.Unmarshal(b, &c) != nil || c.Version != tallyVersion || c.Totals == nil {
		return &tallyCache{}
	}
	return &c
}

// loadFileCounts reads TallyFilesFile, each cached file's counts, its
// JSON left undecoded; not ok when it is absent, damaged, or not the one
// whose SHA-256 is want.
func (l Log) loadFileCounts(want string) (map[string]json.RawMessage, bool) {
	b, err := os.ReadFile(filepath.Join(l.CacheDir, TallyFilesFile))
	if err != nil || sum(b) != want {
		return nil, false
	}
	out := map[string]json.RawMessage{}
	for line := range bytes.Lines(b) {
		q, raw, found := bytes.Cut(bytes.TrimSuffix(line, []byte("\n")), []byte("\t"))
		name, err := strconv.Unquote(string(q))
		if !found || err != nil {
			return nil, false
		}
		out[name] = raw
	}
	return out, true
}

// saveTally writes perFile to TallyFilesFile, then c, with the files
// file's SHA-256, to TallyFile (vault.WriteCacheFile: a concurrent review
// reads an old file or a new one, never half of one). The files file is a
// line a file, its quoted name, a tab and its counts' JSON, so that the
// counts of the files that did not change are copied, neither decoded nor
// encoded. A failure is ignored: the cache only saves time (a read-only
// vault's review still answers, reading the whole log).
func (l Log) saveTally(c *tallyCache, perFile map[string]json.RawMessage) {
	if !l.cached() {
		return
	}
	var buf bytes.Buffer
	for _, name := range slices.Sorted(maps.Keys(perFile)) {
		buf.WriteString(strconv.Quote(name))
		buf.WriteByte('\t')
		buf.Write(perFile[name])
		buf.WriteByte('\n')
	}
	if writeCache(filepath.Join(l.CacheDir, TallyFilesFile), buf.Bytes()) != nil {
		return
	}
	c.FilesSum = sum(buf.Bytes())
	if b, err := json.Marshal(c); err == nil {
		writeCache(filepath.Join(l.CacheDir, TallyFile), b)
	}
}
