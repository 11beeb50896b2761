package lesson

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/vaultmem/vaultmem/lesson/outcomelog"
	"github.com/vaultmem/vaultmem/lesson/router"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/redact"
	"github.com/vaultmem/vaultmem/vault"
)

// LogDir, LogFile and LogName say where the outcome log is (see package
// outcomelog); Record is a line of it.
const (
	LogDir  = outcomelog.LogDir
	LogFile = outcomelog.LogFile
)

// LogName is outcomelog.LogName: the log file person writes in t's month.
func LogName(person string, t time.Time) string { return outcomelog.LogName(person, t) }

// Record is one line of the outcome log (see outcomelog.Record).
type Record = outcomelog.Record

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
		if e, line, ok := handEdit(s.rules, n, led, at); ok {
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
func (s *Store) ReadLog() ([]Record, error) { return s.log().Read() }

// log is the vault's outcome log, its analyses' summaries kept in the
// Store's cache folder.
func (s *Store) log() outcomelog.Log {
	return outcomelog.Log{State: s.w, FS: s.fsys, CacheDir: s.cacheDir}
}
