package router

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// The outcomes a [Record] reports. Records with another outcome are read
// but not learned from.
const (
	Success = "success"
	Failure = "failure"
)

// Record is one line of the outcome log: a lesson was applied in a
// situation and it worked or it did not. The log is JSON lines, appended
// to, one Record a line.
type Record struct {
	Time    time.Time `json:"time"`
	Lesson  string    `json:"lesson"`  // the path of the lesson applied
	Outcome string    `json:"outcome"` // Success or Failure
	Context string    `json:"context,omitempty"`
	Tool    string    `json:"tool,omitempty"`
	Paths   []string  `json:"paths,omitempty"`
	// Shown are the candidates the fast path proposed, in its order; the
	// lesson applied is normally one of them.
	Shown   []Shown `json:"shown,omitempty"`
	Episode string  `json:"episode,omitempty"`
	Agent   string  `json:"agent,omitempty"`
}

// Shown is one candidate a [Record] says the fast path proposed.
type Shown struct {
	Path      string   `json:"path"`
	Relevance float64  `json:"relevance"`
	Strength  float64  `json:"strength"`
	Domain    string   `json:"domain,omitempty"`
	Tags      []string `json:"tags,omitempty"`
}

// Situation returns the situation r was in.
func (r Record) Situation() Situation {
	return Situation{Text: r.Context, Tool: r.Tool, Paths: r.Paths}
}

// Candidate returns s as a [Candidate].
func (s Shown) Candidate() Candidate {
	return Candidate{Path: s.Path, Domain: s.Domain, Tags: s.Tags, Relevance: s.Relevance, Strength: s.Strength}
}

// ParseError reports a line of an outcome log that is not a record.
type ParseError struct {
	Path string // the log's name
	Line int    // 1-based
	Err  error
}

func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %v", e.Path, e.Line, e.Err) }

func (e *ParseError) Unwrap() error { return e.Err }

// ReadLog reads the outcome log at path. Blank lines are skipped; any
// other line must be a JSON object with a lesson and an outcome, else
// ReadLog returns a *[ParseError] naming path and the line. An empty file
// has no records and no error.
func ReadLog(path string) ([]Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read outcome log: %w", err)
	}
	defer f.Close()
	return ParseLog(f, path)
}

// ParseLog reads an outcome log from r as [ReadLog] does; name is the
// log's name for errors.
func ParseLog(r io.Reader, name string) ([]Record, error) {
	var recs []Record
	br := bufio.NewReader(r)
	for line := 1; ; line++ {
		b, err := br.ReadBytes('\n')
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("read outcome log %s: %w", name, err)
		}
		if t := bytes.TrimSpace(b); len(t) > 0 {
			rec, perr := parseRecord(t)
			if perr != nil {
				return nil, &ParseError{Path: name, Line: line, Err: perr}
			}
			recs = append(recs, rec)
		}
		if err == io.EOF {
			return recs, nil
		}
	}
}

// parseRecord decodes one line of the log.
func parseRecord(b []byte) (Record, error) {
	var r Record
	if b[0] != '{' {
		return r, errors.New("not a JSON object")
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return r, err
	}
	switch {
	case r.Lesson == "":
		return r, errors.New("no lesson")
	case r.Outcome == "":
		return r, errors.New("no outcome")
	}
	return r, nil
}
