package recall

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/vaultmem/vaultmem/chat"
)

// LLMOptions configure the optional LLM intent classifier: any
// OpenAI-compatible chat completions endpoint. A Timeout of 0 means 2 s.
type LLMOptions = chat.Options

const llmPrompt = `Classify the intent of the query. Answer with JSON only: {"category": C, "confidence": X}
where C is one of simple-fact, preference-recall, causal-reasoning, entity-relationship, temporal-analysis, hybrid
and X is your confidence between 0 and 1.
Query: `

// classifyLLM asks the chat endpoint. Any failure (timeout, HTTP error,
// an answer that is not the JSON asked for, an unknown category) is an
// error; the caller falls back to the rules.
func classifyLLM(ctx context.Context, o *LLMOptions, query string) (Classification, error) {
	answer, err := chat.Complete(ctx, o, llmPrompt+query, 2*time.Second)
	if err != nil {
		return Classification{}, fmt.Errorf("intent classifier: %w", err)
	}
	var ans struct {
		Category   string  `json:"category"`
		Confidence float64 `json:"confidence"`
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
	return Classification{in, ans.Confidence, "llm"}, nil
}
