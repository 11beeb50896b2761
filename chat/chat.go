// Package chat talks to an OpenAI-compatible chat completions endpoint
// (OpenAI, Ollama, llama.cpp's server, LM Studio): the optional LLM that
// recall's intent classifier and Dream use. Callers fall back to their
// rules on any error, so every failure is an error, never a guess.
//
// It imports only the standard library.
package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Options say which endpoint and model to use.
type Options struct {
	// URL is the API's base URL, to which "/chat/completions" is added
	// (http://localhost:11434/v1 for Ollama).
	URL string
	// Model is the chat model's name.
	Model string
	// APIKey is sent as a bearer token; "" sends none.
	APIKey string
	// Timeout bounds one request; 0 means the caller's default.
	Timeout time.Duration
	// HTTPClient sends the request; nil means http.DefaultClient.
	HTTPClient *http.Client
}

// maxReply is the most bytes of a reply read.
const maxReply = 4 << 20

// Complete sends prompt as one user message (temperature 0) and returns
// the model's answer. timeout applies when o.Timeout is 0. Errors: the
// request's (a timeout is ctx's), an HTTP status other than 200, a reply
// that is not a chat completion, an empty answer.
func Complete(ctx context.Context, o *Options, prompt string, timeout time.Duration) (string, error) {
	if o.Timeout > 0 {
		timeout = o.Timeout
	}
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	body, _ := json.Marshal(map[string]any{
		"model":       o.Model,
		"temperature": 0,
		"messages":    []map[string]string{{"role": "user", "content": prompt}},
	})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(o.URL, "/")+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return "", err
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
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("chat endpoint: HTTP %d", resp.StatusCode)
	}
	var reply struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxReply)).Decode(&reply); err != nil {
		return "", fmt.Errorf("chat endpoint: %w", err)
	}
	if len(reply.Choices) == 0 || strings.TrimSpace(reply.Choices[0].Message.Content) == "" {
		return "", errors.New("chat endpoint: no answer")
	}
	return strings.TrimSpace(reply.Choices[0].Message.Content), nil
}

// DecodeJSON decodes the JSON object in a model's answer into v: models
// wrap it in prose or code fences, so the outermost {...} is taken.
func DecodeJSON(answer string, v any) error {
	if i, j := strings.Index(answer, "{"), strings.LastIndex(answer, "}"); i >= 0 && j > i {
		answer = answer[i : j+1]
	}
	if err := json.Unmarshal([]byte(answer), v); err != nil {
		return fmt.Errorf("the answer is not the JSON asked for: %w", err)
	}
	return nil
}
