package embed

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/vaultmem/vaultmem/internal/openaicompat"
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
	// HTTPClient sends the requests; nil means http.DefaultClient.
	HTTPClient *http.Client
}

// OpenAI embeds texts through an OpenAI-compatible /embeddings endpoint:
// Ollama, llama.cpp's server, LM Studio, vLLM, OpenAI and others. It is
// safe for concurrent use. The zero value is not usable: make one with
// [NewOpenAI].
type OpenAI struct {
	opts     OpenAIOptions
	api      *openaicompat.Client
	endpoint string
	id       string
	dims     atomic.Int64 // configured, or learnt from the first response
}

// NewOpenAI returns an embedder for the endpoint o describes. It does not
// contact the server. The error names the invalid option: a missing
// model, or a URL that is not absolute http or https.
func NewOpenAI(o OpenAIOptions) (*OpenAI, error) {
	switch {
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
	api, err := openaicompat.New(openaicompat.Options{URL: o.URL, APIKey: o.APIKey, Timeout: o.Timeout, Server: "embedding server", HTTPClient: o.HTTPClient})
	if err != nil {
		return nil, fmt.Errorf("new openai embedder: %w", err)
	}
	e := &OpenAI{
		opts:     o,
		api:      api,
		endpoint: api.Endpoint(embeddingsPath),
		id:       "openai:" + o.Model + "@" + api.Host(),
	}
	e.dims.Store(int64(o.Dimensions))
	return e, nil
}

// embeddingsPath is the endpoint's path under the base URL.
const embeddingsPath = "/embeddings"

// ID returns "openai:<model>@<host>", e.g.
// "openai:nomic-embed-text@localhost:11434". It never contains the key.
func (e *OpenAI) ID() string { return e.id }

// Dimensions returns the length of the vectors: OpenAIOptions.Dimensions
// when it was set, else what the first successful [OpenAI.Embed] learnt,
// and 0 before that. Embed a probe text first when the length is needed
// up front.
func (e *OpenAI) Dimensions() int { return int(e.dims.Load()) }

// StatusError is the error of a request that the server answered with a
// status other than 2xx: its StatusCode, and its Message (the server's
// error message, or the start of its body).
type StatusError = openaicompat.StatusError

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
	var r openAIResponse
	if err := e.api.Post(ctx, embeddingsPath, openAIRequest{Model: e.opts.Model, Input: batch}, maxResponse, &r); err != nil {
		return nil, fmt.Errorf("openai embed: %w", err)
	}
	vecs, err := e.vectors(r, len(batch))
	if err != nil {
		return nil, fmt.Errorf("openai embed: %s: %w", e.endpoint, err)
	}
	return vecs, nil
}

// vectors checks a response's vectors, want of them, and returns them
// normalised in input order.
func (e *OpenAI) vectors(r openAIResponse, want int) ([][]float32, error) {
	if len(r.Data) != want {
		return nil, fmt.Errorf("%d vectors for %d texts", len(r.Data), want)
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
			return nil, fmt.Errorf("vector index %d out of range for %d texts", i, want)
		case out[i] != nil:
			return nil, fmt.Errorf("two vectors for text %d", i)
		case len(d.Embedding) == 0:
			return nil, fmt.Errorf("empty vector for text %d", i)
		case dims == 0:
			dims = len(d.Embedding)
		case len(d.Embedding) != dims:
			return nil, fmt.Errorf("vector for text %d has %d dimensions, want %d", i, len(d.Embedding), dims)
		}
		normalize(d.Embedding)
		out[i] = d.Embedding
	}
	if !e.dims.CompareAndSwap(0, int64(dims)) && e.Dimensions() != dims {
		return nil, fmt.Errorf("vectors have %d dimensions, want %d", dims, e.Dimensions())
	}
	return out, nil
}
