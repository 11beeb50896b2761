package proposal

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/chat"
	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/session"
	"github.com/vaultmem/vaultmem/vault"
)

// TestProposer: the proposer alone, over a real vault, index and memory
// store and an LLM over HTTP: Pending counts the session notes that ended
// and were not read (never the running one); a dry run counts them and
// writes nothing; a run writes what passes (a memory with status:
// proposed, linking its session), leaves out a name a live memory has, has
// an answer of no use read again (Pending still counts its session), and
// says in its report each file it wrote, once, in order.
func TestProposer(t *testing.T) {
	ctx := context.Background()
	day := time.Date(2026, 3, 1, 10, 4, 0, 0, time.UTC)
	files := map[string]string{"memory/deploys.md": "---\nname: Deploys\ndescription: how deploys go\ntype: project\n---\n\nDeploys go out from CI.\n"}
	var sessions []string
	for i, marker := range []string{"AAAA", "BBBB", "CCCC"} {
		st := &session.State{ID: fmt.Sprintf("%c%c-x", 'a'+i, 'a'+i), Client: "claude-code", Agent: "default", Started: day.Add(time.Duration(i) * 3 * time.Hour),
			Prompts: []session.Prompt{{Time: day, Text: "the integration tests fail again " + marker}}}
		if marker != "CCCC" { // CCCC is still running
			st.Ended, st.EndReason = st.Started.Add(time.Hour), "logout"
		}
		p := st.NotePath(session.DefaultFolder)
		files[p] = string(st.Render(func(string) string { return "" }))
		sessions = append(sessions, p)
	}
	dir := t.TempDir()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	v, err := vault.Open(dir, vault.Folders{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	ix, err := index.Open(ctx, v.Abs(vault.CacheDir), index.Options{NoVectors: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	sync := func() {
		t.Helper()
		if _, err := ix.Sync(ctx, v.FS(), nil); err != nil {
			t.Fatal(err)
		}
	}
	sync()
	answers := map[string]string{
		"AAAA": `{"memories": [{"type": "feedback", "name": "Integration tests hit a real database", "description": "never mock the database",
		  "body": "The integration tests must hit a real database."},
		  {"type": "project", "name": "deploys", "description": "taken", "body": "Deploys again."}]}`,
		"BBBB": "I would remember that the tests are flaky.",
	}
	llm := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Messages []struct{ Content string } }
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Messages) == 0 {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		answer := "{}"
		for marker, a := range answers {
			if strings.Contains(req.Messages[0].Content, marker) {
				answer = a
			}
		}
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]string{"content": answer}}}})
	}))
	t.Cleanup(llm.Close)
	w := vault.NewWriter(v, vault.WriterOptions{})
	store := memory.NewStore(w, ix.Stores(), memory.StoreOptions{Now: func() time.Time { return day }})
	pr := New(w, ix.Stores(), store, Options{LLM: &chat.Options{URL: llm.URL, Model: "m"}, Timeout: 5 * time.Second})

	if n, err := pr.Pending(ctx); err != nil || n != 2 {
		t.Fatalf("pending %d (%v), want the 2 ended sessions", n, err)
	}
	var dry Report
	if written, err := pr.Propose(ctx, day, true, &dry); err != nil || len(written) > 0 || dry.Sessions != 2 || len(dry.Changed) > 0 {
		t.Fatalf("dry run: wrote %v (%v), report %+v; want 2 sessions counted, nothing written", written, err, dry)
	}
	var rep Report
	written, err := pr.Propose(ctx, day, false, &rep)
	if err != nil {
		t.Fatal(err)
	}
	want := "memory/integration-tests-hit-a-real-database.md"
	if len(written) != 1 || written[0].Path != want || !slices.Equal(rep.Proposed, []string{want}) || rep.Sessions != 2 {
		t.Fatalf("wrote %+v, report %+v; want %s alone, from 2 sessions", written, rep, want)
	}
	if b, err := os.ReadFile(filepath.Join(dir, want)); err != nil || !strings.Contains(string(b), "\nstatus: proposed\n") || !strings.Contains(string(b), "[["+strings.TrimSuffix(filepath.Base(sessions[0]), ".md")) {
		t.Errorf("%s (%v):\n%s", want, err, b)
	}
	// The newest session first: BBBB's useless answer, then AAAA's proposals.
	if state := vault.StateDir + "/" + SessionsFile; !slices.Equal(rep.Changed, []string{state, want}) {
		t.Errorf("changed %q, want %q", rep.Changed, []string{state, want})
	}
	for _, warn := range []string{sessions[1] + ": nothing proposed", `memory "deploys" not proposed: memory/deploys.md has that name already`} {
		if !slices.ContainsFunc(rep.Warnings, func(w string) bool { return strings.Contains(w, warn) }) {
			t.Errorf("warnings %q lack %q", rep.Warnings, warn)
		}
	}
	sync()
	if n, err := pr.Pending(ctx); err != nil || n != 1 {
		t.Errorf("pending %d (%v) after the run, want 1 (the session whose answer was of no use)", n, err)
	}
}
