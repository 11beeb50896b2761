package main

import (
	"context"
	"fmt"
	"slices"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/app"
)

func evalCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name:  "eval",
		Usage: "measure retrieval on a benchmark",
		Commands: []*cli.Command{{
			Name:      "locomo",
			Usage:     "evidence recall on LoCoMo within a token budget",
			ArgsUsage: "DIR",
			Description: "DIR holds qa.jsonl and vault/conv-*/ (as eval/testdata/locomo-mini does). Each conversation is\n" +
				"indexed on its own (in a temporary cache; DIR is only read). For every question of\n" +
				"categories 1-4 the score is the share of its evidence turns whose marker (**D3:7**) is in\n" +
				"the context, averaged by category and overall, for recall and for plain keyword and\n" +
				"hybrid search packed in rank order into the same budget.",
			Flags: []cli.Flag{
				jsonFlag(),
				&cli.IntFlag{Name: "budget", Value: 1000, Usage: "the token budget of each context"},
				&cli.StringFlag{Name: "intent", Usage: "route every question as `INTENT` instead of classifying it"},
				&cli.BoolFlag{Name: "no-vectors", Usage: "index without embeddings (keyword engines only), to see what the embedder adds"},
				&cli.BoolFlag{Name: "together", Usage: "index every conversation in one vault, as a vault of many people is"},
				&cli.BoolFlag{Name: "questions", Usage: "also give recall's score on each question (--json: answers; else the ones under 1)"},
				&cli.StringFlag{Name: "budget-fill", Usage: "recall's budget fill, `FILL`: shared (the default) or greedy (see recall.budget_fill)"},
			},
			Action: func(ctx context.Context, cmd *cli.Command) error {
				if cmd.Args().Len() != 1 {
					return usagef("eval locomo takes one DIR")
				}
				intent, err := intentFlag(cmd)
				if err != nil {
					return err
				}
				if cmd.Int("budget") <= 0 {
					return usagef("--budget must be a positive number of tokens")
				}
				rep, err := app.EvalLoCoMo(ctx, cmd.Args().First(), app.EvalOptions{Budget: int(cmd.Int("budget")), Intent: intent,
					NoVectors: cmd.Bool("no-vectors"), Together: cmd.Bool("together"), Answers: cmd.Bool("questions"),
					BudgetFill: cmd.String("budget-fill")})
				if err != nil {
					return err
				}
				if cmd.Bool("json") {
					return sh.printJSON(rep)
				}
				sh.printEval(rep)
				return nil
			},
		}},
	}
}

func (sh *shell) printEval(rep *app.EvalReport) {
	defer sh.printMisses(rep.Answers)
	fmt.Fprintf(sh.stdout, "LoCoMo evidence recall, %d questions, %d-token contexts (%d ms)\n\n", rep.Questions, rep.Budget, rep.MS)
	fmt.Fprintf(sh.stdout, "%-10s %8s %10s %9s %12s %11s\n", "retriever", "overall", "multi-hop", "temporal", "open-domain", "single-hop")
	for _, r := range []string{"recall", "hybrid", "keyword"} {
		s, ok := rep.Scores[r]
		if !ok {
			continue
		}
		fmt.Fprintf(sh.stdout, "%-10s %8.3f %10.3f %9.3f %12.3f %11.3f\n", r, s.Overall, s.ByCategory["multi-hop"],
			s.ByCategory["temporal"], s.ByCategory["open-domain"], s.ByCategory["single-hop"])
		convs := make([]string, 0, len(s.ByConversation))
		for c := range s.ByConversation {
			convs = append(convs, c)
		}
		slices.Sort(convs)
		for _, c := range convs {
			p := s.ByConversation[c]
			cell := func(cat string) string { // "-": no question of that category
				if v, ok := p.ByCategory[cat]; ok {
					return fmt.Sprintf("%.3f", v)
				}
				return "-"
			}
			fmt.Fprintf(sh.stdout, "  %-8s %8.3f %10s %9s %12s %11s\n", c, p.Overall, cell("multi-hop"), cell("temporal"), cell("open-domain"), cell("single-hop"))
		}
	}
}

// printMisses lists the questions recall did not fully answer: score,
// id, category, intent and the question.
func (sh *shell) printMisses(answers []app.EvalAnswer) {
	if len(answers) == 0 {
		return
	}
	fmt.Fprintf(sh.stdout, "\nrecall under 1:\n")
	for _, q := range answers {
		if q.Recall < 1 {
			fmt.Fprintf(sh.stdout, "  %.2f  %-12s %-11s %-19s %s\n", q.Recall, q.ID, q.Category, q.Intent, q.Question)
		}
	}
}
