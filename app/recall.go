package app

import (
	"context"
	"maps"
	"strings"

	"github.com/vaultmem/vaultmem/recall"
	"github.com/vaultmem/vaultmem/task"
)

// RecallRequest is a question for Recall.
type RecallRequest struct {
	Query string `json:"query"`
	// Budget is the most tokens of context; 0 means the intent's.
	Budget int `json:"budget,omitempty"`
	// Intent skips the classification when set.
	Intent recall.Intent `json:"intent,omitempty"`
	// Agent is whose focused task's context comes first (see
	// task.Store.FocusContext; "" is task.DefaultAgent); NoFocus leaves it
	// out.
	Agent   string `json:"agent,omitempty"`
	NoFocus bool   `json:"no_focus,omitempty"`
	// Hide are vault paths of notes not to give (a session's own note,
	// which holds what it is doing, not memory).
	Hide []string `json:"hide,omitempty"`
	// Given and Recent are the session's working memory (L1; see
	// WorkingMemory and recall.Request): what the agent has already
	// (recall.ItemKey keys, or note paths for whole notes), never given
	// again, and the notes it just wrote, ranked a little higher.
	Given  []string `json:"given,omitempty"`
	Recent []string `json:"recent,omitempty"`
}

// ErrNoQuery is returned for a question or a search with no word to
// search for: recall's own refusal, one sentinel for both.
var ErrNoQuery = recall.ErrEmptyQuery

// Recall answers a question with the context an agent should see, within
// a token budget: the agent's focused task's context first (a quarter of
// the budget at most), the lessons for a how-to question, then what
// recall's engines find in the vault. Every front end recalls through it.
// Errors: ErrNoQuery; a budget out of range (recall.MaxBudget); the
// index's and the stores'.
func (a *App) Recall(ctx context.Context, req RecallRequest) (*recall.Result, error) {
	return a.recall(ctx, req, a.recallOptions())
}

// RecallFresh is Recall on an index brought up to date first, the recall
// overlapping the sync (see WhileSyncing): what a one-shot command does.
func (a *App) RecallFresh(ctx context.Context, req RecallRequest) (*recall.Result, error) {
	if err := req.Check(); err != nil {
		return nil, err
	}
	res, _, err := WhileSyncing(ctx, a, func(ctx context.Context, early bool) (*recall.Result, error) {
		opts := a.recallOptions()
		if early && !opts.NoDeadlines {
			// Beside the sync, the stages share the cores with it: they run
			// to their end, within the time all of them would have.
			opts.NoDeadlines = true
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, recall.DefaultDeadlines[0]+recall.DefaultDeadlines[1]+recall.DefaultDeadlines[2])
			defer cancel()
		}
		return a.recall(ctx, req, opts)
	})
	return res, err
}

// Check refuses a question that cannot be answered (see
// recall.CheckRequest): Recall checks with it, and a front end may before
// it opens the vault, adding its own hint to the same words.
func (req RecallRequest) Check() error {
	return recall.CheckRequest(strings.TrimSpace(req.Query), req.Budget)
}

func (a *App) recall(ctx context.Context, req RecallRequest, opts recall.Options) (*recall.Result, error) {
	if err := req.Check(); err != nil {
		return nil, err
	}
	r := recall.Request{Query: req.Query, Budget: req.Budget, Intent: req.Intent}
	// In a vault several people share, a teammate's user memories are
	// theirs alone.
	_, theirs, _, err := a.memoryStore().Personal(ctx)
	if err != nil {
		return nil, err
	}
	r.Hidden = theirs
	if len(req.Hide) > 0 {
		r.Hidden = maps.Clone(theirs)
		if r.Hidden == nil {
			r.Hidden = map[string]bool{}
		}
		for _, p := range req.Hide {
			r.Hidden[p] = true
		}
	}
	r.Given, r.Recent = set(req.Given), set(req.Recent)
	if !req.NoFocus {
		agent := req.Agent
		if agent == "" {
			agent = task.DefaultAgent
		}
		if err := task.CheckAgent(agent); err != nil {
			return nil, err
		}
		c, ok, err := a.taskStore().FocusContext(ctx, agent, req.Budget)
		if err != nil {
			return nil, err
		}
		if ok {
			r.Focus, r.FocusPath = c.Context, c.Task.Path
		}
	}
	if recall.HowTo(req.Query) {
		st, err := a.openLessons()
		if err != nil {
			return nil, err
		}
		lines, err := st.Matcher().ForRecall(ctx, req.Query)
		if err != nil {
			return nil, err
		}
		if lines != "" {
			r.Presets = append(r.Presets, recall.LessonsPreset(lines))
		}
	}
	return recall.New(a.ix.Recall(), opts).Recall(ctx, r)
}

// set is the set of ss; nil for none.
func set(ss []string) map[string]bool {
	if len(ss) == 0 {
		return nil
	}
	m := make(map[string]bool, len(ss))
	for _, s := range ss {
		m[s] = true
	}
	return m
}
