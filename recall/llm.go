package recall

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/vaultmem/vaultmem/chat"
	"github.com/vaultmem/vaultmem/index"
)

// LLMOptions configure the optional LLM intent classifier: any
// OpenAI-compatible chat completions endpoint. A Timeout of 0 means 2 s.
// The same endpoint verifies the full stage's candidates (see verify).
type LLMOptions = chat.Options

const llmPrompt = `Classify the intent of the query. Answer with JSON only:
{"category": C, "confidence": X, "reasoning": R, "keywords": [K]}
where C is one of simple-fact, preference-recall, causal-reasoning, entity-relationship, temporal-analysis, hybrid,
X is your confidence between 0 and 1, R one sentence on why,
and K at most 5 words (synonyms, names, related terms) worth searching for beside the query's own.
Query: `

// maxKeywords is the most keywords of the classifier's that join the
// query; maxKeywordBytes the longest one kept.
const (
	maxKeywords     = 5
	maxKeywordBytes = 40
)

// keywordSep separates the keywords in the classifier's cache entry; no
// keyword holds it (classifyLLM leaves out those with control characters).
const keywordSep = "\x1f"

// classifyLLM asks the chat endpoint. Any failure (timeout, HTTP error,
// an answer that is not the JSON asked for, an unknown category) is an
// error; the caller falls back to the rules. Keywords without a word to
// search for, or too long, are left out.
func classifyLLM(ctx context.Context, o *LLMOptions, query string) (Classification, error) {
	answer, err := chat.Complete(ctx, o, llmPrompt+query, 2*time.Second)
	if err != nil {
		return Classification{}, fmt.Errorf("intent classifier: %w", err)
	}
	var ans struct {
		Category   string   `json:"category"`
		Confidence float64  `json:"confidence"`
		Reasoning  string   `json:"reasoning"`
		Keywords   []string `json:"keywords"`
	}
	if err := chat.DecodeJSON(answer, &ans); err != nil {
		return Classification{}, fmt.Errorf("intent classifier: %w", err)
	}
	in, err := ParseIntent(strings.TrimSpace(ans.Category))
	if err != nil {
		return Classification{}, err
	}
	if ans.Confidence < 0 || ans.Confidence > 1 {
		return Classification{}, fmt.Errorf("intent classifier: confidence %v out of range", ans.Confidence)
	}
	var kws []string
	for _, k := range ans.Keywords {
		k = strings.Join(strings.Fields(k), " ")
		if len(kws) == maxKeywords {
			break
		}
		if k != "" && len(k) <= maxKeywordBytes && len(index.Terms(k)) > 0 && !strings.ContainsFunc(k, unicode.IsControl) {
			kws = append(kws, k)
		}
	}
	return Classification{Intent: in, Confidence: ans.Confidence, Classifier: "llm",
		Reasoning: strings.Join(strings.Fields(ans.Reasoning), " "), Keywords: kws}, nil
}
