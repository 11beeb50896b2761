package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/task"
)

// MatchRequest asks for the lessons for a situation: at most K (0 means
// lesson.DefaultK). NoSync: see the lesson use cases' policy (lessons.go).
type MatchRequest struct {
	Situation lesson.Situation `json:"situation"`
	K         int              `json:"k,omitempty"`
	NoSync    bool             `json:"no_sync,omitempty"`
}

// Match returns the lessons for req's situation, strongest and most
// relevant first, from the lesson store's hot cache (see lesson.Matcher),
// the index brought up to date first as for every lesson use case: a
// lesson written or edited a moment ago, by hand or by another process,
// is matched, by the CLI, the MCP server and the hooks alike. The request
// is checked before the index is touched. Errors: lesson.ErrInvalid
// (wrapped) for a situation with no text, tool or path, or a K out of
// 0..lesson.MaxK; the index's.
func (l Lessons) Match(ctx context.Context, req MatchRequest) (lesson.Result, error) {
	a := l.a
	s := req.Situation
	if strings.TrimSpace(s.Text) == "" && strings.TrimSpace(s.Tool) == "" && len(s.Paths) == 0 {
		return lesson.Result{}, fmt.Errorf("%w: say what you are about to do: its text, a tool or the paths involved", lesson.ErrInvalid)
	}
	if req.K < 0 || req.K > lesson.MaxK {
		return lesson.Result{}, fmt.Errorf("%w: k %d: give 1 to %d (0: %d)", lesson.ErrInvalid, req.K, lesson.MaxK, lesson.DefaultK)
	}
	st, err := l.store(ctx, req.NoSync)
	if err != nil {
		return lesson.Result{}, err
	}
	res, err := st.Matcher().Match(ctx, s, req.K)
	if err == nil {
		a.health.Matched(res) // a showing, for the live health
	}
	return res, err
}

// ContextRequest asks for a task's context: Task (a path or name; "" is
// Agent's focused task) within Budget tokens (0 means task.DefaultBudget).
type ContextRequest struct {
	Task   string `json:"task,omitempty"`
	Agent  string `json:"agent,omitempty"`
	Budget int    `json:"budget,omitempty"`
	// NoSync: the caller brought the index up to date itself.
	NoSync bool `json:"no_sync,omitempty"`
}

// Context returns the context of the task req names (see
// task.Store.Context), the index synced first unless req.NoSync.
// Errors: task.ErrInvalid, task.ErrNoFocus (wrapped); the index's.
func (t Tasks) Context(ctx context.Context, req ContextRequest) (task.Context, error) {
	st, err := t.store(ctx, req.NoSync)
	if err != nil {
		return task.Context{}, err
	}
	return st.Context(ctx, agentOr(req.Agent), req.Task, req.Budget)
}
