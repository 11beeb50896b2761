package embed_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/embed"
)

// fakeServer is an OpenAI-compatible embeddings endpoint whose vector for
// a text is [len(text), 1, 2] (before normalisation), answering in a
// shuffled order, as servers may.
type fakeServer struct {
	mu       sync.Mutex
	requests []fakeRequest
}

type fakeRequest struct {
	auth  string
	model string
	input []string
}

func (f *fakeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
		http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
		return
	}
	var req struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.requests = append(f.requests, fakeRequest{r.Header.Get("Authorization"), req.Model, req.Input})
	f.mu.Unlock()
	type item struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	var resp struct {
		Object string `json:"object"`
		Data   []item `json:"data"`
		Model  string `json:"model"`
	}
	resp.Object, resp.Model = "list", req.Model
	for i, text := range req.Input {
		resp.Data = append(resp.Data, item{"embedding", i, []float32{float32(len(text)), 1, 2}})
	}
	rand.Shuffle(len(resp.Data), func(i, j int) { resp.Data[i], resp.Data[j] = resp.Data[j], resp.Data[i] })
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(resp)
}

func newOpenAI(t *testing.T, o embed.OpenAIOptions) *embed.OpenAI {
	t.Helper()
	if o.Model == "" {
		o.Model = "nomic-embed-text"
	}
	e, err := embed.NewOpenAI(o)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestOpenAIBatchesAndOrder(t *testing.T) {
	fake := &fakeServer{}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	e := newOpenAI(t, embed.OpenAIOptions{URL: srv.URL + "/v1/", BatchSize: 2, APIKey: "sk-secret"})
	if e.Dimensions() != 0 {
		t.Errorf("Dimensions() before any request = %d, want 0", e.Dimensions())
	}
	texts := []string{"a", "bb", "", "dddd", "eeeee", "   "}
	vs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if e.Dimensions() != 3 {
		t.Errorf("Dimensions() = %d, want 3", e.Dimensions())
	}
	for i, text := range texts {
		v := vs[i]
		if len(v) != 3 {
			t.Fatalf("text %d: %d dimensions, want 3", i, len(v))
		}
		if strings.TrimSpace(text) == "" {
			if v[0] != 0 || v[1] != 0 || v[2] != 0 {
				t.Errorf("blank text %d: vector %v, want zero", i, v)
			}
			continue
		}
		n := float64(len(text))
		norm := math.Sqrt(n*n + 1 + 4)
		if math.Abs(float64(v[0])-n/norm) > 1e-6 || math.Abs(float64(v[2])-2/norm) > 1e-6 {
			t.Errorf("text %d %q: vector %v, want [%d 1 2]/%.3f", i, text, v, len(text), norm)
		}
	}
	if len(fake.requests) != 2 {
		t.Fatalf("%d requests, want 2 (4 non-blank texts in batches of 2)", len(fake.requests))
	}
	for _, r := range fake.requests {
		if r.auth != "Bearer sk-secret" || r.model != "nomic-embed-text" || len(r.input) != 2 {
			t.Errorf("request %+v, want the bearer key, the model and 2 texts", r)
		}
	}
	if got, want := e.ID(), "openai:nomic-embed-text@"+strings.TrimPrefix(srv.URL, "http://"); got != want {
		t.Errorf("ID() = %q, want %q", got, want)
	}
	if strings.Contains(e.ID(), "secret") {
		t.Errorf("ID() %q contains the key", e.ID())
	}
}

func TestOpenAINoKey(t *testing.T) {
	fake := &fakeServer{}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	e := newOpenAI(t, embed.OpenAIOptions{URL: srv.URL + "/v1"})
	if _, err := e.Embed(context.Background(), []string{"x"}); err != nil {
		t.Fatal(err)
	}
	if auth := fake.requests[0].auth; auth != "" {
		t.Errorf("Authorization %q sent without a key", auth)
	}
}

// TestOpenAIBlankOnly: the zero vectors of blank texts need the length,
// learnt from a probe.
func TestOpenAIBlankOnly(t *testing.T) {
	srv := httptest.NewServer(&fakeServer{})
	defer srv.Close()
	e := newOpenAI(t, embed.OpenAIOptions{URL: srv.URL + "/v1"})
	vs, err := e.Embed(context.Background(), []string{""})
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 1 || len(vs[0]) != 3 {
		t.Errorf("got %v, want one zero vector of 3 dimensions", vs)
	}
}

func serve(h http.HandlerFunc) *httptest.Server { return httptest.NewServer(h) }

func TestOpenAIErrors(t *testing.T) {
	tests := []struct {
		name    string
		handler http.HandlerFunc
		opts    embed.OpenAIOptions
		want    []string
	}{
		{
			name: "500 with an OpenAI error",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(http.StatusInternalServerError)
				io.WriteString(w, `{"error":{"message":"model \"nomic\" not loaded","type":"server_error"}}`)
			},
			want: []string{"500", "Internal Server Error", `model "nomic" not loaded`},
		},
		{
			name: "404 with an Ollama error",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(http.StatusNotFound)
				io.WriteString(w, `{"error":"model 'nomic' not found, try pulling it first"}`)
			},
			want: []string{"404", "try pulling it first"},
		},
		{
			name: "401 with a long text body",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(http.StatusUnauthorized)
				io.WriteString(w, "bad key "+strings.Repeat("x", 5000))
			},
			want: []string{"401", "bad key xxx", "…"},
		},
		{
			name: "invalid JSON",
			handler: func(w http.ResponseWriter, r *http.Request) {
				io.WriteString(w, `{"data": [`)
			},
			want: []string{"decode response"},
		},
		{
			name: "wrong count",
			handler: func(w http.ResponseWriter, r *http.Request) {
				io.WriteString(w, `{"data":[{"index":0,"embedding":[1,2]}]}`)
			},
			want: []string{"1 vectors for 2 texts"},
		},
		{
			name: "inconsistent dimensions",
			handler: func(w http.ResponseWriter, r *http.Request) {
				io.WriteString(w, `{"data":[{"index":0,"embedding":[1,2]},{"index":1,"embedding":[1,2,3]}]}`)
			},
			want: []string{"3 dimensions, want 2"},
		},
		{
			name: "not the configured dimensions",
			handler: func(w http.ResponseWriter, r *http.Request) {
				io.WriteString(w, `{"data":[{"index":0,"embedding":[1,2]},{"index":1,"embedding":[3,4]}]}`)
			},
			opts: embed.OpenAIOptions{Dimensions: 768},
			want: []string{"2 dimensions, want 768"},
		},
		{
			name: "index out of range",
			handler: func(w http.ResponseWriter, r *http.Request) {
				io.WriteString(w, `{"data":[{"index":0,"embedding":[1,2]},{"index":7,"embedding":[1,2]}]}`)
			},
			want: []string{"index 7 out of range"},
		},
		{
			name: "duplicate index",
			handler: func(w http.ResponseWriter, r *http.Request) {
				io.WriteString(w, `{"data":[{"index":1,"embedding":[1,2]},{"index":1,"embedding":[1,2]}]}`)
			},
			want: []string{"two vectors for text 1"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := serve(tt.handler)
			defer srv.Close()
			tt.opts.URL = srv.URL + "/v1"
			e := newOpenAI(t, tt.opts)
			_, err := e.Embed(context.Background(), []string{"one", "two"})
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if len(err.Error()) > 600 {
				t.Errorf("error of %d bytes: the server's message is not truncated", len(err.Error()))
			}
		})
	}
}

func TestOpenAIStatusError(t *testing.T) {
	srv := serve(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":{"message":"slow down"}}`, http.StatusTooManyRequests)
	})
	defer srv.Close()
	_, err := newOpenAI(t, embed.OpenAIOptions{URL: srv.URL}).Embed(context.Background(), []string{"x"})
	var se *embed.StatusError
	if !errors.As(err, &se) || se.StatusCode != http.StatusTooManyRequests || se.Message != "slow down" {
		t.Errorf("err = %v, want a *StatusError 429 \"slow down\"", err)
	}
}

func TestOpenAITimeout(t *testing.T) {
	release := make(chan struct{})
	srv := serve(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	defer srv.Close()
	defer close(release)
	e := newOpenAI(t, embed.OpenAIOptions{URL: srv.URL + "/v1", Timeout: 50 * time.Millisecond})
	start := time.Now()
	_, err := e.Embed(context.Background(), []string{"x"})
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "no answer within 50ms") {
		t.Errorf("err = %v, want a timeout after 50ms", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("gave up after %v", d)
	}
}

func TestOpenAICancel(t *testing.T) {
	started, release := make(chan struct{}, 1), make(chan struct{})
	srv := serve(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // the server notices a closed connection only after the body
		started <- struct{}{}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	defer srv.Close()
	defer close(release)
	e := newOpenAI(t, embed.OpenAIOptions{URL: srv.URL + "/v1"})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-started
		cancel()
	}()
	_, err := e.Embed(ctx, []string{"x"})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestOpenAIConnectionRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	e := newOpenAI(t, embed.OpenAIOptions{URL: "http://" + addr + "/v1"})
	_, err = e.Embed(context.Background(), []string{"x"})
	if err == nil || !strings.Contains(err.Error(), "connection refused") || !strings.Contains(err.Error(), "is the embedding server running?") {
		t.Errorf("err = %v, want connection refused with a hint", err)
	}
}

func TestNewOpenAIInvalid(t *testing.T) {
	for _, o := range []embed.OpenAIOptions{
		{Model: "m"},
		{URL: "localhost:11434/v1", Model: "m"},
		{URL: "ftp://host/v1", Model: "m"},
		{URL: "http://localhost:11434/v1"},
		{URL: "http://localhost:11434/v1", Model: "m", BatchSize: -1},
	} {
		if _, err := embed.NewOpenAI(o); err == nil {
			t.Errorf("NewOpenAI(%+v): no error", o)
		}
	}
}

func ExampleNewOpenAI() {
	e, err := embed.NewOpenAI(embed.OpenAIOptions{
		URL:   "http://localhost:11434/v1", // Ollama
		Model: "nomic-embed-text",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(e.ID())
	// Output: openai:nomic-embed-text@localhost:11434
}
