package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/vaultmem/vaultmem/internal/obsidiancli"
	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/recall"
	"github.com/vaultmem/vaultmem/task"
	"github.com/vaultmem/vaultmem/vault"
	"go.yaml.in/yaml/v3"
)

// Config is .vaultmem/config.yaml. Every field has a working default, so a
// missing file or key means the default (DefaultConfig).
type Config struct {
	// Folders are where new notes of each kind are written; a note's kind
	// comes from its frontmatter type:, wherever it lives.
	Folders struct {
		Memory  string `yaml:"memory"`
		Tasks   string `yaml:"tasks"`
		Lessons string `yaml:"lessons"`
		// Sessions is where the hooks write session notes.
		Sessions string `yaml:"sessions"`
		// Views is where init writes the Obsidian views of the notes (a
		// base per kind) and 'task tree --canvas' the task canvas; ""
		// writes no bases (and the canvas at the top).
		Views string `yaml:"views"`
	} `yaml:"folders"`
	// MaxNoteSize is the largest markdown file, in bytes, read as a note.
	MaxNoteSize int64 `yaml:"max_note_size"`
	// ChunkTokens is the most tokens in one indexed chunk.
	ChunkTokens int `yaml:"chunk_tokens"`
	// Embedder chooses how the index makes vectors.
	Embedder EmbedderConfig `yaml:"embedder"`
	// Recall configures intent classification and routing.
	Recall RecallConfig `yaml:"recall"`
	// Dream configures the consolidation pass.
	Dream DreamConfig `yaml:"dream"`
	// Lessons configures the lessons' strength rule (zero values: the
	// defaults of lesson.DefaultRules) and the learned router.
	Lessons LessonsConfig `yaml:"lessons"`
	// Hooks configures what the agent hooks give and keep (see Hook).
	Hooks HooksConfig `yaml:"hooks"`
	// AllowedEnv, read only from the user's own config (an error in a
	// vault's), names the environment variables a vault's approved config
	// may name as an api_key_env; the user config's own api_key_env
	// variables are allowed besides (see EffectiveConfig).
	AllowedEnv []string `yaml:"allowed_env"`
	// Owner, read only from the user's own config (an error in a vault's),
	// names the person whose user memories this user writes (see
	// memory.OwnerKey); "" means git's user.email in the vault.
	Owner string `yaml:"owner"`
	// Memory says whether the vault's memory is shared by several people.
	Memory MemoryConfig `yaml:"memory"`
	// Vault says how notes are written: vault.access is direct (files),
	// cli (Obsidian's CLI when it answers) or auto (the CLI when it is on
	// the PATH and answers; see package obsidiancli). Any other value
	// fails at load.
	Vault struct {
		Access obsidiancli.Mode `yaml:"access"`
	} `yaml:"vault"`
}

// MemoryConfig is the memory section of the config.
type MemoryConfig struct {
	// Shared, read only from a vault's config (an error in the user's
	// own), says the vault is shared by several people (true) or kept by
	// one (false); unset, it is shared once its user memories name more
	// than one owner (see memory.Sharing).
	Shared *bool `yaml:"shared"`
}

// Sharing is how the memory store tells a shared vault, by Shared.
func (m MemoryConfig) Sharing() memory.Sharing {
	switch {
	case m.Shared == nil:
		return memory.SharedIfOwners
	case *m.Shared:
		return memory.AlwaysShared
	}
	return memory.NeverShared
}

// HooksConfig is the hooks section of the config: what `vaultmem hook`
// gives an agent and keeps of its sessions.
type HooksConfig struct {
	// Agent is the agent the hooks act as, whose focused task they give
	// and log on; "" is $VAULTMEM_AGENT, else task.DefaultAgent.
	Agent string `yaml:"agent"`
	// SessionBudget is the most tokens given at a session's start
	// (MEMORY.md, the focused task, what needs review, the checkpoint).
	SessionBudget int `yaml:"session_budget"`
	// PromptBudget is the most tokens of recall given with a prompt.
	PromptBudget int `yaml:"prompt_budget"`
	// MinCoverage is the least share of a prompt's words (stop words
	// aside; three words at most) a recalled passage must hold to be
	// given: recall always ranks something first, and this keeps out what
	// only looks near.
	MinCoverage float64 `yaml:"min_coverage"`
	// Lessons is the most lessons given before a tool call.
	Lessons int `yaml:"lessons"`
	// Prompts is how much of each prompt a session note keeps: off,
	// first-line (the default) or full; secrets of common shapes are
	// redacted.
	Prompts PromptKeeping `yaml:"prompts"`
	// Timeout bounds a hook's work; past it the hook gives nothing and
	// exits 0 (set it below the client's own hook timeout).
	Timeout time.Duration `yaml:"timeout"`
}

// LessonsConfig is the lessons section of the config.
type LessonsConfig struct {
	lesson.Rules `yaml:",inline"`
	// Router reranks lesson matches with the learned router, trained on
	// the outcome log (off by default: see 'vaultmem lesson router').
	Router bool `yaml:"router"`
	// AlertFailures is how many failures in a row of a lesson, in the
	// outcome log, list it under MEMORY.md's "Needs review" and in 'lesson
	// stats --live' (0 turns the alert off; at most MaxAlertFailures).
	AlertFailures int `yaml:"alert_failures"`
}

// MaxAlertFailures is the largest lessons.alert_failures.
const MaxAlertFailures = 100

// ChatConfig is an OpenAI-compatible chat endpoint.
type ChatConfig struct {
	URL       string        `yaml:"url"`
	Model     string        `yaml:"model"`
	APIKeyEnv string        `yaml:"api_key_env"`
	Timeout   time.Duration `yaml:"timeout"`
}

// DreamConfig is the dream section of the config.
type DreamConfig struct {
	// Auto runs Dream inside mcp and watch when the gate opens.
	Auto bool `yaml:"auto"`
	// Every, Writes and Quiet are the gate (see dream.Gate).
	Every  time.Duration `yaml:"every"`
	Writes int           `yaml:"writes"`
	Quiet  time.Duration `yaml:"quiet"`
	// Commit makes each run that changes something one git commit.
	Commit bool `yaml:"commit"`
	// Log is the dream log's vault path; "" means <memory folder>/dream-log.md.
	Log string `yaml:"log"`
	// LLM rewrites merged memories; unset means recall.classifier's.
	LLM ChatConfig `yaml:"llm"`
	// Propose, with an LLM, has Dream propose memories and lessons from
	// the session notes that ended (each with status: proposed, until a
	// person or an agent accepts it). Default true.
	Propose *bool `yaml:"propose"`
}

// Proposals is Propose with its default.
func (d DreamConfig) Proposals() bool { return d.Propose == nil || *d.Propose }

// RecallConfig is the recall section of the config.
type RecallConfig struct {
	// Classifier is an optional OpenAI-compatible chat endpoint that
	// classifies questions before the rules do.
	Classifier ChatConfig `yaml:"classifier"`
	// Routes replaces routes of the default matrix, by intent (one of
	// recall.Intents; any other fails at load).
	Routes map[recall.Intent]recall.Route `yaml:"routes"`
	// StageDeadlines cuts each stage short at its deadline (100, 300 and
	// 800 ms); false runs every stage to its end: slower on a busy machine,
	// but the same question always gets the same answer. Default true.
	StageDeadlines *bool `yaml:"stage_deadlines"`
	// BudgetFill is how the budget is shared among the items: "shared"
	// or "greedy" (see recall.FillShared, recall.FillGreedy); "" means
	// recall.DefaultBudgetFill.
	BudgetFill string `yaml:"budget_fill"`
}

// Deadlines is StageDeadlines with its default.
func (r RecallConfig) Deadlines() bool { return r.StageDeadlines == nil || *r.StageDeadlines }

// EmbedderConfig is the embedder section of the config.
type EmbedderConfig struct {
	// Provider is lsa (default: fitted on the vault, offline), openai (any
	// OpenAI-compatible /v1/embeddings endpoint), llama (a local GGUF model;
	// needs a build with -tags llama) or none (keyword search only).
	Provider EmbedderProvider `yaml:"provider"`
	// URL is the API base of an openai provider, e.g.
	// http://localhost:11434/v1 (Ollama).
	URL   string `yaml:"url"`
	Model string `yaml:"model"`
	// APIKeyEnv names the environment variable holding the API key (the
	// key itself never goes in the committed Config).
	APIKeyEnv  string        `yaml:"api_key_env"`
	Dimensions int           `yaml:"dimensions"`
	Timeout    time.Duration `yaml:"timeout"`
	// ModelPath is the GGUF file of a llama provider.
	ModelPath string `yaml:"model_path"`
	GPULayers int    `yaml:"gpu_layers"`
}

// PromptKeeping is hooks.prompts: how much of each prompt a session note
// keeps. The values are PromptKeepings; any other fails at load.
type PromptKeeping string

// The values of hooks.prompts, from the least kept to the most.
const (
	PromptsOff       PromptKeeping = "off"
	PromptsFirstLine PromptKeeping = "first-line"
	PromptsFull      PromptKeeping = "full"
)

// PromptKeepings are the values of hooks.prompts, from the one that keeps
// the least to the one that keeps the most.
var PromptKeepings = []PromptKeeping{PromptsOff, PromptsFirstLine, PromptsFull}

// Rank orders the values by how much of a prompt they keep (PromptKeepings'
// order); -1 for a value that is none of them.
func (p PromptKeeping) Rank() int { return slices.Index(PromptKeepings, p) }

// EmbedderProvider is embedder.provider: how the index makes vectors. The
// values are EmbedderProviders; any other fails at load.
type EmbedderProvider string

// The values of embedder.provider.
const (
	ProviderLSA    EmbedderProvider = "lsa"
	ProviderOpenAI EmbedderProvider = "openai"
	ProviderLlama  EmbedderProvider = "llama"
	ProviderNone   EmbedderProvider = "none"
)

// EmbedderProviders are the values of embedder.provider.
var EmbedderProviders = []EmbedderProvider{ProviderLSA, ProviderOpenAI, ProviderLlama, ProviderNone}

// Networked reports whether the provider sends the vault's text to an
// endpoint or loads a model file (anything but lsa and none), which in a
// vault's config needs the user's consent.
func (p EmbedderProvider) Networked() bool { return p != ProviderLSA && p != ProviderNone }

// oneOf says what makes v unfit for a key whose values are allowed ("" when
// nothing does): the message lists them.
func oneOf[T ~string](v T, allowed []T) string {
	if slices.Contains(allowed, v) {
		return ""
	}
	names := make([]string, len(allowed))
	for i, a := range allowed {
		names[i] = string(a)
	}
	return fmt.Sprintf("%q is not one of %s", string(v), strings.Join(names, ", "))
}

// DefaultConfig is the config of a vault that sets nothing: the one
// source of every default (the file init writes, DefaultConfigText, loads
// to exactly it; TestDefaultConfigFileLoadsToDefaultConfig holds them
// together).
func DefaultConfig() Config {
	var c Config
	c.Folders.Memory = "memory"
	c.Folders.Tasks = "tasks"
	c.Folders.Lessons = "lessons"
	c.Folders.Sessions = "sessions"
	c.Folders.Views = "views"
	c.MaxNoteSize = 10 << 20
	c.ChunkTokens = 512
	c.Embedder.Provider = ProviderLSA
	c.Embedder.Timeout = 30 * time.Second
	c.Dream.Auto = true
	c.Dream.Every = 24 * time.Hour
	c.Dream.Writes = 5
	c.Dream.Quiet = time.Minute
	propose := true
	c.Dream.Propose = &propose
	c.Lessons.Rules = lesson.DefaultRules()
	c.Lessons.AlertFailures = lesson.DefaultAlertFailures
	c.Hooks.SessionBudget = 1500
	c.Hooks.PromptBudget = 600
	c.Hooks.MinCoverage = 0.5
	c.Hooks.Lessons = 3
	c.Hooks.Prompts = PromptsFirstLine
	c.Hooks.Timeout = 8 * time.Second
	c.Vault.Access = obsidiancli.Auto
	return c
}

// DefaultConfigText is what `vaultmem init` writes: the defaults, with the
// reason for each.
const DefaultConfigText = `# vaultmem settings (committed with the vault). Every key is optional.
# The privileged keys, those that reach an endpoint, an API key's variable or
# git (embedder provider, url, api_key_env and model_path, recall.classifier,
# dream.llm, dream.commit, hooks.prompts: full), apply only once you approve
# this file as it is with 'vaultmem allow', or from your own config.

# Folders where vaultmem writes new notes. A note's kind comes from its
# frontmatter "type:", wherever the note lives. views holds what Obsidian
# shows of them: a base (table views) of each kind, written by init, and the
# task canvas of 'vaultmem task tree --canvas' ("" for no bases).
folders:
  memory: memory
  tasks: tasks
  lessons: lessons
  sessions: sessions
  views: views

# Markdown files larger than this many bytes are not read as notes.
max_note_size: 10485760

# The most tokens (characters/4, one per CJK character) in one indexed chunk.
chunk_tokens: 512

# How the index makes vectors for semantic search.
#   lsa:    the default; fitted on the vault's own text, offline, no download.
#   openai: any OpenAI-compatible /v1/embeddings endpoint (Ollama, llama.cpp
#           server, LM Studio, OpenAI): set url, model and api_key_env.
#   llama:  a local GGUF model through kelindar/search (build with -tags llama).
#   none:   keyword search only.
embedder:
  # provider: lsa
  # url: http://localhost:11434/v1
  # model: nomic-embed-text
  # api_key_env: OPENAI_API_KEY
  # timeout: 30s
  # model_path: /path/to/model.gguf

# Recall: an optional LLM classifier of questions (any OpenAI-compatible
# chat endpoint; used when it is at least 0.7 sure, else the built-in
# rules), and changes to the routing matrix, by intent (simple-fact,
# preference-recall, causal-reasoning, entity-relationship,
# temporal-analysis, hybrid).
recall:
  # classifier:
  #   url: http://localhost:11434/v1
  #   model: qwen2.5:3b
  #   api_key_env: OPENAI_API_KEY
  #   timeout: 2s
  # routes:
  #   simple-fact: {strategy: exact-first, layers: [L4, L5], graph: [], budget: 600}
  # Cut each search stage at its deadline (100, 300, 800 ms); false runs every
  # stage to its end, so the same question always gets the same answer.
  # stage_deadlines: true
  # How the token budget is shared among what recall gives: shared caps each
  # item at budget / items (a longer one cut and marked); greedy keeps items
  # whole in rank order while they fit.
  # budget_fill: shared

# Dream consolidates the memories: merges duplicates (the others are kept,
# archived), flags contradictions for you, dates "next Thursday", rewrites
# MEMORY.md, and logs what it did in a dream log note. Run it with
# 'vaultmem dream'; 'vaultmem mcp' and 'vaultmem watch' run it on their own
# once every 24h if 5 memories were written since, while the vault is quiet.
dream:
  auto: true
  every: 24h
  writes: 5
  quiet: 1m
  # Make each run that changes something one git commit of the files it wrote.
  commit: false
  # log: memory/dream-log.md
  # An OpenAI-compatible chat endpoint to rewrite merged memories into one
  # text and suggest how to resolve contradictions (default: recall.classifier).
  # llm:
  #   url: http://localhost:11434/v1
  #   model: qwen2.5:7b
  #   api_key_env: OPENAI_API_KEY
  #   timeout: 30s
  # With an LLM, propose memories and lessons from the session notes that
  # ended: each a note with status: proposed, out of MEMORY.md's list and of
  # lesson matching until you accept it (remove status: proposed). false
  # turns it off.
  propose: true

# Lessons (intuition memory): the strength rule (these are the defaults), and
# the learned router, which reranks matches by what the outcome log says
# helped; turn it on only when 'vaultmem lesson router' shows it ahead.
lessons:
  # initial: 0.5
  # success: 0.05
  # failure: 0.1
  # review_below: 0.3
  # decay_after_days: 30
  # decay_per_day: 0.99
  # archive_below: 0.2
  router: false
  # A lesson failing this many times in a row (in the outcome log) is listed
  # under MEMORY.md's "Needs review"; 0 turns it off.
  alert_failures: 3

# What 'vaultmem hook' gives an agent (set up with 'vaultmem setup') and keeps
# of its sessions: token budgets at a session's start and with each prompt,
# the least share of a prompt's words a recalled passage must hold (three
# words at most), the most lessons before a tool call, how much of each
# prompt a session note keeps (off, first-line or full; secrets of common
# shapes are redacted), and the hook's own time limit.
hooks:
  # agent: default
  session_budget: 1500
  prompt_budget: 600
  min_coverage: 0.5
  lessons: 3
  prompts: first-line
  timeout: 8s

# Memory several people share (a team's repository): each user memory names
# its owner (owner: in your own config, else git's user.email), and in a
# shared vault MEMORY.md lists no person's user memories; each person's
# session start and recall give them their own, never a teammate's. Unset, a
# vault is shared once its user memories name more than one owner; false
# keeps it one person's.
# memory:
#   shared: true
`

// ClaudeCodeMemoryLine replaces "memory: memory" in the config file init writes
// for a Claude Code memory folder.
const ClaudeCodeMemoryLine = `  # Detected as a Claude Code memory folder (MEMORY.md and memory notes
  # at the top level): new memories are written next to the others.
  memory: .
`

// ClaudeCodeViewsLine replaces "views: views" in the config file init writes
// for a Claude Code memory folder, where init makes no folder.
const ClaudeCodeViewsLine = `  # No Obsidian bases in a Claude Code memory folder (init makes no folder
  # here); name a folder to have them.
  views: ""
`

// DefaultConfigFile is the config file init writes: DefaultConfigText, or
// for a Claude Code memory folder (claudeCode) the same with new memories
// next to the others and no views folder. It loads to exactly
// defaultConfigFor(claudeCode).
func DefaultConfigFile(claudeCode bool) string {
	if !claudeCode {
		return DefaultConfigText
	}
	text := strings.Replace(DefaultConfigText, "\n  memory: memory\n", "\n"+ClaudeCodeMemoryLine, 1)
	return strings.Replace(text, "\n  views: views\n", "\n"+ClaudeCodeViewsLine, 1)
}

// defaultConfigFor is the config DefaultConfigFile(claudeCode) says:
// DefaultConfig, and for a Claude Code memory folder its two folders.
func defaultConfigFor(claudeCode bool) Config {
	c := DefaultConfig()
	if claudeCode {
		c.Folders.Memory, c.Folders.Views = ".", ""
	}
	return c
}

// LoadConfig reads the vault's config as the commands use it (see
// LoadConfigConsent), without the report of what it ignored: for what
// needs only keys no consent governs (folders, budgets).
func LoadConfig(vaultDir string) (Config, error) {
	c, _, err := LoadConfigConsent(vaultDir)
	return c, err
}

// LoadConfigConsent reads the vault's config (a missing file gives the
// defaults) and the user's own config (in os.UserConfigDir(); none when
// that is unknown) and returns the effective config and what of the
// vault's it ignored: see EffectiveConfig. Errors name the file and line;
// a .vaultmem or config.yaml that is not the user's own is refused as
// vault.CheckOwner says.
func LoadConfigConsent(vaultDir string) (Config, Consent, error) {
	// A .vaultmem another user can change, or a config that is a link, is
	// refused before the config is read (the hook reads it before it
	// opens the vault).
	if err := vault.CheckOwner(vaultDir); err != nil {
		return Config{}, Consent{}, fmt.Errorf("open vault %s: %w", vaultDir, err)
	}
	p := filepath.Join(vaultDir, filepath.FromSlash(vault.ConfigFile))
	data, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		data, err = nil, nil
	}
	if err != nil {
		return DefaultConfig(), Consent{}, fmt.Errorf("read config: %w", err)
	}
	userDir, err := os.UserConfigDir()
	if err != nil {
		userDir = "" // no user config, and nothing approved
	}
	c, cons, err := EffectiveConfig(vaultDir, data, userDir)
	if err != nil {
		return c, cons, err
	}
	// A lesson rule's zero field means its default: the config holds the
	// rule as it applies. Each file's rule was checked at its lines.
	if c.Lessons.Rules, err = c.Lessons.Rules.Check(); err != nil {
		return c, cons, fmt.Errorf("config: %w", err)
	}
	return c, cons, nil
}

// parseConfig decodes a config file's bytes (file names it in errors) over
// base and checks every value as if no other file applied. It returns the
// config and the document (nil for a file of nothing or only comments).
// Unknown keys, bad values, and YAML aliases and merge keys (through which
// one key's value would reach another unseen) are errors naming the file
// and line.
func parseConfig(data []byte, file string, base Config) (Config, *yaml.Node, error) {
	c := base
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return c, nil, fmt.Errorf("%s: %s", file, err)
	}
	if len(root.Content) == 0 {
		return c, nil, nil
	}
	if err := noAliases(root.Content[0], file); err != nil {
		return c, nil, err
	}
	if err := checkScalars(root.Content[0], reflect.TypeFor[Config](), "", file); err != nil {
		return c, nil, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil && !errors.Is(err, io.EOF) {
		var te *yaml.TypeError
		if errors.As(err, &te) && len(te.Errors) > 0 {
			// "line 3: field x not found": the first, as file:3: ...
			line, msg, ok := strings.Cut(strings.TrimPrefix(te.Errors[0], "line "), ": ")
			if _, nerr := strconv.Atoi(line); ok && nerr == nil {
				return c, nil, fmt.Errorf("%s:%s: %s", file, line, msg)
			}
		}
		return c, nil, fmt.Errorf("%s: %s", file, err)
	}
	if err := checkConfig(c, &root, file); err != nil {
		return c, nil, err
	}
	return c, &root, nil
}

// noAliases refuses anchors, aliases and merge keys anywhere under n, and
// the float .nan, which no range check can refuse (every comparison with
// it is false).
func noAliases(n *yaml.Node, file string) error {
	if n.Kind == yaml.AliasNode || n.Anchor != "" {
		return fmt.Errorf("%s:%d: YAML anchors and aliases are not allowed in a vaultmem config (write each value where it applies)", file, n.Line)
	}
	var f float64
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!float" && n.Decode(&f) == nil && math.IsNaN(f) {
		return fmt.Errorf("%s:%d: %s is not a number a vaultmem config can use", file, n.Line, n.Value)
	}
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 0 && c.Value == "<<" && c.Tag == "!!merge" {
			return fmt.Errorf("%s:%d: YAML merge keys (<<) are not allowed in a vaultmem config (write each value where it applies)", file, c.Line)
		}
		if err := noAliases(c, file); err != nil {
			return err
		}
	}
	return nil
}

// checkConfig checks the values of c, decoded from the document root of
// file, naming the file and the line of the key at fault.
func checkConfig(c Config, root *yaml.Node, file string) error {
	at := func(keys ...string) string {
		if line := keyLine(root, keys...); line > 0 {
			return fmt.Sprintf("%s:%d", file, line)
		}
		return file
	}
	for _, f := range []struct {
		key, value string
	}{
		{"memory", c.Folders.Memory}, {"tasks", c.Folders.Tasks}, {"lessons", c.Folders.Lessons},
		{"sessions", c.Folders.Sessions}, {"views", c.Folders.Views},
	} {
		if f.key == "memory" && f.value == "." {
			continue // a Claude Code memory folder: the notes at the top
		}
		if why := checkVaultPath(f.value, "a folder name"); why != "" {
			return fmt.Errorf("%s: folders.%s: %q %s", at("folders", f.key), f.key, f.value, why)
		}
	}
	if why := checkVaultPath(c.Dream.Log, "a vault path"); why != "" {
		return fmt.Errorf("%s: dream.log: %q %s", at("dream", "log"), c.Dream.Log, why)
	}
	if c.MaxNoteSize <= 0 {
		return fmt.Errorf("%s: max_note_size must be a positive number of bytes", at("max_note_size"))
	}
	if c.ChunkTokens < 32 {
		return fmt.Errorf("%s: chunk_tokens must be at least 32", at("chunk_tokens"))
	}
	for _, e := range []struct {
		key string
		c   ChatConfig
	}{{"recall.classifier", c.Recall.Classifier}, {"dream.llm", c.Dream.LLM}} {
		keys := strings.Split(e.key, ".")
		if (e.c.URL == "") != (e.c.Model == "") {
			return fmt.Errorf("%s: %s needs both url and model", at(keys...), e.key)
		}
		if why := checkURL(e.c.URL); why != "" {
			return fmt.Errorf("%s: %s.url: %q %s", at(append(keys, "url")...), e.key, e.c.URL, why)
		}
		if !envName(e.c.APIKeyEnv) {
			return fmt.Errorf("%s: %s.api_key_env: %q is not the name of an environment variable", at(append(keys, "api_key_env")...), e.key, e.c.APIKeyEnv)
		}
	}
	for _, d := range []struct {
		keys []string
		v    time.Duration
	}{
		{[]string{"dream", "every"}, c.Dream.Every}, {[]string{"dream", "quiet"}, c.Dream.Quiet},
		{[]string{"embedder", "timeout"}, c.Embedder.Timeout},
		{[]string{"recall", "classifier", "timeout"}, c.Recall.Classifier.Timeout},
		{[]string{"dream", "llm", "timeout"}, c.Dream.LLM.Timeout},
	} {
		if d.v < 0 {
			return fmt.Errorf("%s: %s: %v is negative: give a duration such as 30s or 24h", at(d.keys...), strings.Join(d.keys, "."), d.v)
		}
	}
	for _, n := range []struct {
		key string
		v   int
	}{{"dream.writes", c.Dream.Writes}, {"embedder.dimensions", c.Embedder.Dimensions}} {
		if n.v < 0 {
			return fmt.Errorf("%s: %s: %d is negative", at(strings.Split(n.key, ".")...), n.key, n.v)
		}
	}
	for _, intent := range slices.Sorted(maps.Keys(c.Recall.Routes)) { // the same error each time
		name, r := string(intent), c.Recall.Routes[intent]
		if _, err := recall.ParseIntent(name); err != nil {
			return fmt.Errorf("%s: recall.routes: %v", at("recall", "routes", name), err)
		}
		if err := r.Validate(); err != nil {
			return fmt.Errorf("%s: recall.routes.%s.%v", at("recall", "routes", name), name, err)
		}
	}
	if _, err := recall.ParseBudgetFill(c.Recall.BudgetFill); err != nil {
		return fmt.Errorf("%s: recall.budget_fill: %v", at("recall", "budget_fill"), err)
	}
	if err := checkLessons(c.Lessons.Rules, root, at); err != nil {
		return err
	}
	if n := c.Lessons.AlertFailures; n < 0 || n > MaxAlertFailures {
		return fmt.Errorf("%s: lessons.alert_failures: %d is not 0 to %d", at("lessons", "alert_failures"), n, MaxAlertFailures)
	}
	h := c.Hooks
	for _, b := range []struct {
		key string
		v   int
	}{{"session_budget", h.SessionBudget}, {"prompt_budget", h.PromptBudget}} {
		if b.v < 0 || b.v > recall.MaxBudget {
			return fmt.Errorf("%s: hooks.%s: %d is not 0 to %d tokens", at("hooks", b.key), b.key, b.v, recall.MaxBudget)
		}
	}
	switch {
	case !(h.MinCoverage >= 0 && h.MinCoverage <= 1): // NaN too
		return fmt.Errorf("%s: hooks.min_coverage: %v is not 0 to 1", at("hooks", "min_coverage"), h.MinCoverage)
	case h.Lessons < 0 || h.Lessons > lesson.MaxK:
		return fmt.Errorf("%s: hooks.lessons: %d is not 0 to %d", at("hooks", "lessons"), h.Lessons, lesson.MaxK)
	case h.Timeout <= 0:
		return fmt.Errorf("%s: hooks.timeout: %v is not a positive duration (such as 8s)", at("hooks", "timeout"), h.Timeout)
	}
	if why := oneOf(h.Prompts, PromptKeepings); why != "" {
		return fmt.Errorf("%s: hooks.prompts: %s", at("hooks", "prompts"), why)
	}
	if why := oneOf(c.Vault.Access, obsidiancli.Modes); why != "" {
		return fmt.Errorf("%s: vault.access: %s", at("vault", "access"), why)
	}
	if h.Agent != "" {
		if err := task.CheckAgent(h.Agent); err != nil {
			return fmt.Errorf("%s: hooks.agent: %v", at("hooks", "agent"), err)
		}
	}
	e := c.Embedder
	if why := oneOf(e.Provider, EmbedderProviders); why != "" {
		return fmt.Errorf("%s: embedder.provider: %s", at("embedder", "provider"), why)
	}
	if e.Provider == ProviderOpenAI && (e.URL == "" || e.Model == "") {
		return fmt.Errorf("%s: embedder provider openai needs url and model", at("embedder", "provider"))
	}
	if why := checkURL(e.URL); why != "" {
		return fmt.Errorf("%s: embedder.url: %q %s", at("embedder", "url"), e.URL, why)
	}
	if !envName(e.APIKeyEnv) {
		return fmt.Errorf("%s: embedder.api_key_env: %q is not the name of an environment variable", at("embedder", "api_key_env"), e.APIKeyEnv)
	}
	for _, name := range c.AllowedEnv {
		if name == "" || !envName(name) {
			return fmt.Errorf("%s: allowed_env: %q is not the name of an environment variable", at("allowed_env"), name)
		}
	}
	if why := checkOwner(c.Owner); why != "" {
		return fmt.Errorf("%s: owner: %q %s", at("owner"), c.Owner, why)
	}
	return nil
}

// checkLessons checks the lessons' strength rule by lesson.Rules.Check,
// the one statement of its ranges, naming the line of the key at fault:
// each key of the lessons section is checked on its own (the rule has no
// key that depends on another), so the first bad one is named.
func checkLessons(r lesson.Rules, root *yaml.Node, at func(keys ...string) string) error {
	if _, err := r.Check(); err == nil {
		return nil
	}
	_, sec := lookup(root.Content[0], "lessons")
	if sec != nil && sec.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(sec.Content); i += 2 {
			key := sec.Content[i].Value
			one := yaml.Node{Kind: yaml.MappingNode, Content: sec.Content[i : i+2]}
			var single lesson.Rules // router is no key of it: decoded as nothing
			if one.Decode(&single) != nil {
				continue // a value of the wrong type, which the whole's decoding refused first
			}
			if _, err := single.Check(); err != nil {
				return fmt.Errorf("%s: lessons.%s: %w", at("lessons", key), key, err)
			}
		}
	}
	_, err := r.Check()
	return fmt.Errorf("%s: lessons: %w", at("lessons"), err)
}

// checkOwner says what makes o unfit as an owner ("" when nothing does,
// and for o "" when unset): it is one line of printable text, at most 200
// bytes, with no space at either end, as a frontmatter value written
// into every user memory.
func checkOwner(o string) string {
	switch {
	case o == "":
		return ""
	case !utf8.ValidString(o):
		return "is not UTF-8"
	case len(o) > 200:
		return "is longer than 200 bytes"
	case strings.TrimSpace(o) != o:
		return "begins or ends with a space"
	}
	for _, r := range o {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			return fmt.Sprintf("holds %q: write one line of text (your email address, say)", string(r))
		}
	}
	return ""
}

// pathBanned are the characters a folder or file path in a config may not
// hold: the shell's metacharacters, glob characters and quotes (init
// writes these paths into .gitattributes, and people paste paths into
// shells), the backslash, and ':' (a drive on Windows, and a character
// Obsidian refuses in names).
const pathBanned = "$`;|&<>*?[]{}()!~\"'\\:"

// checkVaultPath says what makes p unfit as a vault path of a shared config
// ("" when nothing does, and for p ""): a banned character, a control or
// bidirectional-control character, invalid UTF-8, an absolute path, a
// component that is empty, "..", hidden (begins with "."; hidden folders
// hold no notes) or begins or ends with a space. Spaces inside names and
// letters of any script are fine. what names the thing in the message.
func checkVaultPath(p, what string) string {
	if p == "" {
		return ""
	}
	if !utf8.ValidString(p) {
		return "is not UTF-8"
	}
	for _, r := range p {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || strings.ContainsRune(pathBanned, r) {
			return fmt.Sprintf("holds %q, which %s may not", string(r), what)
		}
	}
	if path.IsAbs(p) {
		return "is absolute: it must be a path inside the vault, relative to it"
	}
	for _, c := range strings.Split(strings.TrimSuffix(p, "/"), "/") {
		switch {
		case c == "..":
			return `has the component "..", which leads out of the folder`
		case c == "":
			return "has an empty component (two slashes in a row)"
		case strings.HasPrefix(c, "."):
			return fmt.Sprintf("has the component %q, which begins with \".\": hidden folders and files are never notes", c)
		case strings.TrimSpace(c) != c:
			return fmt.Sprintf("has the component %q, which begins or ends with a space", c)
		}
	}
	return ""
}

// checkURL says what makes u unfit as an endpoint's URL ("" when nothing
// does, and for u ""): it must be http or https, with a host.
func checkURL(u string) string {
	if u == "" {
		return ""
	}
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return "is not an http or https URL"
	}
	return ""
}

// envName reports whether s is "" or can name an environment variable:
// letters, digits and '_', not beginning with a digit.
func envName(s string) bool {
	for i, r := range s {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// keyLine returns the line of the value at keys in a YAML document; 0
// when it is not there.
func keyLine(n *yaml.Node, keys ...string) int {
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	for _, k := range keys {
		if n.Kind != yaml.MappingNode {
			return 0
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == k {
				next = n.Content[i+1]
				break
			}
		}
		if next == nil {
			return 0
		}
		n = next
	}
	return n.Line
}

// ViewsFolder is the views folder, slash-separated and cleaned, "" for
// the vault's top.
func (c Config) ViewsFolder() string {
	return strings.Trim(path.Clean("/"+strings.TrimSpace(c.Folders.Views)), "/")
}
