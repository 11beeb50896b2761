package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestConfigErrorsNameFileAndLine(t *testing.T) {
	for _, tc := range []struct {
		yaml, want string
	}{
		{"max_note_size: -1\n", "config.yaml:1: max_note_size"},
		{"chunk_tokens: 512\nembedder:\n  provider: magic\n", "config.yaml:3: unknown embedder provider"},
		{"embedder:\n  provider: openai\n  model: m\n", "config.yaml:2: embedder provider openai needs url"},
		{"recall:\n  routes:\n    gossip: {strategy: exact-only, budget: 5}\n", "config.yaml:3: recall.routes: recall: unknown intent"},
		{"recall:\n  routes:\n    simple-fact:\n      strategy: fastest\n      budget: 5\n", "config.yaml:4: recall.routes.simple-fact.strategy"},
		{"recall:\n  classifier:\n    url: http://x\n", "config.yaml:3: recall.classifier needs both"},
		{"no_such_key: 1\n", "config.yaml"},
	} {
		dir := t.TempDir()
		os.MkdirAll(filepath.Join(dir, ".vaultmem"), 0o755)
		os.WriteFile(filepath.Join(dir, ".vaultmem", "config.yaml"), []byte(tc.yaml), 0o644)
		_, err := LoadConfig(dir)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("config %q: error %v, want one containing %q", tc.yaml, err, tc.want)
		}
	}
}

// TestConfigDocs: docs/config.md shows the file init writes as it is.
func TestConfigDocs(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "config.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "```yaml\n"+DefaultConfigText+"```") {
		t.Error("docs/config.md does not show DefaultConfigText as it is: copy it in")
	}
}

// TestConfigPropose: Dream proposes from sessions unless dream.propose is
// false; the default config says so.
func TestConfigPropose(t *testing.T) {
	for _, tc := range []struct {
		yaml string
		want bool
	}{{"", true}, {DefaultConfigText, true}, {"dream:\n  propose: false\n", false}, {"dream:\n  propose: true\n", true}} {
		dir := t.TempDir()
		os.MkdirAll(filepath.Join(dir, ".vaultmem"), 0o755)
		os.WriteFile(filepath.Join(dir, ".vaultmem", "config.yaml"), []byte(tc.yaml), 0o644)
		c, err := LoadConfig(dir)
		if err != nil || c.Dream.Proposals() != tc.want {
			t.Errorf("config %q: propose %v, %v; want %v", tc.yaml, c.Dream.Proposals(), err, tc.want)
		}
	}
}
