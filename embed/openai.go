package embed

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
	"sync/atomic"
	"syscall"
	"time"
)

// OpenAIOptions configure [NewOpenAI]. URL and Model are required; the
// zero value of every other field works.
type OpenAIOptions struct {
	// URL is the API's base URL, to which "/embeddings" is added:
	// http://localhost:11434/v1 (Ollama), http://localhost:8080/v1
	// (llama.cpp's server), http://localhost:1234/v1 (LM Studio),
	// https://api.openai.com/v1.
	URL string
	// Model is the embedding model's name, e.g. "nomic-embed-text" or
	// "text-embedding-3-small".
	Model string
	// APIKey is sent as a bearer token; "" sends none (local servers).
	APIKey string
	// Dimensions is the length of the model's vectors; 0 means learnt from
	// the first response. When set, every response is checked against it.
	// It is not sent to the server.
	Dimensions int
	// Timeout bounds each request; 0 means 30 seconds.
	Timeout time.Duration
	// BatchSize is the most texts sent in one request; 0 means 64.
	BatchSize int
	// HTTPClient sends the requests; nil means a client of its own.
	HTTPClient *http.Client
}

// OpenAI embeds texts through an OpenAI-compatible /embeddings endpoint:
// Ollama, llama.cpp's server, LM Studio, vLLM, OpenAI and others. It is
// safe for concurrent use. The zero value is not usable: make one with
// [NewOpenAI].
type OpenAI struct {
	opts     OpenAIOptions
	endpoint string
	id       string
	client   *http.Client
	dims     atomic.Int64 // configured, or learnt from the first response
}

// NewOpenAI returns an embedder for the endpoint o describes. It does not
// contact the server. The error names the invalid option: a missing
// model, or a URL that is not absolute http or https.
func NewOpenAI(o OpenAIOptions) (*OpenAI, error) {
	u, err := url.Parse(o.URL)
	switch {
	case err != nil:
		return nil, fmt.Errorf("new openai embedder: url: %w", err)
	case u.Scheme != "http" && u.Scheme != "https" || u.Host == "":
		return nil, fmt.Errorf("new openai embedder: url %q: want an http or https base URL such as http://localhost:11434/v1", o.URL)
	case strings.TrimSpace(o.Model) == "":
		return nil, errors.New("new openai embedder: no model")
	case o.Dimensions < 0 || o.Timeout < 0 || o.BatchSize < 0:
		return nil, errors.New("new openai embedder: negative dimensions, timeout or batch size")
	}
	if o.Timeout == 0 {
		o.Timeout = 30 * time.Second
	}
	if o.BatchSize == 0 {
		o.BatchSize = 64
	}
	e := &OpenAI{
		opts:     o,
		endpoint: strings.TrimRight(o.URL, "/") + "/embeddings",
		id:       "openai:" + o.Model + "@" + u.Host,
		client:   o.HTTPClient,
	}
	if e.client == nil {
		e.client = &http.Client{}
	}
	e.dims.Store(int64(o.Dimensions))
	return e, nil
}

// ID returns "openai:<model>@<host>", e.g.
// "openai:nomic-embed-text@localhost:11434". It never contains the key.
func (e *OpenAI) ID() string { return e.id }

// Dimensions returns the length of the vectors: OpenAIOptions.Dimensions
// when it was set, else what the first successful [OpenAI.Embed] learnt,
// and 0 before that. Embed a probe text first when the length is needed
// up front.
func (e *OpenAI) Dimensions() int { return int(e.dims.Load()) }

// StatusError is the error of a request that the server answered with a
// status other than 2xx.
type StatusError struct {
	StatusCode int
	// Message is the server's error message, or the start of its
	// response body when that is not a JSON error.
	Message string
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("server said %d %s: %s", e.StatusCode, http.StatusText(e.StatusCode), e.Message)
}

// Embed returns one L2-normalised vector per text, sending the texts in
// batches of OpenAIOptions.BatchSize, one request at a time. Empty (or
// blank) texts are not sent, which some servers refuse: their vector is
// zero. Each request is bounded by OpenAIOptions.Timeout and by ctx.
//
// The error, wrapped with "openai embed" and the endpoint, says what went
// wrong: the server refused the connection (is it running?), a request
// timed out, ctx ended (errors.Is with ctx.Err() holds), the server
// answered with a [*StatusError], or its answer was not JSON, had the
// wrong number of vectors, or vectors of inconsistent length.
func (e *OpenAI) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	var send []int // indexes of the texts that are sent
	for i, t := range texts {
		if strings.TrimSpace(t) != "" {
			send = append(send, i)
		}
	}
	if len(send) == 0 && len(texts) > 0 && e.Dimensions() == 0 {
		// A blank text's zero vector needs the length, which only the
		// server knows.
		if _, err := e.post(ctx, []string{"dimensions probe"}); err != nil {
			return nil, err
		}
	}
	batch := make([]string, 0, e.opts.BatchSize)
	for start := 0; start < len(send); start += e.opts.BatchSize {
		idx := send[start:min(start+e.opts.BatchSize, len(send))]
		batch = batch[:0]
		for _, i := range idx {
			batch = append(batch, texts[i])
		}
		vecs, err := e.post(ctx, batch)
		if err != nil {
			return nil, err
		}
		for j, i := range idx {
			out[i] = vecs[j]
		}
	}
	for i := range out {
		if out[i] == nil {
			out[i] = make([]float32, e.Dimensions())
		}
	}
	return out, nil
}

type openAIRequest struct {
	Model string   `json:"model"`
	Input []string `json:"input"`
}

type openAIResponse struct {
	Data []struct {
		Index     *int      `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
}

// maxResponse bounds the bytes read from one response: 64 texts of 4,096
// dimensions in JSON take about 6 MB.
const maxResponse = 256 << 20

// post sends one batch and returns its normalised vectors in input order.
func (e *OpenAI) post(ctx context.Context, batch []string) ([][]float32, error) {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("openai embed: %s: %w", e.endpoint, fmt.Errorf(format, args...))
	}
	body, err := json.Marshal(openAIRequest{Model: e.opts.Model, Input: batch})
	if err != nil {
		return nil, fail("encode request: %w", err)
	}
	reqCtx, cancel := context.WithTimeout(ctx, e.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(reqCtx, http.MethodPost, e.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, fail("%w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if e.opts.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+e.opts.APIKey)
	}

	resp, err := e.client.Do(req)
	if err == nil {
		defer resp.Body.Close()
		var raw []byte
		raw, err = io.ReadAll(io.LimitReader(resp.Body, maxResponse))
		if err == nil {
			return e.parse(resp.StatusCode, raw, len(batch), fail)
		}
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // without the method and URL, which fail names
	}
	switch {
	case ctx.Err() != nil:
		return nil, fail("%w", ctx.Err())
	case errors.Is(reqCtx.Err(), context.DeadlineExceeded):
		return nil, fail("no answer within %v (the timeout): %w", e.opts.Timeout, context.DeadlineExceeded)
	case errors.Is(err, syscall.ECONNREFUSED):
		return nil, fail("%w (is the embedding server running?)", err)
	}
	return nil, fail("%w", err)
}

// parse checks a response and returns its normalised vectors.
func (e *OpenAI) parse(status int, raw []byte, want int, fail func(string, ...any) error) ([][]float32, error) {
	if status < 200 || status > 299 {
		return nil, fail("%w", &StatusError{StatusCode: status, Message: errorMessage(raw)})
	}
	var r openAIResponse
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fail("decode response: %w (the response starts %q)", err, truncate(string(raw), 120))
	}
	if len(r.Data) != want {
		return nil, fail("%d vectors for %d texts", len(r.Data), want)
	}
	out := make([][]float32, want)
	dims := e.Dimensions()
	for j, d := range r.Data {
		i := j // servers that leave out "index" answer in order
		if d.Index != nil {
			i = *d.Index
		}
		switch {
		case i < 0 || i >= want:
			return nil, fail("vector index %d out of range for %d texts", i, want)
		case out[i] != nil:
			return nil, fail("two vectors for text %d", i)
		case len(d.Embedding) == 0:
			return nil, fail("empty vector for text %d", i)
		case dims == 0:
			dims = len(d.Embedding)
		case len(d.Embedding) != dims:
			return nil, fail("vector for text %d has %d dimensions, want %d", i, len(d.Embedding), dims)
		}
		normalize(d.Embedding)
		out[i] = d.Embedding
	}
	if !e.dims.CompareAndSwap(0, int64(dims)) && e.Dimensions() != dims {
		return nil, fail("vectors have %d dimensions, want %d", dims, e.Dimensions())
	}
	return out, nil
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
