package config

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/vaultmem/vaultmem/vault"
	"go.yaml.in/yaml/v3"
)

// A vault's config is written by whoever shares the vault (a team's git,
// a synced folder), so what would send the user's notes or secrets off the
// machine, read an environment variable or act on the user's behalf must
// come from the user: from their own config, or from a vault config whose
// exact content they approved ('vaultmem allow'). docs/safety.md, "Trust
// model", says it for users.

// Where the user's own files are, under os.UserConfigDir().
const (
	// UserConfigFile is the user's own config: the vault config's schema,
	// for every vault, plus allowed_env.
	UserConfigFile = "vaultmem/config.yaml"
	// AllowedFile records the vault configs the user approved: one line
	// "<sha256 of the config's bytes> <the vault's absolute path>" each.
	AllowedFile = "vaultmem/allowed"
)

// Setting is one key of a config and its value as written (a scalar's
// text; "" for a mapping or a list).
type Setting struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// RefusedEnv is an api_key_env of an approved vault config that is
// ignored because the user's config does not allow its variable.
type RefusedEnv struct {
	Key      string `json:"key"`
	Variable string `json:"variable"`
}

// Consent is what EffectiveConfig took of a vault's config and what it
// ignored for want of the user's consent.
type Consent struct {
	// Vault is the vault folder as the approvals know it (absolute,
	// links resolved); File its config file, UserFile the user's own
	// ("" when the user's config folder is unknown).
	Vault    string `json:"vault"`
	File     string `json:"file"`
	UserFile string `json:"user_file"`
	// SHA256 is the hash of the vault config's bytes ("" without one).
	SHA256 string `json:"sha256"`
	// Approved is true when the user approved exactly these bytes for
	// this vault; Changed when they approved other bytes (the config has
	// changed since, by a git pull, say).
	Approved bool `json:"approved"`
	Changed  bool `json:"changed"`
	// Privileged are the privileged settings of the vault's config that
	// ask for more than the defaults, used or not.
	Privileged []Setting `json:"privileged"`
	// Ignored are the keys of those ignored because the config is not
	// approved.
	Ignored []string `json:"ignored"`
	// RefusedEnv are the api_key_env keys of an approved config ignored
	// because allowed_env does not name their variable.
	RefusedEnv []RefusedEnv `json:"refused_env"`
}

// Notices are the lines that tell the user what Consent ignored and how
// to approve it, plainly; none when nothing was ignored. The front end
// prints them once per command, where no agent takes them for
// instructions.
func (c Consent) Notices() []string {
	var out []string
	if len(c.Ignored) > 0 {
		why := "not approved"
		if c.Changed {
			why = "changed since you approved it"
		}
		out = append(out, fmt.Sprintf("ignoring %s from %s (%s): run 'vaultmem allow' in %s to use them",
			strings.Join(c.Ignored, ", "), c.File, why, c.Vault))
	}
	if len(c.RefusedEnv) > 0 {
		var keys, vars []string
		for _, r := range c.RefusedEnv {
			keys = append(keys, r.Key+" ("+r.Variable+")")
			if !slices.Contains(vars, r.Variable) {
				vars = append(vars, r.Variable)
			}
		}
		out = append(out, fmt.Sprintf("ignoring %s from %s: allowed_env in %s does not name %s",
			strings.Join(keys, ", "), c.File, c.UserFile, strings.Join(vars, " or ")))
	}
	return out
}

// privilegedKeys are the keys of a vault config that need the user's
// consent: what reaches an endpoint or a model file, reads an environment
// variable, commits, or keeps more of each prompt in the shared vault.
// Unapproved, a key is ignored when ignore says so of its value (node)
// over base, the config without the vault's (the user's own config, or
// the default, then applies); asks says whether its value asks for more
// than the default does, which is what the user is told of (the file init
// writes, which names the defaults, is never nagged about).
var privilegedKeys = []struct {
	path   []string
	ignore func(n *yaml.Node, base *Config) bool
	asks   func(n *yaml.Node) bool
}{
	// lsa and none send nothing anywhere: a vault may keep itself off the
	// user's endpoint.
	{[]string{"embedder", "provider"}, func(n *yaml.Node, _ *Config) bool { return networked(n) }, networked},
	{[]string{"embedder", "url"}, always, notEmpty},
	{[]string{"embedder", "api_key_env"}, always, notEmpty},
	{[]string{"embedder", "model_path"}, always, notEmpty},
	{[]string{"recall", "classifier"}, always, func(*yaml.Node) bool { return true }},
	{[]string{"dream", "llm"}, always, func(*yaml.Node) bool { return true }},
	// Whether Dream commits is the user's say alone, either way.
	{[]string{"dream", "commit"}, always, func(n *yaml.Node) bool { var b bool; return n.Decode(&b) != nil || b }},
	// A vault may keep less of the user's prompts than the user would, never more.
	{[]string{"hooks", "prompts"}, keepsMore, func(n *yaml.Node) bool { return PromptKeeping(n.Value) == PromptsFull }},
}

func always(*yaml.Node, *Config) bool { return true }
func notEmpty(n *yaml.Node) bool      { return n.Value != "" }
func networked(n *yaml.Node) bool     { return EmbedderProvider(n.Value).Networked() }

// keepsMore reports whether the hooks.prompts of n keeps more of a prompt
// than base's.
func keepsMore(n *yaml.Node, base *Config) bool {
	return PromptKeeping(n.Value).Rank() > base.Hooks.Prompts.Rank()
}

// endpoints are the config's endpoints: the key of each, and its URL and
// API key variable in a Config.
var endpoints = []struct {
	key      string
	url, env func(*Config) *string
}{
	{"embedder", func(c *Config) *string { return &c.Embedder.URL }, func(c *Config) *string { return &c.Embedder.APIKeyEnv }},
	{"recall.classifier", func(c *Config) *string { return &c.Recall.Classifier.URL }, func(c *Config) *string { return &c.Recall.Classifier.APIKeyEnv }},
	{"dream.llm", func(c *Config) *string { return &c.Dream.LLM.URL }, func(c *Config) *string { return &c.Dream.LLM.APIKeyEnv }},
}

// EffectiveConfig is the config vaultmem uses in the vault vaultDir whose
// config file holds data (nil: no file), for the user whose config folder
// is userDir ("": none). It is the defaults, overridden by the user's own
// config (userDir/vaultmem/config.yaml, if there is one), overridden by
// the vault's config, except the vault's privileged keys (those of
// privilegedKeys), which apply only when the user approved these exact
// bytes for this vault (userDir/vaultmem/allowed, written by Allow), and
// are else ignored (but for what asks for less: provider lsa or none,
// fewer prompts kept), those asking for more than the defaults reported
// in Consent.Ignored. Of an approved config, an api_key_env applies only when
// its variable is one of the user config's allowed_env or its own
// api_key_env variables (else Consent.RefusedEnv), and an endpoint whose
// url it sets to another than the user config's never gets the user
// config's key.
// Each file is checked whole on its own; errors name the file and line.
func EffectiveConfig(vaultDir string, data []byte, userDir string) (Config, Consent, error) {
	cons := Consent{Vault: vaultKey(vaultDir), File: filepath.Join(vaultDir, filepath.FromSlash(vault.ConfigFile)),
		Privileged: []Setting{}, Ignored: []string{}, RefusedEnv: []RefusedEnv{}}
	cfg := DefaultConfig()
	if userDir != "" {
		cons.UserFile = filepath.Join(userDir, filepath.FromSlash(UserConfigFile))
		b, err := os.ReadFile(cons.UserFile)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return cfg, cons, fmt.Errorf("read your config: %w", err)
		}
		var root *yaml.Node
		if cfg, root, err = parseConfig(b, cons.UserFile, cfg); err != nil {
			return cfg, cons, err
		}
		if root != nil {
			if _, n := lookup(root.Content[0], "memory", "shared"); n != nil {
				return cfg, cons, fmt.Errorf("%s:%d: memory.shared: whether a vault is shared is the vault's say: set it in its %s",
					cons.UserFile, n.Line, vault.ConfigFile)
			}
		}
	}
	if data == nil {
		return cfg, cons, nil
	}
	sum := sha256.Sum256(data)
	cons.SHA256 = hex.EncodeToString(sum[:])
	_, root, err := parseConfig(data, cons.File, DefaultConfig())
	if err != nil || root == nil {
		return cfg, cons, err
	}
	doc := root.Content[0]
	if _, n := lookup(doc, "allowed_env"); n != nil {
		return cfg, cons, fmt.Errorf("%s:%d: allowed_env: only your own config (%s in your config folder) may say which environment variables a vault may read",
			cons.File, n.Line, UserConfigFile)
	}
	if _, n := lookup(doc, "owner"); n != nil {
		// A shared file naming one person would make everyone's user
		// memories that person's.
		return cfg, cons, fmt.Errorf("%s:%d: owner: only your own config (%s in your config folder) may say who you are",
			cons.File, n.Line, UserConfigFile)
	}
	approved, err := approval(userDir, cons.Vault)
	if err != nil {
		return cfg, cons, err
	}
	cons.Approved = approved != "" && approved == cons.SHA256
	cons.Changed = approved != "" && !cons.Approved
	for _, k := range privilegedKeys {
		parent, n := lookup(doc, k.path...)
		if n == nil {
			continue
		}
		var asked []Setting
		if k.asks(n) {
			asked = leaves(strings.Join(k.path, "."), n)
			cons.Privileged = append(cons.Privileged, asked...)
		}
		if !cons.Approved && k.ignore(n, &cfg) {
			removeKey(parent, k.path[len(k.path)-1])
			for _, s := range asked {
				cons.Ignored = append(cons.Ignored, s.Key)
			}
		}
	}
	if cons.Approved {
		allowed := slices.Clone(cfg.AllowedEnv)
		for _, e := range endpoints {
			allowed = append(allowed, *e.env(&cfg))
		}
		for _, e := range endpoints {
			path := strings.Split(e.key, ".")
			if _, u := lookup(doc, append(path, "url")...); u != nil && u.Value != *e.url(&cfg) {
				*e.env(&cfg) = "" // the user's key is for the user's endpoint
			}
			parent, n := lookup(doc, append(path, "api_key_env")...)
			if n != nil && n.Value != "" && !slices.Contains(allowed, n.Value) {
				removeKey(parent, "api_key_env")
				cons.RefusedEnv = append(cons.RefusedEnv, RefusedEnv{e.key + ".api_key_env", n.Value})
			}
		}
	}
	if err := doc.Decode(&cfg); err != nil { // checked whole above: only a broken invariant fails here
		return cfg, cons, fmt.Errorf("%s: %w", cons.File, err)
	}
	return cfg, cons, nil
}

// lookup returns the value node at keys in the mapping m, and the mapping
// holding it; nils when it is not there.
func lookup(m *yaml.Node, keys ...string) (parent, n *yaml.Node) {
	n = m
	for _, k := range keys {
		if n.Kind != yaml.MappingNode {
			return nil, nil
		}
		parent, n = n, nil
		for i := 0; i+1 < len(parent.Content); i += 2 {
			if parent.Content[i].Value == k {
				n = parent.Content[i+1]
				break
			}
		}
		if n == nil {
			return nil, nil
		}
	}
	return parent, n
}

// removeKey removes the key k and its value from the mapping m.
func removeKey(m *yaml.Node, k string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == k {
			m.Content = slices.Delete(m.Content, i, i+2)
			return
		}
	}
}

// leaves are the settings of the node n at key: n itself when it is no
// mapping, else each key under it.
func leaves(key string, n *yaml.Node) []Setting {
	if n.Kind != yaml.MappingNode || len(n.Content) == 0 {
		return []Setting{{key, n.Value}}
	}
	var out []Setting
	for i := 0; i+1 < len(n.Content); i += 2 {
		out = append(out, leaves(key+"."+n.Content[i].Value, n.Content[i+1])...)
	}
	return out
}

// vaultKey is the vault folder as the approvals name it: absolute, its
// links resolved (dir itself when that fails: it then matches no
// approval made of the resolved path).
func vaultKey(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

// approval returns the hash the user approved for the vault at key (""
// when none, or when userDir is "").
func approval(userDir, key string) (string, error) {
	lines, err := readAllowed(userDir)
	if err != nil {
		return "", err
	}
	for _, l := range lines {
		if l.vault == key {
			return l.sum, nil
		}
	}
	return "", nil
}

// allowedLine is one approval.
type allowedLine struct{ sum, vault string }

// readAllowed reads the user's approvals (none when userDir is "" or the
// file is missing). A line that is not "<sha256> <path>" is an error
// naming the file and line: the file is the user's, and a broken one
// approves nothing silently.
func readAllowed(userDir string) ([]allowedLine, error) {
	if userDir == "" {
		return nil, nil
	}
	p := filepath.Join(userDir, filepath.FromSlash(AllowedFile))
	b, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read your approvals: %w", err)
	}
	var out []allowedLine
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		sum, dir, ok := strings.Cut(line, " ")
		if _, err := hex.DecodeString(sum); !ok || err != nil || len(sum) != 2*sha256.Size || !filepath.IsAbs(dir) {
			return nil, fmt.Errorf("%s:%d: not \"<sha256> <vault folder>\" (run 'vaultmem allow' again, or remove the line)", p, n)
		}
		out = append(out, allowedLine{sum, dir})
	}
	return out, sc.Err()
}

// allowedHeader opens the approvals file.
const allowedHeader = "# The vault configs you approved ('vaultmem allow'): the sha256 of .vaultmem/config.yaml, then the vault.\n"

// setApproval records sum as the approved hash of the vault at key, or
// with sum "" removes its approval, rewriting the file atomically (mode
// 0600: whose vaults these are is the user's business). It reports
// whether there was an approval before.
func setApproval(userDir, key, sum string) (bool, error) {
	if userDir == "" {
		return false, errors.New("approvals: the user's config folder is unknown (set HOME or XDG_CONFIG_HOME)")
	}
	if strings.ContainsAny(key, "\r\n") {
		return false, fmt.Errorf("approvals: the vault folder %q holds a line break, which the approvals file cannot record", key)
	}
	lines, err := readAllowed(userDir)
	if err != nil {
		return false, err
	}
	had := false
	var text strings.Builder
	text.WriteString(allowedHeader)
	for _, l := range lines {
		if l.vault == key {
			had = true
			continue
		}
		text.WriteString(l.sum + " " + l.vault + "\n")
	}
	if sum != "" {
		text.WriteString(sum + " " + key + "\n")
	}
	p := filepath.Join(userDir, filepath.FromSlash(AllowedFile))
	if err := vault.WriteUserFile(p, text.String()); err != nil {
		return had, fmt.Errorf("approvals: %w", err)
	}
	return had, nil
}

// Allow approves the vault's config as it is now for the vault vaultDir
// ('vaultmem allow'): its privileged keys apply until its bytes change.
// A config that does not load (see EffectiveConfig), or none, is not
// approved: the error says why. It returns the consent as the commands
// will now see it.
func Allow(vaultDir string) (Consent, error) {
	userDir, err := os.UserConfigDir()
	if err != nil {
		return Consent{}, fmt.Errorf("approvals: %w", err)
	}
	p := filepath.Join(vaultDir, filepath.FromSlash(vault.ConfigFile))
	data, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return Consent{}, fmt.Errorf("%s does not exist: there is nothing to approve (run 'vaultmem init')", p)
	}
	if err != nil {
		return Consent{}, fmt.Errorf("read config: %w", err)
	}
	_, cons, err := EffectiveConfig(vaultDir, data, userDir)
	if err != nil {
		return cons, fmt.Errorf("not approved: %w", err)
	}
	if _, err := setApproval(userDir, cons.Vault, cons.SHA256); err != nil {
		return cons, err
	}
	_, cons, err = EffectiveConfig(vaultDir, data, userDir)
	return cons, err
}

// Revoke withdraws the approval of the vault's config ('vaultmem allow
// --revoke'), whatever it holds now: its privileged keys are ignored
// again. It reports whether there was an approval.
func Revoke(vaultDir string) (bool, error) {
	userDir, err := os.UserConfigDir()
	if err != nil {
		return false, fmt.Errorf("approvals: %w", err)
	}
	return setApproval(userDir, vaultKey(vaultDir), "")
}
