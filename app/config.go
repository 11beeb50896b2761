package app

import "github.com/vaultmem/vaultmem/config"

// The config schema, its loading and validation, the consent a vault's
// config needs and the agent-id rule are package config's; app names them
// here so that the front ends, which import app alone (.ci/run), reach
// them through it. Each is exactly config's (see there for its contract).

// Config is config.Config: .vaultmem/config.yaml as it applies.
type Config = config.Config

// Consent is config.Consent: what a vault's config did not apply without
// the user's approval.
type Consent = config.Consent

// PromptKeeping is config.PromptKeeping: how much of a prompt the hooks keep.
type PromptKeeping = config.PromptKeeping

// The values of hooks.prompts the hook policy tells apart (config's).
const (
	PromptsOff       = config.PromptsOff
	PromptsFirstLine = config.PromptsFirstLine
)

// AgentEnv is config.AgentEnv: the environment variable naming the agent.
const AgentEnv = config.AgentEnv

// DefaultConfigText is config.DefaultConfigText: the config file init
// writes in a new folder.
const DefaultConfigText = config.DefaultConfigText

// ClaudeCodeMemoryLine and ClaudeCodeViewsLine are config's: what the
// config file init writes for a Claude Code memory folder says in place of
// "memory: memory" and "views: views".
const (
	ClaudeCodeMemoryLine = config.ClaudeCodeMemoryLine
	ClaudeCodeViewsLine  = config.ClaudeCodeViewsLine
)

// The config's functions, config's (see there).
var (
	// DefaultConfig is config.DefaultConfig: the config with no file.
	DefaultConfig = config.DefaultConfig
	// LoadConfig is config.LoadConfig: the vault's config as it applies.
	LoadConfig = config.LoadConfig
	// LoadConfigConsent is config.LoadConfigConsent: LoadConfig with what it
	// did not apply without the user's approval.
	LoadConfigConsent = config.LoadConfigConsent
	// AgentIn is config.AgentIn: the agent id by the one rule, reading the
	// vault's config only when needed.
	AgentIn = config.AgentIn
	// Allow is config.Allow: the user approves the vault's config as it is.
	Allow = config.Allow
	// Revoke is config.Revoke: the user withdraws that approval.
	Revoke = config.Revoke
)
