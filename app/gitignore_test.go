package app

import (
	"testing"

	"github.com/vaultmem/vaultmem/vault"
)

// TestIgnores: which .gitignore texts keep the sessions' state out of git.
func TestIgnores(t *testing.T) {
	if sessionsRule != "state/sessions/" || !ignores(vault.GitignoreText, "state/sessions") {
		t.Fatalf("the rule %q, and the .gitignore a new vault gets does not hold it:\n%s", sessionsRule, vault.GitignoreText)
	}
	for _, tt := range []struct {
		text string
		want bool
	}{
		{"cache/\ntmp/\nlock\nstate/dream-journal.json\n", false}, // an older vault's
		{"", false},
		{"state/sessions/\n", true},
		{"state/sessions", true},
		{"/state/sessions/", true},
		{"  state/sessions/  \r\n", true},
		{"state/sessions/*", true},
		{"state/sessions/**", true},
		{"state/", true},
		{"/state", true},
		{"*", true},
		{"# state/sessions/\n", false},
		{"state/sessions/\n!state/sessions/\n", false},
		{"!state/sessions/\nstate/sessions/\n", true},
		{"state/\n!state/sessions\n", false},
		{"state/session/\nstate/sessions-old/\nsessions/\n", false},
		{"state/sessions/*.json\n", false}, // a pattern, not a folder: not read as one
	} {
		if got := ignores(tt.text, "state/sessions"); got != tt.want {
			t.Errorf("ignores(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}
