package hookpolicy

import (
	"github.com/vaultmem/vaultmem/config"
	"strings"
	"testing"
)

// TestKeepPrompt: what a session keeps of a prompt, by hooks.prompts, has
// its secrets masked; a first line is masked before it is cut to 300
// characters, so that a token the cut falls in leaves no piece behind.
func TestKeepPrompt(t *testing.T) {
	const tok = "ghp_abcdefghijklmnopqrstuvwxyz0123456789AB"
	// One long word (a URL), so that the cut falls inside it, and inside
	// the token.
	long := "curl https://example.com/api?" + strings.Repeat("q=1&", 64) + "gh=" + tok + " and more"
	for _, tt := range []struct {
		prompt string
		how    config.PromptKeeping
		want   string
	}{
		{"deploy with " + tok + "\nthen password=hunter2", "full", "deploy with [REDACTED:github-token]\nthen password=[REDACTED:password]"},
		{"deploy with " + tok + "\nthen password=hunter2", "first-line", "deploy with [REDACTED:github-token]"},
		{"  deploy with " + tok + "  ", "off", ""},
		{"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----", "first-line", "[REDACTED:private-key]"},
	} {
		if got := keepPrompt(tt.prompt, tt.how); got != tt.want {
			t.Errorf("keepPrompt(%q, %s) = %q, want %q", tt.prompt, tt.how, got, tt.want)
		}
	}
	got := keepPrompt(long, "first-line")
	if strings.Contains(got, "ghp_") || strings.Contains(got, "abcdefghij") || len([]rune(got)) > 301 {
		t.Errorf("a cut first line leaves a piece of the token: %q", got)
	}
}

// TestKeepPromptBig: of a prompt over the kept size, the session keeps
// its start, masked as a whole even where the cut falls in a secret, and
// says how much more there was.
func TestKeepPromptBig(t *testing.T) {
	key := "-----BEGIN RSA PRIVATE KEY-----\n" + strings.Repeat("MIIEowIBAAKCAQEA1234567890abcdef\n", 80) + "-----END RSA PRIVATE KEY-----"
	// The key straddles the cut.
	prompt := strings.Repeat("word ", (maxKeptPrompt-1000)/5) + key + "\n" + strings.Repeat("tail ", 10000)
	got := keepPrompt(prompt, "full")
	if strings.Contains(got, "MIIEowIBAAKCAQEA") || len(got) > maxKeptPrompt+100 || !strings.Contains(got, "more bytes not kept]") {
		t.Errorf("kept %d bytes, ending %q", len(got), got[max(0, len(got)-200):])
	}
	if first := keepPrompt(strings.Repeat("x", 50<<20), "first-line"); first != "" {
		t.Errorf("a 50 MB one-word first line kept as %d bytes", len(first))
	}
}
