package session_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/session"
)

// TestEncodeRedacts: whatever text of an agent's a state holds, neither
// its file nor its note holds a secret of it, and what is not a secret is
// kept.
func TestEncodeRedacts(t *testing.T) {
	const tok = "ghp_abcdefghijklmnopqrstuvwxyz0123456789AB"
	at := time.Date(2026, 11, 27, 10, 4, 0, 0, time.UTC)
	st := &session.State{ID: "s1", Client: "claude-code", Agent: "default", Started: at,
		Cwd:       "/home/me/proj-" + tok,
		EndReason: "logout password=hunter2",
		Checkpoint: &session.Checkpoint{Time: at, Trigger: "auto", Task: "tasks/T.md",
			Text: `last prompts "deploy with GITHUB_TOKEN=` + tok + `"`}}
	st.AddPrompt(at, "deploy with GITHUB_TOKEN="+tok+" now")
	st.AddFile("db/" + tok + ".sql")
	st.AddFile("db/" + tok + "X.sql") // not the same file, but the same once masked
	st.AddFile("README.md")
	st.Show("call1", "mcp__db__query --password hunter2", []session.Shown{{Path: "lessons/a.md", Name: "A"}})
	st.Outcomes = append(st.Outcomes, session.Outcome{Time: at, Lesson: "lessons/a.md", Tool: "Bash", Success: false,
		Error: "open postgres://app:hunter2@db/app: refused"})
	b, err := st.Encode()
	if err != nil {
		t.Fatal(err)
	}
	note := st.Render(func(string) string { return "" })
	for name, out := range map[string]string{"state": string(b), "note": string(note)} {
		for _, secret := range []string{tok[:12], "hunter2"} {
			if strings.Contains(out, secret) {
				t.Errorf("the %s holds %q:\n%s", name, secret, out)
			}
		}
		for _, kept := range []string{"GITHUB_TOKEN=[REDACTED:github-token] now", "README.md", "--password [REDACTED:password]"} {
			if !strings.Contains(out, kept) {
				t.Errorf("the %s lost %q:\n%s", name, kept, out)
			}
		}
	}
	if !strings.Contains(string(b), "postgres://app:[REDACTED:password]@db/app") || !strings.Contains(string(b), `"/home/me/proj-[REDACTED:github-token]"`) {
		t.Errorf("the state lost the error's or the cwd's text:\n%s", b)
	}
	back, err := session.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Files) != 2 || back.ID != "s1" || back.Checkpoint.Task != "tasks/T.md" || len(back.Calls) != 1 {
		t.Errorf("decoded: files %v, id %q, checkpoint %+v, calls %v", back.Files, back.ID, back.Checkpoint, back.Calls)
	}
	// The state in memory is the hooks' to read: Encode does not change it.
	if !strings.Contains(st.Prompts[0].Text, tok) {
		t.Error("Encode changed the state it encoded")
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
		{"3f2a9c1e-1b2c", "claude-code", "sessions/2026-11-27 1004 claude-code 1c9a2d52.md"},
		{"s1", "", "sessions/2026-11-27 1004 e8bc163c.md"},
	} {
		st := &session.State{ID: tt.id, Client: tt.client, Started: start}
		if got := st.NotePath("sessions"); got != tt.want {
			t.Errorf("NotePath(%q) = %q, want %q", tt.id, got, tt.want)
		}
	}
	// Codex's UUIDv7 ids started within a minute share their first 8
	// characters: their notes must not.
	a := &session.State{ID: "019ad3c4-5e6f-7a8b-9c0d-1e2f3a4b5c6d", Client: "codex", Started: start}
	b := &session.State{ID: "019ad3c4-7f70-7182-9384-a5b6c7d8e9f0", Client: "codex", Started: start}
	if a.NotePath("sessions") == b.NotePath("sessions") {
		t.Errorf("two sessions share the note %q", a.NotePath("sessions"))
	}
	st := &session.State{ID: "../../etc/passwd", Started: start}
	if got := st.NotePath("sessions"); strings.Contains(got, "..") || strings.Count(got, "/") != 1 {
		t.Errorf("an unsafe id's note path %q leaves the folder", got)
	}
}
