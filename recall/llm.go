package recall

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// LLMOptions configure the optional LLM intent classifier: any
// OpenAI-compatible chat completions endpoint.
type LLMOptions struct {
	// URL is the API's base URL, to which "/chat/completions" is added
	// (http://localhost:11434/v1 for Ollama).
	URL string
	// Model is the chat model's name.
	Model string
	// APIKey is sent as a bearer token; "" sends none.
	APIKey string
	// Timeout bounds one classification; 0 means 2 s.
	Timeout time.Duration
	// HTTPClient sends the request; nil means http.DefaultClient.
	HTTPClient *http.Client
}

const llmPrompt = `Classify the intent of the query. Answer with JSON only: {"category": C, "confidence": X}
where C is one of simple-fact, preference-recall, causal-reasoning, entity-relationship, temporal-analysis, hybrid
and X is your confidence between 0 and 1.
Query: `

// classifyLLM asks the chat endpoint. Any failure (timeout, HTTP error,
// an answer that is not the JSON asked for, an unknown category) is an
// error; the caller falls back to the rules.
func classifyLLM(ctx context.Context, o *LLMOptions, query string) (Classification, error) {
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = 2 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	body, _ := json.Marshal(map[string]any{
		"model":       o.Model,
		"temperature": 0,
		"messages":    []map[string]string{{"role": "user", "content": llmPrompt + query}},
	})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(o.URL, "/")+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return Classification{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	if o.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+o.APIKey)
	}
	client := o.HTTPClient
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return Classification{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return Classification{}, fmt.Errorf("intent classifier: HTTP %d", resp.StatusCode)
	}
	var chat struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&chat); err != nil {
		return Classification{}, fmt.Errorf("intent classifier: %w", err)
	}
	if len(chat.Choices) == 0 {
		return Classification{}, errors.New("intent classifier: no answer")
	}
	content := strings.TrimSpace(chat.Choices[0].Message.Content)
	// Models wrap JSON in prose or code fences: take the outermost object.
	if i, j := strings.Index(content, "{"), strings.LastIndex(content, "}"); i >= 0 && j > i {
		content = content[i : j+1]
	}
	var ans struct {
		Category   string  `json:"category"`
		Confidence float64 `json:"confidence"`
	}
	if err := json.Unmarshal([]byte(content), &ans); err != nil {
		return Classification{}, fmt.Errorf("intent classifier: answer is not JSON: %w", err)
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
