// Package openaicompat is the HTTP client of OpenAI-compatible APIs
// (OpenAI, Ollama, llama.cpp's server, LM Studio, vLLM): what chat's
// completions and embed's embeddings share. That is the base URL and its
// check, the bearer key, the JSON headers, the timeout of one request,
// the bound on a reply, and one shape of error: every error names the
// endpoint, an HTTP status is a [*StatusError] with the server's message
// or the start of its body, a timeout says how long it waited, and a
// refused connection asks whether the server runs. It retries nothing:
// its callers fall back to their rules (chat) or try again at the next
// sync (embed). Reading the key from the environment is the caller's, who
// checks the variable is one the user allows.
//
// It imports only the standard library.
package openaicompat

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// Options say which API to call and how.
type Options struct {
	// URL is the API's base URL, absolute http or https, to which a
	// request's path is added: http://localhost:11434/v1 (Ollama),
	// https://api.openai.com/v1.
	URL string
	// APIKey is sent as a bearer token; "" sends none (local servers).
	APIKey string
	// Timeout bounds each request, its reply read included; 0 leaves it
	// to the caller's context.
	Timeout time.Duration
	// Server says what the server is in the hint of a refused
	// connection ("is the embedding server running?"); "" means "server".
	Server string
	// HTTPClient sends the requests; nil means http.DefaultClient.
	HTTPClient *http.Client
}

// Client posts JSON requests to one OpenAI-compatible API. It is safe for
// concurrent use. Make one with [New].
type Client struct {
	base   string // the URL without its trailing slashes
	host   string
	o      Options
	client *http.Client
}

// New returns a client of the API o describes. It does not contact the
// server. The error says what is wrong with the URL (not absolute http or
// https) or the timeout (negative).
func New(o Options) (*Client, error) {
	u, err := url.Parse(o.URL)
	switch {
	case err != nil:
		return nil, fmt.Errorf("url: %w", err)
	case u.Scheme != "http" && u.Scheme != "https" || u.Host == "":
		return nil, fmt.Errorf("url %q: want an http or https base URL such as http://localhost:11434/v1", o.URL)
	case o.Timeout < 0:
		return nil, errors.New("negative timeout")
	}
	if o.Server == "" {
		o.Server = "server"
	}
	c := &Client{base: strings.TrimRight(o.URL, "/"), host: u.Host, o: o, client: o.HTTPClient}
	if c.client == nil {
		c.client = http.DefaultClient
	}
	return c, nil
}

// Host is the URL's host and port, e.g. "localhost:11434".
func (c *Client) Host() string { return c.host }

// Endpoint is the URL of path ("/embeddings") under the base URL.
func (c *Client) Endpoint(path string) string { return c.base + path }

// Post sends request as JSON to path under the base URL and decodes the
// JSON reply, of at most maxReply bytes, into reply. The error, which
// starts with the endpoint, is one of: ctx's (errors.Is with ctx.Err()
// holds), a timeout after Options.Timeout (errors.Is with
// context.DeadlineExceeded holds), a refused connection (with the hint),
// another transport error, a [*StatusError] for a status other than 2xx,
// or a reply that is not JSON (with its start).
func (c *Client) Post(ctx context.Context, path string, request any, maxReply int64, reply any) error {
	endpoint := c.Endpoint(path)
	if err := c.post(ctx, endpoint, request, maxReply, reply); err != nil {
		return fmt.Errorf("%s: %w", endpoint, err)
	}
	return nil
}

// post is Post, its errors without the endpoint.
func (c *Client) post(ctx context.Context, endpoint string, request any, maxReply int64, reply any) error {
	body, err := json.Marshal(request)
	if err != nil {
		return fmt.Errorf("encode request: %w", err)
	}
	reqCtx := ctx
	if c.o.Timeout > 0 {
		var cancel context.CancelFunc
		reqCtx, cancel = context.WithTimeout(ctx, c.o.Timeout)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(reqCtx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if c.o.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.o.APIKey)
	}

	resp, err := c.client.Do(req)
	if err == nil {
		defer resp.Body.Close()
		var raw []byte
		if raw, err = io.ReadAll(io.LimitReader(resp.Body, maxReply)); err == nil {
			return decode(resp.StatusCode, raw, reply)
		}
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // without the method and URL, which Post names
	}
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(reqCtx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("no answer within %v (the timeout): %w", c.o.Timeout, context.DeadlineExceeded)
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Errorf("%w (is the %s running?)", err, c.o.Server)
	}
	return err
}

// decode checks a reply's status and decodes its JSON into reply.
func decode(status int, raw []byte, reply any) error {
	if status < 200 || status > 299 {
		return &StatusError{StatusCode: status, Message: errorMessage(raw)}
	}
	if err := json.Unmarshal(raw, reply); err != nil {
		return fmt.Errorf("decode response: %w (the response starts %q)", err, truncate(string(raw), 120))
	}
	return nil
}

// StatusError is the error of a request that the server answered with a
// status other than 2xx.
type StatusError struct {
	StatusCode int
	// Message is the server's error message, or the start of its
	// response body when that is not a JSON error.
	Message string
}

// Error is "HTTP <code> <status text>: <message>".
func (e *StatusError) Error() string {
	return fmt.Sprintf("HTTP %d %s: %s", e.StatusCode, http.StatusText(e.StatusCode), e.Message)
}

// errorMessage extracts the message of an error response: OpenAI's
// {"error": {"message": ...}}, Ollama's {"error": "..."}, or else the
// start of the body.
func errorMessage(raw []byte) string {
	var r struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(raw, &r) == nil {
		var s string
		var obj struct {
			Message string `json:"message"`
		}
		switch {
		case json.Unmarshal(r.Error, &s) == nil && s != "":
			return truncate(s, 300)
		case json.Unmarshal(r.Error, &obj) == nil && obj.Message != "":
			return truncate(obj.Message, 300)
		case r.Message != "":
			return truncate(r.Message, 300)
		}
	}
	if s := strings.TrimSpace(string(raw)); s != "" {
		return truncate(s, 300)
	}
	return "(empty body)"
}

// truncate cuts s to at most n bytes, at a character boundary, marking
// the cut.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
