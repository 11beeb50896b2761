package app

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/vault"
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
		{"chunk_tokens: 512\nembedder:\n  provider: magic\n", "config.yaml:3: unknown embedder provider"},
		{"embedder:\n  provider: openai\n  model: m\n", "config.yaml:2: embedder provider openai needs url"},
		{"recall:\n  routes:\n    gossip: {strategy: exact-only, budget: 5}\n", "config.yaml:3: recall.routes: recall: unknown intent"},
		{"recall:\n  routes:\n    simple-fact:\n      strategy: fastest\n      budget: 5\n", "config.yaml:4: recall.routes.simple-fact.strategy"},
		{"recall:\n  routes:\n    simple-fact: {strategy: exact-only, layers: [L9], budget: 5}\n", "config.yaml:3: recall.routes.simple-fact.layers"},
		{"recall:\n  classifier:\n    url: http://x\n", "config.yaml:3: recall.classifier needs both"},
		{"hooks:\n  prompts: everything\n", "config.yaml:2: hooks.prompts must be off, first-line or full"},
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
	} {
		if _, err := LoadConfig(vaultWithConfig(t, text)); err != nil {
			t.Errorf("config %q: %v", text, err)
		}
	}
}

// TestGitattributesQuoting: a folder name with spaces is written as git
// reads a quoted pattern; one without, as it is.
func TestGitattributesQuoting(t *testing.T) {
	lines := gitattributesLines("my notes", "tasks", "教训 一", "logs/dream log.md")
	var got []string
	for _, l := range lines {
		got = append(got, l.line)
	}
	for _, want := range []string{`"/my notes/**" merge=vaultmem-note`, "/tasks/** merge=vaultmem-note", `"/教训 一/**" merge=vaultmem-note`,
		`"/logs/dream log.md" merge=union`} {
		if !strings.Contains(strings.Join(got, "\n"), want) {
			t.Errorf("no line %q in:\n%s", want, strings.Join(got, "\n"))
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
