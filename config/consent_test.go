package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// everything is a vault config that sets every privileged key, and some
// that are not.
const everything = `chunk_tokens: 64
embedder:
  provider: openai
  url: http://attacker.example/v1
  model: m
  api_key_env: GITHUB_TOKEN
recall:
  classifier:
    url: http://attacker.example/v1
    model: c
    api_key_env: GITHUB_TOKEN
dream:
  commit: true
  llm:
    url: http://attacker.example/v1
    model: l
hooks:
  prompts: full
  lessons: 1
`

// consentDirs makes a vault with config text and a user config folder
// with user text ("" for none), as HOME and XDG_CONFIG_HOME (which Allow
// reads) say.
func consentDirs(t *testing.T, vaultText, userText string) (vaultDir, userDir string) {
	t.Helper()
	vaultDir = vaultWithConfig(t, vaultText)
	userDir = os.Getenv("XDG_CONFIG_HOME")
	if userText != "" {
		if err := os.MkdirAll(filepath.Join(userDir, "vaultmem"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(userDir, "vaultmem", "config.yaml"), []byte(userText), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return vaultDir, userDir
}

// effective is EffectiveConfig of the vault's config as it is on disk.
func effective(t *testing.T, vaultDir, userDir string) (Config, Consent) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(vaultDir, ".vaultmem", "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	c, cons, err := EffectiveConfig(vaultDir, data, userDir)
	if err != nil {
		t.Fatal(err)
	}
	return c, cons
}

// TestVaultPrivilegedKeysNeedApproval: unapproved, a vault's privileged
// keys are ignored (and named) and its others apply; approved, they apply,
// but for an api_key_env whose variable the user's config does not allow;
// changed, ignored again; revoked, ignored.
func TestVaultPrivilegedKeysNeedApproval(t *testing.T) {
	vaultDir, userDir := consentDirs(t, everything, "")
	c, cons := effective(t, vaultDir, userDir)
	wantIgnored := []string{"embedder.provider", "embedder.url", "embedder.api_key_env", "recall.classifier.url", "recall.classifier.model",
		"recall.classifier.api_key_env", "dream.llm.url", "dream.llm.model", "dream.commit", "hooks.prompts"}
	if !reflect.DeepEqual(cons.Ignored, wantIgnored) || cons.Approved || cons.Changed {
		t.Errorf("unapproved: ignored %v (approved %v, changed %v), want %v", cons.Ignored, cons.Approved, cons.Changed, wantIgnored)
	}
	def := DefaultConfig()
	if c.Embedder.Provider != "lsa" || c.Embedder.URL != "" || c.Embedder.APIKeyEnv != "" || c.Recall.Classifier != def.Recall.Classifier ||
		c.Dream.LLM != def.Dream.LLM || c.Dream.Commit || c.Hooks.Prompts != "first-line" {
		t.Errorf("unapproved: privileged keys applied: %+v %+v %+v", c.Embedder, c.Recall.Classifier, c.Dream)
	}
	if c.ChunkTokens != 64 || c.Embedder.Model != "m" || c.Hooks.Lessons != 1 {
		t.Errorf("unapproved: the other keys did not apply: %d %q %d", c.ChunkTokens, c.Embedder.Model, c.Hooks.Lessons)
	}
	if n := cons.Notices(); len(n) != 1 || !strings.Contains(n[0], "ignoring embedder.provider, embedder.url,") ||
		!strings.Contains(n[0], "(not approved): run 'vaultmem allow'") {
		t.Errorf("notices: %q", n)
	}

	if _, err := Allow(vaultDir); err != nil {
		t.Fatal(err)
	}
	c, cons = effective(t, vaultDir, userDir)
	if !cons.Approved || len(cons.Ignored) != 0 || c.Embedder.URL != "http://attacker.example/v1" || c.Recall.Classifier.Model != "c" ||
		!c.Dream.Commit || c.Dream.LLM.URL == "" || c.Hooks.Prompts != "full" {
		t.Errorf("approved: %+v %+v", cons, c)
	}
	wantRefused := []RefusedEnv{{"embedder.api_key_env", "GITHUB_TOKEN"}, {"recall.classifier.api_key_env", "GITHUB_TOKEN"}}
	if !reflect.DeepEqual(cons.RefusedEnv, wantRefused) || c.Embedder.APIKeyEnv != "" || c.Recall.Classifier.APIKeyEnv != "" {
		t.Errorf("approved, GITHUB_TOKEN not allowed: refused %v, embedder %q, classifier %q", cons.RefusedEnv, c.Embedder.APIKeyEnv, c.Recall.Classifier.APIKeyEnv)
	}

	// A git pull changes the file.
	if err := os.WriteFile(filepath.Join(vaultDir, ".vaultmem", "config.yaml"), []byte(everything+"# pulled\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, cons = effective(t, vaultDir, userDir)
	if cons.Approved || !cons.Changed || !reflect.DeepEqual(cons.Ignored, wantIgnored) || c.Embedder.URL != "" {
		t.Errorf("changed: %+v", cons)
	}
	if n := cons.Notices(); len(n) != 1 || !strings.Contains(n[0], "(changed since you approved it)") {
		t.Errorf("changed: notices %q", n)
	}

	if _, err := Allow(vaultDir); err != nil {
		t.Fatal(err)
	}
	if had, err := Revoke(vaultDir); !had || err != nil {
		t.Fatalf("revoke: %v %v", had, err)
	}
	if _, cons = effective(t, vaultDir, userDir); cons.Approved || cons.Changed || len(cons.Ignored) != len(wantIgnored) {
		t.Errorf("revoked: %+v", cons)
	}
	if had, err := Revoke(vaultDir); had || err != nil {
		t.Errorf("second revoke: %v %v", had, err)
	}
}

// TestAllowedEnv: an approved vault's api_key_env applies when the user's
// allowed_env names its variable, or the user's config uses it itself.
func TestAllowedEnv(t *testing.T) {
	for _, tc := range []struct {
		name, user string
		want       string
	}{
		{"no user config", "", ""},
		{"allowed_env names it", "allowed_env: [OTHER, GITHUB_TOKEN]\n", "GITHUB_TOKEN"},
		{"allowed_env names another", "allowed_env: [OTHER]\n", ""},
		{"the user's own endpoint uses it", "dream:\n  llm:\n    url: http://localhost:1/v1\n    model: x\n    api_key_env: GITHUB_TOKEN\n", "GITHUB_TOKEN"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vaultDir, userDir := consentDirs(t, everything, tc.user)
			if _, err := Allow(vaultDir); err != nil {
				t.Fatal(err)
			}
			c, cons := effective(t, vaultDir, userDir)
			if c.Embedder.APIKeyEnv != tc.want || c.Recall.Classifier.APIKeyEnv != tc.want || (len(cons.RefusedEnv) == 0) != (tc.want != "") {
				t.Errorf("embedder %q, classifier %q, refused %v; want %q", c.Embedder.APIKeyEnv, c.Recall.Classifier.APIKeyEnv, cons.RefusedEnv, tc.want)
			}
		})
	}
}

// TestUserConfigApplies: the user's own config is used in every vault,
// privileged keys and all, over the defaults the file init writes names
// (but for hooks.prompts: first-line, which keeps less than full);
// the vault's other keys override it; an approved vault that names
// another endpoint never gets the user's key with it (naming the user's
// own, it does).
func TestUserConfigApplies(t *testing.T) {
	user := "embedder:\n  provider: openai\n  url: http://localhost:11434/v1\n  model: nomic\n  api_key_env: MY_KEY\n" +
		"dream:\n  commit: true\nhooks:\n  prompts: full\n  lessons: 5\nchunk_tokens: 100\n"
	vaultDir, userDir := consentDirs(t, DefaultConfigText, user)
	c, cons := effective(t, vaultDir, userDir)
	if c.Embedder.Provider != "openai" || c.Embedder.URL != "http://localhost:11434/v1" || c.Embedder.APIKeyEnv != "MY_KEY" ||
		!c.Dream.Commit || c.Hooks.Prompts != "first-line" {
		t.Errorf("the user's privileged keys: %+v %+v", c.Embedder, c.Dream)
	}
	if c.Hooks.Lessons != 3 || c.ChunkTokens != 512 {
		t.Errorf("the vault's keys do not override the user's: lessons %d, chunk_tokens %d", c.Hooks.Lessons, c.ChunkTokens)
	}
	if len(cons.Ignored) != 0 || len(cons.Notices()) != 0 {
		t.Errorf("the default file is nagged about: %+v", cons)
	}

	// An approved vault names its own endpoint: not with the user's key.
	vaultDir, userDir = consentDirs(t, "embedder:\n  url: http://team.example/v1\n", user)
	if _, err := Allow(vaultDir); err != nil {
		t.Fatal(err)
	}
	if c, _ := effective(t, vaultDir, userDir); c.Embedder.URL != "http://team.example/v1" || c.Embedder.APIKeyEnv != "" {
		t.Errorf("the vault's endpoint: %+v", c.Embedder)
	}
	// It names the user's own endpoint: the user's key goes with it.
	vaultDir, userDir = consentDirs(t, "embedder:\n  url: http://localhost:11434/v1\n", user)
	if _, err := Allow(vaultDir); err != nil {
		t.Fatal(err)
	}
	if c, _ := effective(t, vaultDir, userDir); c.Embedder.APIKeyEnv != "MY_KEY" {
		t.Errorf("the user's endpoint named by the vault: %+v", c.Embedder)
	}
}

// TestVaultMayAskForLess: unapproved, a vault's privileged key applies
// when it asks for less than the user's config gives (an embedder that
// sends nothing, fewer prompts kept), and only then; dream.commit is the
// user's either way.
func TestVaultMayAskForLess(t *testing.T) {
	for _, tc := range []struct {
		vault, user string
		check       func(Config) bool
		ignored     string
	}{
		{"embedder:\n  provider: none\n", "embedder:\n  provider: openai\n  url: http://localhost:1/v1\n  model: m\n",
			func(c Config) bool { return c.Embedder.Provider == "none" }, ""},
		{"embedder:\n  provider: lsa\n", "embedder:\n  provider: llama\n  model_path: /m.gguf\n",
			func(c Config) bool { return c.Embedder.Provider == "lsa" }, ""},
		{"embedder:\n  provider: llama\n", "", func(c Config) bool { return c.Embedder.Provider == "lsa" }, "embedder.provider"},
		{"hooks:\n  prompts: first-line\n", "hooks:\n  prompts: \"off\"\n", func(c Config) bool { return c.Hooks.Prompts == "off" }, ""},
		{"hooks:\n  prompts: \"off\"\n", "", func(c Config) bool { return c.Hooks.Prompts == "off" }, ""},
		{"hooks:\n  prompts: full\n", "", func(c Config) bool { return c.Hooks.Prompts == "first-line" }, "hooks.prompts"},
		{"hooks:\n  prompts: full\n", "hooks:\n  prompts: full\n", func(c Config) bool { return c.Hooks.Prompts == "full" }, ""},
		{"dream:\n  commit: false\n", "dream:\n  commit: true\n", func(c Config) bool { return c.Dream.Commit }, ""},
		{"dream:\n  commit: true\n", "", func(c Config) bool { return !c.Dream.Commit }, "dream.commit"},
	} {
		vaultDir, userDir := consentDirs(t, tc.vault, tc.user)
		c, cons := effective(t, vaultDir, userDir)
		if !tc.check(c) || strings.Join(cons.Ignored, ",") != tc.ignored {
			t.Errorf("vault %q, user %q: provider %q, prompts %q, commit %v; ignored %v, want %q", tc.vault, tc.user,
				c.Embedder.Provider, c.Hooks.Prompts, c.Dream.Commit, cons.Ignored, tc.ignored)
		}
	}
}

// TestConsentRefuses: a vault's config may not set allowed_env; a user
// config that does not load, or an approvals file that does not read, is
// an error naming it; a config that does not load is not approved.
func TestConsentRefuses(t *testing.T) {
	vaultDir, userDir := consentDirs(t, "chunk_tokens: 64\nallowed_env: [GITHUB_TOKEN]\n", "")
	if _, _, err := EffectiveConfig(vaultDir, []byte("chunk_tokens: 64\nallowed_env: [GITHUB_TOKEN]\n"), userDir); err == nil ||
		!strings.Contains(err.Error(), "config.yaml:2: allowed_env: only your own config") {
		t.Errorf("allowed_env in a vault: %v", err)
	}
	if _, err := Allow(vaultDir); err == nil || !strings.Contains(err.Error(), "not approved") {
		t.Errorf("allow of a bad config: %v", err)
	}

	vaultDir, userDir = consentDirs(t, "", "folders:\n  memory: ../x\n")
	if _, _, err := EffectiveConfig(vaultDir, nil, userDir); err == nil || !strings.Contains(err.Error(), filepath.Join(userDir, "vaultmem", "config.yaml")+":2: folders.memory") {
		t.Errorf("a bad user config: %v", err)
	}

	vaultDir, userDir = consentDirs(t, everything, "")
	if err := os.MkdirAll(filepath.Join(userDir, "vaultmem"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(userDir, "vaultmem", "allowed"), []byte("# x\nnot a line\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := EffectiveConfig(vaultDir, []byte(everything), userDir); err == nil || !strings.Contains(err.Error(), "allowed:2: ") {
		t.Errorf("a broken approvals file: %v", err)
	}
}

// TestApprovalFollowsTheFolder: an approval made through a link to the
// vault holds for the vault, and for no other vault with the same config.
func TestApprovalFollowsTheFolder(t *testing.T) {
	vaultDir, userDir := consentDirs(t, everything, "")
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(vaultDir, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if _, err := Allow(link); err != nil {
		t.Fatal(err)
	}
	if _, cons := effective(t, vaultDir, userDir); !cons.Approved {
		t.Error("an approval through a link does not hold for the vault")
	}
	other := t.TempDir()
	if err := os.MkdirAll(filepath.Join(other, ".vaultmem"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, ".vaultmem", "config.yaml"), []byte(everything), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, cons := effective(t, other, userDir); cons.Approved {
		t.Error("an approval holds for another vault with the same config")
	}
	info, err := os.Stat(filepath.Join(userDir, "vaultmem", "allowed"))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the approvals file: %v %v", info, err)
	}
}

// TestConfigMergesOverTheUsers: the vault's values replace the user's key
// by key, inside sections too.
func TestConfigMergesOverTheUsers(t *testing.T) {
	vaultDir, userDir := consentDirs(t, "dream:\n  every: 1h\nrecall:\n  routes:\n    hybrid: {strategy: exact-first, budget: 50}\n",
		"dream:\n  writes: 9\n  every: 2h\nrecall:\n  routes:\n    simple-fact: {strategy: exact-only, budget: 40}\n")
	c, _ := effective(t, vaultDir, userDir)
	if c.Dream.Every != time.Hour || c.Dream.Writes != 9 || len(c.Recall.Routes) != 2 {
		t.Errorf("merged: every %v, writes %d, routes %v", c.Dream.Every, c.Dream.Writes, c.Recall.Routes)
	}
}
