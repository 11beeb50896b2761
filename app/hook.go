package app

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/vaultmem/vaultmem/frame"
	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/recall"
	"github.com/vaultmem/vaultmem/redact"
	"github.com/vaultmem/vaultmem/session"
	"github.com/vaultmem/vaultmem/task"
	"github.com/vaultmem/vaultmem/text"
	"github.com/vaultmem/vaultmem/vault"
)

// HookKind is what happened in an agent's session, in vaultmem's terms:
// each client names its hook events its own way, and the hook command
// maps them to these.
type HookKind string

// The kinds of hook events.
const (
	HookSessionStart HookKind = "session-start" // a session started, resumed, was cleared or compacted
	HookPrompt       HookKind = "prompt"        // the user sent a prompt
	HookBeforeTool   HookKind = "before-tool"   // the agent is about to call a tool
	HookAfterTool    HookKind = "after-tool"    // a tool call ended (Failed says how)
	HookCompact      HookKind = "compact"       // the conversation is about to be compacted (it may not be)
	HookCompacted    HookKind = "compacted"     // the conversation was compacted
	HookStop         HookKind = "stop"          // the agent finished its turn
	HookSubagentStop HookKind = "subagent-stop" // a subagent finished
	HookSessionEnd   HookKind = "session-end"   // the session ended
)

// HookEvent is one event of an agent's session, as a hook gets it.
type HookEvent struct {
	Kind HookKind `json:"kind"`
	// Client is the agent's program (claude-code, codex, gemini-cli,
	// cursor); Session its session id, which keeps each session's state
	// apart.
	Client  string `json:"client"`
	Session string `json:"session"`
	// Agent is whose focus the session works under ("" is chosen by the
	// one rule for the agent id: see Config.Agent).
	Agent string `json:"agent,omitempty"`
	// Cwd is the folder the agent works in: the paths of its tool calls
	// are made relative to it.
	Cwd string `json:"cwd,omitempty"`
	// Time is when the hook ran; the same event sent twice (a server that
	// took it but did not answer in time) is recognised by it.
	Time time.Time `json:"time"`
	// Source is why a session started: startup, resume, clear, compact.
	Source string `json:"source,omitempty"`
	// Prompt is the user's prompt.
	Prompt string `json:"prompt,omitempty"`
	// Tool and ToolUseID are the tool call's; Failed says the call failed
	// (an error, a non-zero exit status).
	Tool      string `json:"tool,omitempty"`
	ToolUseID string `json:"tool_use_id,omitempty"`
	Failed    bool   `json:"failed,omitempty"`
	// Paths are the files the tool call names (absolute, or relative to
	// Cwd), Words the words of its command, query or description; Edits
	// says the call changes the files at Paths. Each client's tools and
	// arguments are read into these by its hook (package agenthook).
	Paths []string `json:"paths,omitempty"`
	Words string   `json:"words,omitempty"`
	Edits bool     `json:"edits,omitempty"`
	// Trigger is why the conversation is compacted: manual or auto.
	Trigger string `json:"trigger,omitempty"`
	// Compacts says, on a compact event, that the client compacts for
	// certain after it; else the checkpoint waits for the client to say
	// the conversation was compacted (a compacted event, a session start
	// after a compaction, a stop with Compacted).
	Compacts bool `json:"compacts,omitempty"`
	// Compacted says, on a stop event, that the conversation was
	// compacted during the turn (as the client's transcript shows).
	Compacted bool `json:"compacted,omitempty"`
	// Reason is why the session ended, as the client says.
	Reason string `json:"reason,omitempty"`
	// Subagent is the kind of sub-agent that stopped ("Explore"), Found
	// its last answer (cut short): what it found, for its parent.
	Subagent string `json:"subagent,omitempty"`
	Found    string `json:"found,omitempty"`
}

// HookAnswer is what a hook tells the agent.
type HookAnswer struct {
	// Context is the text to add to the agent's context; "" for nothing.
	// What it holds from the vault is in vaultmem's frame (package frame),
	// under a line of vaultmem's own.
	Context string `json:"context,omitempty"`
	// Given names what the context holds: the notes recalled, the
	// lessons shown.
	Given []string `json:"given,omitempty"`
	// Note is the session note's path, once written.
	Note string `json:"note,omitempty"`
}

// Hook answers one event of an agent's session: at its start, MEMORY.md,
// the focused task's context and what needs review (and after a
// compaction, the checkpoint taken before it); with a prompt, what recall
// finds for it that the session was not given yet; before a tool call,
// the lessons for it; after it, the outcome of each lesson shown; before
// a compaction, a checkpoint on the focused task; at each stop, the
// session note. The session's state is kept under the state folder (see
// package session). Errors: an Invalid error for an event without a kind
// or a session; the stores'.
func (a *App) Hook(ctx context.Context, ev HookEvent) (HookAnswer, error) {
	if ev.Session == "" {
		return HookAnswer{}, invalid(errors.New("hook: the event has no session id"))
	}
	if ev.Time.IsZero() {
		ev.Time = time.Now()
	}
	if ev.Agent == "" {
		ev.Agent = a.hookAgent()
	}
	if err := task.CheckAgent(ev.Agent); err != nil {
		return HookAnswer{}, invalid(fmt.Errorf("hook: %w", err))
	}
	switch ev.Kind {
	case HookSessionStart:
		return a.sessionStart(ctx, ev)
	case HookPrompt:
		return a.promptContext(ctx, ev)
	case HookBeforeTool:
		return a.toolLessons(ctx, ev)
	case HookAfterTool:
		return HookAnswer{}, a.toolOutcome(ctx, ev)
	case HookCompact:
		return HookAnswer{}, a.checkpoint(ctx, ev)
	case HookCompacted:
		return HookAnswer{}, a.compacted(ctx, ev)
	case HookStop, HookSubagentStop, HookSessionEnd:
		return a.stop(ctx, ev)
	}
	return HookAnswer{}, invalid(fmt.Errorf("hook: unknown event kind %q", ev.Kind))
}

// hookAgent is the agent the hooks act as when the event names none, by
// the one rule of Config.Agent. Only $VAULTMEM_AGENT can be refused (the
// config's is checked at load): it is returned as it is, for Hook's check
// of the id to refuse.
func (a *App) hookAgent() string {
	id, err := a.Config.Agent("", "")
	if err != nil {
		return os.Getenv(AgentEnv)
	}
	return id
}

// updateSession changes the state of ev's session with fn (quick, no
// Writer call), making it when it is new.
func (a *App) updateSession(ctx context.Context, ev HookEvent, fn func(st *session.State) error) (*session.State, error) {
	var out *session.State
	_, err := a.writer.UpdateState(ctx, session.StateName(ev.Session), func(cur []byte) ([]byte, error) {
		st, err := session.Decode(cur)
		if err != nil {
			return nil, err
		}
		if st.ID == "" {
			st.ID, st.Started = ev.Session, ev.Time
		}
		if ev.Client != "" {
			st.Client = ev.Client
		}
		if ev.Cwd != "" {
			st.Cwd = ev.Cwd
		}
		st.Agent, st.Updated = ev.Agent, ev.Time
		if err := fn(st); err != nil {
			return nil, err
		}
		out = st
		return st.Encode()
	})
	return out, err
}

// fit frames items (see package frame) under preamble, each cut to what
// is left of budget tokens, in order: what comes first is kept first;
// the frame's own cost is counted. It returns the context ("" when no
// item has text) and the indices of the items it holds.
func fit(preamble string, budget int, items []frame.Item) (string, []int) {
	var b strings.Builder
	var kept []int
	left := budget - text.EstimateTokens(frame.Overhead(preamble))
	for i, it := range items {
		it.Text = strings.TrimSpace(it.Text)
		if it.Text == "" || left <= 16 {
			continue
		}
		part := it.Render()
		if text.EstimateTokens(part) > left {
			if part = cutItem(it, left); part == "" {
				continue
			}
		}
		left -= text.EstimateTokens(part)
		b.WriteString(part)
		kept = append(kept, i)
	}
	return frame.Wrap(preamble, b.String()), kept
}

// cutItem renders it with its text cut at a line, else a word, and
// marked "…", so that it costs at most n tokens; "" when not even a word
// fits. Escaping may lengthen the cut text, so it is cut again by what
// it is over until it fits.
func cutItem(it frame.Item, n int) string {
	full := it.Text
	it.Text = "…"
	room := n - text.EstimateTokens(it.Render())
	for room > 0 {
		cut := cutToTokens(full, room)
		if cut == "" {
			return ""
		}
		it.Text = cut + "\n…"
		part := it.Render()
		over := text.EstimateTokens(part) - n
		if over <= 0 {
			return part
		}
		room -= over
	}
	return ""
}

// cutToTokens cuts s at a line, else a word, to at most n tokens.
func cutToTokens(s string, n int) string {
	for text.EstimateTokens(s) > n && s != "" {
		cut := strings.LastIndexByte(s, '\n')
		if cut <= 0 || text.EstimateTokens(s[:cut]) < n/2 {
			cut = strings.LastIndexByte(s, ' ')
		}
		if cut <= 0 {
			return ""
		}
		s = s[:cut]
	}
	return s
}

// sessionStart gives what a session should start with: after a
// compaction the checkpoint taken before it, the focused task's context,
// MEMORY.md, and what needs a human's review. The session note is
// written at once, so that what the session does can link to it.
func (a *App) sessionStart(ctx context.Context, ev HookEvent) (HookAnswer, error) {
	if err := a.fresh(ctx, false); err != nil {
		return HookAnswer{}, err
	}
	if ev.Source == "compact" {
		// The start after a compaction: it happened.
		if err := a.compacted(ctx, ev); err != nil {
			return HookAnswer{}, err
		}
	}
	var items []frame.Item
	var given []string
	focus, err := a.taskStore().Focus(ctx, ev.Agent)
	if err != nil {
		return HookAnswer{}, err
	}
	st, err := a.updateSession(ctx, ev, func(st *session.State) error {
		st.Resume(ev.Time) // a session ended before: the same note goes on
		st.AddTask(focus.Task)
		return nil
	})
	if err != nil {
		return HookAnswer{}, err
	}
	if c := st.Checkpoint; c != nil && ev.Source == "compact" {
		items = append(items, frame.Item{Source: frame.SourceVaultmem, Title: "Before the compaction", Text: c.Text})
	}
	if focus.Task != "" {
		tc, err := a.taskStore().Context(ctx, ev.Agent, "", a.Config.Hooks.SessionBudget/2)
		if err != nil {
			return HookAnswer{}, err
		}
		items = append(items, frame.Item{Source: frame.SourceTask, Path: focus.Task, Title: "Your focused task", Text: tc.Context})
		given = append(given, focus.Task)
	}
	mine, theirs, shared, err := a.memoryStore().Personal(ctx)
	if err != nil {
		return HookAnswer{}, err
	}
	if shared {
		// MEMORY.md, shared with the teammates, lists no person's user
		// memories: the person's own come first, as MEMORY.md's User
		// group does in a vault one person keeps.
		items = append(items, frame.Item{Source: frame.SourceMemory, Title: "About the user (their own user memories, which MEMORY.md, shared with their teammates, does not list)", Text: personalLines(mine)})
	}
	list, err := a.memoryStore().ListText()
	if err != nil {
		return HookAnswer{}, err
	}
	items = append(items, frame.Item{Source: frame.SourceList, Path: a.memoryStore().ListFile(), Title: "What you remember", Text: list})
	review, err := a.needsReview(ctx, theirs)
	if err != nil {
		return HookAnswer{}, err
	}
	items = append(items, frame.Item{Source: frame.SourceVaultmem, Title: "Needs review", Text: review})
	note, err := a.writeSessionNote(ctx, ev)
	if err != nil {
		return HookAnswer{}, err
	}
	out, _ := fit(sessionPreamble, a.Config.Hooks.SessionBudget, items)
	return HookAnswer{Context: out, Given: given, Note: note}, nil
}

// The preambles of the hooks' contexts: vaultmem's own line above each
// frame (see package frame).
const (
	sessionPreamble = "Memory from the user's vault (vaultmem). Recall more with the vaultmem tools (recall, search); save what you learn with remember."
	promptPreamble  = "From the user's vault, for this prompt (vaultmem):"
	lessonsPreamble = "Lessons from memory for this step (vaultmem):"
)

// personalLines are a person's own memories as MEMORY.md would list them,
// linked by vault path.
func personalLines(es []memory.Entry) string {
	var b strings.Builder
	for _, e := range es {
		b.WriteString(memory.Line(".", e) + "\n")
	}
	return b.String()
}

// needsReview lists what waits for a human: lessons flagged for review
// (and those Dream proposed), memories Dream found contradicting each
// other that still stand (see memory.Store.Standing), but for pairs of a
// teammate's user memory (theirs, by path), and the memories Dream
// proposed but a teammate's.
func (a *App) needsReview(ctx context.Context, theirs map[string]bool) (string, error) {
	var b strings.Builder
	ls, err := a.openLessons()
	if err != nil {
		return "", err
	}
	rs, err := ls.Review(ctx, false)
	if err != nil {
		return "", err
	}
	for _, r := range rs {
		fmt.Fprintf(&b, "- lesson %s (%s): %s\n", r.Name, r.Path, strings.Join(r.Reasons, "; "))
	}
	flags, err := a.memoryStore().Standing(ctx)
	if err != nil {
		return "", err
	}
	for _, f := range flags {
		if f.Kind.Listed() && !theirs[f.A] && !theirs[f.B] {
			fmt.Fprintf(&b, "- memories %s and %s %s: %s\n", f.A, f.B, f.Kind.Phrase(), f.Reason)
		}
	}
	proposals, err := a.ix.Kinds().Proposed(ctx)
	if err != nil {
		return "", err
	}
	for _, p := range proposals {
		if p.Type == lesson.Type || theirs[p.Path] {
			continue // listed with the lessons above, or a teammate's
		}
		fmt.Fprintf(&b, "- memory %s (%s) proposed by Dream", p.Title, p.Path)
		if p.Source != "" {
			fmt.Fprintf(&b, " from [[%s]]", p.Source)
		}
		b.WriteString(": accept it by removing status: proposed, or delete it\n")
	}
	return b.String(), nil
}

// trivial reports whether a prompt says nothing to recall for: no word
// but stop words, or only words of assent and going on ("yes", "go on").
func trivial(terms, words []string) bool {
	if len(terms) == 0 {
		return true
	}
	for _, w := range words {
		if !assent[strings.ToLower(w)] {
			return false
		}
	}
	return true
}

// assent are the words of a prompt that only lets the agent go on.
var assent = map[string]bool{}

func init() {
	for _, w := range strings.Fields("yes y yeah yep no n nope ok okay k sure thanks thank you thx ty go on ahead continue proceed do it please pls fine great good nice cool lgtm next done right correct agreed perfect") {
		assent[w] = true
	}
}

// covers reports whether s holds enough of a prompt's terms: the share
// share of them, rounded up, and at most three (a long prompt's passage
// need not hold all its words, but three of them is no accident).
func covers(terms []string, s string, share float64) bool {
	need := min(3, int(math.Ceil(share*float64(len(terms)))))
	have := map[string]bool{}
	for _, t := range text.Analyze(s) {
		have[t] = true
	}
	n := 0
	for _, t := range terms {
		if have[t] {
			n++
		}
	}
	return n >= need
}

// promptContext gives what recall finds for a prompt that holds enough
// of the prompt's words and was not given earlier in the session, and
// keeps the prompt for the session note.
func (a *App) promptContext(ctx context.Context, ev HookEvent) (HookAnswer, error) {
	kept := keepPrompt(ev.Prompt, a.Config.Hooks.Prompts)
	query := ev.Prompt
	if len(query) > index.MaxQueryBytes {
		// A question around a pasted trace or log: recall on the question.
		query = text.Question(query, bigPromptQuery)
	}
	terms := text.ContentTerms(query)
	skip := trivial(terms, text.Words(query)) || a.Config.Hooks.PromptBudget == 0
	focus, notice := "", ""
	if !skip {
		if f, err := a.taskStore().Focus(ctx, ev.Agent); err == nil {
			focus, notice = f.Task, f.Notice
		}
	}
	st, err := a.updateSession(ctx, ev, func(st *session.State) error {
		if !slices.ContainsFunc(st.Prompts, func(p session.Prompt) bool { return p.Time.Equal(ev.Time) }) {
			st.AddPrompt(ev.Time, kept)
		}
		st.AddTask(focus)
		return nil
	})
	if err != nil || skip {
		return HookAnswer{}, err
	}
	var hide []string
	if st.Note != "" {
		hide = []string{st.Note} // the session's own note: what it does, not memory
	}
	res, err := a.RecallFresh(ctx, RecallRequest{Query: query, Budget: a.Config.Hooks.PromptBudget, Agent: ev.Agent, NoFocus: true, Hide: hide})
	if errors.Is(err, ErrNoQuery) {
		return HookAnswer{}, nil
	}
	if err != nil {
		return HookAnswer{}, err
	}
	var keys []string
	var items []frame.Item
	// An agent whose focused task another agent holds (a claim two clones
	// made, settled to the other when git merged them) is told once a
	// session, before what recall found.
	if key := "held:" + focus + "@" + notice; notice != "" && !st.WasGiven(key) {
		keys = append(keys, key)
		items = append(items, frame.Item{Source: frame.SourceTask, Path: focus, Title: "Not yours", Text: notice + "."})
	}
	for _, it := range res.Items {
		key := it.Path + "#" + it.Heading + "^" + it.Block
		if st.WasGiven(key) || slices.Contains(keys, key) ||
			!covers(terms, it.Path+" "+it.Heading+" "+it.Text, a.Config.Hooks.MinCoverage) {
			continue
		}
		keys = append(keys, key)
		items = append(items, frame.Item{Source: recall.SourceOf(it.Kind), Path: it.Path, Heading: it.Heading, Text: it.Text})
	}
	out, held := fit(promptPreamble, a.Config.Hooks.PromptBudget, items)
	if len(held) == 0 {
		return HookAnswer{}, nil
	}
	var given, heldKeys []string
	for _, i := range held {
		heldKeys = append(heldKeys, keys[i])
		if !slices.Contains(given, items[i].Path) {
			given = append(given, items[i].Path)
		}
	}
	if _, err := a.updateSession(ctx, ev, func(st *session.State) error { st.Give(heldKeys...); return nil }); err != nil {
		return HookAnswer{}, err
	}
	return HookAnswer{Context: out, Given: given}, nil
}

// keepPrompt is what a session note keeps of a prompt: nothing, its first
// line or all of it, secrets masked. They are masked before the line is
// shortened: half a token is no longer one redact finds.
func keepPrompt(p string, how PromptKeeping) string {
	p = strings.TrimSpace(p)
	switch how {
	case PromptsOff:
		return ""
	case PromptsFirstLine:
		p, _, _ = strings.Cut(p, "\n")
		return text.Shorten(redact.String(headAtSpace(p, 300+redactMargin)), 300)
	}
	if len(p) <= maxKeptPrompt {
		return redact.String(p)
	}
	// Masked past the cut, then cut: a secret the cut falls in (a private
	// key's lines) is masked whole, and its mask kept or dropped whole.
	head := headAtSpace(p, maxKeptPrompt+redactMargin)
	kept := headAtSpace(redact.String(head), maxKeptPrompt)
	return kept + fmt.Sprintf(" [… %d more bytes not kept]", len(p)-len(kept))
}

// redactMargin is how far past a cut a prompt is masked before it is
// cut: more than the longest secret redact knows (a private key).
const redactMargin = 8 << 10

// bigPromptQuery is how much of a prompt over the recall query limit
// (index.MaxQueryBytes) recall is given: its question (text.Question).
const bigPromptQuery = 2000

// maxKeptPrompt is the most of one prompt a session note keeps with
// hooks.prompts: full; the rest is said to be cut, not kept.
const maxKeptPrompt = 16 << 10

// headAtSpace is the start of s up to about n bytes, cut at a space so
// that no token is cut in two (half a secret is no longer one redact
// finds): at the last space before n, else nothing of a first word longer
// than n.
func headAtSpace(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if i := strings.LastIndexAny(s[:n], " \t\n"); i > 0 {
		return strings.TrimSpace(s[:i])
	}
	return ""
}

// relativePaths makes the paths of a tool call relative to the project
// (cwd) or the vault, as triggers name them; others stay as they are.
func (a *App) relativePaths(cwd string, paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = p
		if !filepath.IsAbs(p) {
			continue
		}
		for _, base := range []string{cwd, a.Vault.Dir} {
			if base == "" {
				continue
			}
			if rel, err := filepath.Rel(base, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				out[i] = filepath.ToSlash(rel)
				break
			}
		}
	}
	return out
}

// toolLessons gives the lessons for a tool call: those strong enough
// (not flagged for review) that match more than the tool's name, and
// remembers them for the call's outcome.
func (a *App) toolLessons(ctx context.Context, ev HookEvent) (HookAnswer, error) {
	if a.Config.Hooks.Lessons == 0 {
		return HookAnswer{}, nil
	}
	s := lesson.Situation{Tool: ev.Tool, Text: ev.Words, Paths: a.relativePaths(ev.Cwd, ev.Paths)}
	res, err := a.MatchLessons(ctx, MatchRequest{Situation: s, K: lesson.MaxK})
	if err != nil || len(res.Lessons) == 0 {
		return HookAnswer{}, err
	}
	rules := a.Config.Lessons.Rules // checked when the config loaded
	var shown []session.Shown
	var items []frame.Item
	for _, m := range res.Lessons {
		if rules.Flagged(m.Strength) || m.OnlyTool() || len(shown) == a.Config.Hooks.Lessons {
			continue
		}
		shown = append(shown, session.Shown{Path: m.Path, Name: m.Name, About: m.About})
		items = append(items, frame.Item{Source: frame.SourceLesson, Path: m.Path, Title: m.Name,
			Extra: []string{"strength", fmt.Sprint(m.Strength)}, Text: m.ActionBias})
	}
	if len(shown) == 0 {
		return HookAnswer{}, nil
	}
	if _, err := a.updateSession(ctx, ev, func(st *session.State) error {
		st.Show(ev.ToolUseID, ev.Tool, shown)
		return nil
	}); err != nil {
		return HookAnswer{}, err
	}
	given := make([]string, len(shown))
	for i, l := range shown {
		given[i] = l.Path
	}
	return HookAnswer{Context: frame.Frame(lessonsPreamble, items...), Given: given}, nil
}

// toolOutcome logs the outcome of each lesson shown before the call (a
// success unless the call failed) and keeps the files it changed.
func (a *App) toolOutcome(ctx context.Context, ev HookEvent) error {
	var shown []session.Shown
	changed := a.relativePaths(ev.Cwd, ev.Paths)
	st, err := a.updateSession(ctx, ev, func(st *session.State) error {
		shown = st.TakeShown(ev.ToolUseID)
		if ev.Edits && !ev.Failed {
			for _, p := range changed {
				st.AddFile(p)
			}
		}
		return nil
	})
	if err != nil || len(shown) == 0 {
		return err
	}
	ls, err := a.openLessons()
	if err != nil {
		return err
	}
	// The episode is the session's note, written now if it is not yet (a
	// session is given a note once it does something, and this is
	// something).
	episode := st.Note
	if episode == "" {
		if episode, err = a.writeSessionNote(ctx, ev); err != nil {
			return err
		}
	}
	var outcomes []session.Outcome
	for _, l := range shown {
		o := session.Outcome{Time: ev.Time, Lesson: l.Path, Name: l.Name, Tool: ev.Tool, Success: !ev.Failed, Unrelated: !l.About}
		if o.Unrelated {
			// Shown on its keywords or some trigger words: how the call
			// went is not the lesson's outcome (a test run failing for
			// its own reasons says nothing of "run migrations first").
			outcomes = append(outcomes, o)
			continue
		}
		_, err := ls.Outcome(ctx, lesson.Outcome{Lesson: l.Path, Success: !ev.Failed, Episode: episode,
			Context: ev.Words, Tool: ev.Tool, Paths: changed, Agent: ev.Agent})
		if err != nil {
			o.Error = err.Error()
		}
		outcomes = append(outcomes, o)
	}
	_, err = a.updateSession(ctx, ev, func(st *session.State) error {
		st.Outcomes = append(st.Outcomes, outcomes...)
		return nil
	})
	if err != nil {
		return err
	}
	// An outcome that could not be recorded is said (the hook's stderr),
	// as the session note says it.
	var failed []error
	for _, o := range outcomes {
		if o.Error != "" {
			failed = append(failed, fmt.Errorf("the outcome of lesson %s was not recorded: %s", o.Lesson, o.Error))
		}
	}
	return errors.Join(failed...)
}

// checkpoint keeps what was being done before a compaction on the
// session's state, given back at the next start after the compaction. It
// goes into the focused task's log, so that nothing is lost with the
// conversation, only once the conversation was compacted for certain
// (see compacted): a client may announce a compaction that then compacts
// nothing (Claude Code's /compact of a short conversation, Gemini CLI's
// check before every turn), and that leaves no checkpoint in a log.
func (a *App) checkpoint(ctx context.Context, ev HookEvent) error {
	focus, err := a.taskStore().Focus(ctx, ev.Agent)
	if err != nil {
		return err
	}
	_, err = a.updateSession(ctx, ev, func(st *session.State) error {
		if st.Checkpoint != nil && st.Checkpoint.Time.Equal(ev.Time) {
			return nil // the same event, sent again
		}
		text := checkpointText(st, focus.Task)
		st.Checkpoint = &session.Checkpoint{Time: ev.Time, Trigger: ev.Trigger, Task: focus.Task, Text: text}
		st.AddTask(focus.Task)
		return nil
	})
	if err != nil || !ev.Compacts {
		return err
	}
	return a.compacted(ctx, ev)
}

// compacted logs the checkpoint taken before a compaction that happened
// as a note on the task focused then, once.
func (a *App) compacted(ctx context.Context, ev HookEvent) error {
	var c session.Checkpoint
	if _, _, err := a.writer.ReadState(session.StateName(ev.Session)); errors.Is(err, vault.ErrNotFound) {
		return nil // no session, no checkpoint
	}
	_, err := a.updateSession(ctx, ev, func(st *session.State) error {
		if cp := st.Checkpoint; cp != nil && !cp.Compacted {
			cp.Compacted = true
			c = *cp
		}
		return nil
	})
	if err != nil || c.Task == "" {
		return err
	}
	_, err = a.taskStore().Event(ctx, ev.Agent, c.Task, "note", "Checkpoint before the conversation was compacted: "+c.Text)
	return err
}

// checkpointText says what the session was doing: its focused task, its
// last prompts, the files it changed.
func checkpointText(st *session.State, focus string) string {
	var parts []string
	if focus != "" {
		parts = append(parts, "working on "+strings.TrimSuffix(filepath.Base(focus), ".md"))
	}
	if n := len(st.Prompts); n > 0 {
		var last []string
		for _, p := range st.Prompts[max(0, n-3):] {
			last = append(last, fmt.Sprintf("%q", text.Shorten(p.Text, 200)))
		}
		parts = append(parts, "last prompts "+strings.Join(last, ", "))
	}
	if len(st.Files) > 0 {
		files := st.Files
		if len(files) > 20 {
			files = files[len(files)-20:]
		}
		parts = append(parts, "files changed "+strings.Join(files, ", "))
	}
	if len(parts) == 0 {
		return "nothing recorded yet in this session."
	}
	return strings.Join(parts, "; ") + "."
}

// stop writes the session note after a turn, a subagent's run or the
// session's end; at the end the session's state goes.
func (a *App) stop(ctx context.Context, ev HookEvent) (HookAnswer, error) {
	if ev.Kind == HookSessionEnd {
		// An end with no start (a client listing its MCP servers) has
		// nothing to record.
		if _, _, err := a.writer.ReadState(session.StateName(ev.Session)); errors.Is(err, vault.ErrNotFound) {
			return HookAnswer{}, nil
		}
	}
	if ev.Compacted {
		if err := a.compacted(ctx, ev); err != nil {
			return HookAnswer{}, err
		}
	}
	focus, err := a.taskStore().Focus(ctx, ev.Agent)
	if err != nil {
		return HookAnswer{}, err
	}
	if _, err := a.updateSession(ctx, ev, func(st *session.State) error {
		st.AddTask(focus.Task)
		switch ev.Kind {
		case HookSubagentStop:
			st.Subagents++
		case HookSessionEnd:
			st.Ended, st.EndReason = ev.Time, ev.Reason
		}
		return nil
	}); err != nil {
		return HookAnswer{}, err
	}
	if ev.Kind == HookSubagentStop && ev.Found != "" && focus.Task != "" {
		// What the sub-agent found goes into the task it worked under,
		// where its parent's next context (and any later session) reads it.
		who := "A sub-agent"
		if ev.Subagent != "" {
			who = "Sub-agent " + ev.Subagent
		}
		if _, err := a.taskStore().Event(ctx, ev.Agent, focus.Task, "note", who+" found: "+ev.Found); err != nil {
			return HookAnswer{}, err
		}
	}
	note, err := a.writeSessionNote(ctx, ev)
	if err != nil {
		return HookAnswer{}, err
	}
	if ev.Kind == HookSessionEnd {
		// The ended session's state stays, so that a resume continues
		// its note; the states of sessions ended long ago go.
		if err := a.forgetEndedSessions(ctx, ev.Time); err != nil {
			return HookAnswer{Note: note}, err
		}
	}
	return HookAnswer{Note: note}, nil
}

// endedSessionDays is how long the state of a session that ended is kept
// (for a resume to continue its note) after its last change.
const endedSessionDays = 30

// forgetEndedSessions removes the state of the sessions untouched for
// endedSessionDays before now: on this machine, never committed.
func (a *App) forgetEndedSessions(ctx context.Context, now time.Time) error {
	names, err := a.writer.ListState(session.StateFolder)
	if err != nil {
		return err
	}
	for _, name := range names {
		fi, err := a.Vault.Root().Stat(filepath.FromSlash(vault.StateDir + "/" + name))
		if err != nil || now.Sub(fi.ModTime()) < endedSessionDays*24*time.Hour {
			continue
		}
		if err := a.writer.RemoveState(ctx, name, vault.AnyHash); err != nil && !errors.Is(err, vault.ErrNotFound) {
			return err
		}
	}
	return nil
}

// writeSessionNote writes the session's note from its state, under the
// session's lock so that two hooks of one session never race; a note a
// human edited since vaultmem wrote it is left as it is.
func (a *App) writeSessionNote(ctx context.Context, ev HookEvent) (string, error) {
	lock := a.Vault.FileLock(vault.TmpDir + "/" + strings.ReplaceAll(session.StateName(ev.Session), "/", "-") + ".lock")
	if err := a.Vault.EnsureDir(vault.TmpDir); err != nil {
		return "", err
	}
	if ok, err := lock.TryLockContext(ctx, 10*time.Millisecond); err != nil || !ok {
		return "", fmt.Errorf("session note: lock %s: %w", lock.Path(), err)
	}
	defer lock.Unlock()
	b, _, err := a.writer.ReadState(session.StateName(ev.Session))
	if err != nil {
		return "", err
	}
	st, err := session.Decode(b)
	if err != nil {
		return "", err
	}
	p := st.Note
	if p == "" && !st.Active() {
		return "", nil // a session that did nothing yet leaves no note
	}
	if p == "" {
		p = st.NotePath(a.Config.Folders.Sessions)
		if err := a.ensureSessionsFolder(); err != nil {
			return "", err
		}
	}
	content := st.Render(a.noteNames(ctx, append(slices.Clone(st.Tasks), lessonPaths(st)...)))
	hash, err := a.writer.Write(ctx, p, content, st.NoteHash)
	var conflict *vault.ConflictError
	if errors.As(err, &conflict) && st.NoteHash != "" {
		return p, nil // a human edited it: theirs from now on
	}
	if err != nil {
		return "", err
	}
	if hash != st.NoteHash {
		if err := a.ix.Refresh(ctx, a.Vault.FS(), p); err != nil {
			return "", err
		}
	}
	_, err = a.writer.UpdateState(ctx, session.StateName(ev.Session), func(cur []byte) ([]byte, error) {
		st, err := session.Decode(cur)
		if err != nil {
			return nil, err
		}
		st.Note, st.NoteHash = p, hash
		return st.Encode()
	})
	return p, err
}

// lessonPaths are the lessons a session's state names.
func lessonPaths(st *session.State) []string {
	var out []string
	for _, o := range st.Outcomes {
		out = append(out, o.Lesson)
	}
	for _, c := range st.Calls {
		for _, l := range c.Lessons {
			out = append(out, l.Path)
		}
	}
	return out
}

// noteNames gives the titles of the notes at paths, for links.
func (a *App) noteNames(ctx context.Context, paths []string) session.Names {
	titles := map[string]string{}
	if len(paths) > 0 {
		if infos, err := a.ix.Searcher().List(ctx, index.Query{Paths: paths}); err == nil {
			for _, n := range infos {
				titles[n.Path] = n.Title
			}
		}
	}
	return func(p string) string { return titles[p] }
}
