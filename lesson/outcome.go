package lesson

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/vaultmem/vaultmem/lesson/router"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/redact"
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

// Shown is a lesson the fast path returned, with what it was ranked by.
type Shown = router.Shown

// Outcome is what happened when an agent applied a lesson.
type Outcome struct {
	Lesson  string // a path or name
	Success bool
	// Episode is the note (a task, a memory) where it happened.
	Episode string
	// Context, Tool and Paths describe the situation, as given to Match.
	Context string
	Tool    string
	Paths   []string
	Agent   string
}

// Applied is an outcome's effect on its lesson.
type Applied struct {
	Path         string  `json:"path"`
	Name         string  `json:"name"`
	Outcome      string  `json:"outcome"`
	Before       float64 `json:"strength_before"`
	After        float64 `json:"strength_after"`
	Applications int     `json:"application_count"`
	// Confidence is the lesson's confidence after the outcome (see
	// Confidence); Version its rule's version (see RecordEdits).
	Confidence float64 `json:"confidence"`
	Version    int     `json:"version"`
	// Flagged is set when the strength is now below the review line.
	Flagged bool   `json:"flagged"`
	History string `json:"history"`
}

// Outcome applies the strength rule to the lesson o names: its strength is
// computed again from its ledger with the outcome in it (see
// Rules.Strength; the days it went unused decay it first), starting from
// the strength its note has now when a person edited it (recorded as a
// "set by hand" line before the outcome's), writes its confidence from
// its History's outcomes with this one (see Confidence), bumps
// application_count and last_applied, appends a history line and logs the
// record, o's situation and agent with their secrets masked. Errors: those
// of Resolve; ErrArchived; an error naming the file and line when the
// note's strength is not a number in 0..1 (the note is then left as it
// is).
func (s *Store) Outcome(ctx context.Context, o Outcome) (Applied, error) {
	p, err := s.Resolve(ctx, o.Lesson)
	if err != nil {
		return Applied{}, err
	}
	episode := ""
	if strings.TrimSpace(o.Episode) != "" {
		ep, err := s.ix.Lookup(ctx, strings.Trim(strings.TrimSpace(o.Episode), "[]"))
		if err != nil {
			return Applied{}, fmt.Errorf("episode: %w", err)
		}
		episode = "[[" + s.ix.LinkText(ctx, ep) + "]]"
	}
	var shown []Shown
	sit := Situation{Text: o.Context, Tool: o.Tool, Paths: o.Paths}
	if !sit.empty() {
		res, err := s.m.Match(ctx, sit, DefaultK)
		if err != nil {
			return Applied{}, err
		}
		for _, m := range res.Lessons {
			shown = append(shown, Shown{Path: m.Path, Relevance: m.Relevance, Strength: m.Strength, Domain: m.Domain, Tags: m.Tags})
		}
	}
	word := "failure"
	if o.Success {
		word = "success"
	}
	at := s.now()
	var out Applied
	var domain string
	err = s.update(ctx, p, func(n *markdown.Note) ([]byte, error) {
		l := Read(n)
		if vault.IsArchived(n) {
			return nil, fmt.Errorf("%s: %w (remove archived from it and raise its strength to use it again)", p, ErrArchived)
		}
		for _, pr := range l.Problems {
			if pr.Key == KeyStrength || pr.Key == KeyApplications {
				return nil, fmt.Errorf("%s:%d: %s; fix it by hand first (the note is left as it is)", p, pr.Line, pr.Message)
			}
		}
		// The strength is computed from the note's ledger with this outcome
		// in it; a strength a person wrote that the ledger does not give is
		// recorded first (set by hand), so the outcome starts from it.
		content, led := n.Content, ReadLedger(n)
		if e, line, ok := s.rules.handEdit(n, led, at); ok {
			content = markdown.AppendToSection(content, HistoryHeading, line)
			led.Entries = append(led.Entries, e)
		}
		before := s.rules.Strength(led, at).Strength
		kind := EntryFailure
		if o.Success {
			kind = EntrySuccess
		}
		led.Entries = append(led.Entries, Entry{Time: at, Kind: kind})
		after := s.rules.Strength(led, at).Strength
		out = Applied{Path: p, Name: l.Name, Outcome: word, Before: before, After: after,
			Applications: l.Applications + 1, Confidence: ledgerConfidence(led), Version: noteVersion(n), Flagged: s.rules.Flagged(after)}
		domain = l.Domain
		what := fmt.Sprintf("%s: %s → %s", word, num(before), num(after))
		if out.Flagged {
			what += fmt.Sprintf(" (below %s: flagged for review)", num(s.rules.ReviewBelow))
		}
		out.History = historyLine(at, what, episode)
		next, err := markdown.SetFrontmatterKeys(p, content, KeyStrength, after, KeyConfidence, out.Confidence, KeyApplications, out.Applications,
			KeyLastApplied, markdown.FromJSON(at.Format(DateLayout)))
		if err != nil {
			return nil, err
		}
		return markdown.AppendToSection(next, HistoryHeading, out.History), nil
	})
	if err != nil {
		return Applied{}, err
	}
	rec := Record{Record: router.Record{Time: at.UTC(), Lesson: p, Outcome: word, Context: o.Context, Tool: o.Tool, Paths: o.Paths,
		Shown: shown, Episode: strings.Trim(episode, "[]"), Agent: o.Agent}, Domain: domain, Before: out.Before, After: out.After}
	if err := s.appendLog(ctx, rec); err != nil {
		return out, fmt.Errorf("log the outcome: %w", err)
	}
	defer s.observe(ctx, out)
	return out, s.refresh(ctx, p)
}

// appendLog appends rec to the outcome log, the one way a record is
// written: the log is committed and shared, so the situation an agent
// gave (its command or query, tool, paths) and the agent's name are
// written with their secrets masked (redact.String).
func (s *Store) appendLog(ctx context.Context, rec Record) error {
	rec.Context, rec.Tool, rec.Agent = redact.String(rec.Context), redact.String(rec.Tool), redact.String(rec.Agent)
	if len(rec.Paths) > 0 {
		paths := make([]string, len(rec.Paths))
		for i, p := range rec.Paths {
			paths[i] = redact.String(p)
		}
		rec.Paths = paths
	}
	line, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	person := ""
	if s.person != nil {
		person = s.person()
	}
	return s.w.AppendState(ctx, LogName(person, rec.Time), line)
}

// update rewrites lesson note p with what fn makes of it, retrying when a
// human's save came in between (fn then runs on the new content).
func (s *Store) update(ctx context.Context, p string, fn func(n *markdown.Note) ([]byte, error)) error {
	var err error
	for range 20 {
		_, err = s.w.Update(ctx, p, func(cur []byte) ([]byte, error) {
			if len(cur) == 0 {
				return nil, errEmpty
			}
			n := markdown.Parse(p, cur)
			if n.Type() != Type {
				return nil, notLesson(p, n)
			}
			return fn(n)
		})
		if errors.Is(err, errEmpty) {
			time.Sleep(5 * time.Millisecond) // an editor between truncating and writing
			continue
		}
		if !errors.Is(err, vault.ErrConflict) {
			break
		}
	}
	return err
}

var errEmpty = errors.New("the note is empty (being saved?)")

// ReadLog reads the outcome log's records, every person's and month's and
// an older vault's single file, oldest first; none when there is no log
// yet. A line that is not a record is an error naming the file and line.
func (s *Store) ReadLog() ([]Record, error) {
	files, err := s.w.ListState(LogDir)
	if err != nil {
		return nil, err
	}
	out := []Record{}
	for _, name := range append([]string{LogFile}, files...) {
		if !strings.HasSuffix(name, ".jsonl") {
			continue
		}
		b, _, err := s.w.ReadState(name)
		if errors.Is(err, vault.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		recs, err := parseLog(vault.StateDir+"/"+name, b, 1)
		if err != nil {
			return nil, err
		}
		out = append(out, recs...)
	}
	slices.SortStableFunc(out, func(a, b Record) int { return a.Time.Compare(b.Time) })
	return out, nil
}

// parseLog parses the log in b, read from file, whose first line is the
// file's line first (a tail of the file read alone starts past 1).
func parseLog(file string, b []byte, first int) ([]Record, error) {
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
