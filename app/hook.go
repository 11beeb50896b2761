package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/internal/hookpolicy"
	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/recall"
	"github.com/vaultmem/vaultmem/task"
)

// What each event of an agent's session does is package hookpolicy's; app
// names its event and answer here so that the front ends, which import app
// alone (.ci/run), reach them through it. Each is exactly hookpolicy's
// (see there for its contract).

// HookKind is hookpolicy.Kind: what happened in an agent's session.
type HookKind = hookpolicy.Kind

// The kinds of hook events, hookpolicy's.
const (
	HookSessionStart = hookpolicy.SessionStart // a session started, resumed, was cleared or compacted
	HookPrompt       = hookpolicy.Prompt       // the user sent a prompt
	HookBeforeTool   = hookpolicy.BeforeTool   // the agent is about to call a tool
	HookAfterTool    = hookpolicy.AfterTool    // a tool call ended (Failed says how)
	HookCompact      = hookpolicy.Compact      // the conversation is about to be compacted (it may not be)
	HookCompacted    = hookpolicy.Compacted    // the conversation was compacted
	HookStop         = hookpolicy.Stop         // the agent finished its turn
	HookSubagentStop = hookpolicy.SubagentStop // a subagent finished
	HookSessionEnd   = hookpolicy.SessionEnd   // the session ended
)

// HookEvent is hookpolicy.Event: one event of an agent's session, as a
// hook gets it.
type HookEvent = hookpolicy.Event

// HookAnswer is hookpolicy.Answer: what a hook tells the agent.
type HookAnswer = hookpolicy.Answer

// Hook answers one event of an agent's session by the hook policy (see
// hookpolicy.Policy.Answer): at its start, MEMORY.md, the focused task's
// context and what needs review (and after a compaction, the checkpoint
// taken before it); with a prompt, what recall finds for it that the
// session was not given yet; before a tool call, the lessons for it;
// after it, the outcome of each lesson shown; before a compaction, a
// checkpoint on the focused task; at each stop, the session note. An
// event without a time is taken as now, one without an agent as the
// config's rule for the agent id says. Errors: an Invalid error for an
// event without a session, with a bad agent id or of no known kind; the
// stores'.
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
	ans, err := a.hookPolicy().Answer(ctx, ev)
	if errors.Is(err, hookpolicy.ErrUnknownKind) {
		return ans, invalid(err)
	}
	return ans, err
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

// hookPolicy is the hook policy over a's parts, made for each event as
// the stores are: an index attached after Open (OpenForHook) is the one
// it reads.
func (a *App) hookPolicy() *hookpolicy.Policy {
	uses := hookUses{a}
	return &hookpolicy.Policy{
		Settings: hookpolicy.Settings{Hooks: a.Config.Hooks, Rules: a.Config.Lessons.Rules, SessionsFolder: a.Config.Folders.Sessions},
		Vault:    a.Vault, States: a.writer, Notes: a.writer,
		Index: uses, Sync: uses, Recall: uses, Lessons: uses,
		Tasks: a.taskStore(), Memory: a.memoryStore(),
	}
}

// hookUses gives the hook policy the application's use cases (which sync
// as every front end's do) and the index's few calls it makes.
type hookUses struct{ a *App }

// Proposed is the index's: the notes Dream proposed.
func (u hookUses) Proposed(ctx context.Context) ([]memory.Proposal, error) {
	return u.a.ix.Kinds().Proposed(ctx)
}

// Refresh is the index's: the notes at paths read again from fsys.
func (u hookUses) Refresh(ctx context.Context, fsys fs.FS, paths ...string) error {
	return u.a.ix.Refresh(ctx, fsys, paths...)
}

// List is the index's: the notes q asks for.
func (u hookUses) List(ctx context.Context, q index.Query) ([]index.NoteInfo, error) {
	return u.a.ix.Searcher().List(ctx, q)
}

// Fresh syncs the index before a session's start reads it.
func (u hookUses) Fresh(ctx context.Context) error { return u.a.fresh(ctx, false) }

// Recall is RecallFresh.
func (u hookUses) Recall(ctx context.Context, q hookpolicy.RecallQuery) (*recall.Result, error) {
	return u.a.RecallFresh(ctx, RecallRequest{Query: q.Query, Budget: q.Budget, Agent: q.Agent, NoFocus: q.NoFocus, Hide: q.Hide,
		Given: q.Given, Recent: q.Recent})
}

// Match is Lessons.Match.
func (u hookUses) Match(ctx context.Context, s lesson.Situation, k int) (lesson.Result, error) {
	return u.a.Lessons().Match(ctx, MatchRequest{Situation: s, K: k})
}

// Open is the App's one lesson store.
func (u hookUses) Open() (hookpolicy.LessonStore, error) {
	ls, err := u.a.openLessons()
	if err != nil {
		return nil, err
	}
	return ls, nil
}
