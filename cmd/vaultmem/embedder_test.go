package main

import (
	"encoding/json"
	"hash/fnv"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// wordEmbedder is an OpenAI-compatible /v1/embeddings endpoint whose
// vectors are hashed bags of words, so that texts sharing words are near.
// While failing is set it answers 503.
type wordEmbedder struct {
	failing  atomic.Bool
	requests atomic.Int64
}

func (e *wordEmbedder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	e.requests.Add(1)
	if e.failing.Load() {
		http.Error(w, `{"error":{"message":"model is loading"}}`, http.StatusServiceUnavailable)
		return
	}
	if r.URL.Path != "/v1/embeddings" {
		http.NotFound(w, r)
		return
	}
	var req struct{ Input []string }
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	type item struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	var resp struct {
		Data []item `json:"data"`
	}
	for i, text := range req.Input {
		v := make([]float32, 32)
		for _, word := range strings.Fields(strings.ToLower(text)) {
			h := fnv.New32a()
			h.Write([]byte(strings.Trim(word, ".,!?")))
			v[h.Sum32()%32]++
		}
		var norm float64
		for _, x := range v {
			norm += float64(x * x)
		}
		v[0] += float32(1e-3 * (1 - math.Min(norm, 1))) // never all zero
		resp.Data = append(resp.Data, item{i, v})
	}
	json.NewEncoder(w).Encode(resp)
}

func TestOpenAIEmbedderFallsBackAndRecovers(t *testing.T) {
	srv := &wordEmbedder{}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	dir := newVault(t)
	config := "embedder:\n  provider: openai\n  url: " + ts.URL + "/v1\n  model: words\n  timeout: 5s\n"
	if err := os.WriteFile(filepath.Join(dir, ".vaultmem", "config.yaml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	ok(t, dir, "allow") // the endpoint is privileged: the user approves it
	for name, body := range map[string]string{
		"deploys.md": "Deploys go out on Tuesday after the freeze.",
		"coffee.md":  "The team drinks coffee at nine.",
		"tests.md":   "Integration tests hit a real database.",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// The endpoint is down: indexing still succeeds, keyword search works,
	// and the reason is reported.
	srv.failing.Store(true)
	var st struct {
		Notes, Embedded int
		EmbedError      string `json:"embed_error"`
	}
	out := ok(t, dir, "index", "--json")
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	if st.Notes != 3 || st.Embedded != 0 || !strings.Contains(st.EmbedError, "503") {
		t.Errorf("index with the endpoint down: %s", out)
	}
	if out := ok(t, dir, "search", "--mode", "keyword", "--json", "freeze"); !strings.Contains(out, "deploys.md") {
		t.Errorf("keyword search with the endpoint down: %s", out)
	}
	if r := vaultmem(t, dir, "", "search", "--mode", "vector", "freeze"); r.code == 0 || !strings.Contains(r.stderr, "vector") {
		t.Errorf("vector search without vectors: exit %d, %q", r.code, r.stderr)
	}

	// It comes back: the next command embeds what is missing.
	srv.failing.Store(false)
	st.EmbedError = ""
	out = ok(t, dir, "index", "--json")
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	if st.Embedded != 3 || st.EmbedError != "" {
		t.Errorf("index after recovery: %s", out)
	}
	out = ok(t, dir, "search", "--mode", "vector", "--limit", "1", "--json", "when do deploys go out")
	if !strings.Contains(out, "deploys.md") {
		t.Errorf("vector search: %s", out)
	}

	// Another model: every chunk is embedded again.
	config = strings.Replace(config, "model: words", "model: words-v2", 1)
	os.WriteFile(filepath.Join(dir, ".vaultmem", "config.yaml"), []byte(config), 0o644)
	ok(t, dir, "allow") // a changed config needs approving again
	out = ok(t, dir, "index", "--json")
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	if st.Embedded != 3 {
		t.Errorf("after a model change: %s", out)
	}
}
