package lesson

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/vaultmem/vaultmem/vault"
)

// TallyFile, in the cache folder (Options.CacheDir), holds the outcome
// log's counts per lesson, with the size and modification time each log
// file had when counted; TallyFilesFile holds the counts of each file, read
// only when a file changed. Review's weak rule needs only these counts,
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

// tally is a lesson's logged outcomes and how many were successes.
type tally [2]int

// stamp is what a log file was when counted: its size and time, and the
// SHA-256 of what was counted, by which a file that only grew since is
// known and only its new lines are parsed.
type stamp struct {
	Size    int64  `json:"size"`
	ModNano int64  `json:"mod_ns"`
	Sum     string `json:"sha256,omitempty"`
}

// tallyCache is TallyFile's content: the stamps of the files counted, the
// sum of their counts, and the SHA-256 of the TallyFilesFile that holds
// each one's counts (so that a files file written by another process in
// between is known not to go with these totals).
type tallyCache struct {
	Version  int              `json:"version"`
	Files    map[string]stamp `json:"files"`
	Totals   map[string]tally `json:"totals"`
	FilesSum string           `json:"files_sha256"`
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
		out, _, err = s.countLog(&tallyCache{})
	}
	return out, err
}

// countLog is logTally from the cache cached, which it writes again when a
// file changed; not ok when the counts of cached files were needed but
// TallyFilesFile does not go with cached.
func (s *Store) countLog(cached *tallyCache) (map[string]tally, bool, error) {
	files, err := s.w.ListState(LogDir)
	if err != nil {
		return nil, false, err
	}
	kept := map[string]stamp{}
	fresh := map[string]map[string]tally{} // the files read and cacheable
	grown := map[string]bool{}             // of those, the ones whose new lines alone were counted
	freshStamps := map[string]stamp{}
	uncached := map[string]tally{} // the counts of the files that cannot be cached
	for _, name := range append([]string{LogFile}, files...) {
		if !strings.HasSuffix(name, ".jsonl") {
			continue
		}
		st, ok := s.statLog(name)
		c, found := cached.Files[name]
		if ok && found && c.Size == st.Size && c.ModNano == st.ModNano {
			kept[name] = c
			continue
		}
		b, _, err := s.w.ReadState(name)
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
		recs, err := parseLog(vault.StateDir+"/"+name, b[from:], first)
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
			if perFile, ok = s.loadFileCounts(cached.FilesSum); !ok {
				return nil, false, nil
			}
		}
		counted := func(name string) (map[string]tally, bool) {
			var c map[string]tally
			return c, json.Unmarshal(perFile[name], &c) == nil && c != nil
		}
		totals = map[string]tally{}
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
		s.saveTally(&tallyCache{Version: tallyVersion, Files: kept, Totals: totals}, perFile)
	}
	out := map[string]tally{}
	addTally(out, totals, 1)
	addTally(out, uncached, 1)
	return out, true, nil
}

// sum is the SHA-256 of b, in hex.
func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
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
func (s *Store) statLog(name string) (stamp, bool) {
	if s.fsys == nil || s.cacheDir == "" {
		return stamp{}, false
	}
	info, err := fs.Lstat(s.fsys, vault.StateDir+"/"+name)
	if err != nil || !info.Mode().IsRegular() {
		return stamp{}, false
	}
	return stamp{Size: info.Size(), ModNano: info.ModTime().UnixNano()}, true
}

// loadTally reads TallyFile; an absent, unreadable or other version's
// file is an empty cache, since every count in it can be made again from
// the log.
func (s *Store) loadTally() *tallyCache {
	if s.cacheDir == "" || s.fsys == nil {
		return &tallyCache{}
	}
	b, err := os.ReadFile(filepath.Join(s.cacheDir, TallyFile))
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
func (s *Store) loadFileCounts(want string) (map[string]json.RawMessage, bool) {
	b, err := os.ReadFile(filepath.Join(s.cacheDir, TallyFilesFile))
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
func (s *Store) saveTally(c *tallyCache, perFile map[string]json.RawMessage) {
	if s.cacheDir == "" || s.fsys == nil {
		return
	}
	var buf bytes.Buffer
	for _, name := range slices.Sorted(maps.Keys(perFile)) {
		buf.WriteString(strconv.Quote(name))
		buf.WriteByte('\t')
		buf.Write(perFile[name])
		buf.WriteByte('\n')
	}
	if writeCache(filepath.Join(s.cacheDir, TallyFilesFile), buf.Bytes()) != nil {
		return
	}
	c.FilesSum = sum(buf.Bytes())
	if b, err := json.Marshal(c); err == nil {
		writeCache(filepath.Join(s.cacheDir, TallyFile), b)
	}
}

// writeCache replaces the cache file p with b.
func writeCache(p string, b []byte) error {
	return vault.WriteCacheFile(p, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}
