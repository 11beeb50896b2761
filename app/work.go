package app

import (
	"context"

	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/task"
)

// MatchRequest asks for the lessons for a situation: at most K (0 means
// lesson.DefaultK).
type MatchRequest struct {
	Situation lesson.Situation `json:"situation"`
	K         int              `json:"k,omitempty"`
}

// MatchLessons returns the lessons for req's situation, strongest and most
// relevant first, from the lesson store's hot cache (see lesson.Matcher).
// Errors: lesson.ErrInvalid (wrapped) for an empty situation or a K out
// of range; the index's.
func (a *App) MatchLessons(ctx context.Context, req MatchRequest) (lesson.Result, error) {
	if err := a.fresh(ctx, false); err != nil {
		return lesson.Result{}, err
	}
	st, err := a.Lessons()
	if err != nil {
		return lesson.Result{}, err
	}
	return st.Matcher().Match(ctx, req.Situation, req.K)
}

// ContextRequest asks for a task's context: Task (a path or name; "" is
// Agent's focused task) within Budget tokens (0 means task.DefaultBudget).
type ContextRequest struct {
	Task   string `json:"task,omitempty"`
	Agent  string `json:"agent,omitempty"`
	Budget int    `json:"budget,omitempty"`
}

// TaskContext returns the context of the task req names (see
// task.Store.Context). Errors: task.ErrInvalid, task.ErrNoFocus
// (wrapped); the index's.
func (a *App) TaskContext(ctx context.Context, req ContextRequest) (task.Context, error) {
	if err := a.fresh(ctx, false); err != nil {
		return task.Context{}, err
	}
	agent := req.Agent
	if agent == "" {
		agent = task.DefaultAgent
	}
	return a.Tasks().Context(ctx, agent, req.Task, req.Budget)
}
