package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/task"
)

// TestAgentPrecedence: the one rule every front end chooses the agent id
// by: explicit, then $VAULTMEM_AGENT, then hooks.agent, then the front
// end's fallback, then task.DefaultAgent; a blank value names none; a bad
// id is refused, naming $VAULTMEM_AGENT when it came from there.
func TestAgentPrecedence(t *testing.T) {
	for _, tc := range []struct {
		name                            string
		explicit, env, config, fallback string
		want, wantErr                   string
	}{
		{name: "nothing named", want: task.DefaultAgent},
		{name: "the fallback", fallback: "claude-code", want: "claude-code"},
		{name: "the config over the fallback", config: "alice", fallback: "claude-code", want: "alice"},
		{name: "the environment over the config", env: "codex", config: "alice", fallback: "claude-code", want: "codex"},
		{name: "explicit over all", explicit: "claude/tests", env: "codex", config: "alice", fallback: "claude-code", want: "claude/tests"},
		{name: "explicit alone", explicit: "bob", want: "bob"},
		{name: "blank explicit and environment name none", explicit: "  ", env: " ", config: "alice", want: "alice"},
		{name: "spaces around are trimmed", explicit: " bob ", want: "bob"},
		{name: "a bad explicit id", explicit: "../x", env: "codex", wantErr: `agent "../x"`},
		{name: "a bad environment", env: "two words", config: "alice", wantErr: `$VAULTMEM_AGENT: agent "two words"`},
		{name: "a bad fallback", fallback: "-x", wantErr: `agent "-x"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(AgentEnv, tc.env)
			c := DefaultConfig()
			c.Hooks.Agent = tc.config
			got, err := c.Agent(tc.explicit, tc.fallback)
			switch {
			case tc.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !errors.Is(err, task.ErrInvalid) {
					t.Errorf("Agent = %q, %v; want an invalid error containing %q", got, err, tc.wantErr)
				}
			case err != nil || got != tc.want:
				t.Errorf("Agent = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// TestAgentInReadsTheConfigOnlyWhenNeeded: AgentIn takes hooks.agent from
// the vault's config file when neither the caller nor the environment
// names an agent, and does not read the file when one does (a broken
// config then is the vault opening's to report).
func TestAgentInReadsTheConfigOnlyWhenNeeded(t *testing.T) {
	dir := vaultWithConfig(t, "hooks:\n  agent: alice\n")
	t.Setenv(AgentEnv, "")
	if got, err := AgentIn(dir, ""); err != nil || got != "alice" {
		t.Errorf("from the config: %q, %v; want alice", got, err)
	}
	t.Setenv(AgentEnv, "codex")
	if got, err := AgentIn(dir, ""); err != nil || got != "codex" {
		t.Errorf("from the environment: %q, %v; want codex", got, err)
	}
	broken := vaultWithConfig(t, "hooks:\n  agent: [x]\n")
	t.Setenv(AgentEnv, "")
	if got, err := AgentIn(broken, "bob"); err != nil || got != "bob" {
		t.Errorf("explicit, with a broken config: %q, %v; want bob", got, err)
	}
	if _, err := AgentIn(broken, ""); err == nil || !strings.Contains(err.Error(), "config.yaml:2") {
		t.Errorf("from a broken config: %v; want its file and line", err)
	}
}
