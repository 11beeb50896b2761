package recall_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/recall"
)

// llmServer is an OpenAI-compatible chat endpoint that answers the intent
// classifier with classify and the verifier with judge(prompt); a judge
// returning "" never answers (until the client gives up).
func llmServer(t *testing.T, classify string, judge func(prompt string) string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct{ Content string } `json:"messages"`
		}
		body, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(body, &req); err != nil || len(req.Messages) == 0 {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		prompt := req.Messages[len(req.Messages)-1].Content
		answer := classify
		if !strings.Contains(prompt, "Classify the intent") {
			if answer = judge(prompt); answer == "" {
				<-r.Context().Done() // never answers: only the caller's deadline ends the call
				return
			}
		}
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]string{"content": answer}}}})
	}))
	t.Cleanup(srv.Close)
	return srv
}

// passage is one numbered passage of the verifier's prompt.
var passage = regexp.MustCompile(`(?m)^\[(\d+)\] \(([^)]*)\) (.*)$`)

// judgeLunch judges every passage of the prompt, the ones that mention
// lunch irrelevant, the others relevant.
func judgeLunch(prompt string) string {
	var js []map[string]any
	for _, m := range passage.FindAllStringSubmatch(prompt, -1) {
		id := 0
		for _, d := range m[1] {
			id = 10*id + int(d-'0')
		}
		lunch := strings.Contains(strings.ToLower(m[3]), "lunch")
		reason := "about the billing export"
		if lunch {
			reason = "about lunch"
		}
		js = append(js, map[string]any{"id": id, "relevant": !lunch, "reason": reason})
	}
	b, _ := json.Marshal(map[string]any{"judgements": js})
	return string(b)
}

// TestVerifier: the full stage's candidates go to the LLM in one call;
// what it judges irrelevant is dropped and listed in Rejected, what it
// judges relevant says so in its Why (which --explain prints). An LLM that
// never answers, or answers nonsense, leaves the reranker to order them,
// within the stage's deadline. The query holds a word no note has, so that
// no stage finds enough and the full stage runs.
func TestVerifier(t *testing.T) {
	const q = "billing export zyzzogeton"
	for _, tc := range []struct {
		name     string
		judge    func(string) string
		llm      bool
		verifier string // Result.Verifier's prefix
		rejects  bool
	}{
		{"judges", judgeLunch, true, "llm", true},
		{"never answers", func(string) string { return "" }, true, "reranker (fallback: verifier:", false},
		{"answers nonsense", func(string) string { return "they all look fine" }, true, "reranker (fallback: verifier:", false},
		{"no LLM", nil, false, "reranker", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ix, _ := testIndex(t, "", dailyNotes)
			opts := recall.Options{Deadlines: [3]time.Duration{time.Hour, time.Hour, 100 * time.Millisecond}}
			if tc.llm {
				// The client's own timeout is an hour: only the stage's
				// deadline can end a call the server never answers.
				opts.LLM = &recall.LLMOptions{URL: llmServer(t, "", tc.judge).URL + "/v1", Model: "m", Timeout: time.Hour}
			}
			res, err := recall.New(ix.Recall(), opts).Recall(context.Background(), recall.Request{Query: q, Intent: recall.Hybrid, Budget: 1000})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Stages) != 3 || !strings.HasPrefix(res.Verifier, tc.verifier) || tc.verifier == "reranker" && res.Verifier != "reranker" {
				t.Fatalf("stages %+v, verifier %q, want %q", res.Stages, res.Verifier, tc.verifier)
			}
			if tc.name == "never answers" && !res.Stages[2].TimedOut {
				t.Errorf("the full stage did not reach its deadline: %+v", res.Stages[2])
			}
			if len(res.Items) == 0 {
				t.Fatal("no items")
			}
			if (len(res.Rejected) > 0) != tc.rejects {
				t.Errorf("rejected %+v, want some: %v", res.Rejected, tc.rejects)
			}
			for _, it := range res.Rejected {
				if !strings.Contains(strings.ToLower(it.Text), "lunch") || it.Why != "judged irrelevant: about lunch" {
					t.Errorf("rejected %s %q: %s", it.Path, it.Text, it.Why)
				}
			}
			for _, it := range res.Items {
				lunch := strings.Contains(strings.ToLower(it.Text), "lunch")
				verified := strings.Contains(it.Why, "verified relevant: about the billing export")
				if tc.rejects && (lunch || !verified) || !tc.rejects && verified {
					t.Errorf("item %s %q: %s", it.Path, it.Text, it.Why)
				}
			}
		})
	}
}

// TestStageCaps: a recall that stops at the fast stage gives at most 5
// items, though more notes hold every word of the question.
func TestStageCaps(t *testing.T) {
	notes := map[string]string{}
	for i, s := range []string{
		"leaves on Tuesday with the mobile build", "waits for Ana to sign the changelog", "skips the docs when the freeze is on",
		"carries the billing export fix", "was late twice in March", "needs a green nightly run first",
		"ships the Android app a day later", "is announced in the ops channel",
	} {
		notes["trains/"+string(rune('a'+i))+".md"] = "# Train " + string(rune('a'+i)) + "\n\nThe release train " + s + ".\n"
	}
	ix, _ := testIndex(t, "", notes)
	res, err := recall.New(ix.Recall(), recall.Options{NoDeadlines: true}).Recall(context.Background(),
		recall.Request{Query: "release train", Intent: recall.SimpleFact, Budget: 60})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Stages) != 1 || res.Stages[0].Results != recall.StageCaps[0] || len(res.Items) > recall.StageCaps[0] {
		t.Errorf("stages %+v, %d items; want the fast stage alone, capped at %d", res.Stages, len(res.Items), recall.StageCaps[0])
	}
}

// TestClassifierKeywordsJoinTheQuery: the LLM classifier's keywords are
// searched for beside the question's words, and its reasoning is in the
// result; the next recall of the question has them from the cache.
func TestClassifierKeywordsJoinTheQuery(t *testing.T) {
	const q = "what does finance get each night zyzzogeton"
	for _, tc := range []struct {
		name     string
		classify string
		found    bool
	}{
		{"keywords", `{"category": "simple-fact", "confidence": 0.9, "reasoning": "asks for a fact", "keywords": ["invoices", "CSV export", "", "bell\u0007", "` + strings.Repeat("x", 50) + `"]}`, true},
		{"none", `{"category": "simple-fact", "confidence": 0.9}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ix, _ := testIndex(t, "", map[string]string{
				"notes/billing.md": "# Billing\n\nThe export is a CSV of invoices, opened in Excel.\n",
				"notes/login.md":   "# Login\n\nThe login redirect loop came back twice this year.\n",
			})
			e := recall.New(ix.Recall(), recall.Options{LLM: &recall.LLMOptions{URL: llmServer(t, tc.classify, judgeLunch).URL + "/v1", Model: "m"}, NoDeadlines: true})
			for _, classifier := range []string{"llm", "cache"} {
				res, err := e.Recall(context.Background(), recall.Request{Query: q})
				if err != nil {
					t.Fatal(err)
				}
				found := false
				for _, it := range res.Items {
					found = found || it.Path == "notes/billing.md"
				}
				if res.Classifier != classifier || found != tc.found {
					t.Errorf("%s: billing found %v, want %v (%+v)", res.Classifier, found, tc.found, res.Items)
				}
				if tc.found && (strings.Join(res.Keywords, ",") != "invoices,CSV export" || res.Reasoning != "asks for a fact") {
					t.Errorf("%s: keywords %q, reasoning %q", res.Classifier, res.Keywords, res.Reasoning)
				}
			}
		})
	}
}
