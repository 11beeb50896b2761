package app

import (
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/vault"
)

// TestIgnores: which .gitignore texts keep the sessions' state out of git.
func TestIgnores(t *testing.T) {
	for _, r := range machineRules {
		if !ignores(vault.GitignoreText, strings.TrimSuffix(r.rule, "/")) {
			t.Fatalf("the .gitignore a new vault gets does not hold the rule %q:\n%s", r.rule, vault.GitignoreText)
		}
	}
	if machineRules[0].rule != "state/sessions/" || machineRules[1].rule != "state/focus/" {
		t.Fatalf("the per-machine rules are %+v", machineRules)
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
