package dream

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/chat"
	"github.com/vaultmem/vaultmem/dream/similar"
	"github.com/vaultmem/vaultmem/markdown"
)

// TestCommit: with Commit, a run is one commit of exactly the files it
// wrote; what the user had staged stays staged, uncommitted.
func TestCommit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	tv := newTestVault(t, map[string]string{
		"memory/a.md":   memoryNote("A", "project", "x", "created: 2026-02-27\n", "Same text. Due next Thursday.\n"),
		"memory/b.md":   memoryNote("B", "project", "x", "", "Same text. Due next Thursday.\n"),
		"notes/wip.md":  "work in progress\n",
		"notes/link.md": "see [[b]]\n",
	})
	git(t, tv.dir, "init", "-q")
	git(t, tv.dir, "add", ".")
	git(t, tv.dir, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "start")
	tv.write("notes/wip.md", "work in progress, staged\n")
	git(t, tv.dir, "add", "notes/wip.md")
	git(t, tv.dir, "config", "user.name", "t")
	git(t, tv.dir, "config", "user.email", "t@t")

	tv.d = tv.dreamer(Options{Commit: true})
	rep := tv.run(RunOptions{})
	if rep.Commit == "" || rep.CommitError != "" {
		t.Fatalf("commit %q, error %q", rep.Commit, rep.CommitError)
	}
	files := strings.Fields(git(t, tv.dir, "show", "--name-only", "--format=", "HEAD"))
	want := strings.Fields(".vaultmem/state/dream.yaml MEMORY.md memory/a.md memory/b.md memory/dream-log.md notes/link.md")
	if strings.Join(files, " ") != strings.Join(want, " ") {
		t.Errorf("committed %v, want %v", files, want)
	}
	if msg := git(t, tv.dir, "log", "-1", "--format=%B"); !strings.HasPrefix(msg, "vaultmem dream: 1 merged, 1 archived, 0 flagged, 1 dates fixed") ||
		!strings.Contains(msg, "- merged memory/b.md into memory/a.md (same text)") {
		t.Errorf("message:\n%s", msg)
	}
	if staged := git(t, tv.dir, "diff", "--cached", "--name-only"); staged != "notes/wip.md" {
		t.Errorf("staged after: %q", staged)
	}
}

// TestLLM: with an LLM, alike memories that are not provably the same are
// judged: "same" merges them keeping every sentence of both (a rewrite
// that drops or rewords one is not used), "different" keeps them apart and
// off the review list without asking again, "contradicts" flags them; an
// HTTP error, a timeout or an answer that is no verdict leave the pair
// listed for review, saying why.
func TestLLM(t *testing.T) {
	files := map[string]string{
		"memory/a.md": memoryNote("Deploys", "project", "x", "", "Deploys go out on Tuesdays at 10:00 after the standup, never on Fridays.\n\nSee [[runbook]].\n"),
		"memory/b.md": memoryNote("deploys", "project", "x", "", "Deploys go out Tuesdays after standup.\n"),
		"memory/c.md": memoryNote("Tabs", "feedback", "x", "", "Always use tabs.\n"),
		"memory/d.md": memoryNote("Spaces", "feedback", "x", "", "Never use tabs.\n"),
	}
	const whole = "Deploys go out on Tuesdays at 10:00 after the standup, never on Fridays. See [[runbook]]. Deploys go out Tuesdays after standup."
	for _, tt := range []struct {
		name, verdict, rewrite string
		status                 int
		delay                  time.Duration
		merged, rewritten      bool
		listed, flagged        int
		why                    string
	}{
		{name: "same, a rewrite that keeps every sentence", verdict: "SAME: both say when deploys go out", rewrite: whole, status: 200, merged: true, rewritten: true, flagged: 1},
		{name: "same, a rewrite that drops one", verdict: "SAME: both say when deploys go out", status: 200, merged: true, flagged: 1,
			rewrite: "Deploys go out on Tuesdays at 10:00 after the standup, never on Fridays. See [[runbook]].", why: "drops or rewords a sentence"},
		{name: "different", verdict: "DIFFERENT: one gives the time", status: 200, flagged: 1},
		{name: "contradicts", verdict: "CONTRADICTS: they disagree", status: 200, flagged: 2},
		{name: "no verdict", verdict: "Maybe.", status: 200, listed: 1, flagged: 1, why: "not SAME, DIFFERENT or CONTRADICTS"},
		{name: "HTTP error", status: 500, listed: 1, flagged: 1, why: "HTTP 500"},
		{name: "timeout", verdict: "SAME: late", status: 200, delay: 2 * time.Second, listed: 1, flagged: 1, why: "deadline"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			judged := 0
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var req struct {
					Messages []struct{ Content string }
				}
				json.NewDecoder(r.Body).Decode(&req)
				prompt := req.Messages[0].Content
				answer := tt.rewrite
				switch {
				case strings.Contains(prompt, "may contradict"):
					answer = "Keep the newer one."
				case strings.Contains(prompt, "Do they say the same thing"):
					judged++
					answer = tt.verdict
					select {
					case <-time.After(tt.delay):
					case <-r.Context().Done():
						return
					}
				}
				if tt.status != 200 {
					w.WriteHeader(tt.status)
					return
				}
				json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]string{"content": answer}}}})
			}))
			defer srv.Close()
			tv := newTestVault(t, files)
			tv.d = tv.dreamer(Options{LLM: &chat.Options{URL: srv.URL, Model: "m", Timeout: 200 * time.Millisecond}})
			rep := tv.run(RunOptions{})
			if tt.merged != (len(rep.Merged) == 1) || tt.merged && (rep.Merged[0].Rewritten != tt.rewritten || rep.Merged[0].Reason != "judged the same by the LLM") {
				t.Fatalf("merged %+v", rep.Merged)
			}
			if len(rep.PossibleDuplicates) != tt.listed || len(rep.Contradictions) != tt.flagged {
				t.Errorf("listed %+v, flagged %+v", rep.PossibleDuplicates, rep.Contradictions)
			}
			if !strings.Contains(rep.LLMError, tt.why) || (tt.why == "") != (rep.LLMError == "") {
				t.Errorf("llm error %q, want %q", rep.LLMError, tt.why)
			}
			winner := tv.read("memory/a.md")
			if tt.merged {
				// Nothing of either text is lost from the winner.
				if !strings.Contains(winner, "at 10:00") || !strings.Contains(winner, "Deploys go out Tuesdays after standup.") {
					t.Errorf("winner:\n%s", winner)
				}
				if !strings.Contains(tv.read("memory/dream-log.md"), "Asked the LLM about") {
					t.Error("the verdict is not in the dream log")
				}
			}
			if tt.name == "different" {
				if strings.Contains(tv.read("MEMORY.md"), "may be duplicates") {
					t.Errorf("a pair judged different is listed:\n%s", tv.read("MEMORY.md"))
				}
				tv.write("memory/c.md", memoryNote("Tabs", "feedback", "x", "", "Always use tabs, said twice.\n"))
				tv.run(RunOptions{})
				if judged != 1 {
					t.Errorf("the LLM was asked %d times about one pair that did not change", judged)
				}
			}
		})
	}
}

// TestDue: the gate opens when enough time and enough writes have passed
// and the vault is quiet.
func TestDue(t *testing.T) {
	files := map[string]string{}
	for i := range 6 {
		files[fmt.Sprintf("memory/m%d.md", i)] = memoryNote(fmt.Sprintf("M%d", i), "project", "x", "", fmt.Sprintf("Memory number %d.\n", i))
	}
	tv := newTestVault(t, files)
	tv.sync()
	ctx := context.Background()
	g := Gate{}
	due := func(lastEdit time.Time) bool {
		ok, why, err := tv.d.Due(ctx, g, lastEdit)
		if err != nil || why == "" {
			t.Fatal(err, why)
		}
		return ok
	}
	if !due(time.Time{}) {
		t.Error("never ran, 6 memories: not due")
	}
	if due(tv.now.Add(-30 * time.Second)) {
		t.Error("due while a human edits")
	}
	tv.run(RunOptions{})
	tv.now = tv.now.Add(25 * time.Hour)
	if due(time.Time{}) {
		t.Error("due with no memory written since")
	}
	for i := range 5 {
		tv.write(fmt.Sprintf("memory/m%d.md", i), memoryNote(fmt.Sprintf("M%d", i), "project", "x", "", fmt.Sprintf("Memory number %d, changed.\n", i)))
	}
	tv.sync()
	if !due(time.Time{}) {
		t.Error("5 writes and 25 h: not due")
	}
	tv.now = tv.now.Add(-2 * time.Hour) // 23 h after the run
	if due(time.Time{}) {
		t.Error("due 23 h after the last run")
	}
}

// TestNothingLost: over random memory sets (duplicates, near duplicates,
// contradictions, relative dates, links between them), every non-empty
// line of every note's body before a run is still in some note after it
// (read as Obsidian shows it: links by their text, dates Dream added
// aside), and a second run writes nothing. (Frontmatter lines a merge
// changes by design: the older created, united tags.)
func TestNothingLost(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	sentences := []string{
		"Always use tabs for indentation in Go files.", "Never use tabs for indentation in Go files.",
		"Deploys go out on Tuesdays after the standup.", "The user prefers pnpm over npm.",
		"Bugs live in Linear, project INGEST.", "Review the release next Thursday.", "We met yesterday about the budget.",
		"Integration tests must hit a real database, not mocks.", "Use mocks in integration tests.",
		"- a list item\n- another item", "```\ncode tomorrow\n```", "See [[m1]] and [[m2|the other one]].",
	}
	types := []string{"user", "feedback", "project", "reference"}
	for trial := range 30 {
		files := map[string]string{}
		n := 5 + r.IntN(20)
		if trial == 0 {
			n = 260 // more than MEMORY.md lists: what is left out depends on dates a merge changes
		}
		var bodies [][]string
		for i := range n {
			var body []string
			for range 1 + r.IntN(4) {
				body = append(body, sentences[r.IntN(len(sentences))])
			}
			if i > 0 && r.IntN(3) == 0 { // a near copy of an earlier memory
				body = append(slices.Clone(bodies[r.IntN(i)]), body[0])
			}
			bodies = append(bodies, body)
			extra := ""
			if r.IntN(2) == 0 {
				extra = fmt.Sprintf("created: 2026-02-%02d\n", 1+r.IntN(27))
			}
			name := fmt.Sprintf("Memory %d", i)
			if r.IntN(4) == 0 {
				name = fmt.Sprintf("Memory %d", r.IntN(n)) // same name as another
			}
			files[fmt.Sprintf("memory/m%d.md", i)] = memoryNote(name, types[r.IntN(len(types))], "d", extra, strings.Join(body, "\n\n")+"\n")
		}
		files["notes/hub.md"] = "Links: [[m0]], [[m1|one]], [[m2#Heading]], ![[m3]], [[m4]], [[m5]], [[m6]], [[m7]], [[m8]].\n"
		tv := newTestVault(t, files)
		before := tv.snapshot()
		rep := tv.run(RunOptions{})
		t.Logf("trial %d: %d memories, %d merged, %d flagged, %d dates, %d links", trial, n, len(rep.Merged), len(rep.Contradictions), len(rep.DatesFixed), len(rep.LinksRewritten))
		after := tv.snapshot()
		var all strings.Builder
		for _, c := range after {
			all.WriteString(similar.Shown(c) + "\n")
		}
		for p, c := range before {
			for _, line := range strings.Split(string(markdown.Parse(p, []byte(c)).Body()), "\n") {
				if strings.TrimSpace(line) != "" && !strings.Contains(all.String(), similar.Shown(line)) {
					t.Fatalf("trial %d: line %q of %s is lost", trial, line, p)
				}
			}
		}
		if again := tv.run(RunOptions{}); len(again.Changed) != 0 {
			t.Fatalf("trial %d: the second run changed %v", trial, again.Changed)
		}
		pre := tv.snapshot()
		if full := tv.run(RunOptions{Full: true}); len(full.Changed) != 0 {
			post := tv.snapshot()
			for _, p := range full.Changed {
				if pre[p] != post[p] {
					t.Logf("%s before:\n%s\nafter:\n%s", p, pre[p], post[p])
					break
				}
			}
			t.Fatalf("trial %d: a full run after changed %v", trial, full.Changed)
		}
	}
}

// TestIncrementalMatchesFull: after new memories, an incremental run
// (sketches, reading only what may pair) finds what a full run finds: a
// memory of the same text merged, a contradiction flagged, a rewording
// listed for review.
func TestIncrementalMatchesFull(t *testing.T) {
	files := map[string]string{
		"memory/tabs.md":   memoryNote("Tabs", "feedback", "indentation", "", "Always use tabs for indentation in Go files.\n"),
		"memory/deploy.md": memoryNote("Deploy", "project", "deploys", "", "Deploys go out on Tuesdays after the standup, and the on-call engineer watches the dashboards.\n"),
		"memory/pnpm.md":   memoryNote("Pnpm", "user", "package manager", "", "The user prefers pnpm over npm for JavaScript.\n"),
		"notes/n.md":       "See [[deploy]].\n",
	}
	for i := range 30 {
		files[fmt.Sprintf("memory/other-%d.md", i)] = memoryNote(fmt.Sprintf("Other %d", i), "project", "x", "", fmt.Sprintf("Unrelated fact %d about topic %d.\n", i, i*7))
	}
	added := map[string]string{
		"memory/pnpm-same.md": memoryNote("Package manager choice", "user", strings.Repeat("a long description of another kind entirely ", 8), "",
			"The user prefers pnpm over npm for JavaScript.\n"),
		"memory/spaces.md":  memoryNote("Spaces", "feedback", "indentation", "", "Never use tabs for indentation in Go files.\n"),
		"memory/deploy2.md": memoryNote("When we ship", "project", "deploys", "", "Deploys go out on Tuesdays after the standup, and the on-call engineer watches dashboards.\n"),
		"memory/yarn.md":    memoryNote("Yarn too", "user", "pm", "", "Yarn is fine too.\n"),
	}
	var reports []*Report
	for _, full := range []bool{false, true} {
		tv := newTestVault(t, files)
		tv.run(RunOptions{})
		for p, c := range added {
			tv.write(p, c)
		}
		rep := tv.run(RunOptions{Full: full})
		rep.MS, rep.Examined = 0, 0
		reports = append(reports, rep)
	}
	if !reflect.DeepEqual(reports[0], reports[1]) {
		t.Errorf("incremental:\n%+v\nfull:\n%+v", reports[0], reports[1])
	}
	if len(reports[0].Merged) != 1 || len(reports[0].Contradictions) != 1 || len(reports[0].PossibleDuplicates) != 1 {
		t.Errorf("found %+v", reports[0])
	}
}

// TestLLMMergeKeepsTheWinnersWords: a human's save of either note while
// the LLM judges them leaves both as they were: the merge it calls for is
// not made.
func TestLLMMergeKeepsTheWinnersWords(t *testing.T) {
	winner := memoryNote("Deploys", "project", "x", "", "ORIGINAL-WINNER-PROSE: deploys go out on Tuesdays at 10:00 after the standup.\n")
	loser := memoryNote("deploys", "project", "x", "", "Deploys go out Tuesdays.\n")
	for _, edited := range []string{"memory/b.md", "memory/a.md"} {
		t.Run(edited, func(t *testing.T) {
			tv := newTestVault(t, map[string]string{"memory/a.md": winner, "memory/b.md": loser})
			human := "---\nname: edited\ntype: project\n---\nA human's edit.\n"
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				tv.write(edited, human) // saved in Obsidian while the LLM answers
				json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]string{
					"content": "SAME: both say when deploys go out"}}}})
			}))
			defer srv.Close()
			tv.d = tv.dreamer(Options{LLM: &chat.Options{URL: srv.URL, Model: "m"}})
			rep := tv.run(RunOptions{})
			if len(rep.Merged) != 0 || tv.read(edited) != human {
				t.Fatalf("merged %+v; %s:\n%s", rep.Merged, edited, tv.read(edited))
			}
			var all strings.Builder
			for _, c := range tv.snapshot() {
				all.WriteString(c)
			}
			if edited == "memory/b.md" && !strings.Contains(all.String(), "ORIGINAL-WINNER-PROSE") {
				t.Error("the winner's words are lost")
			}
			if other := map[string]string{"memory/a.md": "memory/b.md", "memory/b.md": "memory/a.md"}[edited]; strings.Contains(tv.read(other), "archived") {
				t.Errorf("%s archived though the merge did not happen:\n%s", other, tv.read(other))
			}
		})
	}
}
