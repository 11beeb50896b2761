// Package eval measures retrieval on benchmarks: LoCoMo evidence recall,
// for recall and for plain keyword and hybrid search, within a token
// budget. The CLI's eval command and the tests call it.
//
// It imports index, recall and text.
package eval

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

	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/recall"
	"github.com/vaultmem/vaultmem/text"
)

// question is one line of qa.jsonl.
type question struct {
	ID       string   `json:"qa_id"`
	Sample   string   `json:"sample_id"`
	Question string   `json:"question"`
	Category int      `json:"category"`
	Evidence []string `json:"evidence"`
}

// Report is what an evaluation measured; its JSON is `vaultmem eval
// locomo --json`.
type Report struct {
	Budget    int              `json:"budget"`
	Questions int              `json:"questions"`
	Scores    map[string]Score `json:"scores"` // by retriever: recall, keyword, hybrid
	MS        int64            `json:"ms"`
	// Answers are recall's score on each question, in the order asked,
	// when Options.Answers asked for them.
	Answers []Answer `json:"answers,omitempty"`
}

// Answer is recall's evidence recall on one question.
type Answer struct {
	ID       string  `json:"qa_id"`
	Sample   string  `json:"sample_id"`
	Category string  `json:"category"`
	Question string  `json:"question"`
	Intent   string  `json:"intent"`
	Recall   float64 `json:"recall"`
}

// Score is one retriever's evidence recall: overall, by category and, for
// recall, how many questions went to each intent.
type Score struct {
	Overall    float64            `json:"overall"`
	ByCategory map[string]float64 `json:"by_category"`
	Intents    map[string]int     `json:"intents,omitempty"`
	// ByConversation is the same by conversation (sample id): what tuning
	// on one and checking on another compares.
	ByConversation map[string]Part `json:"by_conversation"`
}

// Part is the evidence recall of one conversation.
type Part struct {
	Overall    float64            `json:"overall"`
	ByCategory map[string]float64 `json:"by_category"`
}

// Categories are the LoCoMo question categories scored (5, adversarial,
// has no evidence).
var Categories = map[int]string{1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}

// Options configure a LoCoMo evaluation. The zero value scores 1,000-token
// contexts, classifying each question.
type Options struct {
	// Budget is the token budget of each context; 0 means 1,000.
	Budget int
	// Intent, when set, routes every question as it instead of
	// classifying it.
	Intent recall.Intent
	// Index configures each conversation's index (NoVectors: keyword
	// engines only).
	Index index.Options
	// Together indexes every conversation in one vault (a folder each),
	// as a vault that holds many people does: a question about one of
	// them competes with the others' notes.
	Together bool
	// Answers keeps recall's score on each question (Report.Answers).
	Answers bool
	// BudgetFill is recall's budget fill (recall.Options.BudgetFill).
	BudgetFill string
}

// LoCoMo measures evidence recall on the LoCoMo benchmark in dir (qa.jsonl
// and vault/conv-*/, as testdata/locomo-mini holds them): each
// conversation is indexed on its own, in a temporary cache (dir is only
// read), and for every question of categories 1-4 the score is the share
// of its evidence turns whose marker (**D3:7**) is in the context, for
// recall and for plain keyword and hybrid search packed in rank order into
// the same budget. Recall runs without stage deadlines, so the scores are
// the same on a busy machine. Errors: qa.jsonl that cannot be read (named
// with its line), a conversation that cannot be indexed, ctx's.
func LoCoMo(ctx context.Context, dir string, o Options) (*Report, error) {
	budget, intent, opts := o.Budget, o.Intent, o.Index
	if budget <= 0 {
		budget = 1000
	}
	start := time.Now()
	qs, err := readQuestions(filepath.Join(dir, "qa.jsonl"))
	if err != nil {
		return nil, err
	}
	bySample := map[string][]question{}
	for _, q := range qs {
		if _, ok := Categories[q.Category]; ok && len(q.Evidence) > 0 {
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
	var answers []Answer
	add := func(retriever, sample, cat string, score float64) {
		t, ok := tallies[retriever]
		if !ok {
			t = &tally{map[string]float64{}, map[string]float64{}}
			tallies[retriever] = t
		}
		for _, k := range []string{cat, "overall", sample + "\x00" + cat, sample + "\x00overall"} {
			t.sum[k] += score
			t.n[k]++
		}
	}
	total := 0
	indexes := map[string]*index.Index{} // by the folder indexed
	open := func(vdir string) (*index.Index, error) {
		if ix, ok := indexes[vdir]; ok {
			return ix, nil
		}
		cache, err := os.MkdirTemp("", "vaultmem-eval-")
		if err != nil {
			return nil, err
		}
		ix, err := index.Open(ctx, cache, opts)
		if err != nil {
			os.RemoveAll(cache)
			return nil, err
		}
		indexes[vdir] = ix
		if _, err := ix.Sync(ctx, os.DirFS(vdir), nil); err != nil {
			return nil, fmt.Errorf("index %s: %w", vdir, err)
		}
		return ix, nil
	}
	defer func() {
		for _, ix := range indexes {
			cache := filepath.Dir(ix.Path())
			ix.Close()
			os.RemoveAll(cache)
		}
	}()
	for _, sample := range samples {
		vdir := filepath.Join(dir, "vault", sample)
		if o.Together {
			vdir = filepath.Join(dir, "vault")
		}
		ix, err := open(vdir)
		if err != nil {
			return nil, err
		}
		eng := recall.New(ix.Recall(), recall.Options{NoDeadlines: true, BudgetFill: o.BudgetFill}) // no deadlines: the same answers on a busy machine
		for _, q := range bySample[sample] {
			cat := Categories[q.Category]
			res, err := eng.Recall(ctx, recall.Request{Query: q.Question, Budget: budget, Intent: intent})
			if err != nil {
				return nil, fmt.Errorf("%s: %w", q.ID, err)
			}
			intents[string(res.Intent)]++
			share := evidenceShare(res.Context, q.Evidence)
			add("recall", sample, cat, share)
			if o.Answers {
				answers = append(answers, Answer{q.ID, sample, cat, q.Question, string(res.Intent), share})
			}
			for _, mode := range []index.Mode{index.Keyword, index.Hybrid} {
				hits, err := ix.Searcher().Search(ctx, index.Query{Text: q.Question, Mode: mode, Limit: 200})
				if err != nil {
					return nil, fmt.Errorf("%s: %w", q.ID, err)
				}
				add(string(mode), sample, cat, evidenceShare(packHits(hits, budget), q.Evidence))
				if opts.NoVectors {
					break // hybrid is keyword without vectors
				}
			}
			total++
		}
	}
	rep := &Report{Budget: budget, Questions: total, Scores: map[string]Score{}, MS: time.Since(start).Milliseconds(), Answers: answers}
	for r, t := range tallies {
		s := Score{Overall: t.sum["overall"] / t.n["overall"], ByCategory: map[string]float64{}, ByConversation: map[string]Part{}}
		for _, cat := range Categories {
			if t.n[cat] > 0 {
				s.ByCategory[cat] = t.sum[cat] / t.n[cat]
			}
		}
		for _, sample := range samples {
			k := sample + "\x00"
			if t.n[k+"overall"] == 0 {
				continue
			}
			p := Part{Overall: t.sum[k+"overall"] / t.n[k+"overall"], ByCategory: map[string]float64{}}
			for _, cat := range Categories {
				if t.n[k+cat] > 0 {
					p.ByCategory[cat] = t.sum[k+cat] / t.n[k+cat]
				}
			}
			s.ByConversation[sample] = p
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

// readQuestions reads qa.jsonl.
func readQuestions(p string) ([]question, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var qs []question
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var q question
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", p, line, err)
		}
		qs = append(qs, q)
	}
	return qs, sc.Err()
}
