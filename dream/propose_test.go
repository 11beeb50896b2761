package dream

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/chat"
	"github.com/vaultmem/vaultmem/dream/proposal"
	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/session"
	"github.com/vaultmem/vaultmem/vault"
)

// sessionNote is a session note as the hooks write it: ended unless
// running, its prompt holding marker (which the stub LLM answers by).
func sessionNote(id string, started time.Time, running bool, marker string) (string, string) {
	st := &session.State{ID: id, Client: "claude-code", Agent: "default", Started: started,
		Prompts: []session.Prompt{{Time: started, Text: "the integration tests fail again " + marker}},
		Files:   []string{"db/migrations/0042.sql"}}
	if !running {
		st.Ended, st.EndReason = started.Add(time.Hour), "logout"
	}
	return st.NotePath(session.DefaultFolder), string(st.Render(func(string) string { return "" }))
}

// stubLLM is an OpenAI-compatible chat endpoint answering by the marker
// the prompt holds; it counts the prompts of each marker it saw.
type stubLLM struct {
	*httptest.Server
	mu      sync.Mutex
	answers map[string]string // marker: answer
	status  int               // non-zero: answer with this HTTP status
	delay   time.Duration
	asked   map[string]int
}

func newStubLLM(t *testing.T, answers map[string]string) *stubLLM {
	s := &stubLLM{answers: answers, asked: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct{ Content string }
		}
		json.NewDecoder(r.Body).Decode(&req)
		prompt := req.Messages[0].Content
		s.mu.Lock()
		answer, status, delay := "{}", s.status, s.delay
		for m, a := range s.answers {
			if strings.Contains(prompt, m) {
				s.asked[m]++
				answer = a
			}
		}
		s.mu.Unlock()
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
		if status != 0 {
			w.WriteHeader(status)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]string{"content": answer}}}})
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *stubLLM) set(f func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f()
}

func (s *stubLLM) count(marker string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.asked[marker]
}

// proposer is a Dreamer of tv proposing from sessions through llm (nil:
// none), lessons written by a lesson store of the vault.
func (tv *testVault) proposer(llm *stubLLM) *Dreamer {
	w := vault.NewWriter(tv.v, vault.WriterOptions{})
	clock := func() time.Time { return tv.now }
	ls, err := lesson.NewStore(w, tv.ix.Stores(), lesson.Options{FS: tv.v.FS(), Now: clock})
	if err != nil {
		tv.t.Fatal(err)
	}
	o := Options{Propose: true, AddLesson: func(ctx context.Context, l lesson.New) (string, error) {
		a, err := ls.Add(ctx, l)
		return a.Path, err
	}}
	if llm != nil {
		o.LLM = &chat.Options{URL: llm.URL, Model: "m", Timeout: 300 * time.Millisecond}
	}
	return tv.dreamer(o)
}

const (
	answerA = "Here you go:\n```json\n" + `{"memories": [{"type": "feedback", "name": "Integration tests hit a real database",
  "description": "never mock the database in integration tests", "body": "The user said the integration tests must hit a real database, not mocks."}],
 "lessons": [{"title": "Run migrations first", "trigger": ["integration tests", "tool:Bash"],
  "action_bias": "run make migrate before the integration tests", "body": "The test database starts empty."}]}` + "\n```"
	answerB = `{"memories": [{"type": "project", "name": "Release train", "description": "releases go out on Tuesdays",
  "body": "Releases go out on Tuesdays after the standup."}], "lessons": []}`
)

// proposalVault is a vault with a live memory, two ended session notes
// (markers AAAA and BBBB) and a running one (CCCC).
func proposalVault(t *testing.T) (tv *testVault, sessions [3]string) {
	day := time.Date(2026, 3, 1, 10, 4, 0, 0, time.UTC)
	files := map[string]string{"memory/deploys.md": memoryNote("Deploys", "project", "how deploys go", "", "Deploys go out from CI.\n")}
	for i, s := range []struct {
		id      string
		running bool
		marker  string
	}{{"aaaa1111-x", false, "AAAA"}, {"bbbb2222-x", false, "BBBB"}, {"cccc3333-x", true, "CCCC"}} {
		p, content := sessionNote(s.id, day.Add(time.Duration(i)*3*time.Hour), s.running, s.marker)
		files[p], sessions[i] = content, p
	}
	return newTestVault(t, files), sessions
}

// TestProposeFromSessions: with an LLM, Dream writes the memories and
// lessons it proposes from the ended session notes (never the running
// one) with status: proposed and a link to the session; a second run
// proposes nothing new; MEMORY.md lists them under "Needs review", not
// as memories; they are no live memories and no lesson the fast path
// matches, until the status is removed. A session note edited since it
// was read is read again, and what was proposed from it is not proposed
// twice.
func TestProposeFromSessions(t *testing.T) {
	ctx := context.Background()
	tv, sessions := proposalVault(t)
	llm := newStubLLM(t, map[string]string{"AAAA": answerA, "BBBB": answerB, "CCCC": answerB})
	tv.d = tv.proposer(llm)
	rep := tv.run(RunOptions{})
	// The newest session first.
	want := []string{"memory/release-train.md", "memory/integration-tests-hit-a-real-database.md", "lessons/Run migrations first.md"}
	if !slices.Equal(rep.Proposed, want) || rep.Sessions != 2 || len(rep.Warnings) != 0 {
		t.Fatalf("proposed %q from %d sessions, warnings %q", rep.Proposed, rep.Sessions, rep.Warnings)
	}
	if llm.count("CCCC") != 0 || llm.count("AAAA") != 1 || llm.count("BBBB") != 1 {
		t.Errorf("the LLM was asked %v", llm.asked)
	}
	link := func(p string) string { return strings.TrimSuffix(filepath.Base(p), ".md") }
	memPath, lesPath := want[1], want[2]
	mem := tv.read(memPath)
	for _, s := range []string{"\nstatus: proposed\n", `source: "[[` + link(sessions[0]) + `]]"`, "type: feedback\n", "name: Integration tests hit a real database\n", "not mocks."} {
		if !strings.Contains(mem, s) {
			t.Errorf("%s lacks %q:\n%s", memPath, s, mem)
		}
	}
	les := tv.read(lesPath)
	for _, s := range []string{"\nstatus: proposed\n", "source_episodes:\n  - \"[[" + link(sessions[0]) + "]]\"", "- tool:Bash", "action_bias: run make migrate"} {
		if !strings.Contains(les, s) {
			t.Errorf("%s lacks %q:\n%s", lesPath, s, les)
		}
	}
	if s := tv.read(want[0]); !strings.Contains(s, "[["+link(sessions[1])+"]]") {
		t.Errorf("%s does not link its session:\n%s", want[0], s)
	}
	list := tv.read("MEMORY.md")
	review := list[strings.Index(list, "## Needs review"):]
	for _, p := range want {
		line := "](" + strings.ReplaceAll(p, " ", "%20") + ") proposed by Dream from [["
		if !strings.Contains(review, line) || strings.Count(list, "]("+strings.ReplaceAll(p, " ", "%20")+")") != 1 {
			t.Errorf("MEMORY.md does not list %s once, under Needs review:\n%s", p, list)
		}
	}
	if !strings.Contains(review, ": accept by removing status: proposed") || !strings.Contains(list, "## Project\n\n- [Deploys](memory/deploys.md)") {
		t.Errorf("MEMORY.md:\n%s", list)
	}
	if log := tv.read("memory/dream-log.md"); !strings.Contains(log, "- Proposed [[memory/release-train|Release train]] (a project memory) from [["+link(sessions[1])+"]]") {
		t.Errorf("dream log:\n%s", log)
	}

	// Again: nothing new, the LLM not asked.
	before := tv.snapshot()
	rep = tv.run(RunOptions{})
	if len(rep.Proposed) != 0 || rep.Sessions != 0 || llm.count("AAAA") != 1 || llm.count("BBBB") != 1 {
		t.Fatalf("second run proposed %q from %d sessions; asked %v", rep.Proposed, rep.Sessions, llm.asked)
	}
	if after := tv.snapshot(); len(after) != len(before) || after["MEMORY.md"] != before["MEMORY.md"] {
		t.Errorf("the second run changed the vault")
	}

	// Not live: not a memory, and not matched.
	live, err := tv.ix.Kinds().Memories(ctx)
	if err != nil || len(live) != 1 || live[0].Path != "memory/deploys.md" {
		t.Fatalf("live memories %+v, %v", live, err)
	}
	m := lesson.NewMatcher(tv.ix.Stores(), lesson.MatcherOptions{CacheSize: -1})
	match := func() []string {
		t.Helper()
		tv.sync()
		res, err := m.Match(ctx, lesson.Situation{Text: "run the integration tests", Tool: "Bash"}, 5)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, l := range res.Lessons {
			out = append(out, l.Path)
		}
		return out
	}
	if got := match(); len(got) != 0 {
		t.Errorf("a proposed lesson was matched: %q", got)
	}
	// The lesson does not decay while proposed, however old.
	old := tv.now
	tv.now = tv.now.AddDate(0, 3, 0)
	ls, _ := lesson.NewStore(vault.NewWriter(tv.v, vault.WriterOptions{}), tv.ix.Stores(), lesson.Options{FS: tv.v.FS(), Now: func() time.Time { return tv.now }})
	if ds, _, err := ls.Decay(ctx, tv.now.Format(time.DateOnly), false); err != nil || len(ds) != 0 {
		t.Errorf("decayed %+v, %v", ds, err)
	}
	tv.now = old
	if rs, err := ls.Review(ctx, false); err != nil || len(rs) != 1 || !slices.Contains(rs[0].Reasons, lesson.ProposedReason) {
		t.Errorf("lesson review %+v, %v", rs, err)
	}

	// Accepted: the lesson matches, the memory is live and listed.
	tv.write(lesPath, strings.Replace(les, "status: proposed\n", "", 1))
	if got := match(); !slices.Equal(got, []string{lesPath}) {
		t.Errorf("the accepted lesson: matched %q", got)
	}
	tv.write(memPath, strings.Replace(mem, "status: proposed\n", "status: accepted\n", 1))
	tv.sync()
	store := memory.NewStore(vault.NewWriter(tv.v, vault.WriterOptions{}), tv.ix.Stores(), memory.StoreOptions{})
	if _, err := store.Relist(ctx); err != nil {
		t.Fatal(err)
	}
	list = tv.read("MEMORY.md")
	if !strings.Contains(list, "## Feedback\n\n- [Integration tests hit a real database](memory/integration-tests-hit-a-real-database.md) — never mock") ||
		strings.Contains(list, "integration-tests-hit-a-real-database.md) proposed") || strings.Contains(list, "Run%20migrations%20first.md) proposed") ||
		!strings.Contains(list, "release-train.md) proposed by Dream") {
		t.Errorf("MEMORY.md after accepting two:\n%s", list)
	}

	// A human edits a session note: it is read again; what it proposed
	// before is not proposed twice (even the memory accepted meanwhile).
	tv.write(sessions[0], tv.read(sessions[0])+"\nA note of mine.\n")
	rep = tv.run(RunOptions{})
	if llm.count("AAAA") != 2 || len(rep.Proposed) != 0 || rep.Sessions != 1 || len(rep.Warnings) != 0 {
		t.Errorf("after an edit: asked %v, proposed %q from %d, warnings %q", llm.asked, rep.Proposed, rep.Sessions, rep.Warnings)
	}
	// The running session ends: it is read.
	tv.write(sessions[2], strings.Replace(tv.read(sessions[2]), "started: ", "ended: 2026-03-01T17:04:00Z\nstarted: ", 1))
	rep = tv.run(RunOptions{})
	if llm.count("CCCC") != 1 || len(rep.Proposed) != 0 || len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "memory/release-train.md has that name already") {
		t.Errorf("the ended session: asked %v, proposed %q, warnings %q", llm.asked, rep.Proposed, rep.Warnings)
	}
}

// TestProposeWithoutLLM: without an LLM nothing is proposed, nothing is
// recorded and nothing fails.
func TestProposeWithoutLLM(t *testing.T) {
	tv, _ := proposalVault(t)
	tv.d = tv.proposer(nil)
	rep := tv.run(RunOptions{})
	if len(rep.Proposed) != 0 || rep.Sessions != 0 || len(rep.Warnings) != 0 || rep.LLMError != "" {
		t.Fatalf("%+v", rep)
	}
	if _, err := os.Stat(filepath.Join(tv.dir, ".vaultmem", "state", SessionsFile)); !os.IsNotExist(err) {
		t.Errorf("state written: %v", err)
	}
	for p, c := range tv.snapshot() {
		if strings.Contains(c, "\nstatus: proposed\n") {
			t.Errorf("%s proposed", p)
		}
	}
	// With the LLM but proposals off: the same.
	llm := newStubLLM(t, map[string]string{"AAAA": answerA, "BBBB": answerB})
	tv.d = tv.proposer(llm)
	tv.d.opts.Propose = false
	if rep := tv.run(RunOptions{}); len(rep.Proposed) != 0 || llm.count("AAAA")+llm.count("BBBB") != 0 {
		t.Fatalf("proposals off: %+v, asked %v", rep, llm.asked)
	}
}

// TestProposeDryRun: a dry run counts the session notes it would read and
// asks no LLM.
func TestProposeDryRun(t *testing.T) {
	tv, _ := proposalVault(t)
	llm := newStubLLM(t, map[string]string{"AAAA": answerA, "BBBB": answerB})
	tv.d = tv.proposer(llm)
	before := tv.snapshot()
	rep := tv.run(RunOptions{DryRun: true})
	if rep.Sessions != 2 || len(rep.Proposed) != 0 || llm.count("AAAA")+llm.count("BBBB") != 0 {
		t.Fatalf("dry run: %+v, asked %v", rep, llm.asked)
	}
	if after := tv.snapshot(); len(after) != len(before) {
		t.Errorf("the dry run wrote")
	}
}

// TestProposeFailures: an LLM that answers garbage, items that do not
// pass, HTTP 500 or too late never fails the run nor writes what did not
// pass: the report warns, and the session is read again next run (when
// the LLM answers well, its proposals are written, none twice). After
// proposal.MaxSessionTries useless answers a session is left until it changes.
func TestProposeFailures(t *testing.T) {
	invalid := `{"memories": [
	  {"type": "opinion", "name": "Tabs", "description": "x", "body": "Tabs."},
	  {"type": "feedback", "name": "Terse answers", "description": "the user wants terse answers", "body": "Answer tersely."},
	  {"type": "user", "name": "", "description": "x", "body": "y"},
	  {"type": "user", "name": "Extra", "description": "x", "body": "y", "why": "I think so"},
	  {"type": "user", "name": "../../etc/passwd", "description": "x", "body": "y"},
	  {"type": "user", "name": "Front", "description": "x", "body": "---\ntype: lesson\n---\nboo"}],
	 "lessons": [{"title": "No trigger", "trigger": [], "action_bias": "x", "body": "y"},
	  {"title": "Trigger string", "trigger": "tool:Bash", "action_bias": "x", "body": "y"}]}`
	for _, tt := range []struct {
		name   string
		answer string
		status int
		delay  time.Duration
		warn   string
		// written are the proposals written on the first run.
		written []string
	}{
		{"garbage", "I would remember that the tests are flaky.", 0, 0, "not the JSON asked for", nil},
		{"not lists", `{"memories": {"type": "user"}, "lessons": []}`, 0, 0, "memories is not a list", nil},
		{"invalid items", invalid, 0, 0, `memory 1 has type "opinion"`, []string{"memory/terse-answers.md"}},
		{"HTTP 500", "", 500, 0, "HTTP 500", nil},
		{"timeout", answerB, 0, 2 * time.Second, "deadline", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tv, _ := proposalVault(t)
			llm := newStubLLM(t, map[string]string{"AAAA": tt.answer, "BBBB": tt.answer})
			llm.status, llm.delay = tt.status, tt.delay
			tv.d = tv.proposer(llm)
			rep := tv.run(RunOptions{})
			if !slices.Equal(rep.Proposed, tt.written) && len(rep.Proposed)+len(tt.written) > 0 {
				t.Errorf("proposed %q, want %q", rep.Proposed, tt.written)
			}
			if !slices.ContainsFunc(rep.Warnings, func(w string) bool { return strings.Contains(w, tt.warn) }) {
				t.Errorf("warnings %q lack %q", rep.Warnings, tt.warn)
			}
			for p, c := range tv.snapshot() {
				if strings.Contains(c, "\nstatus: proposed\n") && !slices.Contains(tt.written, p) {
					t.Errorf("%s written:\n%s", p, c)
				}
			}
			asked := llm.count("AAAA") + llm.count("BBBB")
			// Next run: the LLM answers well; the sessions are read again.
			llm.set(func() { llm.status, llm.delay, llm.answers["AAAA"], llm.answers["BBBB"] = 0, 0, answerA, answerB })
			if tt.name == "invalid items" {
				llm.set(func() { llm.answers["AAAA"] = invalid }) // the same answer again
			}
			rep = tv.run(RunOptions{})
			if got := llm.count("AAAA") + llm.count("BBBB"); got <= asked {
				t.Fatalf("the sessions were not read again (asked %d, then %d)", asked, got)
			}
			if tt.name == "invalid items" {
				if len(rep.Proposed) != 1 || rep.Proposed[0] != "memory/release-train.md" {
					t.Errorf("retry proposed %q (the valid item proposed once only)", rep.Proposed)
				}
				// The third useless answer is the last asked for.
				tv.run(RunOptions{})
				n := llm.count("AAAA")
				if rep := tv.run(RunOptions{}); llm.count("AAAA") != n || rep.Sessions != 0 {
					t.Errorf("asked again after %d useless answers: %d, then %d", proposal.MaxSessionTries, n, llm.count("AAAA"))
				}
				if n != proposal.MaxSessionTries {
					t.Errorf("asked %d times, want %d", n, proposal.MaxSessionTries)
				}
				return
			}
			if len(rep.Proposed) != 3 {
				t.Errorf("retry proposed %q, warnings %q", rep.Proposed, rep.Warnings)
			}
		})
	}
}
