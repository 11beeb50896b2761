package recall_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/recall"
	"github.com/vaultmem/vaultmem/text"
)

func TestClassifyRules(t *testing.T) {
	for _, tc := range []struct {
		query string
		want  recall.Intent
	}{
		{"What is the deploy command?", recall.SimpleFact},
		{"how do I run the tests", recall.SimpleFact},
		{"Why does the migration fail in prod?", recall.Causal},
		{"What caused the outage", recall.Causal},
		{"what did I say I prefer for package managers", recall.Preference},
		{"remember my favourite editor?", recall.Preference},
		{"When did we switch to pnpm?", recall.Temporal},
		{"timeline of the release freeze", recall.Temporal},
		{"what did I do yesterday", recall.Temporal},
		{"notes from 2024-05-07", recall.Temporal},
		{"昨天做了什么", recall.Temporal},
		{"What is the difference between staging and prod?", recall.Relationship},
		{"relationship between Alice and the billing team", recall.Relationship},
		{"why did the deploy fail and when was it fixed", recall.Hybrid}, // causal and temporal, as strongly
		{"pnpm", recall.Hybrid},                                          // no cue: below the threshold
		{"为什么部署失败了？", recall.Causal},
		{"我之前说过喜欢什么编辑器", recall.Preference},
		{"什么时候开始冻结发布", recall.Temporal},
		{"测试环境和生产环境的区别", recall.Relationship},
		{"部署命令是什么", recall.SimpleFact},
	} {
		c := recall.ClassifyRules(tc.query)
		got := c.Intent
		if c.Confidence < 0.5 {
			got = recall.Hybrid
		}
		if got != tc.want {
			t.Errorf("ClassifyRules(%q) = %s (%.2f), want %s", tc.query, c.Intent, c.Confidence, tc.want)
		}
		if c.Confidence <= 0 || c.Confidence > 1 {
			t.Errorf("ClassifyRules(%q) confidence %v", tc.query, c.Confidence)
		}
	}
}

// testIndex indexes a fixture vault plus extra notes into a temp cache.
var testIndex = recall.NewTestIndex

var extraNotes = map[string]string{
	"deploys.md":           "# Deploys\n\nDeploys go out on Tuesdays after the freeze.\n\n## Rollback\n\nRoll back with `make rollback` when the canary fails; it takes five minutes and pages nobody.\n",
	"memory/deploy-dup.md": "---\nname: deploy day\ndescription: when deploys happen\ntype: project\n---\n\nDeploys go out on Tuesdays after the freeze.\n",
	"long.md":              "# Long\n\n" + strings.Repeat("The deploy pipeline builds, tests and ships every service in turn. ", 80) + "\n",
}

func TestRecallRespectsEveryBudget(t *testing.T) {
	ix, _ := testIndex(t, "memory-folder", extraNotes)
	e := recall.New(ix.Recall(), recall.Options{NoDeadlines: true})
	for _, budget := range []int{5, 12, 20, 40, 80, 150, 300, 700, 2000} {
		res, err := e.Recall(context.Background(), recall.Request{Query: "when do deploys go out, and how to roll back?", Budget: budget})
		if err != nil {
			t.Fatal(err)
		}
		if res.UsedTokens > budget || text.EstimateTokens(res.Context) != res.UsedTokens || res.Budget != budget {
			t.Errorf("budget %d: used %d (context estimates %d)", budget, res.UsedTokens, text.EstimateTokens(res.Context))
		}
		if budget >= 150 && len(res.Items) == 0 {
			t.Errorf("budget %d: no items", budget)
		}
		if res.Truncated && !strings.Contains(res.Context, "[…truncated]") {
			t.Errorf("budget %d: truncated without a marker", budget)
		}
	}
	// A small budget cuts the last item instead of dropping it.
	res, _ := e.Recall(context.Background(), recall.Request{Query: "deploy pipeline", Budget: 60})
	if !res.Truncated {
		t.Errorf("budget 60 over a long note: truncated %v, dropped %d\n%s", res.Truncated, res.Dropped, res.Context)
	}
}

func TestRecallFindsDedupsAndExplains(t *testing.T) {
	ix, _ := testIndex(t, "memory-folder", extraNotes)
	res, err := recall.New(ix.Recall(), recall.Options{NoDeadlines: true}).Recall(context.Background(), recall.Request{Query: "When do deploys go out?", Budget: 400})
	if err != nil {
		t.Fatal(err)
	}
	if res.Intent != recall.Temporal || res.Classifier != "rules" || res.Strategy != recall.ExactFirst {
		t.Errorf("route: %s %s %s", res.Intent, res.Classifier, res.Strategy)
	}
	if len(res.Items) == 0 || !strings.Contains(res.Items[0].Text, "Tuesdays") {
		t.Fatalf("first item: %+v", res.Items)
	}
	n := 0
	for _, it := range res.Items {
		if strings.Contains(it.Text, "Deploys go out on Tuesdays after the freeze.") {
			n++
		}
		if it.Why == "" || it.Source == "" || it.Layer == "" {
			t.Errorf("item without why, source or layer: %+v", it)
		}
	}
	if n != 1 {
		t.Errorf("the same sentence in two notes appears %d times, want 1 (dedup)", n)
	}
	if len(res.Stages) == 0 || res.Stages[0].Name != "fast" {
		t.Errorf("stages: %+v", res.Stages)
	}
}

// chatServer is an OpenAI-compatible chat endpoint answering content; it
// counts the calls of the intent classifier (not the verifier's).
func chatServer(t *testing.T, status int, content string, delay time.Duration) (*httptest.Server, *atomic.Int64) {
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if body, _ := io.ReadAll(r.Body); strings.Contains(string(body), "Classify the intent") {
			calls.Add(1)
		}
		time.Sleep(delay)
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]string{"content": content}}}})
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

func TestLLMClassifier(t *testing.T) {
	for _, tc := range []struct {
		name       string
		status     int
		content    string
		delay      time.Duration
		want       recall.Intent
		classifier string
	}{
		{"sure answer", 200, "```json\n{\"category\": \"causal-reasoning\", \"confidence\": 0.9}\n```", 0, recall.Causal, "llm"},
		{"unsure answer", 200, `{"category": "causal-reasoning", "confidence": 0.4}`, 0, recall.Temporal, "rules"},
		{"bad JSON", 200, `causal, I think`, 0, recall.Temporal, "rules"},
		{"unknown category", 200, `{"category": "gossip", "confidence": 0.99}`, 0, recall.Temporal, "rules"},
		{"server error", 500, ``, 0, recall.Temporal, "rules"},
		{"timeout", 200, `{"category": "causal-reasoning", "confidence": 0.9}`, 300 * time.Millisecond, recall.Temporal, "rules"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, calls := chatServer(t, tc.status, tc.content, tc.delay)
			ix, _ := testIndex(t, "memory-folder", nil)
			e := recall.New(ix.Recall(), recall.Options{LLM: &recall.LLMOptions{URL: srv.URL + "/v1", Model: "m", Timeout: 100 * time.Millisecond}, NoDeadlines: true})
			res, err := e.Recall(context.Background(), recall.Request{Query: "When did the freeze start?"})
			if err != nil {
				t.Fatal(err)
			}
			if res.Intent != tc.want || res.Classifier != tc.classifier {
				t.Errorf("got %s by %s, want %s by %s", res.Intent, res.Classifier, tc.want, tc.classifier)
			}
			// The answer is cached: the endpoint is not asked again.
			res, _ = e.Recall(context.Background(), recall.Request{Query: "When did the freeze start?"})
			if res.Classifier != "cache" || res.Intent != tc.want || calls.Load() != 1 {
				t.Errorf("second ask: %s by %s after %d calls", res.Intent, res.Classifier, calls.Load())
			}
		})
	}
}

// dailyNotes are a journal: daily notes named by date, a meeting note
// dated in its frontmatter, and an undated note on the same subject.
var dailyNotes = map[string]string{
	"journal/2026-11-17.md": "# Tuesday\n\nFixed the login redirect loop.\n\nLunch with Ana: she wants the billing export by Friday.\n",
	"journal/2026-11-10.md": "# A week before\n\nBilling export: first draft of the CSV columns.\n",
	"journal/2026-10-02.md": "# October\n\nPlanned the billing export with finance.\n",
	"meetings/standup.md":   "---\ndate: 2026-11-17\n---\n# Standup\n\nAna: billing export blocked on the tax field.\n",
	"notes/billing.md":      "# Billing\n\nThe billing export is a CSV of invoices; finance opens it in Excel. The billing export runs nightly.\n",
	"notes/login.md":        "# Login\n\nThe login redirect loop came back twice this year.\n",
	"journal/not-a-date.md": "# Someday\n\nBilling export ideas.\n",
	"journal/2026-02-30.md": "# Impossible day\n\nBilling export notes.\n",
}

func TestTemporalEngineSearchesTheDaysAQuestionNames(t *testing.T) {
	ix, _ := testIndex(t, "memory-folder", dailyNotes)
	now := func() time.Time { return time.Date(2026, 11, 18, 9, 0, 0, 0, time.UTC) }
	e := recall.New(ix.Recall(), recall.Options{Now: now, NoDeadlines: true})
	ctx := context.Background()
	recallPaths := func(q string) (*recall.Result, []string) {
		t.Helper()
		res, err := e.Recall(ctx, recall.Request{Query: q, Budget: 300})
		if err != nil {
			t.Fatal(err)
		}
		var paths []string
		for _, it := range res.Items {
			paths = append(paths, it.Path)
		}
		return res, paths
	}

	// Only a date: the notes of that day come first, the daily note and
	// the meeting dated yesterday in its frontmatter, in either order.
	res, paths := recallPaths("What did I do yesterday?")
	yesterday := []string{"journal/2026-11-17.md", "meetings/standup.md"}
	if len(paths) < 2 || !slices.Contains(yesterday, paths[0]) || !slices.Contains(yesterday, paths[1]) {
		t.Errorf("yesterday: %v\n%s", paths, res.Context)
	}
	for _, it := range res.Items[:min(2, len(res.Items))] {
		if !strings.Contains(it.Source, "temporal") {
			t.Errorf("yesterday: %s found by %s, not by its date", it.Path, it.Source)
		}
	}

	// A date and a subject: that day's notes on the subject outrank the
	// undated note that says "billing export" most.
	res, paths = recallPaths("billing export last week")
	if len(paths) == 0 || paths[0] != "journal/2026-11-10.md" {
		t.Errorf("last week: %v\n%s", paths, res.Context)
	}
	res, paths = recallPaths("billing export in October")
	if len(paths) == 0 || paths[0] != "journal/2026-10-02.md" {
		t.Errorf("in October: %v\n%s", paths, res.Context)
	}

	// A day with no notes adds nothing, and a question without a date
	// is not restricted to dated notes.
	if _, paths = recallPaths("billing export on 2026-11-01"); len(paths) == 0 {
		t.Error("a day without notes: no items at all")
	}
	if _, paths = recallPaths("How does the billing export work?"); len(paths) == 0 || paths[0] != "notes/billing.md" {
		t.Errorf("no date: %v", paths)
	}
}

func TestTemporalRouteSearchesTheSameDay(t *testing.T) {
	ix, _ := testIndex(t, "memory-folder", dailyNotes)
	e := recall.New(ix.Recall(), recall.Options{Now: func() time.Time { return time.Date(2026, 11, 18, 9, 0, 0, 0, time.UTC) }, NoDeadlines: true})
	// The best hits are in yesterday's journal ("login redirect"); the
	// standup, dated the same day in its frontmatter, is searched too.
	res, err := e.Recall(context.Background(), recall.Request{Query: "When did Ana mention the login redirect?", Intent: recall.Temporal, Budget: 400})
	if err != nil {
		t.Fatal(err)
	}
	var standup *recall.Item
	for i, it := range res.Items {
		if it.Path == "meetings/standup.md" {
			standup = &res.Items[i]
		}
	}
	if standup == nil || !strings.Contains(standup.Source, "temporal") {
		t.Errorf("the standup of the same day as the best hit: %+v\n%s", res.Items, res.Context)
	}
}

func TestEntityRouteFollowsLinkLabels(t *testing.T) {
	notes := map[string]string{
		"people/Alice Smith.md": "# Alice Smith\n\nRuns platform. Wants every service on the shared CI runners by Q3.\n",
		"people/Bob Jones.md":   "# Bob Jones\n\nDesigner on the mobile team.\n",
		"log.md":                "# Log\n\nMet [[Alice Smith|the boss]] and [[Bob Jones|Bob]] about hiring.\n",
	}
	ix, _ := testIndex(t, "memory-folder", notes)
	e := recall.New(ix.Recall(), recall.Options{NoDeadlines: true})
	ask := func(intent recall.Intent) *recall.Result {
		t.Helper()
		res, err := e.Recall(context.Background(), recall.Request{Query: "what does the boss want?", Intent: intent, Budget: 300})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	found := func(res *recall.Result) bool {
		for _, it := range res.Items {
			if it.Path == "people/Alice Smith.md" && strings.Contains(it.Source, "graph") {
				return true
			}
		}
		return false
	}
	if res := ask(recall.Relationship); !found(res) {
		t.Errorf("relationship route: Alice Smith, whom a link calls the boss, not found through the label: %+v", res.Items)
	}
	if res := ask(recall.SimpleFact); found(res) {
		t.Errorf("simple-fact route (no graph dimension) followed a label: %+v", res.Items)
	}
}

func TestRecallFillsTheBudgetWhenRareWordsRunOut(t *testing.T) {
	// 120 chat lines by Jon, so that "jon" is common and left out of the
	// keyword query; "quit" is in one line only. The simple-fact route
	// uses no vectors, and one hit shares no words for feedback.
	words := strings.Fields("studio floor music lesson mirror rent student class salsa tango waltz poster flyer coffee window paint")
	notes := map[string]string{}
	for i := range 120 {
		var line []string
		for k := range 6 {
			line = append(line, words[(i*7+k*(i%5+1))%len(words)]+fmt.Sprint(i%3+k))
		}
		notes[fmt.Sprintf("chat/%03d.md", i)] = fmt.Sprintf("# Day %d\n\nJon: %s.\n", i, strings.Join(line, " "))
	}
	notes["chat/quit.md"] = "# Late\n\nJon: I will never quit the studio.\n"
	ix, _ := testIndex(t, "memory-folder", notes)
	res, err := recall.New(ix.Recall(), recall.Options{NoDeadlines: true}).Recall(context.Background(), recall.Request{Query: "Would Jon quit?", Intent: recall.SimpleFact, Budget: 300})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Items) == 0 || res.Items[0].Path != "chat/quit.md" {
		t.Errorf("the one line with the rare word is not first: %+v", res.Items)
	}
	if res.UsedTokens < 250 {
		t.Errorf("context of %d tokens for a 300-token budget, with 120 more lines about Jon to give:\n%s", res.UsedTokens, res.Context)
	}
}

// TestStageDeadlines: a stage whose deadline has passed stops and says so;
// the recall still answers with what it has. (A nanosecond has always
// passed by the time a stage looks: the test holds on any machine.)
func TestStageDeadlines(t *testing.T) {
	ix, _ := testIndex(t, "memory-folder", extraNotes)
	e := recall.New(ix.Recall(), recall.Options{Deadlines: [3]time.Duration{time.Nanosecond, time.Nanosecond, time.Nanosecond}})
	res, err := e.Recall(context.Background(), recall.Request{Query: "when do deploys go out?", Budget: 300})
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range res.Stages {
		if !st.TimedOut {
			t.Errorf("stage %s did not time out", st.Name)
		}
	}
	full, err := recall.New(ix.Recall(), recall.Options{NoDeadlines: true}).Recall(context.Background(), recall.Request{Query: "when do deploys go out?", Budget: 300})
	if err != nil || len(full.Items) == 0 {
		t.Fatalf("without deadlines: %v, %d items", err, len(full.Items))
	}
	for _, st := range full.Stages {
		if st.TimedOut {
			t.Errorf("stage %s timed out without deadlines", st.Name)
		}
	}
}

// TestRecallBounds: budgets past MaxBudget and queries without a word are
// refused before any search.
func TestRecallBounds(t *testing.T) {
	ix, _ := testIndex(t, "memory-folder", nil)
	e := recall.New(ix.Recall(), recall.Options{NoDeadlines: true})
	for _, tc := range []struct {
		req  recall.Request
		want error
	}{
		{recall.Request{Query: "deploys", Budget: 1_000_000_000_000}, recall.ErrBadBudget},
		{recall.Request{Query: "deploys", Budget: -1}, recall.ErrBadBudget},
		{recall.Request{Query: "???"}, recall.ErrEmptyQuery},
		{recall.Request{Query: ""}, recall.ErrEmptyQuery},
		{recall.Request{Query: strings.Repeat("deploys ", 2000)}, index.ErrBadQuery},
	} {
		if _, err := e.Recall(context.Background(), tc.req); !errors.Is(err, tc.want) {
			t.Errorf("%.40v: %v, want %v", tc.req, err, tc.want)
		}
	}
	if res, err := e.Recall(context.Background(), recall.Request{Query: "deploys", Budget: recall.MaxBudget}); err != nil || res.UsedTokens > recall.MaxBudget {
		t.Errorf("the largest budget: %v", err)
	}
}

func TestRouteValidate(t *testing.T) {
	for _, tc := range []struct {
		r    recall.Route
		want string
	}{
		{recall.Route{Strategy: recall.ExactFirst, Layers: []string{"L2"}, Graph: []string{"temporal"}, Budget: 600}, ""},
		{recall.Route{Strategy: "psychic", Budget: 600}, "strategy"},
		{recall.Route{Strategy: recall.ExactOnly, Layers: []string{"L9"}, Budget: 600}, "layers"},
		{recall.Route{Strategy: recall.ExactOnly, Graph: []string{"gossip"}, Budget: 600}, "graph"},
		{recall.Route{Strategy: recall.ExactOnly, Budget: 0}, "budget"},
		{recall.Route{Strategy: recall.ExactOnly, Budget: recall.MaxBudget + 1}, "budget"},
	} {
		err := tc.r.Validate()
		if (tc.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Validate(%+v) = %v, want an error about %q", tc.r, err, tc.want)
		}
	}
	for _, r := range recall.DefaultRoutes() {
		if err := r.Validate(); err != nil {
			t.Errorf("default route %+v: %v", r, err)
		}
	}
}

func TestHowTo(t *testing.T) {
	for q, want := range map[string]bool{
		"How do I run the integration tests?":      true,
		"how to deploy the api":                    true,
		"What's the best way to add a dependency?": true,
		"steps to release a new version":           true,
		"What should I check before we deploy?":    true,
		"Before I merge, anything to know?":        true,
		"如何运行集成测试":                                 true,
		"部署的时候要注意什么":                               true,
		"When did Melanie go to the beach?":        false,
		"How long did the migration take?":         false,
		"Why did we choose SQLite?":                false,
		"what does Caroline think about adoption":  false,
		"how many tests are there":                 false,
	} {
		if got := recall.HowTo(q); got != want {
			t.Errorf("HowTo(%q) = %v, want %v", q, got, want)
		}
	}
}

// peopleNotes are the conversations of several people, two of them
// sharing a first name, each with a beach trip.
var peopleNotes = map[string]string{
	"talks/t1.md": "---\nspeakers: [\"[[Alice Smith]]\", Bob]\ndate: 2023-05-01\n---\n# Talk\n\nWe went to the beach on Saturday.\n",
	"talks/t2.md": "---\nspeakers: [Alice Jones, Carol]\ndate: 2023-06-10\n---\n# Talk\n\nThe beach! A beach trip to the beach: we went to the beach and swam at the beach.\n",
	"talks/t3.md": "---\nparticipants: [Dan]\ndate: 2023-07-20\n---\n# Talk\n\nI liked the beach trip, the beach was the best part; we went to the beach a lot, beach after beach.\n",
	"talks/t4.md": "---\nauthors: [Erin]\ndate: 2023-08-02\n---\n# Notes\n\nA day at the beach.\n",
}

// TestRecallScopesToThePeopleNamed: a question about one person prefers
// the notes whose person fields (speakers, participants, authors) name
// them: the whole name first, a first name shared by two when that is
// all the question says.
func TestRecallScopesToThePeopleNamed(t *testing.T) {
	ix, _ := testIndex(t, "", peopleNotes)
	e := recall.New(ix.Recall(), recall.Options{NoDeadlines: true})
	top := func(q string) string {
		t.Helper()
		res, err := e.Recall(context.Background(), recall.Request{Query: q, Budget: 100}) // 60 and the frame (see package frame)
		if err != nil || len(res.Items) == 0 {
			t.Fatalf("%q: %v %+v", q, err, res)
		}
		return res.Items[0].Path
	}
	for q, want := range map[string][]string{
		"When did Alice Smith go to the beach?":  {"talks/t1.md"},
		"when did alice jones swim at the beach": {"talks/t2.md"},
		"How was Erin's beach day?":              {"talks/t4.md"},
		"Did Dan like the beach trip?":           {"talks/t3.md"},
		"When did Alice go to the beach?":        {"talks/t1.md", "talks/t2.md"},
	} {
		if got := top(q); !slices.Contains(want, got) {
			t.Errorf("%q: first item from %s, want one of %v", q, got, want)
		}
	}
	got, err := ix.Graph().EntityNotes(context.Background(), []string{"alice smith", "ALICE SMITH", "alice", "bob", "nobody"})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]int{"alice smith": 1, "alice": 2, "bob": 1, "nobody": 0} {
		if len(got[name]) != want {
			t.Errorf("EntityNotes: %q has %v, want %d notes", name, got[name], want)
		}
	}
}

// TestHowLongGetsBothEndsOfALog: "how long did X take?" is answered by
// the first and the last events of X's task log together, though the
// events between them share more of the question's words.
func TestHowLongGetsBothEndsOfALog(t *testing.T) {
	ix, _ := testIndex(t, "", map[string]string{
		"tasks/billing.md": "---\ntype: task\nname: Billing migration\nstatus: done\n---\n\nMove billing to the new ledger.\n\n## Log\n\n" +
			"- 2026-03-01 10:00 note: kicked off\n" +
			"- 2026-03-05 09:00 milestone: billing migration schema merged\n" +
			"- 2026-03-08 09:00 note: billing migration dry run took an hour\n" +
			"- 2026-03-12 11:00 decision: billing migration runs dual writes for a week\n" +
			"- 2026-03-14 11:00 blocker: billing migration waits on the tax export\n" +
			"- 2026-03-16 11:00 note: billing migration of the EU accounts\n" +
			"- 2026-03-20 17:00 milestone: last account moved\n",
		"notes/ledger.md": "# Ledger\n\nThe new ledger keeps every billing entry twice.\n",
	})
	e := recall.New(ix.Recall(), recall.Options{NoDeadlines: true})
	res, err := e.Recall(context.Background(), recall.Request{Query: "How long did the billing migration take?", Budget: 130}) // 80 and the frame
	if err != nil {
		t.Fatal(err)
	}
	for _, end := range []string{"kicked off", "last account moved"} {
		if !strings.Contains(res.Context, end) {
			t.Errorf("the log's end %q is not in the context:\n%s", end, res.Context)
		}
	}
}

// TestRecallPrefersTheLinesOfThePersonNamed: in a transcript of several
// people, a question about what one of them does prefers that person's
// lines ("Ann: ...") to the others' lines about the same words.
func TestRecallPrefersTheLinesOfThePersonNamed(t *testing.T) {
	chat := "---\nspeakers: [Ann Lee, Bob]\ndate: 2023-05-01\n---\n# Chat\n\n" +
		"**1** Bob: Ann, weekends are for hobbies! What weekend hobbies do you have? ^t1\n\n" +
		"**2** Ann Lee: On weekends I go climbing, and I play the cello in a hobby orchestra. ^t2\n\n" +
		"**3** Bob: My weekend hobbies are chess and hobbies like baking, weekend after weekend. ^t3\n\n"
	// Small talk, so that the chat is long enough to be returned a line
	// at a time.
	for i := 4; i < 30; i++ {
		who := []string{"Ann Lee", "Bob"}[i%2]
		chat += fmt.Sprintf("**%d** %s: The trains were late again on day %d, and the office lifts were slow. ^t%d\n\n", i, who, i, i)
	}
	ix, _ := testIndex(t, "", map[string]string{"chats/c1.md": chat})
	e := recall.New(ix.Recall(), recall.Options{NoDeadlines: true})
	res, err := e.Recall(context.Background(), recall.Request{Query: "What weekend hobbies does Ann have?", Budget: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Items) < 2 || !strings.Contains(res.Items[0].Text, "climbing") || strings.Contains(res.Items[0].Text, "chess") {
		t.Fatalf("first item is not Ann's line alone:\n%+v", res.Items)
	}
}

func TestSpeaker(t *testing.T) {
	for text, want := range map[string]string{
		"Melanie: I just signed up for a pottery class.":          "melanie",
		"**D5:4** Melanie: I just signed up for a pottery class.": "melanie",
		"**Ann Lee**: climbing on Sundays":                        "ann lee",
		"Ann Lee: climbing\nBob: chess":                           "ann lee",
		"Note: the build is green.":                               "note",
		"The plan is simple: ship it.":                            "",
		"10:32 Bob: hello":                                        "",
		"We met at 10: then lunch.":                               "",
		"no label at all":                                         "",
		"":                                                        "",
	} {
		if got := recall.Speaker(text); got != want {
			t.Errorf("speaker(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestRecallFindsNarrowerTerms: a question's noun finds the chunks that
// hold a narrower one ("store": a boutique), which share no word with it,
// through the narrower engine; and "kind of" is no search word.
func TestRecallFindsNarrowerTerms(t *testing.T) {
	files := map[string]string{
		"notes/boutique.md": "# Spring\n\nIn the spring Ann opened a boutique on Elm Street, selling vintage coats, hats and scarves from the sixties.\n",
		"notes/kind.md":     "# Thanks\n\nAnn thanked everyone for their kind words and kind notes.\n",
	}
	// Ann in many other notes, opening other things, so that her name
	// and the question's verb alone fill the budget.
	for i := range 100 {
		files[fmt.Sprintf("notes/day%03d.md", i)] = fmt.Sprintf("# Day %d\n\nAnn opened the window and the mail on day %d.\n", i, i)
	}
	ix, _ := testIndex(t, "", files)
	e := recall.New(ix.Recall(), recall.Options{NoDeadlines: true})
	res, err := e.Recall(context.Background(), recall.Request{Query: "What kind of store did Ann open?", Budget: 200})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Context, "boutique") {
		t.Errorf("the boutique is not in the context:\n%s", res.Context)
	}
	if strings.Contains(res.Context, "kind words") {
		t.Errorf("\"kind of\" was searched for:\n%s", res.Context)
	}
	for _, it := range res.Items {
		if strings.Contains(it.Text, "boutique") && !strings.Contains(it.Source, "narrower") {
			t.Errorf("the boutique was found by %s, not the narrower engine", it.Source)
		}
	}
}

// countingIndex counts the words whose frequencies recall asks for.
type countingIndex struct {
	index.Recall
	words int
}

func (c *countingIndex) Frequencies(ctx context.Context, words []string, atMost int) ([]int, error) {
	c.words += len(words)
	return c.Recall.Frequencies(ctx, words, atMost)
}

// TestNarrowerTermsAreBounded: a question whose six nouns have 162
// narrower nouns between them looks for no more than MaxNarrowerTerms.
func TestNarrowerTermsAreBounded(t *testing.T) {
	ix, _ := testIndex(t, "", map[string]string{"notes/shop.md": "# Shops\n\nA boutique, a bakery and a bookshop.\n"})
	nouns := strings.Repeat("store church box sister painting kid ", 17)
	ci := &countingIndex{Recall: ix.Recall()}
	res, err := recall.New(ci, recall.Options{NoDeadlines: true}).Recall(context.Background(), recall.Request{Query: "Which " + nouns + "?", Budget: 200})
	if err != nil {
		t.Fatal(err)
	}
	if ci.words == 0 || ci.words > recall.MaxNarrowerTerms {
		t.Errorf("frequencies of %d words asked for, want 1 to %d", ci.words, recall.MaxNarrowerTerms)
	}
	if !strings.Contains(res.Context, "boutique") {
		t.Errorf("the shops are not in the context:\n%s", res.Context)
	}
}
