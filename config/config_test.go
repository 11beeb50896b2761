package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/vault"
	"go.yaml.in/yaml/v3"
)

// vaultWithConfig is a vault folder whose config holds text, read with
// a user config folder of the test's own (HOME and XDG_CONFIG_HOME set to
// temporary folders: no test reads the real user's config).
func vaultWithConfig(t *testing.T, text string) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".vaultmem"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".vaultmem", "config.yaml"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestConfigErrorsNameFileAndLine(t *testing.T) {
	type bad struct{ yaml, want string }
	cases := []bad{
		{"max_note_size: -1\n", "config.yaml:1: max_note_size"},
		{"chunk_tokens: 512\nembedder:\n  provider: magic\n", `config.yaml:3: embedder.provider: "magic" is not one of lsa, openai, llama, none`},
		{"embedder:\n  provider: LSA\n", `config.yaml:2: embedder.provider: "LSA" is not one of lsa, openai, llama, none`},
		{"embedder:\n  provider: openai\n  model: m\n", "config.yaml:2: embedder provider openai needs url"},
		{"recall:\n  routes:\n    gossip: {strategy: exact-only, budget: 5}\n", "config.yaml:3: recall.routes: recall: unknown intent"},
		{"recall:\n  routes:\n    simple-fact:\n      strategy: fastest\n      budget: 5\n", "config.yaml:4: recall.routes.simple-fact.strategy"},
		{"recall:\n  routes:\n    simple-fact: {strategy: exact-only, layers: [L9], budget: 5}\n", "config.yaml:3: recall.routes.simple-fact.layers"},
		{"recall:\n  classifier:\n    url: http://x\n", "config.yaml:3: recall.classifier needs both"},
		{"hooks:\n  prompts: everything\n", `config.yaml:2: hooks.prompts: "everything" is not one of off, first-line, full`},
		{"hooks:\n  prompts: \"\"\n", `config.yaml:2: hooks.prompts: "" is not one of off, first-line, full`},

		// Every section's ranges and durations, at the line of the key.
		{"hooks:\n  session_budget: 1500\n  prompt_budget: -1\n", "config.yaml:3: hooks.prompt_budget: -1 is not 0 to"},
		{"hooks:\n  session_budget: 99999999\n", "config.yaml:2: hooks.session_budget: 99999999 is not 0 to"},
		{"hooks:\n  min_coverage: 1.5\n", "config.yaml:2: hooks.min_coverage: 1.5 is not 0 to 1"},
		{"hooks:\n  min_coverage: .nan\n", "config.yaml:2: .nan is not a number"},
		{"hooks:\n  lessons: -2\n", "config.yaml:2: hooks.lessons: -2 is not 0 to"},
		{"hooks:\n  timeout: 0s\n", "config.yaml:2: hooks.timeout: 0s is not a positive duration"},
		{"hooks:\n  timeout: soon\n", "config.yaml:2: cannot unmarshal !!str `soon` into time.Duration"},
		{"hooks:\n  agent: \"two words\"\n", "config.yaml:2: hooks.agent:"},
		{"lessons:\n  router: true\n  decay_per_day: 7\n", "config.yaml:3: lessons.decay_per_day: lesson rules: decay_per_day 7 is outside (0, 1]"},
		{"lessons:\n  decay_per_day: -0.5\n", "config.yaml:2: lessons.decay_per_day:"},
		{"lessons:\n  decay_per_day: .nan\n", "config.yaml:2: .nan is not a number"},
		{"lessons:\n  initial: 1.5\n", "config.yaml:2: lessons.initial: lesson rules: initial 1.5 is outside 0..1"},
		{"lessons:\n  success: -0.1\n", "config.yaml:2: lessons.success:"},
		{"lessons:\n  failure: 2\n", "config.yaml:2: lessons.failure:"},
		{"lessons:\n  review_below: .inf\n", "config.yaml:2: lessons.review_below:"},
		{"lessons:\n  archive_below: 3\n", "config.yaml:2: lessons.archive_below:"},
		{"lessons:\n  decay_after_days: -1\n", "config.yaml:2: lessons.decay_after_days: lesson rules: decay_after_days -1 is negative"},
		{"lessons:\n  decay_after_days: 1.5\n", "config.yaml:2: lessons.decay_after_days: 1.5 is not a whole number"},
		{"hooks:\n  lessons: 2.5\n", "config.yaml:2: hooks.lessons: 2.5 is not a whole number"},
		{"chunk_tokens: 512.5\n", "config.yaml:1: chunk_tokens: 512.5 is not a whole number"},
		{"max_note_size: .inf\n", "config.yaml:1: max_note_size: .inf is not a whole number"},
		{"recall:\n  routes:\n    simple-fact: {strategy: exact-only, budget: 5.5}\n", "config.yaml:3: recall.routes.simple-fact.budget: 5.5 is not a whole number"},
		{"hooks:\n  timeout: 8\n", "config.yaml:2: hooks.timeout: 8 has no unit: give a duration such as 8s"},
		{"dream:\n  quiet: 0\n", "config.yaml:2: dream.quiet: 0 has no unit"},
		{"dream:\n  every: 1.5\n", "config.yaml:2: dream.every: 1.5 has no unit"},
		{"embedder:\n  timeout: 30\n", "config.yaml:2: embedder.timeout: 30 has no unit"},
		{"lessons:\n  router: maybe\n", "config.yaml:2: cannot unmarshal !!str `maybe` into bool"},
		{"lessons:\n  strength: 1\n", "config.yaml:2: field strength not found"},
		{"dream:\n  every: -1h\n", "config.yaml:2: dream.every: -1h0m0s is negative"},
		{"dream:\n  every: 24h\n  quiet: -5m\n", "config.yaml:3: dream.quiet: -5m0s is negative"},
		{"dream:\n  writes: -3\n", "config.yaml:2: dream.writes: -3 is negative"},
		{"dream:\n  llm:\n    url: http://x\n    model: m\n    timeout: -1s\n", "config.yaml:5: dream.llm.timeout: -1s is negative"},
		{"recall:\n  classifier:\n    url: http://x\n    model: m\n    timeout: -2s\n", "config.yaml:5: recall.classifier.timeout: -2s is negative"},
		{"embedder:\n  timeout: -30s\n", "config.yaml:2: embedder.timeout: -30s is negative"},
		{"embedder:\n  dimensions: -8\n", "config.yaml:2: embedder.dimensions: -8 is negative"},
		{"chunk_tokens: 8\n", "config.yaml:1: chunk_tokens must be at least 32"},
		{"memory:\n  shared: sometimes\n", "config.yaml:2: cannot unmarshal !!str `sometimes` into bool"},
		{"dream:\n  propose: yes please\n", "config.yaml:2: cannot unmarshal !!str `yes please` into bool"},
		{"chunk_tokens: 512\nno_such_key: 1\n", "config.yaml:2: field no_such_key not found"},
		{"embedder:\n  provider: lsa\nembedder:\n  provider: openai\n", `config.yaml:3: mapping key "embedder" already defined`},
		{"embedder:\n  url: http://a\n  url: http://b\n", `config.yaml:3: mapping key "url" already defined`},

		// The attacks: a shell command, a way out of the vault.
		{"chunk_tokens: 512\n\n\n\n\nfolders:\n  lessons: \"$(touch PWNED)\"\n",
			`.vaultmem/config.yaml:7: folders.lessons: "$(touch PWNED)" holds "$", which a folder name may not`},
		{"folders:\n  memory: ../../../home/victim/x\n", `config.yaml:2: folders.memory: "../../../home/victim/x" has the component ".."`},
		{"folders:\n  tasks: notes/../../x\n", `config.yaml:2: folders.tasks: "notes/../../x" has the component ".."`},
		{"folders:\n  memory: /home/victim/x\n", `config.yaml:2: folders.memory: "/home/victim/x" is absolute`},
		{"folders:\n  tasks: .obsidian\n", `config.yaml:2: folders.tasks: ".obsidian" has the component ".obsidian", which begins with "."`},
		{"folders:\n  lessons: notes/.hidden\n", `config.yaml:2: folders.lessons: "notes/.hidden" has the component ".hidden"`},
		{"folders:\n  tasks: ./tasks\n", `config.yaml:2: folders.tasks: "./tasks" has the component "."`},
		{"folders:\n  sessions: \"a\\nb\"\n", `config.yaml:2: folders.sessions: "a\nb" holds "\n", which a folder name may not`},
		{"folders:\n  views: \"a\\u202eb\"\n", `config.yaml:2: folders.views: "a\u202eb" holds "\u202e"`},
		{"folders:\n  views: a//b\n", `config.yaml:2: folders.views: "a//b" has an empty component`},
		{"folders:\n  views: \" views\"\n", `config.yaml:2: folders.views: " views" has the component " views", which begins or ends with a space`},
		{"dream:\n  log: ../dream.md\n", `config.yaml:2: dream.log: "../dream.md" has the component ".."`},
		{"dream:\n  log: /tmp/dream.md\n", `config.yaml:2: dream.log: "/tmp/dream.md" is absolute`},
		{"dream:\n  log: .vaultmem/state/dream.md\n", `config.yaml:2: dream.log: ".vaultmem/state/dream.md" has the component ".vaultmem"`},
		{"dream:\n  log: \"x; rm -rf ~.md\"\n", `config.yaml:2: dream.log: "x; rm -rf ~.md" holds ";", which a vault path may not`},

		// What would reach a network or a variable must be one.
		{"embedder:\n  url: file:///etc/passwd\n", `config.yaml:2: embedder.url: "file:///etc/passwd" is not an http or https URL`},
		{"embedder:\n  api_key_env: $HOME\n", `config.yaml:2: embedder.api_key_env: "$HOME" is not the name of an environment variable`},
		{"dream:\n  llm:\n    url: http://x\n    model: m\n    api_key_env: A-B\n", `config.yaml:5: dream.llm.api_key_env: "A-B"`},
		{"allowed_env: [1X]\n", `config.yaml:1: allowed_env: "1X" is not the name`},

		// One key's value may not reach another unseen.
		{"folders: &f\n  memory: m\n", "config.yaml:1: YAML anchors and aliases are not allowed"},
		{"recall:\n  classifier:\n    url: http://x\n    model: m\nembedder:\n  <<: {url: http://x}\n", "config.yaml:6: YAML merge keys (<<) are not allowed"},
	}
	// Every character a folder name may not hold, each refused.
	for _, r := range pathBanned {
		v := "my" + string(r) + "notes"
		cases = append(cases, bad{"folders:\n  memory: " + strconv.Quote(v) + "\n",
			"config.yaml:2: folders.memory: " + strconv.Quote(v) + " holds " + strconv.Quote(string(r)) + ", which a folder name may not"})
	}
	for _, tc := range cases {
		dir := vaultWithConfig(t, tc.yaml)
		_, err := LoadConfig(dir)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("config %q: error %v, want one containing %q", tc.yaml, err, tc.want)
		}
	}
}

// TestConfigGoodPaths: folder names with spaces, letters of any script and
// a trailing slash, the flat memory folder, no views, a dream log in a
// folder are all fine.
func TestConfigGoodPaths(t *testing.T) {
	for _, text := range []string{
		DefaultConfigText,
		"folders:\n  memory: my notes\n  tasks: Aufgaben für 2026\n  lessons: 教训/第一\n  sessions: Sessions #1 — done\n  views: \"\"\n",
		"folders:\n  memory: .\n  tasks: tasks/\n",
		"dream:\n  log: logs/dream log.md\n",
		"folders:\n  memory: Заметки\n  lessons: ملاحظات\n",
		"max_note_size: 1e7\nhooks:\n  lessons: 2.0\ndream:\n  every: 0s\n",
	} {
		if _, err := LoadConfig(vaultWithConfig(t, text)); err != nil {
			t.Errorf("config %q: %v", text, err)
		}
	}
}

// TestConfigDocs: docs/config.md shows the file init writes as it is.
func TestConfigDocs(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "config.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "```yaml\n"+DefaultConfigText+"```") {
		t.Error("docs/config.md does not show DefaultConfigText as it is: copy it in")
	}
}

// TestConfigPropose: Dream proposes from sessions unless dream.propose is
// false; the default config says so.
func TestConfigPropose(t *testing.T) {
	for _, tc := range []struct {
		yaml string
		want bool
	}{{"", true}, {DefaultConfigText, true}, {"dream:\n  propose: false\n", false}, {"dream:\n  propose: true\n", true}} {
		c, err := LoadConfig(vaultWithConfig(t, tc.yaml))
		if err != nil || c.Dream.Proposals() != tc.want {
			t.Errorf("config %q: propose %v, %v; want %v", tc.yaml, c.Dream.Proposals(), err, tc.want)
		}
	}
}

// TestLoadConfigRefusesAnUnsafeDotDir: the config of a .vaultmem others
// can change is not read (the hook reads it before it opens the vault).
func TestLoadConfigRefusesAnUnsafeDotDir(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no ownership check on Windows")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	dir := t.TempDir()
	dot := filepath.Join(dir, ".vaultmem")
	if err := os.MkdirAll(dot, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dot, "config.yaml"), []byte("hooks:\n  prompts: full\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadConfig(dir); err != nil {
		t.Fatalf("the user's own vault: %v", err)
	}
	if err := os.Chmod(dot, 0o777); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadConfig(dir); !errors.Is(err, vault.ErrUntrusted) || !strings.Contains(err.Error(), "vaultmem trust") {
		t.Errorf("a .vaultmem anyone can change: %v", err)
	}
}

// TestDefaultConfigFileLoadsToDefaultConfig: the config file init writes
// (DefaultConfigFile, in a new folder, and in a Claude Code memory folder:
// app's TestInitWritesDefaultConfigFile holds init to it) loads to exactly
// the defaults DefaultConfig states, so the two cannot drift; so does a
// vault with no config file or an empty one.
func TestDefaultConfigFileLoadsToDefaultConfig(t *testing.T) {
	for _, tc := range []struct {
		name       string
		claudeCode bool
		files      map[string]string
	}{
		{"a new folder", false, nil},
		{"a Claude Code memory folder", true, map[string]string{
			"MEMORY.md": "- [Prefs](prefs.md) — how the user works\n",
			"prefs.md":  "---\nname: Prefs\ndescription: how the user works\ntype: user\n---\nUses pnpm.\n",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			t.Setenv("HOME", home)
			t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
			dir := t.TempDir()
			for name, text := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.MkdirAll(filepath.Join(dir, ".vaultmem"), 0o755); err != nil {
				t.Fatal(err)
			}
			// What init writes here is DefaultConfigFile(tc.claudeCode):
			// app's TestInitWritesDefaultConfigFile holds it to that.
			if err := os.WriteFile(filepath.Join(dir, ".vaultmem", "config.yaml"), []byte(DefaultConfigFile(tc.claudeCode)), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := LoadConfig(dir)
			if err != nil {
				t.Fatal(err)
			}
			if want := defaultConfigFor(tc.claudeCode); !reflect.DeepEqual(got, want) {
				t.Errorf("the written config loads to\n%s\nwant\n%s", dump(t, got), dump(t, want))
			}
		})
	}
	for _, text := range []string{"", "# nothing set\n"} {
		if got, err := LoadConfig(vaultWithConfig(t, text)); err != nil || !reflect.DeepEqual(got, DefaultConfig()) {
			t.Errorf("config %q loads to\n%s (%v)\nwant DefaultConfig()", text, dump(t, got), err)
		}
	}
	t.Run("no config file", func(t *testing.T) {
		home := t.TempDir()
		t.Setenv("HOME", home)
		t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
		if got, err := LoadConfig(t.TempDir()); err != nil || !reflect.DeepEqual(got, DefaultConfig()) {
			t.Errorf("no config loads to\n%s (%v)\nwant DefaultConfig()", dump(t, got), err)
		}
	})
}

// dump is c as YAML, to show two configs side by side.
func dump(t *testing.T, c Config) string {
	t.Helper()
	b, err := yaml.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestConfigLessonRulesAsTheyApply: the loaded config holds the lessons'
// strength rule as it applies, a key left out or zero meaning its default,
// the user's own config under the vault's.
func TestConfigLessonRulesAsTheyApply(t *testing.T) {
	d := lesson.DefaultRules()
	for _, tc := range []struct {
		yaml string
		want func(r *lesson.Rules)
	}{
		{"", func(*lesson.Rules) {}},
		{"lessons:\n  decay_per_day: 0.9\n", func(r *lesson.Rules) { r.DecayPerDay = 0.9 }},
		{"lessons:\n  decay_per_day: 0\n  initial: 0.7\n", func(r *lesson.Rules) { r.Initial = 0.7 }},
		{"lessons:\n  decay_after_days: 7\n  router: true\n", func(r *lesson.Rules) { r.DecayAfterDays = 7 }},
	} {
		want := d
		tc.want(&want)
		c, err := LoadConfig(vaultWithConfig(t, tc.yaml))
		if err != nil || c.Lessons.Rules != want {
			t.Errorf("config %q: rules %+v, %v; want %+v", tc.yaml, c.Lessons.Rules, err, want)
		}
	}
}
