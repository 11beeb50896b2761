package recall_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/fixtures"
	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/recall"
	"github.com/vaultmem/vaultmem/vault"
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

func TestSimilarity(t *testing.T) {
	w := strings.Fields
	for _, tc := range []struct {
		a, b     string
		min, max float64
	}{
		{"the deploy runs on tuesday", "the deploy runs on tuesday", 1, 1},
		{"the deploy runs on tuesday", "coffee at nine in the kitchen", 0, 0.2},
		{"integration tests must hit a real database not mocks", "integration tests must hit a real database and not mocks", 0.85, 1},
		{"a b c d", "d c b a", 0.4, 0.6}, // same words, reversed: Jaccard 1, LCS 1/4
	} {
		if got := recall.Similarity(w(tc.a), w(tc.b)); got < tc.min || got > tc.max {
			t.Errorf("Similarity(%q, %q) = %.3f, want in [%v, %v]", tc.a, tc.b, got, tc.min, tc.max)
		}
	}
}

// testIndex indexes a fixture vault plus extra notes into a temp cache.
func testIndex(t testing.TB, fixture string, extra map[string]string) (*index.Index, string) {
	t.Helper()
	dir := t.TempDir()
	if err := fixtures.CopyTo(dir, fixture); err != nil {
		t.Fatal(err)
	}
	for p, c := range extra {
		full := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ix, err := index.Open(context.Background(), filepath.Join(dir, ".vaultmem", "cache"), index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	if _, err := ix.Sync(context.Background(), os.DirFS(dir), nil); err != nil {
		t.Fatal(err)
	}
	return ix, dir
}

var extraNotes = map[string]string{
	"deploys.md":           "# Deploys\n\nDeploys go out on Tuesdays after the freeze.\n\n## Rollback\n\nRoll back with `make rollback` when the canary fails; it takes five minutes and pages nobody.\n",
	"memory/deploy-dup.md": "---\nname: deploy day\ndescription: when deploys happen\ntype: project\n---\n\nDeploys go out on Tuesdays after the freeze.\n",
	"long.md":              "# Long\n\n" + strings.Repeat("The deploy pipeline builds, tests and ships every service in turn. ", 80) + "\n",
}

func TestRecallRespectsEveryBudget(t *testing.T) {
	ix, _ := testIndex(t, "memory-folder", extraNotes)
	e := recall.New(ix, recall.Options{})
	for _, budget := range []int{5, 12, 20, 40, 80, 150, 300, 700, 2000} {
		res, err := e.Recall(context.Background(), recall.Request{Query: "when do deploys go out, and how to roll back?", Budget: budget})
		if err != nil {
			t.Fatal(err)
		}
		if res.UsedTokens > budget || vault.EstimateTokens(res.Context) != res.UsedTokens || res.Budget != budget {
			t.Errorf("budget %d: used %d (context estimates %d)", budget, res.UsedTokens, vault.EstimateTokens(res.Context))
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
	res, err := recall.New(ix, recall.Options{}).Recall(context.Background(), recall.Request{Query: "When do deploys go out?", Budget: 400})
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

// chatServer is an OpenAI-compatible chat endpoint answering content.
func chatServer(t *testing.T, status int, content string, delay time.Duration) (*httptest.Server, *atomic.Int64) {
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
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
			e := recall.New(ix, recall.Options{LLM: &recall.LLMOptions{URL: srv.URL + "/v1", Model: "m", Timeout: 100 * time.Millisecond}})
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
