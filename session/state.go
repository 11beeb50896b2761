package session

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"time"

	"github.com/vaultmem/vaultmem/redact"
)

// StateFolder is where sessions' states are, under the vault's state
// folder.
const StateFolder = "sessions"

// State is what vaultmem keeps of one session while it runs.
type State struct {
	ID     string `json:"id"`
	Client string `json:"client"` // claude-code, codex, gemini-cli, cursor
	Agent  string `json:"agent"`
	// Cwd is the folder the agent works in (the project), from which the
	// paths of its tool calls are relative.
	Cwd     string    `json:"cwd,omitempty"`
	Started time.Time `json:"started"`
	Updated time.Time `json:"updated"`
	Ended   time.Time `json:"ended,omitzero"`
	// Resumed are the times the session was taken up again after it
	// ended (a client's resume): the same session, the same note.
	Resumed []time.Time `json:"resumed,omitempty"`
	// EndReason is why it ended, as the client says ("logout", "clear").
	EndReason string   `json:"end_reason,omitempty"`
	Prompts   []Prompt `json:"prompts"`
	// Given are the keys of the context already given in this session
	// (see ItemKey): never given twice.
	Given []string `json:"given"`
	// Calls are the tool calls lessons were shown for, oldest first.
	Calls    []Call    `json:"calls"`
	Outcomes []Outcome `json:"outcomes"`
	// Files are the files the agent changed, as its tool calls named them.
	Files []string `json:"files"`
	// Wrote are the vault's notes the agent changed (vault paths), the
	// latest last, at most MaxWrote: recall ranks them a little higher
	// (the session's working memory).
	Wrote []string `json:"wrote,omitempty"`
	// Tasks are the tasks the session worked on (its focus when it
	// prompted, compacted or stopped).
	Tasks      []string    `json:"tasks"`
	Subagents  int         `json:"subagents"`
	Checkpoint *Checkpoint `json:"checkpoint,omitempty"`
	// Note is the session note's path once it is written, and NoteHash
	// its hash as written: a note a human edited since is not rewritten.
	Note     string `json:"note,omitempty"`
	NoteHash string `json:"note_hash,omitempty"`
}

// Active reports whether the session did anything a note records: a
// prompt, a tool call, an outcome, a file changed, a subagent, a
// checkpoint; or whether its note is written already. A session that
// only started and ended (a client listing its MCP servers) leaves no
// note.
func (st *State) Active() bool {
	return len(st.Prompts) > 0 || len(st.Calls) > 0 || len(st.Outcomes) > 0 || len(st.Files) > 0 ||
		st.Subagents > 0 || st.Checkpoint != nil || st.Note != ""
}

// Resume takes an ended session up again at t: it is no longer ended, and
// its note says when it was resumed. A session not ended is left as it is.
func (st *State) Resume(t time.Time) {
	if st.Ended.IsZero() {
		return
	}
	st.Resumed = append(st.Resumed, t)
	st.Ended, st.EndReason = time.Time{}, ""
}

// Prompt is one prompt of the user's, as the config says to keep it.
type Prompt struct {
	Time time.Time `json:"time"`
	Text string    `json:"text"`
}

// Call is a tool call and the lessons shown before it.
type Call struct {
	ID      string  `json:"id"`
	Tool    string  `json:"tool"`
	Lessons []Shown `json:"lessons"`
}

// Shown is a lesson shown before a tool call.
type Shown struct {
	Path string `json:"path"`
	Name string `json:"name"`
	// About says the call is what the lesson is about (lesson.Match's
	// About): only then is the call's outcome the lesson's.
	About bool `json:"about,omitempty"`
}

// Outcome is how a tool call went after a lesson was shown for it.
type Outcome struct {
	Time    time.Time `json:"time"`
	Lesson  string    `json:"lesson"`
	Name    string    `json:"name"`
	Tool    string    `json:"tool"`
	Success bool      `json:"success"`
	// Error says why the outcome was not logged, when it was not.
	Error string `json:"error,omitempty"`
	// Unrelated says the call was not what the lesson is about (it was
	// shown on its keywords or some trigger words): the outcome was not
	// the lesson's, and not logged.
	Unrelated bool `json:"unrelated,omitempty"`
}

// Checkpoint is what was being done when the client compacted the
// conversation, given back at the session's next start.
type Checkpoint struct {
	Time time.Time `json:"time"`
	// Trigger is the client's: "manual" or "auto".
	Trigger string `json:"trigger,omitempty"`
	// Task is the focused task the checkpoint was logged on ("" when
	// there was none).
	Task string `json:"task,omitempty"`
	Text string `json:"text"`
	// Compacted says the client compacted the conversation after the
	// checkpoint was taken (and it was logged on Task): a checkpoint
	// before a compaction that compacted nothing stays false.
	Compacted bool `json:"compacted,omitempty"`
}

// safeID is a session id that can be a file name as it is.
var safeID = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`)

// StateName is the state file name of session id, under the vault's state
// folder: the id itself when it is a safe file name, else a hash of it
// (an id is the client's, and must not lead out of the folder).
func StateName(id string) string {
	if !safeID.MatchString(id) {
		sum := sha256.Sum256([]byte(id))
		id = "h-" + hex.EncodeToString(sum[:16])
	}
	return StateFolder + "/" + id + ".json"
}

// Decode reads a state file; empty content is a new state.
func Decode(b []byte) (*State, error) {
	st := &State{}
	if len(b) == 0 {
		return st, nil
	}
	if err := json.Unmarshal(b, st); err != nil {
		return nil, fmt.Errorf("session state: %w", err)
	}
	return st, nil
}

// Encode is the file form of st, with the secrets masked (redact.String)
// in every text that comes from the agent or its client: the client,
// agent, cwd, end reason, prompts, files, tools, errors and the
// checkpoint. It is the one form a state is written in. The session id is
// kept as it is: it names the state file.
func (st *State) Encode() ([]byte, error) {
	b, err := json.MarshalIndent(st.redacted(), "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// redacted is a copy of st with the secrets masked as Encode says. Files
// that become one path once masked are kept once.
func (st *State) redacted() *State {
	out := *st
	out.Client, out.Agent = redact.String(st.Client), redact.String(st.Agent)
	out.Cwd, out.EndReason = redact.String(st.Cwd), redact.String(st.EndReason)
	out.Prompts = make([]Prompt, len(st.Prompts))
	for i, p := range st.Prompts {
		out.Prompts[i] = Prompt{Time: p.Time, Text: redact.String(p.Text)}
	}
	out.Files = make([]string, 0, len(st.Files))
	for _, f := range st.Files {
		if f = redact.String(f); !slices.Contains(out.Files, f) {
			out.Files = append(out.Files, f)
		}
	}
	out.Calls = make([]Call, len(st.Calls))
	for i, c := range st.Calls {
		c.Tool = redact.String(c.Tool)
		out.Calls[i] = c
	}
	out.Outcomes = make([]Outcome, len(st.Outcomes))
	for i, o := range st.Outcomes {
		o.Tool, o.Error = redact.String(o.Tool), redact.String(o.Error)
		out.Outcomes[i] = o
	}
	if c := st.Checkpoint; c != nil {
		out.Checkpoint = &Checkpoint{Time: c.Time, Trigger: redact.String(c.Trigger), Task: c.Task, Text: redact.String(c.Text), Compacted: c.Compacted}
	}
	return &out
}

// MaxPrompts is the most prompts a state keeps (the latest); MaxShown the
// most tool calls whose lessons it remembers.
const (
	MaxPrompts = 200
	MaxShown   = 200
)

// AddPrompt keeps the prompt text (already cut as the config says) at t;
// an empty text is not kept. Its secrets are masked when the state is
// encoded.
func (st *State) AddPrompt(t time.Time, text string) {
	if text == "" {
		return
	}
	st.Prompts = append(st.Prompts, Prompt{Time: t, Text: text})
	if len(st.Prompts) > MaxPrompts {
		st.Prompts = slices.Delete(st.Prompts, 0, len(st.Prompts)-MaxPrompts)
	}
}

// Give records keys as given, and returns those not given before.
func (st *State) Give(keys ...string) []string {
	var fresh []string
	for _, k := range keys {
		if !slices.Contains(st.Given, k) {
			st.Given = append(st.Given, k)
			fresh = append(fresh, k)
		}
	}
	return fresh
}

// WasGiven reports whether key was given in this session.
func (st *State) WasGiven(key string) bool { return slices.Contains(st.Given, key) }

// MaxWrote is the most notes State.Wrote keeps.
const MaxWrote = 16

// AddWrote records that the agent changed the vault's note p.
func (st *State) AddWrote(p string) {
	st.Wrote = slices.DeleteFunc(st.Wrote, func(x string) bool { return x == p })
	st.Wrote = append(st.Wrote, p)
	if len(st.Wrote) > MaxWrote {
		st.Wrote = slices.Delete(st.Wrote, 0, len(st.Wrote)-MaxWrote)
	}
}

// Forget forgets what the session was given: after a compaction the
// conversation no longer holds it, and it may be given again.
func (st *State) Forget() { st.Given = nil }

// AddFile records a file the agent changed.
func (st *State) AddFile(p string) {
	if p != "" && !slices.Contains(st.Files, p) {
		st.Files = append(st.Files, p)
	}
}

// AddTask records a task the session worked on.
func (st *State) AddTask(p string) {
	if p != "" && !slices.Contains(st.Tasks, p) {
		st.Tasks = append(st.Tasks, p)
	}
}

// Show records the lessons shown before tool call id; the oldest call is
// forgotten past MaxShown.
func (st *State) Show(id, tool string, ls []Shown) {
	if id == "" || len(ls) == 0 {
		return
	}
	st.Calls = append(st.Calls, Call{ID: id, Tool: tool, Lessons: ls})
	if len(st.Calls) > MaxShown {
		st.Calls = slices.Delete(st.Calls, 0, len(st.Calls)-MaxShown)
	}
}

// TakeShown returns the lessons shown before tool call id and forgets
// them: a call has one outcome.
func (st *State) TakeShown(id string) []Shown {
	i := slices.IndexFunc(st.Calls, func(c Call) bool { return c.ID == id })
	if id == "" || i < 0 {
		return nil
	}
	ls := st.Calls[i].Lessons
	st.Calls = slices.Delete(st.Calls, i, i+1)
	return ls
}
