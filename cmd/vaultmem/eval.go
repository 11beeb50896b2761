package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/recall"
	"github.com/vaultmem/vaultmem/text"
)

func (a *app) evalCommand() *cli.Command {
	return &cli.Command{
		Name:  "eval",
		Usage: "measure retrieval on a benchmark",
		Commands: []*cli.Command{{
			Name:      "locomo",
			Usage:     "evidence recall on LoCoMo within a token budget",
			ArgsUsage: "DIR",
			Description: "DIR holds qa.jsonl and vault/conv-*/ (../shared/data/locomo-dev). Each conversation is\n" +
				"indexed on its own (in a temporary cache; DIR is only read). For every question of\n" +
				"categories 1-4 the score is the share of its evidence turns whose marker (**D3:7**) is in\n" +
				"the context, averaged by category and overall, for recall and for plain keyword and\n" +
				"hybrid search packed in rank order into the same budget.",
			Flags: []cli.Flag{
				jsonFlag,
				&cli.IntFlag{Name: "budget", Value: 1000, Usage: "the token budget of each context"},
				&cli.StringFlag{Name: "intent", Usage: "route every question as `INTENT` instead of classifying it"},
				&cli.BoolFlag{Name: "no-vectors", Usage: "index without embeddings (keyword engines only), to see what the embedder adds"},
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
				rep, err := evalLocomo(ctx, cmd.Args().First(), int(cmd.Int("budget")), intent, index.Options{NoVectors: cmd.Bool("no-vectors"), Resident: true})
				if err != nil {
					return err
				}
				if cmd.Bool("json") {
					return a.printJSON(rep)
				}
				a.printEval(rep)
				return nil
			},
		}},
	}
}

// locomoQuestion is one line of qa.jsonl.
type locomoQuestion struct {
	ID       string   `json:"qa_id"`
	Sample   string   `json:"sample_id"`
	Question string   `json:"question"`
	Category int      `json:"category"`
	Evidence []string `json:"evidence"`
}

// evalReport is the JSON of `vaultmem eval locomo`.
type evalReport struct {
	Budget    int                  `json:"budget"`
	Questions int                  `json:"questions"`
	Scores    map[string]evalScore `json:"scores"` // by retriever: recall, keyword, hybrid
	MS        int64                `json:"ms"`
}

// evalScore is one retriever's evidence recall.
type evalScore struct {
	Overall    float64            `json:"overall"`
	ByCategory map[string]float64 `json:"by_category"`
	Intents    map[string]int     `json:"intents,omitempty"`
}

var locomoCategories = map[int]string{1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}

func evalLocomo(ctx context.Context, dir string, budget int, intent recall.Intent, opts index.Options) (*evalReport, error) {
	start := time.Now()
	qs, err := readLocomo(filepath.Join(dir, "qa.jsonl"))
	if err != nil {
		return nil, err
	}
	bySample := map[string][]locomoQuestion{}
	for _, q := range qs {
		if _, ok := locomoCategories[q.Category]; ok && len(q.Evidence) > 0 {
			bySample[q.Sample] = append(bySample[q.Sample], q)
		}
	}
	samples := make([]string, 0, len(bySample))
	for s := range bySample {
		samples = append(samples, s)
	}
	sort.Strings(samples)
	type tally struct{ sum, n map[string]float64 }
	tallies := map[string]*tally{}
	intents := map[string]int{}
	add := func(retriever, cat string, score float64) {
		t, ok := tallies[retriever]
		if !ok {
			t = &tally{map[string]float64{}, map[string]float64{}}
			tallies[retriever] = t
		}
		for _, k := range []string{cat, "overall"} {
			t.sum[k] += score
			t.n[k]++
		}
	}
	total := 0
	for _, sample := range samples {
		vdir := filepath.Join(dir, "vault", sample)
		cache, err := os.MkdirTemp("", "vaultmem-eval-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(cache)
		ix, err := index.Open(ctx, cache, opts)
		if err != nil {
			return nil, err
		}
		defer ix.Close()
		if _, err := ix.Sync(ctx, os.DirFS(vdir), nil); err != nil {
			return nil, fmt.Errorf("index %s: %w", vdir, err)
		}
		eng := recall.New(ix, recall.Options{NoDeadlines: true}) // the same answers on a busy machine
		for _, q := range bySample[sample] {
			cat := locomoCategories[q.Category]
			res, err := eng.Recall(ctx, recall.Request{Query: q.Question, Budget: budget, Intent: intent})
			if err != nil {
				return nil, fmt.Errorf("%s: %w", q.ID, err)
			}
			intents[string(res.Intent)]++
			add("recall", cat, evidenceShare(res.Context, q.Evidence))
			for _, mode := range []index.Mode{index.Keyword, index.Hybrid} {
				hits, err := ix.Search(ctx, index.Query{Text: q.Question, Mode: mode, Limit: 200})
				if err != nil {
					return nil, fmt.Errorf("%s: %w", q.ID, err)
				}
				add(string(mode), cat, evidenceShare(packHits(hits, budget), q.Evidence))
				if opts.NoVectors {
					break // hybrid is keyword without vectors
				}
			}
			total++
		}
	}
	rep := &evalReport{Budget: budget, Questions: total, Scores: map[string]evalScore{}, MS: time.Since(start).Milliseconds()}
	for r, t := range tallies {
		s := evalScore{Overall: t.sum["overall"] / t.n["overall"], ByCategory: map[string]float64{}}
		for _, cat := range locomoCategories {
			if t.n[cat] > 0 {
				s.ByCategory[cat] = t.sum[cat] / t.n[cat]
			}
		}
		if r == "recall" {
			s.Intents = intents
		}
		rep.Scores[r] = s
	}
	return rep, nil
}

// packHits is plain search's context: chunk texts in rank order while
// they fit the budget.
func packHits(hits []index.Result, budget int) string {
	var b strings.Builder
	used := 0
	for _, h := range hits {
		t := text.EstimateTokens(h.Text + "\n")
		if used+t > budget {
			break
		}
		b.WriteString(h.Text + "\n")
		used += t
	}
	return b.String()
}

// evidenceShare is the share of evidence turn ids whose marker
// (**D3:7**) is in context.
func evidenceShare(context string, evidence []string) float64 {
	found := 0
	for _, e := range evidence {
		if strings.Contains(context, "**"+strings.TrimSpace(e)+"**") {
			found++
		}
	}
	return float64(found) / float64(len(evidence))
}

func readLocomo(p string) ([]locomoQuestion, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var qs []locomoQuestion
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var q locomoQuestion
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", p, line, err)
		}
		qs = append(qs, q)
	}
	return qs, sc.Err()
}

func (a *app) printEval(rep *evalReport) {
	fmt.Fprintf(a.stdout, "LoCoMo evidence recall, %d questions, %d-token contexts (%d ms)\n\n", rep.Questions, rep.Budget, rep.MS)
	fmt.Fprintf(a.stdout, "%-10s %8s %10s %9s %12s %11s\n", "retriever", "overall", "multi-hop", "temporal", "open-domain", "single-hop")
	for _, r := range []string{"recall", "hybrid", "keyword"} {
		s, ok := rep.Scores[r]
		if !ok {
			continue
		}
		fmt.Fprintf(a.stdout, "%-10s %8.3f %10.3f %9.3f %12.3f %11.3f\n", r, s.Overall, s.ByCategory["multi-hop"],
			s.ByCategory["temporal"], s.ByCategory["open-domain"], s.ByCategory["single-hop"])
	}
}
