package proposal

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/vaultmem/vaultmem/dream/runstate"
	"github.com/vaultmem/vaultmem/dream/similar"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/vaultmem/vaultmem/chat"
	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/vault"
)

// SessionsFile is the state file (under .vaultmem/state, committed) where
// Dream records the session notes it read for proposals: one JSON line per
// reading, only ever appended, so that two machines' lines merge (git's
// union merge) and a session read on either is not read again.
const SessionsFile = "dream-sessions.jsonl"

// The bounds of proposals.
const (
	// maxSessionsPerRun is the most session notes one run reads (the
	// newest first); the others wait for the next runs.
	maxSessionsPerRun = 10
	// MaxSessionTries is how many answers that were of no use a session
	// note gets before Dream leaves it until it changes.
	MaxSessionTries = 3
	// maxSessionText is the most bytes of a session note sent to the LLM.
	maxSessionText = 16_000
	// maxMemoryProposals and maxLessonProposals are the most proposals of
	// each kind taken from one session.
	maxMemoryProposals = 3
	maxLessonProposals = 2
	// The most characters of a name or title, of a one-line field
	// (description, action bias, a trigger), and of a body.
	maxNameChars    = 80
	maxLineChars    = 200
	maxTriggerChars = 80
	maxBodyChars    = 4000
	maxTriggers     = 5
)

const proposePrompt = `Below is the note of an AI coding agent's session: the user's prompts, the tasks worked on, the files
changed, the lessons shown before tool calls and how the calls went.

Propose what this session shows that is worth remembering in later sessions, if anything:
- at most 3 durable memories, each of one type: "user" (who the user is: role, preferences), "feedback"
  (guidance the user gave the agent: a rule, why, how to apply it), "project" (facts of the work that stay
  true) or "reference" (where to find things);
- at most 2 lessons: a situation that will come up again (trigger: a list of words, "tool:NAME" or a path
  glob) and what to do or avoid then (action_bias).
Propose nothing that mattered only in this session, and nothing the note does not show. An empty list is
a good answer.

Answer with JSON alone, in this shape:
{"memories": [{"type": "feedback", "name": "a few words", "description": "one line", "body": "markdown"}],
 "lessons": [{"title": "a few words", "trigger": ["words", "tool:Bash"], "action_bias": "one line", "body": "markdown"}]}

The session note (%s):

%s
`

// sessionRecord is one line of SessionsFile: a session note read.
type sessionRecord struct {
	Time    string `json:"time"`
	Session string `json:"session"`
	// Hash is the first hex digits of the note's content hash when read.
	Hash string `json:"hash"`
	// Result is "read" (done with it as it is) or "retry" (the answer was
	// of no use, or had an item that was: read it again).
	Result string `json:"result"`
	// Proposed are the proposals made from it ("memory: name", "lesson:
	// title", names folded), and Paths the notes written.
	Proposed []string `json:"proposed,omitempty"`
	Paths    []string `json:"paths,omitempty"`
	Why      string   `json:"why,omitempty"`
}

// sessionLog is SessionsFile folded: by session path, the hashes read,
// the tries at each hash, and what was proposed from it.
type sessionLog struct {
	read     map[string]map[string]bool
	tries    map[string]map[string]int
	proposed map[string]map[string]bool
}

func (l *sessionLog) add(r sessionRecord) {
	at := func(m map[string]map[string]bool, k string) map[string]bool {
		if m[k] == nil {
			m[k] = map[string]bool{}
		}
		return m[k]
	}
	switch r.Result {
	case "read":
		at(l.read, r.Session)[r.Hash] = true
	case "retry":
		if l.tries[r.Session] == nil {
			l.tries[r.Session] = map[string]int{}
		}
		l.tries[r.Session][r.Hash]++
	}
	for _, k := range r.Proposed {
		at(l.proposed, r.Session)[k] = true
	}
}

// pending reports whether the session note at p with hash h (full or
// short) is to be read.
func (l *sessionLog) pending(p, h string) bool {
	h = runstate.ShortHash(h)
	return !l.read[p][h] && l.tries[p][h] < MaxSessionTries
}

// readSessionLog reads SessionsFile; lines that do not parse (a torn
// write, a bad merge) are skipped, each named in problems.
func (d *Proposer) readSessionLog() (log *sessionLog, problems []string, err error) {
	log = &sessionLog{read: map[string]map[string]bool{}, tries: map[string]map[string]int{}, proposed: map[string]map[string]bool{}}
	b, _, err := d.w.ReadState(SessionsFile)
	if errors.Is(err, vault.ErrNotFound) {
		return log, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	for i, line := range bytes.Split(b, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 || markdown.IsConflictMarker(string(line)) {
			continue // a merge without the union driver: both sides' lines are the log
		}
		var r sessionRecord
		if err := json.Unmarshal(line, &r); err != nil || r.Session == "" {
			problems = append(problems, fmt.Sprintf("%s/%s:%d: not a record of a session read; skipped", vault.StateDir, SessionsFile, i+1))
			continue
		}
		log.add(r)
	}
	return log, problems, nil
}

// pendingSessions returns the session notes that ended and wait to be
// read, as the index has them, newest first (by path: their names start
// with when they started).
func (d *Proposer) pendingSessions(ctx context.Context, log *sessionLog) ([]index.SessionNote, error) {
	all, err := d.ix.Sessions(ctx)
	if err != nil {
		return nil, err
	}
	var out []index.SessionNote
	for _, s := range all {
		if s.Ended && log.pending(s.Path, s.Hash) {
			out = append(out, s)
		}
	}
	slices.Reverse(out)
	return out, nil
}

// Propose reads the session notes due and writes the proposals the LLM
// makes of them (in a dry run it only counts the notes it would read),
// saying in rep what it did. It returns the proposals written (also when
// it fails part way). Errors: ctx's, the index's, and the Writer's when
// the state file cannot be appended to; the LLM's failures and its
// answers are never errors, only warnings.
func (d *Proposer) Propose(ctx context.Context, now time.Time, dryRun bool, rep *Report) ([]memory.Proposal, error) {
	log, problems, err := d.readSessionLog()
	if err != nil {
		return nil, err
	}
	rep.Warnings = append(rep.Warnings, problems...)
	pending, err := d.pendingSessions(ctx, log)
	if err != nil {
		return nil, err
	}
	if len(pending) > maxSessionsPerRun {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%d session notes wait to be read for proposals; this run reads the %d newest, the next runs the others",
			len(pending), maxSessionsPerRun))
		pending = pending[:maxSessionsPerRun]
	}
	if dryRun {
		rep.Sessions = len(pending)
		return nil, nil
	}
	if len(pending) == 0 {
		return nil, nil
	}
	known, err := d.knownNames(ctx)
	if err != nil {
		return nil, err
	}
	var written []memory.Proposal
	for _, s := range pending {
		if err := ctx.Err(); err != nil {
			return written, err
		}
		ps, llmFailed, err := d.proposeFrom(ctx, s.Path, now, log, known, rep)
		written = append(written, ps...)
		if err != nil || llmFailed {
			return written, err
		}
	}
	return written, nil
}

// proposeFrom reads the session note at p, when it still waits to be read
// as it is, asks the LLM what it shows that is worth keeping, writes the
// proposals that pass and records the reading in SessionsFile. llmFailed
// says the LLM failed or was slow: the run asks it nothing more.
func (d *Proposer) proposeFrom(ctx context.Context, p string, now time.Time, log *sessionLog, known map[string]string, rep *Report) (written []memory.Proposal, llmFailed bool, err error) {
	content, hash, err := d.w.Read(p)
	if errors.Is(err, vault.ErrNotFound) {
		return nil, false, nil // gone since the index saw it
	}
	if err != nil {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s: not read for proposals: %v", p, err))
		return nil, false, nil
	}
	n := markdown.Parse(p, content)
	if n.Type() != index.SessionType || n.Frontmatter.Value("ended") == nil || !log.pending(p, hash) {
		return nil, false, nil // changed since the index saw it: still running, or read as it is now
	}
	rep.Sessions++
	prompt := fmt.Sprintf(proposePrompt, p, sessionText(n))
	answer, err := chat.Complete(ctx, d.opts.LLM, prompt, d.opts.Timeout)
	if err != nil {
		if ctx.Err() != nil {
			return nil, false, ctx.Err()
		}
		// The endpoint fails or is slow: the others would fare no
		// better. They all wait for the next run.
		why := fmt.Sprintf("no proposals from sessions this run (the session notes wait for the next): the LLM failed: %v", err)
		rep.Warnings = append(rep.Warnings, why)
		if rep.LLMError == "" {
			rep.LLMError = err.Error()
		}
		rep.Sessions--
		return nil, true, nil
	}
	rec := sessionRecord{Time: now.UTC().Format(time.RFC3339), Session: p, Hash: runstate.ShortHash(hash), Result: "read"}
	got, perr := parseProposals(answer)
	for _, w := range got.warnings {
		rep.Warnings = append(rep.Warnings, p+": "+w)
	}
	if perr != nil {
		rec.Result, rec.Why = "retry", perr.Error()
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s: nothing proposed: %v", p, perr))
	} else {
		var invalid int
		written, invalid = d.writeProposals(ctx, p, got, log, known, &rec, rep)
		if err := ctx.Err(); err != nil {
			return written, false, err
		}
		if got.dropped+invalid > 0 {
			rec.Result, rec.Why = "retry", fmt.Sprintf("%d proposals of the LLM's did not pass", got.dropped+invalid)
		}
	}
	if rec.Result == "retry" && log.tries[p][rec.Hash]+1 >= MaxSessionTries {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s: the LLM's answers were of no use %d times: it is read again when it changes", p, MaxSessionTries))
	}
	line, err := json.Marshal(rec)
	if err != nil {
		return written, false, err
	}
	if err := d.w.AppendState(ctx, SessionsFile, line); err != nil {
		return written, false, fmt.Errorf("record the session notes read: %w", err)
	}
	log.add(rec)
	rep.wrote(vault.StateDir + "/" + SessionsFile)
	return written, false, nil
}

// knownNames are the names proposals must not take, folded: the live
// memories' ("memory: name") and those of the proposals waiting
// ("memory: name", "lesson: title"), wherever they came from.
func (d *Proposer) knownNames(ctx context.Context) (map[string]string, error) {
	known := map[string]string{}
	live, err := d.ix.Memories(ctx)
	if err != nil {
		return nil, err
	}
	for _, m := range live {
		name := m.Name
		if name == "" {
			name = m.Title
		}
		known[proposalKey("memory", name)] = m.Path
	}
	proposals, err := d.ix.Proposed(ctx)
	if err != nil {
		return nil, err
	}
	for _, p := range proposals {
		kind := "memory"
		if p.Type == lesson.Type {
			kind = "lesson"
		}
		known[proposalKey(kind, p.Title)] = p.Path
	}
	return known, nil
}

// proposalKey is how a proposal is known: its kind and its name folded.
func proposalKey(kind, name string) string { return kind + ": " + similar.NormName(name) }

// writeProposals writes what got proposes from the session note at
// source, but what was proposed from it before (log) and what takes a
// name known already; it records what it wrote in rec and rep, and
// returns the proposals written and how many failed to be written
// because they are invalid.
func (d *Proposer) writeProposals(ctx context.Context, source string, got proposals, log *sessionLog, known map[string]string,
	rec *sessionRecord, rep *Report) (written []memory.Proposal, invalid int) {
	link := d.ix.LinkText(ctx, source)
	done := func(key, p, kind, title string) {
		rec.Proposed = append(rec.Proposed, key)
		rec.Paths = append(rec.Paths, p)
		known[key] = p
		rep.Proposed = append(rep.Proposed, p)
		rep.wrote(p)
		written = append(written, memory.Proposal{Path: p, Type: kind, Title: title, Source: link})
	}
	taken := func(key, what string) bool {
		if log.proposed[source][key] || slices.Contains(rec.Proposed, key) {
			return true // proposed from this session before: never twice
		}
		if p, ok := known[key]; ok {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s: %s not proposed: %s has that name already", source, what, p))
			return true
		}
		return false
	}
	for _, m := range got.memories {
		key := proposalKey("memory", m.Name)
		if taken(key, fmt.Sprintf("memory %q", m.Name)) {
			continue
		}
		p, _, err := d.store.Propose(ctx, m, link)
		if err != nil {
			if ctx.Err() != nil {
				return written, invalid
			}
			if errors.Is(err, memory.ErrInvalid) {
				invalid++
			}
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s: memory %q not proposed: %v", source, m.Name, err))
			continue
		}
		done(key, p, string(m.Type), m.Name)
	}
	if d.opts.AddLesson == nil {
		return written, invalid
	}
	for _, l := range got.lessons {
		key := proposalKey("lesson", l.Title)
		if taken(key, fmt.Sprintf("lesson %q", l.Title)) {
			continue
		}
		if p, err := d.ix.Lookup(ctx, l.Title); err == nil && d.isLesson(p) {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s: lesson %q not proposed: %s has that name already", source, l.Title, p))
			continue
		}
		l.Episodes, l.Proposed = []string{source}, true
		p, err := d.opts.AddLesson(ctx, l)
		if err != nil {
			if ctx.Err() != nil {
				return written, invalid
			}
			if errors.Is(err, lesson.ErrInvalid) {
				invalid++
			}
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s: lesson %q not proposed: %v", source, l.Title, err))
			continue
		}
		done(key, p, lesson.Type, l.Title)
	}
	return written, invalid
}

// isLesson reports whether the note at p is a lesson.
func (d *Proposer) isLesson(p string) bool {
	b, _, err := d.w.Read(p)
	return err == nil && markdown.Parse(p, b).Type() == lesson.Type
}

// sessionText is what the LLM reads of session note n: its body, cut to
// maxSessionText bytes at a line.
func sessionText(n *markdown.Note) string {
	body := strings.TrimSpace(string(n.Body()))
	if len(body) <= maxSessionText {
		return body
	}
	cut := body[:maxSessionText]
	if i := strings.LastIndexByte(cut, '\n'); i > maxSessionText/2 {
		cut = cut[:i]
	}
	return strings.ToValidUTF8(cut, "") + "\n[…]"
}

// proposals are the items of an LLM's answer that passed the checks.
type proposals struct {
	memories []memory.Memory
	lessons  []lesson.New
	// dropped counts the items that did not pass; warnings say why, and
	// what else was left out (items past the limits, repeats).
	dropped  int
	warnings []string
}

// memoryItem and lessonItem are the items the LLM is asked for.
type memoryItem struct {
	Type        string `json:"type"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Body        string `json:"body"`
}

type lessonItem struct {
	Title      string   `json:"title"`
	Trigger    []string `json:"trigger"`
	ActionBias string   `json:"action_bias"`
	Body       string   `json:"body"`
}

// parseProposals checks an LLM's answer: a JSON object (prose or a code
// fence around it aside) whose memories and lessons, each absent, null or
// a list, hold the items asked for. An answer that is no such object is an
// error. Each item must be an object of exactly the keys asked for, each
// of its type, not empty, within its length, one line where it must be;
// an item that is not is dropped with a warning, and so is one past the
// limits (three memories, two lessons) or a repeat of one before it.
func parseProposals(answer string) (proposals, error) {
	var got proposals
	var top map[string]json.RawMessage
	if err := chat.DecodeJSON(answer, &top); err != nil {
		return got, err
	}
	if top == nil {
		return got, errors.New("the answer is not the JSON object asked for")
	}
	list := func(key string) ([]json.RawMessage, error) {
		raw, ok := top[key]
		if !ok || string(bytes.TrimSpace(raw)) == "null" {
			return nil, nil
		}
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			return nil, fmt.Errorf("the answer's %s is not a list", key)
		}
		return items, nil
	}
	mems, err := list("memories")
	if err != nil {
		return got, err
	}
	lessons, err := list("lessons")
	if err != nil {
		return got, err
	}
	seen := map[string]bool{}
	got.memories = takeItems(&got, mems, "memory", "name", maxMemoryProposals, seen, checkMemory, func(m memory.Memory) string { return m.Name })
	got.lessons = takeItems(&got, lessons, "lesson", "title", maxLessonProposals, seen, checkLesson, func(l lesson.New) string { return l.Title })
	return got, nil
}

// takeItems decodes and checks the LLM's items of one kind (raws), and
// returns at most most of those that pass, each under a name (name) no
// item taken before has (seen, shared by the kinds: proposalKey). What is
// left out is counted in got.dropped when it did not pass, and said in
// got.warnings in any case.
func takeItems[I, T any](got *proposals, raws []json.RawMessage, kind, nameKey string, most int, seen map[string]bool,
	check func(I) (T, error), name func(T) string) []T {
	var out []T
	for i, raw := range raws {
		var it I
		err := strictDecode(raw, &it)
		var v T
		if err == nil {
			v, err = check(it)
		}
		if err != nil {
			got.dropped++
			got.warnings = append(got.warnings, fmt.Sprintf("the LLM's %s %d %v: dropped", kind, i+1, err))
			continue
		}
		key := proposalKey(kind, name(v))
		switch {
		case seen[key]:
			got.warnings = append(got.warnings, fmt.Sprintf("the LLM's %s %d repeats the %s %q: dropped", kind, i+1, nameKey, name(v)))
		case len(out) == most:
			got.warnings = append(got.warnings, fmt.Sprintf("the LLM's %s %d is past the %d asked for: dropped", kind, i+1, most))
		default:
			seen[key] = true
			out = append(out, v)
		}
	}
	return out
}

// strictDecode decodes one item: a JSON object of the keys of v alone,
// each of its type.
func strictDecode(raw json.RawMessage, v any) error {
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		return errors.New("is not an object")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fmt.Errorf("has %s of the wrong type (%s, not %s)", te.Field, te.Value, te.Type)
		}
		return fmt.Errorf("does not decode: %v", strings.TrimPrefix(err.Error(), "json: "))
	}
	return nil
}

// checkMemory checks a memory item.
func checkMemory(it memoryItem) (memory.Memory, error) {
	m := memory.Memory{Type: memory.Type(strings.ToLower(strings.TrimSpace(it.Type))), Name: strings.TrimSpace(it.Name),
		Description: strings.TrimSpace(it.Description), Body: strings.TrimSpace(it.Body)}
	if !memory.IsType(string(m.Type)) {
		return m, fmt.Errorf("has type %q, not user, feedback, project or reference", clipText(it.Type))
	}
	if err := checkLine("name", m.Name, maxNameChars); err != nil {
		return m, err
	}
	if err := checkLine("description", m.Description, maxLineChars); err != nil {
		return m, err
	}
	if err := checkBody(m.Body); err != nil {
		return m, err
	}
	if err := m.Validate(); err != nil {
		var ie *memory.InvalidError
		if errors.As(err, &ie) {
			return m, fmt.Errorf("has a %s that %s", ie.Field, ie.Reason)
		}
		return m, err
	}
	return m, nil
}

// checkLesson checks a lesson item.
func checkLesson(it lessonItem) (lesson.New, error) {
	l := lesson.New{Title: strings.TrimSpace(it.Title), ActionBias: strings.TrimSpace(it.ActionBias), Body: strings.TrimSpace(it.Body)}
	if err := checkLine("title", l.Title, maxNameChars); err != nil {
		return l, err
	}
	if _, err := vault.FileName(l.Title); err != nil {
		return l, fmt.Errorf("has a title that names no file: %v", err)
	}
	switch {
	case len(it.Trigger) == 0:
		return l, errors.New("has no trigger")
	case len(it.Trigger) > maxTriggers:
		return l, fmt.Errorf("has %d triggers, more than %d", len(it.Trigger), maxTriggers)
	}
	for _, t := range it.Trigger {
		t = strings.TrimSpace(t)
		if err := checkLine("trigger", t, maxTriggerChars); err != nil {
			return l, err
		}
		if !slices.Contains(l.Trigger, t) {
			l.Trigger = append(l.Trigger, t)
		}
	}
	if err := checkLine("action_bias", l.ActionBias, maxLineChars); err != nil {
		return l, err
	}
	if err := checkBody(l.Body); err != nil {
		return l, err
	}
	for _, line := range strings.Split(l.Body, "\n") {
		if h := strings.TrimSpace(line); strings.HasPrefix(h, "#") && strings.EqualFold(strings.TrimSpace(strings.TrimLeft(h, "#")), lesson.HistoryHeading) {
			return l, fmt.Errorf("has a body with a %q heading, which vaultmem keeps", lesson.HistoryHeading)
		}
	}
	return l, nil
}

// checkLine checks a one-line field: not empty, at most max characters,
// no line break or other control character.
func checkLine(field, s string, max int) error {
	switch {
	case s == "":
		return fmt.Errorf("has no %s", field)
	case !utf8.ValidString(s):
		return fmt.Errorf("has a %s that is not UTF-8", field)
	case strings.ContainsFunc(s, unicode.IsControl):
		return fmt.Errorf("has a %s that is not one line", field)
	case utf8.RuneCountInString(s) > max:
		return fmt.Errorf("has a %s of %d characters, more than %d", field, utf8.RuneCountInString(s), max)
	}
	return nil
}

// checkBody checks a body: not empty, at most maxBodyChars characters,
// no control character but line breaks and tabs, and no frontmatter of
// its own.
func checkBody(s string) error {
	switch {
	case s == "":
		return errors.New("has no body")
	case !utf8.ValidString(s):
		return errors.New("has a body that is not UTF-8")
	case strings.ContainsFunc(s, func(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\t' && r != '\r' }):
		return errors.New("has a body with control characters")
	case utf8.RuneCountInString(s) > maxBodyChars:
		return fmt.Errorf("has a body of %d characters, more than %d", utf8.RuneCountInString(s), maxBodyChars)
	case strings.HasPrefix(s, "---"):
		return errors.New("has a body that starts with frontmatter")
	}
	return nil
}

// clipText is s cut short for a message.
func clipText(s string) string {
	if utf8.RuneCountInString(s) <= 40 {
		return s
	}
	return string([]rune(s)[:39]) + "…"
}
