package chat

import (
	"context"
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
