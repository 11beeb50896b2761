// Package chat talks to an OpenAI-compatible chat completions endpoint
// (OpenAI, Ollama, llama.cpp's server, LM Studio): the optional LLM that
// recall's intent classifier and Dream use. Callers fall back to their
// rules on any error, so every failure is an error, never a guess.
//
// The HTTP part (URL, key, headers, timeout, errors) is the one client
// of OpenAI-compatible APIs, internal/openaicompat, which embed's
// OpenAI uses too. It imports internal/openaicompat and no other
// vaultmem package.
package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/vaultmem/vaultmem/internal/openaicompat"
)

// Options say which endpoint and model to use.
type Options struct {
	// URL is the API's base URL, absolute http or https, to which
	// "/chat/completions" is added (http://localhost:11434/v1 for Ollama).
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
// the model's answer. timeout applies when o.Timeout is 0. The error,
// which starts with "chat endpoint" and the endpoint, is one of
// [openaicompat.Client.Post]'s (a URL that is not http or https, ctx's, a
// timeout, which errors.Is with context.DeadlineExceeded, an HTTP status
// other than 2xx, "HTTP <code> ...", a reply that is not JSON), or a reply
// that is not a chat completion or has an empty answer.
func Complete(ctx context.Context, o *Options, prompt string, timeout time.Duration) (string, error) {
	if o.Timeout > 0 {
		timeout = o.Timeout
	}
	api, err := openaicompat.New(openaicompat.Options{URL: o.URL, APIKey: o.APIKey, Timeout: timeout, Server: "chat server", HTTPClient: o.HTTPClient})
	if err != nil {
		return "", fmt.Errorf("chat endpoint: %w", err)
	}
	request := map[string]any{
		"model":       o.Model,
		"temperature": 0,
		"messages":    []map[string]string{{"role": "user", "content": prompt}},
	}
	var reply struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := api.Post(ctx, completionsPath, request, maxReply, &reply); err != nil {
		return "", fmt.Errorf("chat endpoint: %w", err)
	}
	if len(reply.Choices) == 0 || strings.TrimSpace(reply.Choices[0].Message.Content) == "" {
		return "", fmt.Errorf("chat endpoint: %s: no answer", api.Endpoint(completionsPath))
	}
	return strings.TrimSpace(reply.Choices[0].Message.Content), nil
}

// completionsPath is the endpoint's path under the base URL.
const completionsPath = "/chat/completions"

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
