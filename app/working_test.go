package app

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/session"
)

// TestPromptHookWorkingMemory: within a session, the prompt hook's
// recall skips what the session was given (so a small budget goes to the
// next thing, not to nothing), knows the vault notes the agent edited,
// and gives again after a compaction.
func TestPromptHookWorkingMemory(t *testing.T) {
	a := hookApp(t)
	ctx := context.Background()
	if _, err := a.Remember(ctx, memory.Memory{Type: "project", Name: "pnpm lockfile", Description: "Installs keep the lockfile",
		Body: "Package installs with pnpm must keep pnpm-lock.yaml committed."}, memory.Options{}); err != nil {
		t.Fatal(err)
	}
	a.Config.Hooks.PromptBudget = 70 // room for one memory
	at := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	prompt := HookEvent{Kind: HookPrompt, Prompt: "which package manager for pnpm installs?"}
	ans := hookRun(t, a, "w1", at, HookEvent{Kind: HookSessionStart, Source: "startup"}, prompt, prompt)
	first, second := ans[1].Given, ans[2].Given
	if len(first) != 1 || len(second) != 1 || first[0] == second[0] {
		t.Fatalf("the same prompt twice gave %v, then %v: want one memory, then the other", first, second)
	}
	state := func() *session.State {
		b, _, err := a.writer.ReadState(session.StateName("w1"))
		if err != nil {
			t.Fatal(err)
		}
		st, err := session.Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	edited := filepath.Join(a.Vault.Dir, "memory", "notes.md")
	hookRun(t, a, "w1", at.Add(time.Minute),
		HookEvent{Kind: HookAfterTool, Tool: "Edit", ToolUseID: "t1", Cwd: t.TempDir(), Paths: []string{edited, "src/main.go"}, Edits: true})
	if st := state(); len(st.Wrote) != 1 || st.Wrote[0] != "memory/notes.md" {
		t.Errorf("wrote = %v, want the one vault note edited", st.Wrote)
	}
	a.Config.Hooks.PromptBudget = 600 // the focused task's log now holds the checkpoint too
	ans = hookRun(t, a, "w1", at.Add(2*time.Minute), HookEvent{Kind: HookCompact, Trigger: "auto"},
		HookEvent{Kind: HookSessionStart, Source: "compact"}, prompt)
	if !slices.Contains(ans[2].Given, first[0]) || !slices.Contains(ans[2].Given, second[0]) {
		t.Errorf("after the compaction the prompt gave %v: want both memories again", ans[2].Given)
	}
}
