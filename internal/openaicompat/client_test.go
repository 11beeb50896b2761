package openaicompat_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/internal/openaicompat"
)

type echo struct {
	Path, Auth, ContentType, Accept string
	Body                            map[string]any
}

// TestPost: the request a server receives (path under the base URL, the
// JSON body, the headers, the key only when there is one) and the reply
// decoded.
func TestPost(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		json.NewDecoder(r.Body).Decode(&body)
		json.NewEncoder(w).Encode(echo{r.URL.Path, r.Header.Get("Authorization"), r.Header.Get("Content-Type"), r.Header.Get("Accept"), body})
	}))
	defer srv.Close()
	for _, tt := range []struct{ url, key, auth string }{
		{srv.URL + "/v1", "k", "Bearer k"},
		{srv.URL + "/v1//", "", ""},
	} {
		c, err := openaicompat.New(openaicompat.Options{URL: tt.url, APIKey: tt.key})
		if err != nil {
			t.Fatal(err)
		}
		var got echo
		if err := c.Post(context.Background(), "/embeddings", map[string]string{"model": "m"}, 1<<20, &got); err != nil {
			t.Fatal(err)
		}
		want := echo{"/v1/embeddings", tt.auth, "application/json", "application/json", map[string]any{"model": "m"}}
		if got.Path != want.Path || got.Auth != want.Auth || got.ContentType != want.ContentType || got.Accept != want.Accept || got.Body["model"] != "m" {
			t.Errorf("%s: server saw %+v, want %+v", tt.url, got, want)
		}
		if c.Endpoint("/embeddings") != srv.URL+"/v1/embeddings" || c.Host() != strings.TrimPrefix(srv.URL, "http://") {
			t.Errorf("Endpoint %q, Host %q", c.Endpoint("/embeddings"), c.Host())
		}
	}
}

// TestPostErrors: every failure names the endpoint and says what
// happened, in the one shape both clients share.
func TestPostErrors(t *testing.T) {
	for _, tt := range []struct {
		name   string
		status int
		body   string
		max    int64
		want   []string
		code   int // a *StatusError's, 0 for none
	}{
		{"OpenAI's error", 401, `{"error":{"message":"bad key"}}`, 1 << 20, []string{"HTTP 401 Unauthorized: bad key"}, 401},
		{"Ollama's error", 404, `{"error":"model \"x\" not found, try pulling it first"}`, 1 << 20, []string{"HTTP 404 Not Found: model \"x\" not found"}, 404},
		{"a message", 400, `{"message":"too long"}`, 1 << 20, []string{"HTTP 400 Bad Request: too long"}, 400},
		{"a page", 502, "<html>" + strings.Repeat("x", 400), 1 << 20, []string{"HTTP 502 Bad Gateway: <html>xxx", "…"}, 502},
		{"nothing", 503, "", 1 << 20, []string{"HTTP 503 Service Unavailable: (empty body)"}, 503},
		{"not JSON", 200, "<html>", 1 << 20, []string{`decode response: `, `(the response starts "<html>")`}, 0},
		{"over the bound", 200, `{"a":"` + strings.Repeat("x", 100) + `"}`, 20, []string{"decode response: unexpected end of JSON input"}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tt.status)
				io.WriteString(w, tt.body)
			}))
			defer srv.Close()
			c, err := openaicompat.New(openaicompat.Options{URL: srv.URL + "/v1"})
			if err != nil {
				t.Fatal(err)
			}
			var reply map[string]any
			err = c.Post(context.Background(), "/chat/completions", struct{}{}, tt.max, &reply)
			if err == nil {
				t.Fatal("no error")
			}
			want := append([]string{srv.URL + "/v1/chat/completions: "}, tt.want...)
			for _, w := range want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			var se *openaicompat.StatusError
			if got := errors.As(err, &se); got != (tt.code != 0) || got && se.StatusCode != tt.code {
				t.Errorf("error %v: *StatusError %v, want code %d", err, se, tt.code)
			}
		})
	}
}

// TestPostTimeoutAndCancel: a server that never answers ends in the
// client's timeout or the caller's cancel, each telling which.
func TestPostTimeoutAndCancel(t *testing.T) {
	started, release := make(chan struct{}, 2), make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		started <- struct{}{}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)

	c, _ := openaicompat.New(openaicompat.Options{URL: srv.URL, Timeout: 50 * time.Millisecond})
	err := c.Post(context.Background(), "/embeddings", struct{}{}, 1<<20, new(any))
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "no answer within 50ms (the timeout)") {
		t.Errorf("timeout: %v", err)
	}
	<-started

	c, _ = openaicompat.New(openaicompat.Options{URL: srv.URL})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-started
		cancel()
	}()
	if err := c.Post(ctx, "/embeddings", struct{}{}, 1<<20, new(any)); !errors.Is(err, context.Canceled) || strings.Contains(err.Error(), "timeout") {
		t.Errorf("cancel: %v", err)
	}
}

// TestPostRefused: nothing listening is a refused connection that asks
// whether the server, as the caller names it, runs.
func TestPostRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	for _, tt := range []struct{ server, hint string }{
		{"", "(is the server running?)"},
		{"chat server", "(is the chat server running?)"},
	} {
		c, _ := openaicompat.New(openaicompat.Options{URL: "http://" + addr + "/v1", Server: tt.server})
		err := c.Post(context.Background(), "/chat/completions", struct{}{}, 1<<20, new(any))
		if err == nil || !strings.Contains(err.Error(), "connection refused") || !strings.Contains(err.Error(), tt.hint) {
			t.Errorf("err = %v, want connection refused and %q", err, tt.hint)
		}
	}
}

// TestNewInvalid: a URL that is not absolute http or https, or a negative
// timeout, is refused before any request.
func TestNewInvalid(t *testing.T) {
	for _, tt := range []struct {
		o    openaicompat.Options
		want string
	}{
		{openaicompat.Options{}, `url "": want an http or https base URL`},
		{openaicompat.Options{URL: "localhost:11434/v1"}, "want an http or https base URL"},
		{openaicompat.Options{URL: "ftp://host/v1"}, "want an http or https base URL"},
		{openaicompat.Options{URL: "http://h\x7f/v1"}, "url: "},
		{openaicompat.Options{URL: "http://h/v1", Timeout: -1}, "negative timeout"},
	} {
		if _, err := openaicompat.New(tt.o); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("New(%+v) = %v, want %q", tt.o, err, tt.want)
		}
	}
}
