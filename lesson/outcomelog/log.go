// Package outcomelog is the lessons' outcome log: where it lives in the
// vault's state folder (a file a person a month, LogName, and an older
// vault's single LogFile), what a record is (Record), reading it (Log.Read,
// Parse: a line that is no record is an error naming the file and line),
// and the analyses that need only its records: each lesson's outcomes and
// successes (Log.Tally), the lessons whose latest outcomes are failures
// in a row (FailingStreaks, Log.Failing), the outcomes by domain and month
// (Trends) and the log's quality measures (Measure). Tally and Failing keep a summary of
// each log file in the vault's cache folder (TallyFile, StreaksFile), so
// that a file unchanged since is not read again and one only appended to
// has only its new lines read.
//
// It reads the log through the small State interface it declares (a
// *vault.Writer is one) and writes nothing but its cache files; package
// lesson appends the records and names the lessons. It imports
// lesson/router (a record is the router's with the strength around the
// outcome), lesson/strength (its rounding), markdown (a merge's conflict
// markers) and vault; never lesson.
package outcomelog

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/vaultmem/vaultmem/lesson/router"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/vault"
)

// LogDir is the outcome log's folder, under the vault's state folder
// (.vaultmem/state): a file a person a month, PERSON/YYYY-MM.jsonl (see
// LogName), one JSON record a line, only ever appended. One file for a
// whole team grew by every outcome of every teammate, so that each commit
// carried a new copy of all of it and each pull merged all of it (a
// 50-person team's year: 490 MB); a person's month is small, written by
// one person, and merged by git's union rule like the single file was.
const LogDir = "lessons/outcomes"

// LogFile is the outcome log of older vaults, one file for everyone: read
// with the files of LogDir, never written.
const LogFile = "lessons/outcomes.jsonl"

// LogName is the outcome log file (under the state folder) of the records
// person writes in the month of t (UTC): person as a file name (anything
// but letters, digits, "@", ".", "_" and "-" made "-"; "default" for
// none).
func LogName(person string, t time.Time) string {
	safe := strings.Trim(strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '@', r == '.', r == '_', r == '-':
			return r
		}
		return '-'
	}, person), ".-")
	if safe == "" {
		safe = "default"
	}
	return LogDir + "/" + safe + "/" + t.UTC().Format("2006-01") + ".jsonl"
}

// Record is one line of the outcome log: which lesson was applied in what
// context, what the fast path showed for that context (as the router
// reads it), and how it went, with the lesson's domain and strength
// around the outcome.
type Record struct {
	router.Record
	Domain string `json:"domain,omitempty"`
	// Before and After are the lesson's strength around the outcome.
	Before float64 `json:"strength_before"`
	After  float64 `json:"strength_after"`
}

// State is what the log is read through: the names of the state files
// under a folder of the state folder, and a state file's content
// (vault.ErrNotFound when there is none). *vault.Writer is one.
type State interface {
	ListState(dir string) ([]string, error)
	ReadState(name string) ([]byte, string, error)
}

// Log is one vault's outcome log. The zero value of FS or CacheDir keeps
// no cache: every analysis then reads every file.
type Log struct {
	// State is where the log's files are read.
	State State
	// FS is the vault's files, which tell a log file's size and time.
	FS fs.FS
	// CacheDir is the vault's cache folder (absolute), where the
	// analyses keep their summaries (TallyFile, StreaksFile).
	CacheDir string
}

// files is the log's files under the state folder, the older single
// file first; only their names ending in ".jsonl" are the log's.
func (l Log) files() ([]string, error) {
	files, err := l.State.ListState(LogDir)
	if err != nil {
		return nil, err
	}
	return append([]string{LogFile}, files...), nil
}

// Read reads the outcome log's records, every person's and month's and
// an older vault's single file, oldest first; none when there is no log
// yet. A line that is not a record is an error naming the file and line.
func (l Log) Read() ([]Record, error) {
	files, err := l.files()
	if err != nil {
		return nil, err
	}
	out := []Record{}
	for _, name := range files {
		if !strings.HasSuffix(name, ".jsonl") {
			continue
		}
		b, _, err := l.State.ReadState(name)
		if errors.Is(err, vault.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		recs, err := Parse(vault.StateDir+"/"+name, b, 1)
		if err != nil {
			return nil, err
		}
		out = append(out, recs...)
	}
	slices.SortStableFunc(out, func(a, b Record) int { return a.Time.Compare(b.Time) })
	return out, nil
}

// Parse parses the log in b, read from file, whose first line is the
// file's line first (a tail of the file read alone starts past 1). Blank
// lines and a merge's conflict markers are skipped (both sides' lines are
// the log). Errors name the file and line of a line that is no record.
func Parse(file string, b []byte, first int) ([]Record, error) {
	out := []Record{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for line := first; sc.Scan(); line++ {
		t := bytes.TrimSpace(sc.Bytes())
		if len(t) == 0 || markdown.IsConflictMarker(string(t)) {
			continue // a merge without the union driver: both sides' lines are the log
		}
		var r Record
		if err := json.Unmarshal(t, &r); err != nil {
			return nil, fmt.Errorf("%s:%d: not an outcome record: %v", file, line, err)
		}
		if r.Lesson == "" || (r.Outcome != "success" && r.Outcome != "failure") {
			return nil, fmt.Errorf("%s:%d: not an outcome record (no lesson, or an outcome other than success or failure)", file, line)
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return out, nil
}

// stamp is what a log file was when summed up: its size and time, and the
// SHA-256 of what was read, by which a file that only grew since is
// known and only its new lines are parsed.
type stamp struct {
	Size    int64  `json:"size"`
	ModNano int64  `json:"mod_ns"`
	Sum     string `json:"sha256,omitempty"`
}

// stat returns the state file name's information when the Log can cache
// its summary: it has the vault's files and a cache folder, and the file
// is a regular file (not a link, which ReadState does not follow).
func (l Log) stat(name string) (stamp, bool) {
	if l.FS == nil || l.CacheDir == "" {
		return stamp{}, false
	}
	info, err := fs.Lstat(l.FS, vault.StateDir+"/"+name)
	if err != nil || !info.Mode().IsRegular() {
		return stamp{}, false
	}
	return stamp{Size: info.Size(), ModNano: info.ModTime().UnixNano()}, true
}

// cached reports whether the Log keeps its summaries.
func (l Log) cached() bool { return l.CacheDir != "" && l.FS != nil }

// sum is the SHA-256 of b, in hex.
func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// writeCache replaces the cache file p with b.
func writeCache(p string, b []byte) error {
	return vault.WriteCacheFile(p, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}
