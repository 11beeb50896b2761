package session_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/session"
)

func TestRedact(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"my token is ghp_abcdefghijklmnopqrstuvwxyz0123456789AB ok", "my token is [REDACTED] ok"},
		{"key AKIAIOSFODNN7EXAMPLE here", "key [REDACTED] here"},
		{"export OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwx", "export [REDACTED]"},
		{"use sk-ant-api03-abcdefghijklmnopqrstuv", "use [REDACTED]"},
		{"slack xoxb-1234567890-abcdefghij", "slack [REDACTED]"},
		{"curl -H 'Authorization: Bearer abcdefghijklmnop1234'", "curl -H 'Authorization: [REDACTED]'"},
		{"db at postgres://admin:hunter2@db.local/app", "db at [REDACTED]db.local/app"},
		{"password: correcthorse", "[REDACTED]"},
		{"jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "jwt [REDACTED]"},
		{"-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\nafter", "[REDACTED]\nafter"},
		// Not secrets: kept as they are.
		{"fix the password reset page", "fix the password reset page"},
		{"the sk-learn model and task-123", "the sk-learn model and task-123"},
		{"see https://example.com/docs", "see https://example.com/docs"},
	} {
		if got := session.Redact(tt.in); got != tt.want {
			t.Errorf("Redact(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// hashed is the state name of an id that is no safe file name.
var hashed = regexp.MustCompile(`^sessions/h-[0-9a-f]{32}\.json$`)

func TestStateName(t *testing.T) {
	for _, id := range []string{"s1", "3f2a9c1e-1b2c-4d5e-8f90-0a1b2c3d4e5f", "019a.codex_x"} {
		if got := session.StateName(id); got != "sessions/"+id+".json" {
			t.Errorf("StateName(%q) = %q, want the id itself", id, got)
		}
	}
	seen := map[string]bool{}
	for _, id := range []string{"../escape", "a/b", ".hidden", "", "sp ace", strings.Repeat("x", 101), "é"} {
		got := session.StateName(id)
		if !hashed.MatchString(got) || seen[got] {
			t.Errorf("StateName(%q) = %q, want a hash of its own", id, got)
		}
		seen[got] = true
	}
}

func TestShownCalls(t *testing.T) {
	st, err := session.Decode(nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range session.MaxShown + 5 {
		st.Show(fmt.Sprint("call", i), "Bash", []session.Shown{{Path: "lessons/a.md"}})
	}
	st.Show("", "Bash", []session.Shown{{Path: "x"}}) // no id: nothing to pair an outcome with
	st.Show("none", "Bash", nil)                      // nothing shown
	if len(st.Calls) != session.MaxShown || st.Calls[0].ID != "call5" {
		t.Fatalf("%d calls kept, first %q; want the last %d", len(st.Calls), st.Calls[0].ID, session.MaxShown)
	}
	if got := st.TakeShown("call7"); len(got) != 1 || st.TakeShown("call7") != nil {
		t.Errorf("a call's lessons are taken once: %v", got)
	}
	if st.TakeShown("call0") != nil {
		t.Error("a forgotten call still had lessons")
	}
	if fresh := st.Give("a", "b"); len(fresh) != 2 || len(st.Give("b", "c")) != 1 || !st.WasGiven("c") {
		t.Errorf("Give: %v, given %v", fresh, st.Given)
	}
	b, err := st.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := session.Decode(b)
	if err != nil || len(back.Calls) != len(st.Calls) || len(back.Given) != 3 {
		t.Errorf("round trip: %v, %d calls, %v", err, len(back.Calls), back.Given)
	}
	if _, err := session.Decode([]byte("{")); err == nil {
		t.Error("a broken state decoded")
	}
}

func TestNotePath(t *testing.T) {
	start := time.Date(2026, 11, 27, 10, 4, 0, 0, time.UTC)
	for _, tt := range []struct{ id, client, want string }{
		{"3f2a9c1e-1b2c", "claude-code", "sessions/2026-11-27 1004 claude-code 3f2a9c1e.md"},
		{"s1", "", "sessions/2026-11-27 1004 s1.md"},
	} {
		st := &session.State{ID: tt.id, Client: tt.client, Started: start}
		if got := st.NotePath("sessions"); got != tt.want {
			t.Errorf("NotePath(%q) = %q, want %q", tt.id, got, tt.want)
		}
	}
	st := &session.State{ID: "../../etc/passwd", Started: start}
	if got := st.NotePath("sessions"); strings.Contains(got, "..") || strings.Count(got, "/") != 1 {
		t.Errorf("an unsafe id's note path %q leaves the folder", got)
	}
}
