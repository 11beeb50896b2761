package mcpserver_test

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vaultmem/vaultmem/mcpserver"
	"github.com/vaultmem/vaultmem/task"
)

// TestAgentOneRule: a task tool's agent is chosen by app's one rule: the
// call's agent argument, else the server's --agent, else VAULTMEM_AGENT,
// else the config's hooks.agent, else the MCP client's name made an id.
func TestAgentOneRule(t *testing.T) {
	for _, tc := range []struct {
		name                     string
		arg, server, env, config string
		want, wantErr            string
	}{
		{name: "the client's name", want: "Claude-Code"},
		{name: "hooks.agent over the client's name", config: "alice", want: "alice"},
		{name: "VAULTMEM_AGENT over hooks.agent", env: "codex", config: "alice", want: "codex"},
		{name: "the server's agent over VAULTMEM_AGENT", server: "srv", env: "codex", config: "alice", want: "srv"},
		{name: "the call's agent over all", arg: "me/sub", server: "srv", env: "codex", config: "alice", want: "me/sub"},
		{name: "a bad VAULTMEM_AGENT", env: "two words", config: "alice", wantErr: `$VAULTMEM_AGENT: agent "two words"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("VAULTMEM_AGENT", tc.env)
			config := ""
			if tc.config != "" {
				config = "hooks:\n  agent: " + tc.config + "\n"
			}
			ctx, cancel := context.WithCancel(context.Background())
			t.Cleanup(cancel)
			srv, err := mcpserver.New(mcpserver.Options{App: openApp(t, t.TempDir(), config), Agent: tc.server})
			if err != nil {
				t.Fatal(err)
			}
			st, ct := mcp.NewInMemoryTransports()
			go srv.Run(ctx, st)
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "Claude Code", Version: "1"}, nil).Connect(ctx, ct, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cs.Close() })
			if tc.wantErr != "" {
				msg, succeeded := callTool(t, cs, "task_add", map[string]any{"title": "Test it"}, nil)
				if succeeded || !strings.Contains(msg, tc.wantErr) {
					t.Errorf("task_add: %q (succeeded %v); want an error containing %q", msg, succeeded, tc.wantErr)
				}
				return
			}
			mustCall(t, cs, "task_add", map[string]any{"title": "Test it"}, nil)
			args := map[string]any{"task": "Test it"}
			if tc.arg != "" {
				args["agent"] = tc.arg
			}
			var started task.Started
			mustCall(t, cs, "task_start", args, &started)
			if started.Agent != tc.want {
				t.Errorf("task_start's agent %q, want %q", started.Agent, tc.want)
			}
		})
	}
}
