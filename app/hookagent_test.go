package app

import (
	"testing"

	"github.com/vaultmem/vaultmem/task"
)

// TestHookAgent: an event that names no agent acts as the one rule says,
// the environment before the config.
func TestHookAgent(t *testing.T) {
	a := &App{Config: DefaultConfig()}
	a.Config.Hooks.Agent = "alice"
	t.Setenv(AgentEnv, "")
	if got := a.hookAgent(); got != "alice" {
		t.Errorf("hookAgent = %q, want alice (hooks.agent)", got)
	}
	t.Setenv(AgentEnv, "codex")
	if got := a.hookAgent(); got != "codex" {
		t.Errorf("hookAgent = %q, want codex ($VAULTMEM_AGENT)", got)
	}
	t.Setenv(AgentEnv, "two words")
	if got := a.hookAgent(); task.CheckAgent(got) == nil {
		t.Errorf("hookAgent = %q, want the bad id, for Hook to refuse", got)
	}
}
