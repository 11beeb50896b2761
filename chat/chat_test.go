package chat

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestComplete(t *testing.T) {
	for _, tt := range []struct {
		name, reply string
		status      int
		want, err   string
	}{
		{"answer", `{"choices":[{"message":{"content":"  hello  "}}]}`, 200, "hello", ""},
		{"HTTP error", ``, 502, "", "HTTP 502"},
		{"no choices", `{"choices":[]}`, 200, "", "no answer"},
		{"empty answer", `{"choices":[{"message":{"content":" "}}]}`, 200, "", "no answer"},
		{"not JSON", `<html>`, 200, "", "chat endpoint"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer k" {
					t.Errorf("request %s, auth %q", r.URL.Path, r.Header.Get("Authorization"))
				}
				w.WriteHeader(tt.status)
				w.Write([]byte(tt.reply))
			}))
			defer srv.Close()
			got, err := Complete(context.Background(), &Options{URL: srv.URL + "/v1/", Model: "m", APIKey: "k"}, "hi", time.Second)
			if got != tt.want || (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
				t.Errorf("got %q, %v; want %q, %q", got, err, tt.want, tt.err)
			}
		})
	}
}

func TestDecodeJSON(t *testing.T) {
	var v struct{ A int }
	if err := DecodeJSON("Sure! ```json\n{\"a\": 2}\n```", &v); err != nil || v.A != 2 {
		t.Errorf("fenced: %v %+v", err, v)
	}
	if err := DecodeJSON("no json here", &v); err == nil {
		t.Error("prose decoded")
	}
}

// TestCompleteTimeout: the options' timeout wins over the caller's
// default, and the error says which one ran out.
func TestCompleteTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	for _, tt := range []struct {
		own, dflt time.Duration
		want      string
	}{
		{0, 40 * time.Millisecond, "no answer within 40ms"},
		{30 * time.Millisecond, time.Hour, "no answer within 30ms"},
	} {
		_, err := Complete(context.Background(), &Options{URL: srv.URL, Model: "m", Timeout: tt.own}, "hi", tt.dflt)
		if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "chat endpoint: "+srv.URL+"/chat/completions: "+tt.want) {
			t.Errorf("timeout %v, default %v: %v, want %q", tt.own, tt.dflt, err, tt.want)
		}
	}
}

// TestCompleteBadURL: a URL that is not http or https fails before any
// request, naming it.
func TestCompleteBadURL(t *testing.T) {
	if _, err := Complete(context.Background(), &Options{URL: "localhost:11434/v1", Model: "m"}, "hi", time.Second); err == nil || !strings.Contains(err.Error(), `chat endpoint: url "localhost:11434/v1"`) {
		t.Errorf("err = %v", err)
	}
}
