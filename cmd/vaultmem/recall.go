package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/recall"
)

// recallOptions turns the config into recall options.
func (s *session) recallOptions() recall.Options {
	o := recall.Options{LLM: chatOptions(s.cfg.Recall.Classifier)}
	o.NoDeadlines = !s.cfg.Recall.stageDeadlines()
	if len(s.cfg.Recall.Routes) > 0 {
		o.Routes = map[recall.Intent]recall.Route{}
		for name, r := range s.cfg.Recall.Routes {
			o.Routes[recall.Intent(name)] = r
		}
	}
	return o
}

func (a *app) recallCommand() *cli.Command {
	return &cli.Command{
		Name:      "recall",
		Usage:     "the context an agent should see about QUERY, within a token budget",
		ArgsUsage: "QUERY...",
		Description: "Classifies what QUERY is after (simple-fact, preference-recall, causal-reasoning,\n" +
			"entity-relationship, temporal-analysis, hybrid), searches the vault along that intent's\n" +
			"route in stages (fast, extend, full), fuses, dedups and ranks what it finds, and prints the\n" +
			"best of it within the budget (the route's, or --budget). With --explain, also the route\n" +
			"and each stage (on stderr). With --json: {query, intent, confidence, classifier, strategy,\n" +
			"stages: [{name, ms, results}], items: [{path, heading, block, source, layer, score, tokens,\n" +
			"text, why}], context, used_tokens, budget, truncated, dropped, no_evidence}. A query that no note\n" +
			"holds a word of or is near in meaning gets no context (no_evidence: true), not unrelated notes.\n" +
			"When the agent (--agent, VAULTMEM_AGENT) has a focused task, its context comes first (a quarter\n" +
			"of the budget at most; --no-focus leaves it out).",
		Flags: []cli.Flag{
			jsonFlag(),
			&cli.IntFlag{Name: "budget", HideDefault: true, Usage: "at most `N` tokens of context, up to 100000 (default: the intent's budget, 500-2000)"},
			&cli.StringFlag{Name: "intent", Usage: "skip classification: one of the six `INTENT`s"},
			&cli.BoolFlag{Name: "explain", Usage: "print the route and each stage"},
			agentFlag(),
			&cli.BoolFlag{Name: "no-focus", Usage: "leave out the context of the agent's focused task"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			q := joinArgs(cmd)
			if len(index.Terms(q)) == 0 {
				return usagef("recall needs a QUERY with words to search for")
			}
			if b := cmd.Int("budget"); b < 0 || b > recall.MaxBudget {
				return usagef("--budget must be a number of tokens from 1 to %d", recall.MaxBudget)
			}
			intent, err := intentFlag(cmd)
			if err != nil {
				return err
			}
			s, ix, err := a.openIndexed(ctx, false)
			if err != nil {
				return err
			}
			defer s.Close() // and the index
			find := func(ctx context.Context, early bool) (*recall.Result, error) {
				opts := s.recallOptions()
				if early && !opts.NoDeadlines {
					// Beside the sync, the stages share the cores with it:
					// they run to their end, within the time all of them
					// would have.
					opts.NoDeadlines = true
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, recall.DefaultDeadlines[0]+recall.DefaultDeadlines[1]+recall.DefaultDeadlines[2])
					defer cancel()
				}
				return a.recall(ctx, cmd, s, ix, q, intent, opts)
			}
			res, _, err := searchWhileSyncing(ctx, a, s, ix, find)
			if err != nil {
				return err
			}
			if cmd.Bool("json") {
				return a.printJSON(res)
			}
			if cmd.Bool("explain") {
				a.explain(res)
			}
			fmt.Fprint(a.stdout, res.Context)
			return nil
		},
	}
}

// recall answers question q on the index: the focused task's context
// first (unless --no-focus), the lessons for a how-to question, then what
// the engines find.
func (a *app) recall(ctx context.Context, cmd *cli.Command, s *session, ix *index.Index, q string, intent recall.Intent, opts recall.Options) (*recall.Result, error) {
	req := recall.Request{Query: q, Budget: int(cmd.Int("budget")), Intent: intent}
	if !cmd.Bool("no-focus") {
		agent, err := agentOf(cmd)
		if err != nil {
			return nil, err
		}
		c, ok, err := s.tasks(ix).FocusContext(ctx, agent, req.Budget)
		if err != nil {
			return nil, err
		}
		if ok {
			req.Focus, req.FocusPath = c.Context, c.Task.Path
		}
	}
	if recall.HowTo(q) {
		st, err := s.lessons(ix)
		if err != nil {
			return nil, err
		}
		if lines, err := st.Matcher().ForRecall(ctx, q); err != nil {
			return nil, err
		} else if lines != "" {
			req.Presets = append(req.Presets, recall.LessonsPreset(lines))
		}
	}
	return recall.New(ix, opts).Recall(ctx, req)
}

func (a *app) explain(res *recall.Result) {
	fmt.Fprintf(a.stderr, "intent %s (%.2f, %s), strategy %s, budget %d tokens\n", res.Intent, res.Confidence, res.Classifier, res.Strategy, res.Budget)
	for _, st := range res.Stages {
		note := ""
		if st.TimedOut {
			note = " (deadline reached)"
		}
		fmt.Fprintf(a.stderr, "  stage %-6s %7.1f ms  %d candidates%s\n", st.Name, st.MS, st.Results, note)
	}
	for i, it := range res.Items {
		fmt.Fprintf(a.stderr, "  %2d. %.3f %s %s  (%s)\n", i+1, it.Score, it.Path, it.Block, it.Why)
	}
	if res.NoEvidence {
		fmt.Fprintln(a.stderr, "no evidence: no note holds a word of the query or is near it in meaning, so nothing of the vault is given")
	}
	fmt.Fprintf(a.stderr, "used %d of %d tokens", res.UsedTokens, res.Budget)
	if res.Truncated {
		fmt.Fprint(a.stderr, "; the last item is truncated")
	}
	if res.Dropped > 0 {
		fmt.Fprintf(a.stderr, "; %d more did not fit", res.Dropped)
	}
	fmt.Fprintln(a.stderr)
}

// intentFlag reads --intent: "" when not given.
func intentFlag(cmd *cli.Command) (recall.Intent, error) {
	name := cmd.String("intent")
	if name == "" {
		return "", nil
	}
	in, err := recall.ParseIntent(name)
	if err != nil {
		return "", usagef("--intent: %v", err)
	}
	return in, nil
}
