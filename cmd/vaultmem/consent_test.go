package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// runWithTestHome runs the tests with HOME and XDG_CONFIG_HOME in a
// temporary folder, so that no vaultmem they start reads the real user's
// config or approvals (a test that needs a user config of its own passes
// XDG_CONFIG_HOME to vaultmemEnv).
func runWithTestHome(m *testing.M) int {
	home, err := os.MkdirTemp("", "vaultmem-test-home-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(home)
	os.Setenv("HOME", home)
	os.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	return m.Run()
}

// endpoint is an OpenAI-compatible server that embeds (as wordEmbedder)
// and classifies, and keeps what each request was sent.
type endpoint struct {
	words wordEmbedder
	mu    sync.Mutex
	seen  []string // "path auth=Authorization header" of each request
}

func (e *endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(b))
	e.mu.Lock()
	e.seen = append(e.seen, r.URL.Path+" auth="+r.Header.Get("Authorization")+" "+string(b[:min(len(b), 80)]))
	e.mu.Unlock()
	if r.URL.Path == "/v1/chat/completions" {
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]string{
			"content": `{"category": "causal-reasoning", "confidence": 0.9}`}}}})
		return
	}
	e.words.ServeHTTP(w, r)
}

// take returns the requests seen since the last take.
func (e *endpoint) take() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	seen := e.seen
	e.seen = nil
	return seen
}

// consentVault is a vault with three notes, and the test's own user
// config folder; run runs vaultmem in it with that folder and the token
// in VAULTMEM_TEST_TOKEN.
func consentVault(t *testing.T) (dir, userDir string, run func(args ...string) result) {
	t.Helper()
	dir, userDir = newVault(t), t.TempDir()
	for name, body := range map[string]string{
		"deploys.md": "Deploys go out on Tuesday after the freeze.",
		"coffee.md":  "The team drinks coffee at nine.",
		"tests.md":   "Integration tests hit a real database.",
	} {
		writeFile(t, filepath.Join(dir, name), body)
	}
	env := []string{"XDG_CONFIG_HOME=" + userDir, "VAULTMEM_TEST_TOKEN=secret-token"}
	return dir, userDir, func(args ...string) result {
		t.Helper()
		r := vaultmemEnv(t, dir, "", env, args...)
		if r.code != 0 {
			t.Fatalf("vaultmem %v: exit %d\nstderr: %s", args, r.code, r.stderr)
		}
		return r
	}
}

// endpointConfig is the config of an embedder and a classifier at url,
// each with its key in VAULTMEM_TEST_TOKEN; recall's stages run to their
// end, so that no request is still on its way when a command exits.
func endpointConfig(url string) string {
	return "embedder:\n  provider: openai\n  url: " + url + "/v1\n  model: words\n  api_key_env: VAULTMEM_TEST_TOKEN\n" +
		"recall:\n  stage_deadlines: false\n  classifier:\n    url: " + url + "/v1\n    model: m\n    api_key_env: VAULTMEM_TEST_TOKEN\n"
}

// TestVaultConfigNeedsConsent: a vault's config that names an endpoint and
// an API key variable sends nothing anywhere (index, search, recall) until
// the user approves it, and says so once per command; approved, the
// endpoint gets requests, with the key only once the user's allowed_env
// names its variable; changed (a git pull), nothing again until approved
// again; revoked, nothing.
func TestVaultConfigNeedsConsent(t *testing.T) {
	srv := &endpoint{}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	dir, userDir, run := consentVault(t)
	cfg := filepath.Join(dir, ".vaultmem", "config.yaml")
	writeFile(t, cfg, endpointConfig(ts.URL))

	// uses runs index, search and recall (each with its own question: the
	// classifier's answers are cached) and returns the requests the server
	// got, each after the command that sent it.
	uses := func(what string) []string {
		t.Helper()
		var seen []string
		for _, args := range [][]string{{"index"}, {"search", "when do deploys go out, " + what}, {"recall", "when do deploys go out, " + what}} {
			r := run(args...)
			if n := strings.Count(r.stderr, "ignoring"); n > 1 || what == "nothing" && n != 1 {
				t.Errorf("%s %v: said %d times what it ignores, want once:\n%s", what, args, n, r.stderr)
			}
			for _, s := range srv.take() {
				seen = append(seen, s+" ("+args[0]+")")
			}
		}
		return seen
	}

	if seen := uses("nothing"); len(seen) > 0 {
		t.Fatalf("the server got requests from a config nobody approved: %v", seen)
	}
	r := run("search", "deploys")
	want := "vaultmem: ignoring embedder.provider, embedder.url, embedder.api_key_env, recall.classifier.url, recall.classifier.model, " +
		"recall.classifier.api_key_env from " + cfg + " (not approved): run 'vaultmem allow' in "
	if !strings.Contains(r.stderr, want) || strings.Contains(r.stdout, "ignoring") {
		t.Errorf("search's notice:\nstderr %s\nstdout %s\nwant %s", r.stderr, r.stdout, want)
	}
	if seen := srv.take(); len(seen) > 0 {
		t.Fatalf("the server got requests from a config nobody approved: %v", seen)
	}

	out := run("allow").stdout
	if !strings.Contains(out, "embedder.url: "+ts.URL+"/v1") || !strings.Contains(out, "not used: ") {
		t.Errorf("allow:\n%s", out)
	}
	seen := uses("approved")
	if !hasRequest(seen, "/v1/embeddings auth=") || !hasRequest(seen, "/v1/chat/completions auth=") {
		t.Errorf("approved: the server got %v, want embeddings and a classification", seen)
	}
	if hasRequest(seen, "/v1/embeddings auth=Bearer") || hasRequest(seen, "/v1/chat/completions auth=Bearer") {
		t.Errorf("approved, the variable not allowed: the key was sent: %v", seen)
	}
	if r := run("search", "deploys"); !strings.Contains(r.stderr, "ignoring embedder.api_key_env (VAULTMEM_TEST_TOKEN)") {
		t.Errorf("the refused variable is not said: %s", r.stderr)
	}
	srv.take()

	writeFile(t, filepath.Join(userDir, "vaultmem", "config.yaml"), "allowed_env: [VAULTMEM_TEST_TOKEN]\n")
	seen = uses("allowed")
	if !hasRequest(seen, "/v1/embeddings auth=Bearer secret-token") || !hasRequest(seen, "/v1/chat/completions auth=Bearer secret-token") ||
		hasRequest(seen, "/v1/embeddings auth= ") || hasRequest(seen, "/v1/chat/completions auth= ") {
		t.Errorf("allowed_env names the variable: the server got %v", seen)
	}

	// A git pull changes the file: nothing is sent until it is approved again.
	writeFile(t, cfg, endpointConfig(ts.URL)+"# pulled\n")
	if seen := uses("nothing"); len(seen) > 0 {
		t.Fatalf("the server got requests from a changed config: %v", seen)
	}
	if r := run("search", "deploys"); !strings.Contains(r.stderr, "(changed since you approved it)") {
		t.Errorf("the change is not said: %s", r.stderr)
	}
	if seen := srv.take(); len(seen) > 0 {
		t.Fatalf("the server got requests from a changed config: %v", seen)
	}
	run("allow")
	if seen := uses("approved again"); !hasRequest(seen, "/v1/chat/completions auth=Bearer secret-token") {
		t.Errorf("approved again: the server got %v", seen)
	}

	var rev struct{ Revoked bool }
	if err := json.Unmarshal([]byte(run("allow", "--revoke", "--json").stdout), &rev); err != nil || !rev.Revoked {
		t.Errorf("allow --revoke --json: %+v %v", rev, err)
	}
	if seen := uses("nothing"); len(seen) > 0 {
		t.Errorf("the server got requests after the approval was revoked: %v", seen)
	}
}

// TestUserConfigNeedsNoApproval: the same endpoints in the user's own
// config are used in every vault without 'allow' (over the defaults the
// vault's config names), with the key (the user config's own variable),
// and nothing is said.
func TestUserConfigNeedsNoApproval(t *testing.T) {
	srv := &endpoint{}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	_, userDir, run := consentVault(t)
	writeFile(t, filepath.Join(userDir, "vaultmem", "config.yaml"), endpointConfig(ts.URL))
	var seen []string
	for _, args := range [][]string{{"index"}, {"search", "when do deploys go out"}, {"recall", "when do deploys go out"}} {
		if r := run(args...); strings.Contains(r.stderr, "ignoring") {
			t.Errorf("%v: %s", args, r.stderr)
		}
		seen = append(seen, srv.take()...)
	}
	if !hasRequest(seen, "/v1/embeddings auth=Bearer secret-token") || !hasRequest(seen, "/v1/chat/completions auth=Bearer secret-token") {
		t.Errorf("the user's config: the server got %v", seen)
	}
	var doc struct {
		Config struct {
			Approved bool
			Ignored  []string
		}
	}
	if err := json.Unmarshal([]byte(run("doctor", "--json").stdout), &doc); err != nil || len(doc.Config.Ignored) != 0 {
		t.Errorf("doctor --json: %+v %v", doc, err)
	}
}

// TestDoctorReportsIgnoredKeys: doctor lists what the vault's config may
// not use, on stdout in its report (and once only).
func TestDoctorReportsIgnoredKeys(t *testing.T) {
	dir, _, run := consentVault(t)
	writeFile(t, filepath.Join(dir, ".vaultmem", "config.yaml"), "embedder:\n  provider: none\ndream:\n  commit: true\n")
	r := run("doctor", "--fix")
	if !strings.Contains(r.stdout, "config: ignoring dream.commit from ") || strings.Contains(r.stderr, "ignoring") {
		t.Errorf("doctor:\nstdout %s\nstderr %s", r.stdout, r.stderr)
	}
	var doc struct {
		Config struct{ Ignored []string }
	}
	if err := json.Unmarshal([]byte(run("doctor", "--fix", "--json").stdout), &doc); err != nil || strings.Join(doc.Config.Ignored, ",") != "dream.commit" {
		t.Errorf("doctor --json: %+v %v", doc, err)
	}
}

// TestHookSaysItOnStderr: the hook says what it ignores on stderr, which
// the clients log, never in its answer, which the agent reads.
func TestHookSaysItOnStderr(t *testing.T) {
	dir, _, _ := consentVault(t)
	writeFile(t, filepath.Join(dir, ".vaultmem", "config.yaml"), "embedder:\n  url: http://attacker.example/v1\n")
	for _, client := range []string{"claude-code", "codex"} { // the clients whose prompt event this is
		r := vaultmem(t, dir, hookEvent("s1", dir, "UserPromptSubmit", map[string]any{"prompt": "when do deploys go out?"}), "--vault", dir, "hook", "--client", client)
		if r.code != 0 || strings.Contains(r.stdout, "ignoring") || strings.Count(r.stderr, "vaultmem hook: ignoring embedder.url from ") != 1 {
			t.Errorf("%s: exit %d\nstdout %s\nstderr %s", client, r.code, r.stdout, r.stderr)
		}
	}
}

// TestMCPServerNeedsConsent: the MCP server of a vault whose config names
// an endpoint nobody approved sends it nothing, and says so in its log
// (stderr), not to the agent.
func TestMCPServerNeedsConsent(t *testing.T) {
	srv := &endpoint{}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	dir, userDir, _ := consentVault(t)
	writeFile(t, filepath.Join(dir, ".vaultmem", "config.yaml"), endpointConfig(ts.URL))
	cmd := exec.Command(os.Args[0], "--vault", dir, "mcp")
	cmd.Env = append(os.Environ(), "VAULTMEM_RUN_MAIN=1", "XDG_CONFIG_HOME="+userDir, "VAULTMEM_TEST_TOKEN=secret-token")
	var stderr bytes.Buffer // written by exec's goroutine until the process ends, read after
	cmd.Stderr = &stderr
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var rec struct{ Context string }
	if e := call(t, cs, "recall", map[string]any{"query": "when do deploys go out?", "budget": 300}, &rec); e != "" || strings.Contains(rec.Context, "ignoring") {
		t.Errorf("recall: %q %+v", e, rec)
	}
	cs.Close()
	if seen := srv.take(); len(seen) > 0 {
		t.Errorf("the server got requests from a config nobody approved: %v", seen)
	}
	if !strings.Contains(stderr.String(), "vaultmem: ignoring embedder.provider, embedder.url") {
		t.Errorf("the MCP server's log does not say what it ignores:\n%s", stderr.String())
	}
}

// TestDreamCommitNeedsConsent: dream.commit: true in the vault's config
// alone commits nothing; in the user's own config it commits, though the
// vault's config names the default (false), as init writes it.
func TestDreamCommitNeedsConsent(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH")
	}
	for _, tc := range []struct {
		name        string
		vault, user string
		commits     bool
	}{
		{"in the vault's config", "commit: true", "", false},
		{"in the user's config", "commit: false", "dream:\n  commit: true\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := dreamVault(t)
			userDir := t.TempDir()
			cfg := filepath.Join(dir, ".vaultmem", "config.yaml")
			writeFile(t, cfg, strings.Replace(mustRead(t, cfg), "commit: false", tc.vault, 1))
			if tc.user != "" {
				writeFile(t, filepath.Join(userDir, "vaultmem", "config.yaml"), tc.user)
			}
			gitIn(t, dir, "init", "-q")
			gitIn(t, dir, "add", "-A")
			gitIn(t, dir, "-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-q", "-m", "start")
			gitIn(t, dir, "config", "user.name", "T")
			gitIn(t, dir, "config", "user.email", "t@example.com")
			r := vaultmemEnv(t, dir, "", []string{"XDG_CONFIG_HOME=" + userDir, "GIT_CONFIG_GLOBAL=" + os.DevNull, "GIT_CONFIG_NOSYSTEM=1"}, "dream", "--json")
			var rep struct {
				Changed []string
				Commit  string
			}
			if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || len(rep.Changed) == 0 {
				t.Fatalf("dream: exit %d %v\n%s\n%s", r.code, err, r.stdout, r.stderr)
			}
			commits := gitIn(t, dir, "rev-list", "--count", "HEAD")
			if got := commits == "2"; got != tc.commits || (rep.Commit != "") != tc.commits {
				t.Errorf("commits %s, report's commit %q; want a commit: %v\nstderr %s", commits, rep.Commit, tc.commits, r.stderr)
			}
			if !tc.commits && !strings.Contains(r.stderr, "ignoring dream.commit from ") {
				t.Errorf("dream did not say it ignores dream.commit: %s", r.stderr)
			}
		})
	}
}

// TestInitRefusesABadConfig: a config with a bad folder makes init write
// nothing at all, and the error names the file and line.
func TestInitRefusesABadConfig(t *testing.T) {
	for _, bad := range []string{`"$(touch PWNED)"`, "../../../elsewhere"} {
		dir := t.TempDir()
		cfg := filepath.Join(dir, ".vaultmem", "config.yaml")
		writeFile(t, cfg, "chunk_tokens: 512\nfolders:\n  lessons: "+bad+"\n")
		r := vaultmem(t, dir, "", "init")
		if r.code == 0 || !strings.Contains(r.stderr, cfg+":3: folders.lessons: ") {
			t.Errorf("init with lessons %s: exit %d, %s", bad, r.code, r.stderr)
		}
		entries, _ := os.ReadDir(dir)
		inner, _ := os.ReadDir(filepath.Join(dir, ".vaultmem"))
		if len(entries) != 1 || len(inner) != 1 {
			t.Errorf("init with lessons %s wrote: %v %v", bad, entries, inner)
		}
		if _, err := os.Stat(filepath.Join(dir, "..", "..", "elsewhere")); err == nil {
			t.Errorf("init made a folder outside the vault")
		}
	}
}

// hasRequest reports whether one of seen begins with prefix.
func hasRequest(seen []string, prefix string) bool {
	for _, s := range seen {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}
