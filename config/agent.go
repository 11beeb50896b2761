package config

import (
	"fmt"
	"os"
	"strings"

	"github.com/vaultmem/vaultmem/task"
)

// AgentEnv is the environment variable naming the agent a process acts
// for (see Config.Agent).
const AgentEnv = "VAULTMEM_AGENT"

// Agent is the agent id a front end acts as: whose focused task it gives
// and changes, whose focus recall puts first. Every front end (the CLI,
// the MCP server, the hooks) chooses it by this one rule, the first that
// names one:
//
//  1. explicit: what the caller named for this call (the CLI's --agent, an
//     MCP tool call's agent argument, else the server's --agent, a hook
//     event's agent);
//  2. $VAULTMEM_AGENT (AgentEnv), the environment of the process that
//     reads the request (a front end that asks a server resolves it
//     first, so the server's own environment never stands in for it);
//  3. hooks.agent, the config's (the vault's, or the user's own);
//  4. fallback: the front end's own guess (the MCP client's name made an
//     id with task.AgentID; "" for none);
//  5. task.DefaultAgent.
//
// A blank value names none. Errors: the id chosen is one task.CheckAgent
// refuses (a *task.InvalidError inside), the message naming
// $VAULTMEM_AGENT when it came from there.
func (c Config) Agent(explicit, fallback string) (string, error) {
	return chooseAgent(explicit, fallback, func() (string, error) { return c.Hooks.Agent, nil })
}

// AgentIn is Config.Agent for a front end that has not read the config of
// the vault vaultDir, with no fallback: the config is read (LoadConfig)
// only when neither explicit nor $VAULTMEM_AGENT names an agent. Errors:
// Config.Agent's, and LoadConfig's.
func AgentIn(vaultDir, explicit string) (string, error) {
	return chooseAgent(explicit, "", func() (string, error) {
		c, err := LoadConfig(vaultDir)
		return c.Hooks.Agent, err
	})
}

// chooseAgent is Config.Agent with the config's hooks.agent read by
// configured, only when it is needed.
func chooseAgent(explicit, fallback string, configured func() (string, error)) (string, error) {
	id, from := strings.TrimSpace(explicit), ""
	if id == "" {
		id, from = strings.TrimSpace(os.Getenv(AgentEnv)), "$"+AgentEnv+": "
	}
	if id == "" {
		cfg, err := configured()
		if err != nil {
			return "", err
		}
		id, from = cfg, "hooks.agent: " // checked at load
	}
	if id == "" {
		id, from = strings.TrimSpace(fallback), ""
	}
	if id == "" {
		return task.DefaultAgent, nil
	}
	if err := task.CheckAgent(id); err != nil {
		return "", fmt.Errorf("%s%w", from, err)
	}
	return id, nil
}
