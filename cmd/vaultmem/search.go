package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/app"
)

func searchCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name:      "search",
		Usage:     "search the notes: keyword, vector or hybrid",
		ArgsUsage: "QUERY...",
		Description: "Finds the chunks (sections and paragraphs) of notes that best match QUERY. keyword is\n" +
			"FTS5 BM25 over names, aliases, descriptions, tags, headings and text (Chinese and Japanese\n" +
			"included); vector uses the embedder; hybrid (the default) fuses both. The index is brought\n" +
			"up to date first. A vector hit needs a real similarity to QUERY: a query that no note holds a\n" +
			"word of or is near in meaning finds nothing. Archived memories and Dream's log (type: dream-log)\n" +
			"are left out unless --all. With --json: {\"results\": [{path, heading, block, line, score, snippet}]}.",
		Flags: []cli.Flag{
			jsonFlag(),
			&cli.StringFlag{Name: "mode", Value: "hybrid", Usage: "`MODE`: keyword, vector or hybrid"},
			&cli.IntFlag{Name: "limit", Value: 10, Usage: "at most `N` results, up to 1000"},
			&cli.IntFlag{Name: "offset", HideDefault: true, Usage: "skip the first `K` results (the next page)"},
			&cli.StringFlag{Name: "type", Usage: "only notes whose frontmatter type is `T` (none: untyped)"},
			&cli.StringFlag{Name: "tag", Usage: "only notes tagged `T` (or a tag nested under it)"},
			&cli.StringFlag{Name: "folder", Usage: "only notes under `DIR` (vault-relative)"},
			&cli.BoolFlag{Name: "all", Usage: "also search the notes left out otherwise: archived memories and Dream's log"},
			&cli.BoolFlag{Name: "no-sync", Usage: "search the index as it is, without bringing it up to date"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			req := app.SearchRequest{Query: joinArgs(cmd), Limit: int(cmd.Int("limit")), Offset: int(cmd.Int("offset")),
				Type: cmd.String("type"), Tag: cmd.String("tag"), Folder: cmd.String("folder"), All: cmd.Bool("all"), NoSync: cmd.Bool("no-sync")}
			// app's check, before the vault is opened; the words of the hint
			// are the CLI's (its flags).
			if err := req.Check(); errors.Is(err, app.ErrNoQuery) {
				return usagef("search needs a QUERY with words to look for")
			} else if errors.Is(err, app.ErrBadPage) || app.ClassOf(err) == app.Invalid {
				return usagef("--limit must be from 1 to %d, and --offset from 0 to %d", app.MaxLimit, app.MaxLimit)
			} else if err != nil {
				return usageError{err}
			}
			var err error
			if req.Mode, err = app.ParseSearchMode(cmd.String("mode")); err != nil {
				return usageError{err}
			}
			res, err := query(ctx, sh, app.OpSearch, req, 0)
			if err != nil {
				return err
			}
			if res.EmbedError != "" {
				sh.warnf("%s; results are keyword-only", res.EmbedError)
			}
			if cmd.Bool("json") {
				out := map[string]any{"results": res.Results}
				if res.NextOffset > 0 {
					out["next_offset"] = res.NextOffset
				}
				return sh.printJSON(out)
			}
			for _, r := range res.Results {
				loc := fmt.Sprintf("%s:%d", r.Path, r.Line)
				if r.Heading != "" {
					loc += "  § " + r.Heading
				}
				fmt.Fprintf(sh.stdout, "%s  (%.3f)\n    %s\n", loc, r.Score, r.Snippet)
			}
			if res.NextOffset > 0 && !sh.quiet {
				fmt.Fprintf(sh.stderr, "more results: --offset %d\n", res.NextOffset)
			}
			return nil
		},
	}
}

func recallCommand(sh *shell) *cli.Command {
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
			req := app.RecallRequest{Query: joinArgs(cmd), Budget: int(cmd.Int("budget")), NoFocus: cmd.Bool("no-focus")}
			// app's check, before the vault is opened; the hint is the CLI's.
			if err := req.Check(); errors.Is(err, app.ErrNoQuery) {
				return usagef("recall needs a QUERY with words to search for")
			} else if errors.Is(err, app.ErrBadBudget) {
				return usagef("--budget must be a number of tokens from 1 to %d", app.RecallMaxBudget)
			} else if err != nil {
				return usageError{err}
			}
			var err error
			if req.Intent, err = intentFlag(cmd); err != nil {
				return err
			}
			if req.Agent, err = sh.agentOf(cmd); err != nil {
				return err
			}
			res, err := query(ctx, sh, app.OpRecall, req, 0)
			if err != nil {
				return err
			}
			if cmd.Bool("json") {
				return sh.printJSON(res)
			}
			if cmd.Bool("explain") {
				sh.explain(res)
			}
			fmt.Fprint(sh.stdout, res.Context)
			return nil
		},
	}
}

func (sh *shell) explain(res *app.RecallResult) {
	fmt.Fprintf(sh.stderr, "intent %s (%.2f, %s), strategy %s, budget %d tokens\n", res.Intent, res.Confidence, res.Classifier, res.Strategy, res.Budget)
	for _, st := range res.Stages {
		note := ""
		if st.TimedOut {
			note = " (deadline reached)"
		}
		fmt.Fprintf(sh.stderr, "  stage %-6s %7.1f ms  %d candidates%s\n", st.Name, st.MS, st.Results, note)
	}
	for i, it := range res.Items {
		fmt.Fprintf(sh.stderr, "  %2d. %.3f %s %s  (%s)\n", i+1, it.Score, it.Path, it.Block, it.Why)
	}
	if res.NoEvidence {
		fmt.Fprintln(sh.stderr, "no evidence: no note holds a word of the query or is near it in meaning, so nothing of the vault is given")
	}
	fmt.Fprintf(sh.stderr, "used %d of %d tokens", res.UsedTokens, res.Budget)
	if res.Truncated {
		fmt.Fprint(sh.stderr, "; the last item is truncated")
	}
	if res.Dropped > 0 {
		fmt.Fprintf(sh.stderr, "; %d more did not fit", res.Dropped)
	}
	fmt.Fprintln(sh.stderr)
}

// intentFlag reads --intent: "" when not given.
func intentFlag(cmd *cli.Command) (app.RecallIntent, error) {
	name := cmd.String("intent")
	if name == "" {
		return "", nil
	}
	in, err := app.ParseRecallIntent(name)
	if err != nil {
		return "", usagef("--intent: %v", err)
	}
	return in, nil
}

// agentFlag is a new --agent flag: the agent a command acts for. Unset,
// app.AgentIn chooses ($VAULTMEM_AGENT, hooks.agent, default).
func agentFlag() cli.Flag {
	return &cli.StringFlag{Name: "agent",
		Usage: "the `AGENT` id (a subagent's is its parent's, '/', its own: claude/tests); each has its own focus " +
			"(default: $" + app.AgentEnv + ", else the config's hooks.agent, else " + app.DefaultAgent + ")"}
}

// agentOf returns the checked agent id cmd acts for, by app's one rule
// (app.Config.Agent), before the vault is opened or a server asked: a
// server's environment is not this command's.
func (sh *shell) agentOf(cmd *cli.Command) (string, error) {
	dir, err := sh.vaultDir()
	if err != nil {
		return "", err
	}
	agent, err := app.AgentIn(dir, cmd.String("agent"))
	if errors.Is(err, app.ErrTaskInvalid) {
		if cmd.IsSet("agent") {
			return "", usagef("--%v", err)
		}
		return "", usagef("%v", err)
	}
	return agent, err
}
