package setup

import (
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pelletier/go-toml/v2"
)

// stamp is the time of every test run, so backups' names are known.
var stamp = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

const testVault = "/srv/vaults/agent memory"

// env is a home folder and a project folder, side by side in a temporary
// folder.
type env struct{ home, proj string }

func newEnv(t *testing.T) env {
	t.Helper()
	root := t.TempDir()
	e := env{filepath.Join(root, "home"), filepath.Join(root, "proj")}
	for _, d := range []string{e.home, e.proj} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

// root is the folder of the scope's files.
func (e env) root(global bool) string {
	if global {
		return e.home
	}
	return e.proj
}

// opts sets up c: in the project, the team's way (the vault in the
// project, vaultmem on the PATH); with global, on testVault.
func (e env) opts(c Client, global bool) Options {
	vault := filepath.Join(e.proj, "agent memory")
	if global {
		vault = testVault
	}
	return Options{Client: c, Vault: vault, Project: e.proj, Home: e.home, Global: global, Binary: Command,
		Now: func() time.Time { return stamp }}
}

// layout is where a client's files are, relative to the scope's folder
// ("" for none): the spec of docs/setup.md.
type layout struct{ mcp, hooks, instructions string }

func files(c Client, global bool) layout {
	switch {
	case c == ClaudeCode && global:
		return layout{".claude.json", ".claude/settings.json", ".claude/CLAUDE.md"}
	case c == ClaudeCode:
		return layout{".mcp.json", ".claude/settings.json", "CLAUDE.md"}
	case c == Codex && global:
		return layout{".codex/config.toml", ".codex/hooks.json", ".codex/AGENTS.md"}
	case c == Codex:
		return layout{".codex/config.toml", ".codex/hooks.json", "AGENTS.md"}
	case c == GeminiCLI && global:
		return layout{".gemini/settings.json", ".gemini/settings.json", ".gemini/GEMINI.md"}
	case c == GeminiCLI:
		return layout{".gemini/settings.json", ".gemini/settings.json", "GEMINI.md"}
	case c == Cursor && global:
		return layout{".cursor/mcp.json", ".cursor/hooks.json", ""}
	}
	return layout{".cursor/mcp.json", ".cursor/hooks.json", ".cursor/rules/vaultmem.mdc"}
}

// wantEvents are the hook events of each client.
var wantEvents = map[Client][]string{
	ClaudeCode: {"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure", "PreCompact", "Stop", "SubagentStop", "SessionEnd"},
	Codex:      {"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PreCompact", "Stop", "SubagentStop"},
	GeminiCLI:  {"SessionStart", "BeforeAgent", "AfterTool", "PreCompress", "AfterAgent", "SessionEnd"},
	Cursor:     {"sessionStart", "beforeSubmitPrompt", "postToolUse", "postToolUseFailure", "preCompact", "stop", "sessionEnd"},
}

// The user's files, each with something of every kind setup must keep.
const (
	userMD = "# Project rules\n\nUse pnpm, never npm.\n\n<!-- a comment of the user's -->\n- Keep answers short.\n"

	userMCP = `{
  "mcpServers": {
    "github": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-github"],
      "env": { "GITHUB_TOKEN": "${GITHUB_TOKEN}" }
    }
  }
}
`
	userClaudeJSON = `{
  "numStartups": 42,
  "theme": "dark",
  "mcpServers": {
    "github": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-github"]
    }
  },
  "projects": {
    "/home/u/code": {
      "allowedTools": [],
      "mcpServers": {}
    }
  }
}
`
	userClaudeSettings = `{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "permissions": {
    "allow": ["Bash(npm run lint)", "Read(~/.zshrc)"]
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          { "type": "command", "command": "~/bin/check-bash.sh" }
        ]
      }
    ],
    "Stop": [
      {
        "hooks": [
          { "type": "command", "command": "say done", "timeout": 5 }
        ]
      }
    ]
  },
  "model": "opus"
}
`
	userCodexTOML = `# My Codex config
model = "gpt-5-codex"  # the default model
approval_policy = "on-request"

[mcp_servers.github]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-github"]

[projects."/home/u/code"]
trust_level = "trusted"
`
	userCodexHooks = `{
    "hooks": {
        "SessionStart": [
            {
                "matcher": "startup",
                "hooks": [{"type": "command", "command": "./scripts/greet.sh"}]
            }
        ],
        "Stop": [
            {
                "hooks": [{"type": "command", "command": "./scripts/notify.sh", "timeout": 3}]
            }
        ]
    }
}
`
	userGeminiSettings = `{
  // Gemini CLI reads comments in its settings
  "general": { "vimMode": true },
  "mcpServers": {
    "github": { "command": "npx", "args": ["-y", "x"] } /* mine */
  },
  "hooks": {
    "BeforeAgent": [
      { "hooks": [ { "name": "lint", "type": "command", "command": "./lint.sh", "timeout": 5000 } ] }
    ]
  }
}
`
	userCursorMCP = "{\n\t\"mcpServers\": {\n\t\t\"github\": {\n\t\t\t\"command\": \"npx\",\n\t\t\t\"args\": [\"-y\", \"x\"]\n\t\t}\n\t}\n}\n"

	userCursorHooks = `{"version":1,"hooks":{"stop":[{"command":"./audit.sh"}],"afterFileEdit":[{"command":"./format.sh","timeout":5}]}}` + "\n"
)

// userFiles are the user's files for the client and scope, by path
// relative to the scope's folder.
func userFiles(c Client, global bool) map[string]string {
	l := files(c, global)
	switch c {
	case ClaudeCode:
		mcp := userMCP
		if global {
			mcp = userClaudeJSON
		}
		return map[string]string{l.mcp: mcp, l.hooks: userClaudeSettings, l.instructions: userMD}
	case Codex:
		return map[string]string{l.mcp: userCodexTOML, l.hooks: userCodexHooks, l.instructions: userMD}
	case GeminiCLI:
		return map[string]string{l.mcp: userGeminiSettings, l.instructions: userMD}
	}
	return map[string]string{l.mcp: userCursorMCP, l.hooks: userCursorHooks}
}

// write makes the files under dir.
func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for rel, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// snapshot is every file under dir by relative path, with backups when
// withBackups.
func snapshot(t *testing.T, dir string, withBackups bool) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !withBackups && strings.Contains(d.Name(), BackupInfix) {
			return nil
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func run(t *testing.T, o Options) Result {
	t.Helper()
	res, err := Run(o)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// actions are the changes' actions by file, relative to dir.
func actions(t *testing.T, dir string, res Result) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, c := range res.Changes {
		rel, err := filepath.Rel(dir, c.File)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.ToSlash(rel)] = c.Action
	}
	return out
}

// readJSON decodes the JSON file (comments allowed).
func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	clean, err := blankComments(b)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(clean, &v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}

// handlers are the hook handlers on the event in a decoded hooks file,
// with the matcher of the group of each.
func handlers(doc map[string]any, event string, flat bool) (hs []map[string]any, matchers []string) {
	hooks, _ := doc["hooks"].(map[string]any)
	list, _ := hooks[event].([]any)
	for _, e := range list {
		m, _ := e.(map[string]any)
		if flat {
			hs = append(hs, m)
			continue
		}
		inner, _ := m["hooks"].([]any)
		for _, h := range inner {
			hm, _ := h.(map[string]any)
			hs = append(hs, hm)
			matcher, _ := m["matcher"].(string)
			matchers = append(matchers, matcher)
		}
	}
	return hs, matchers
}

// checkSetUp checks that the client's files hold what setup writes for o.
func checkSetUp(t *testing.T, o Options) {
	t.Helper()
	l := files(o.Client, o.Global)
	dir := o.root()
	cmd := o.hookCommand()
	wantArgs := []any{"--vault", o.mcpVault(), "mcp"}

	// The MCP server.
	var server map[string]any
	if o.Client == Codex {
		b, err := os.ReadFile(filepath.Join(dir, l.mcp))
		if err != nil {
			t.Fatal(err)
		}
		var cfg map[string]any
		if err := toml.Unmarshal(b, &cfg); err != nil {
			t.Fatal(err)
		}
		server, _ = cfg["mcp_servers"].(map[string]any)["vaultmem"].(map[string]any)
	} else {
		servers, _ := readJSON(t, filepath.Join(dir, l.mcp))["mcpServers"].(map[string]any)
		server, _ = servers["vaultmem"].(map[string]any)
	}
	if server["command"] != o.Binary || !reflect.DeepEqual(server["args"], wantArgs) {
		t.Errorf("%s: MCP server %v", l.mcp, server)
	}
	if wantType := map[Client]any{ClaudeCode: "stdio", Cursor: "stdio"}[o.Client]; server["type"] != wantType {
		t.Errorf("%s: MCP server type %v, want %v", l.mcp, server["type"], wantType)
	}

	// One hook of setup's on each event, of the client's shape.
	doc := readJSON(t, filepath.Join(dir, l.hooks))
	want := map[string]any{"type": "command", "command": cmd, "timeout": float64(10)}
	switch o.Client {
	case GeminiCLI:
		want["name"], want["timeout"] = "vaultmem", float64(10000)
	case Cursor:
		delete(want, "type")
		if doc["version"] != float64(1) {
			t.Errorf("%s: version %v, want 1", l.hooks, doc["version"])
		}
	}
	for _, ev := range wantEvents[o.Client] {
		hs, matchers := handlers(doc, ev, o.Client == Cursor)
		n := 0
		for i, h := range hs {
			if h["command"] != cmd {
				continue
			}
			n++
			if !reflect.DeepEqual(h, want) {
				t.Errorf("%s: %s handler %v, want %v", l.hooks, ev, h, want)
			}
			wantMatcher := ""
			if ev == "SessionStart" && (o.Client == ClaudeCode || o.Client == Codex) {
				wantMatcher = "startup|resume|clear|compact"
			}
			if matchers != nil && matchers[i] != wantMatcher {
				t.Errorf("%s: %s matcher %q, want %q", l.hooks, ev, matchers[i], wantMatcher)
			}
		}
		if n != 1 {
			t.Errorf("%s: %d hooks of vaultmem on %s, want 1", l.hooks, n, ev)
		}
	}

	// The instructions.
	if l.instructions != "" {
		b, err := os.ReadFile(filepath.Join(dir, l.instructions))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Count(strings.ReplaceAll(string(b), "\r\n", "\n"), instructionBlock) != 1 {
			t.Errorf("%s: no memory protocol block:\n%s", l.instructions, b)
		}
		if strings.HasSuffix(l.instructions, ".mdc") && !strings.HasPrefix(string(b), "---\ndescription: ") ||
			strings.HasSuffix(l.instructions, ".mdc") && !strings.Contains(string(b), "\nalwaysApply: true\n---\n") {
			t.Errorf("%s: not a rule Cursor always applies:\n%s", l.instructions, b)
		}
	}
}

// forEach runs f for each client in each scope.
func forEach(t *testing.T, f func(t *testing.T, c Client, global bool)) {
	for _, c := range Clients {
		for _, global := range []bool{false, true} {
			name := string(c) + "/project"
			if global {
				name = string(c) + "/global"
			}
			t.Run(name, func(t *testing.T) { f(t, c, global) })
		}
	}
}

// TestFresh: with none of the client's files there, setup creates them;
// a second run changes nothing; remove deletes them and the folders it
// made, and nothing is written outside the scope's folder.
func TestFresh(t *testing.T) {
	forEach(t, func(t *testing.T, c Client, global bool) {
		e := newEnv(t)
		o := e.opts(c, global)
		res := run(t, o)
		l := files(c, global)
		want := map[string]string{l.mcp: Create, l.hooks: Create}
		if l.instructions != "" {
			want[l.instructions] = Create
		}
		if got := actions(t, o.root(), res); !reflect.DeepEqual(got, want) {
			t.Errorf("changes %v, want %v", got, want)
		}
		for _, ch := range res.Changes {
			if ch.Backup != "" || ch.What == "" {
				t.Errorf("change %+v", ch)
			}
		}
		checkSetUp(t, o)
		before := snapshot(t, o.root(), true)

		again := run(t, o)
		for _, ch := range again.Changes {
			if ch.Action != Unchanged || ch.Backup != "" {
				t.Errorf("second run: %+v", ch)
			}
		}
		if after := snapshot(t, o.root(), true); !reflect.DeepEqual(after, before) {
			t.Errorf("the second run changed files")
		}

		o.Remove = true
		res = run(t, o)
		for _, ch := range res.Changes {
			if ch.Action != Delete || ch.Backup != "" {
				t.Errorf("remove: %+v", ch)
			}
		}
		for _, dir := range []string{e.home, e.proj} {
			if entries, _ := os.ReadDir(dir); len(entries) > 0 {
				t.Errorf("%s holds %v after remove", dir, entries)
			}
		}
		if res := run(t, o); len(res.Changes) != 0 {
			t.Errorf("a second remove: %v", res.Changes)
		}
	})
}

// contains reports whether every value of orig is in got: each member of
// an object (got may have more), each element of a list at the same place
// (got may have more after them).
func contains(got, orig any) bool {
	switch o := orig.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return false
		}
		for k, v := range o {
			if !contains(g[k], v) {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) < len(o) {
			return false
		}
		for i := range o {
			if !contains(g[i], o[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(got, orig)
}

// decodeAny decodes a JSON (comments allowed) or TOML file's text.
func decodeAny(t *testing.T, name, text string) any {
	t.Helper()
	var v map[string]any
	var err error
	if strings.HasSuffix(name, ".toml") {
		err = toml.Unmarshal([]byte(text), &v)
	} else {
		clean, cerr := blankComments([]byte(text))
		if cerr != nil {
			t.Fatal(cerr)
		}
		err = json.Unmarshal(clean, &v)
	}
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return v
}

// commentRe finds a comment in a line of JSON or TOML.
var commentRe = regexp.MustCompile(`(^|\s)(#|//|/\*)`)

// TestUserContent: setup merges into the user's files, keeping every key,
// server, hook (on the same events too), comment and line of theirs, and
// saves each file it changes; a second run changes nothing; remove gives
// back every file byte for byte and deletes the ones setup made.
func TestUserContent(t *testing.T) {
	forEach(t, func(t *testing.T, c Client, global bool) {
		e := newEnv(t)
		o := e.opts(c, global)
		user := userFiles(c, global)
		write(t, o.root(), user)
		orig := snapshot(t, o.root(), true)

		res := run(t, o)
		got := actions(t, o.root(), res)
		for rel, action := range got {
			if _, ok := user[rel]; ok != (action == Update) || !ok && action != Create {
				t.Errorf("%s: %s", rel, action)
			}
		}
		for _, ch := range res.Changes {
			rel, _ := filepath.Rel(o.root(), ch.File)
			rel = filepath.ToSlash(rel)
			if ch.Action != Update {
				continue
			}
			if want := ch.File + BackupInfix + "20260304-050607"; ch.Backup != want {
				t.Errorf("%s: backup %q, want %q", rel, ch.Backup, want)
			}
			if b, err := os.ReadFile(ch.Backup); err != nil || string(b) != user[rel] {
				t.Errorf("%s: backup %q (%v)", rel, b, err)
			}
			after, err := os.ReadFile(ch.File)
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasSuffix(rel, ".md") {
				if !strings.HasPrefix(string(after), user[rel]) {
					t.Errorf("%s: the user's text is not kept:\n%s", rel, after)
				}
				continue
			}
			if !contains(decodeAny(t, rel, string(after)), decodeAny(t, rel, user[rel])) {
				t.Errorf("%s: lost some of the user's content:\n%s", rel, after)
			}
			// Comments stay on the line of what they follow (which may
			// get a comma).
			for _, line := range strings.Split(user[rel], "\n") {
				loc := commentRe.FindStringIndex(line)
				if loc == nil {
					continue
				}
				k := loc[1] - len(strings.TrimLeft(line[loc[0]:loc[1]], " \t"))
				before, comment := strings.TrimRight(line[:k], " ,"), line[k:]
				if !slices.ContainsFunc(strings.Split(string(after), "\n"), func(l string) bool {
					return strings.HasPrefix(l, before) && strings.HasSuffix(l, comment)
				}) {
					t.Errorf("%s: lost the line %q", rel, line)
				}
			}
		}
		checkSetUp(t, o)

		set := snapshot(t, o.root(), true)
		for _, ch := range run(t, o).Changes {
			if ch.Action != Unchanged {
				t.Errorf("second run: %+v", ch)
			}
		}
		if after := snapshot(t, o.root(), true); !reflect.DeepEqual(after, set) {
			t.Errorf("the second run changed files")
		}

		o.Remove = true
		res = run(t, o)
		for rel, action := range actions(t, o.root(), res) {
			if _, ok := user[rel]; ok != (action == Remove) || !ok && action != Delete {
				t.Errorf("remove: %s: %s", rel, action)
			}
		}
		after := snapshot(t, o.root(), false)
		withoutBackups := snapshot(t, o.root(), false)
		for rel, text := range orig {
			if after[rel] != text {
				t.Errorf("%s after remove:\n%s\nwant:\n%s", rel, after[rel], text)
			}
		}
		if len(withoutBackups) != len(orig) {
			t.Errorf("files after remove: %v", slices.Sorted(mapsKeys(withoutBackups)))
		}
	})
}

func mapsKeys(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// TestDryRun: a dry run reports the changes a run makes, backups
// included, and writes nothing, whether setting up or removing.
func TestDryRun(t *testing.T) {
	forEach(t, func(t *testing.T, c Client, global bool) {
		for _, withUser := range []bool{false, true} {
			e := newEnv(t)
			o := e.opts(c, global)
			if withUser {
				write(t, o.root(), userFiles(c, global))
			}
			for _, remove := range []bool{false, true} {
				o.Remove = remove
				before := snapshot(t, o.root(), true)
				o.DryRun = true
				dry := run(t, o)
				if after := snapshot(t, o.root(), true); !reflect.DeepEqual(after, before) {
					t.Fatalf("the dry run (remove %v) wrote files", remove)
				}
				o.DryRun = false
				if real := run(t, o); !reflect.DeepEqual(dry, real) {
					t.Errorf("dry run (remove %v):\n%+v\nthe run:\n%+v", remove, dry, real)
				}
			}
		}
	})
}

// TestRefused: a file that does not parse, or that setup cannot merge
// into, is an error naming the file (and line), and nothing is written,
// to that file or any other.
func TestRefused(t *testing.T) {
	tests := []struct {
		name   string
		client Client
		files  map[string]string
		want   string
		// removeOK: removing works (nothing of setup's can be in the
		// file) and changes nothing.
		removeOK bool
	}{
		{"bad JSON", ClaudeCode, map[string]string{"CLAUDE.md": userMD, ".mcp.json": userMCP,
			".claude/settings.json": "{\n  \"hooks\": {\n    \"Stop\": [,]\n  }\n}\n"}, ".claude/settings.json:3:14: not valid JSON", false},
		{"trailing comma", Cursor, map[string]string{".cursor/mcp.json": "{\n  \"mcpServers\": {},\n}\n"}, ".cursor/mcp.json:3:1: not valid JSON", false},
		{"not an object", Cursor, map[string]string{".cursor/hooks.json": "[]\n"}, ".cursor/hooks.json: not a JSON object", false},
		{"hooks not an object", ClaudeCode, map[string]string{".claude/settings.json": `{"hooks": []}`}, ".claude/settings.json: hooks is not an object", true},
		{"event not a list", GeminiCLI, map[string]string{".gemini/settings.json": `{"hooks": {"AfterTool": {}}}`}, ".gemini/settings.json: hooks.AfterTool is not a list", true},
		{"mcpServers not an object", GeminiCLI, map[string]string{".gemini/settings.json": `{"mcpServers": "x"}`}, ".gemini/settings.json: mcpServers is not an object", true},
		{"comment not closed", GeminiCLI, map[string]string{".gemini/settings.json": "{\n  /* x\n}\n"}, ".gemini/settings.json: 2:3: a /* comment is not closed", false},
		{"bad TOML", Codex, map[string]string{".codex/hooks.json": userCodexHooks, ".codex/config.toml": "model = \"o3\"\n[mcp_servers\n"}, ".codex/config.toml:2:", false},
		{"server of the user's", Codex, map[string]string{".codex/config.toml": "[mcp_servers.vaultmem]\ncommand = \"vm\"\n"},
			".codex/config.toml: [mcp_servers.vaultmem] is already defined outside vaultmem's block", true},
		{"inline table", Codex, map[string]string{".codex/config.toml": "mcp_servers = { github = { command = \"npx\" } }\n"},
			"adding [mcp_servers.vaultmem] would break the file", true},
		{"broken markers", ClaudeCode, map[string]string{"CLAUDE.md": "# Rules\n\n<!-- vaultmem:begin -->\nold\n"},
			"CLAUDE.md:3: <!-- vaultmem:begin --> without <!-- vaultmem:end --> after it", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, remove := range []bool{false, true} {
				e := newEnv(t)
				write(t, e.proj, tt.files)
				before := snapshot(t, e.proj, true)
				o := e.opts(tt.client, false)
				o.Remove = remove
				_, err := Run(o)
				if remove && tt.removeOK {
					if err != nil {
						t.Errorf("remove: %v", err)
					}
					if after := snapshot(t, e.proj, true); !reflect.DeepEqual(after, before) {
						t.Errorf("remove changed files")
					}
					continue
				}
				if err == nil || !strings.Contains(err.Error(), filepath.Join(e.proj, tt.want)) && !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("remove %v: error %v, want %q", remove, err, tt.want)
				}
				if !strings.Contains(err.Error(), e.proj) {
					t.Errorf("the error names no file: %v", err)
				}
				if after := snapshot(t, e.proj, true); !reflect.DeepEqual(after, before) {
					t.Errorf("remove %v: files written despite the error", remove)
				}
				if entries, _ := os.ReadDir(e.home); len(entries) > 0 {
					t.Errorf("remove %v: wrote in home", remove)
				}
			}
		})
	}
}

// TestOddPaths: vault and project paths with spaces, %, #, emoji and a
// quote are written escaped for JSON and TOML and quoted for the shell,
// so the hook runs with the vault as one argument; remove still finds
// setup's entries.
func TestOddPaths(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("runs the hook command with sh")
	}
	for _, c := range Clients {
		t.Run(string(c), func(t *testing.T) {
			root := t.TempDir()
			e := env{filepath.Join(root, "home"), filepath.Join(root, "my project 100% #1 😀")}
			for _, d := range []string{e.home, e.proj} {
				if err := os.Mkdir(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			// A stand-in for vaultmem, in a folder with a space, that
			// prints its arguments one a line.
			bin := filepath.Join(root, "bin dir", "vaultmem")
			write(t, root, map[string]string{"bin dir/vaultmem": "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n"})
			if err := os.Chmod(bin, 0o755); err != nil {
				t.Fatal(err)
			}
			o := e.opts(c, false)
			rel := `agent memory/it's "100%" #1 😀 \ $HOME`
			o.Vault = filepath.Join(e.proj, filepath.FromSlash(rel))
			write(t, e.proj, userFiles(c, false))
			orig := snapshot(t, e.proj, false)
			run(t, o)
			checkSetUp(t, o)

			sh := exec.Command("sh", "-c", o.hookCommand())
			sh.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+string(filepath.ListSeparator)+os.Getenv("PATH"))
			out, err := sh.Output()
			if err != nil {
				t.Fatal(err)
			}
			if got, want := string(out), "--vault\n"+rel+"\nhook\n--client\n"+string(c)+"\n"; got != want {
				t.Errorf("the hook ran with\n%s\nwant\n%s", got, want)
			}
			o.Remove = true
			run(t, o)
			if after := snapshot(t, e.proj, false); !reflect.DeepEqual(after, orig) {
				t.Errorf("remove did not restore the files: %v", after)
			}
		})
	}
}

// TestMoved: run again with another vault or binary, setup updates its
// entries in place, one per event, and remove still restores the user's
// files.
func TestMoved(t *testing.T) {
	forEach(t, func(t *testing.T, c Client, global bool) {
		e := newEnv(t)
		o := e.opts(c, global)
		write(t, o.root(), userFiles(c, global))
		orig := snapshot(t, o.root(), false)
		run(t, o)
		// In a project, the team's files stay the team's: the vault moves
		// within it.
		o.Vault, o.Now = filepath.Join(e.proj, "notes", "vault"), func() time.Time { return stamp.Add(time.Hour) }
		if global {
			o.Vault, o.Binary = "/elsewhere/vault", "/opt/vaultmem/bin/vaultmem"
		}
		res := run(t, o)
		for _, ch := range res.Changes {
			instructions := ch.What == "memory protocol block" || strings.HasPrefix(ch.What, "memory protocol rule")
			if instructions && ch.Action != Unchanged || !instructions && (ch.Action != Update || !strings.HasSuffix(ch.Backup, "20260304-060607")) {
				t.Errorf("moved: %+v", ch)
			}
		}
		checkSetUp(t, o)
		o.Remove = true
		run(t, o)
		if after := snapshot(t, o.root(), false); !reflect.DeepEqual(after, orig) {
			t.Errorf("remove did not restore the files")
		}
	})
}

// TestStrayHooks: setup's handlers the user copied into a group of
// theirs, repeated, or left on an event setup no longer uses are taken
// out; the user's handlers stay.
func TestStrayHooks(t *testing.T) {
	e := newEnv(t)
	o := e.opts(ClaudeCode, false)
	ours := `{"type": "command", "command": "vaultmem --vault /old hook --client claude-code"}`
	write(t, e.proj, map[string]string{".claude/settings.json": `{
  "hooks": {
    "Stop": [
      {"hooks": [{"type": "command", "command": "say done"}, ` + ours + `]},
      {"hooks": [` + ours + `]},
      {"hooks": [` + ours + `, ` + ours + `]}
    ],
    "Notification": [{"hooks": [` + ours + `]}],
    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "vaultmem --vault /v hook --client codex"}]}]
  }
}
`})
	run(t, o)
	checkSetUp(t, o)
	doc := readJSON(t, filepath.Join(e.proj, ".claude", "settings.json"))
	if hs, _ := handlers(doc, "Notification", false); len(hs) != 0 {
		t.Errorf("Notification: %v", hs)
	}
	stop, _ := handlers(doc, "Stop", false)
	var cmds []string
	for _, h := range stop {
		cmds = append(cmds, h["command"].(string))
	}
	if want := []string{"say done", o.hookCommand()}; !reflect.DeepEqual(cmds, want) {
		t.Errorf("Stop: %q, want %q", cmds, want)
	}
	o.Remove = true
	run(t, o)
	doc = readJSON(t, filepath.Join(e.proj, ".claude", "settings.json"))
	want := map[string]any{"hooks": map[string]any{
		"Stop":       []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": "say done"}}}},
		"PreToolUse": []any{map[string]any{"matcher": "Bash", "hooks": []any{map[string]any{"type": "command", "command": "vaultmem --vault /v hook --client codex"}}}},
	}}
	if !reflect.DeepEqual(doc, want) {
		t.Errorf("after remove: %v", doc)
	}
}

// TestLinkAndMode: a file that is a link (to a dotfiles repository) is
// written through the link, which stays; an existing file's mode is kept,
// by the file and its backup; CRLF line endings are kept.
func TestLinkAndMode(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links and modes")
	}
	e := newEnv(t)
	o := e.opts(ClaudeCode, true)
	dotfiles := filepath.Join(filepath.Dir(e.home), "dotfiles")
	crlf := strings.ReplaceAll(userClaudeSettings, "\n", "\r\n")
	write(t, dotfiles, map[string]string{"settings.json": crlf, "CLAUDE.md": "# Mine\r\n"})
	write(t, e.home, map[string]string{".claude.json": userClaudeJSON})
	if err := os.Chmod(filepath.Join(e.home, ".claude.json"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(e.home, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dotfiles, "settings.json"), link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dotfiles, "CLAUDE.md"), filepath.Join(e.home, ".claude", "CLAUDE.md")); err != nil {
		t.Fatal(err)
	}
	res := run(t, o)
	checkSetUp(t, o)
	if info, err := os.Lstat(link); err != nil || info.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("settings.json is no longer a link (%v)", err)
	}
	for _, ch := range res.Changes {
		if strings.HasSuffix(ch.File, "settings.json") && filepath.Dir(ch.Backup) != dotfiles {
			t.Errorf("backup %s, want it beside the link's target", ch.Backup)
		}
		if strings.HasSuffix(ch.File, ".claude.json") {
			for _, p := range []string{ch.File, ch.Backup} {
				if info, err := os.Stat(p); err != nil || info.Mode().Perm() != 0o600 {
					t.Errorf("%s: mode %v (%v), want 0600", p, info.Mode(), err)
				}
			}
		}
	}
	for _, name := range []string{"settings.json", "CLAUDE.md"} {
		b, _ := os.ReadFile(filepath.Join(dotfiles, name))
		if strings.Count(string(b), "\n") != strings.Count(string(b), "\r\n") {
			t.Errorf("%s: a line ending that is not CRLF:\n%q", name, b)
		}
	}
	o.Remove = true
	run(t, o)
	if b, _ := os.ReadFile(filepath.Join(dotfiles, "settings.json")); string(b) != crlf {
		t.Errorf("settings.json after remove:\n%q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dotfiles, "CLAUDE.md")); string(b) != "# Mine\r\n" {
		t.Errorf("CLAUDE.md after remove:\n%q", b)
	}
}

// TestLinkedFolder: files setup made in a folder that is a link are
// deleted by remove, but the link stays; a file that is a link is emptied
// of setup's part, not deleted (its target is the user's).
func TestLinkedFolder(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links")
	}
	e := newEnv(t)
	dotfiles := filepath.Join(filepath.Dir(e.home), "dotfiles")
	if err := os.MkdirAll(filepath.Join(dotfiles, "cursor"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, dotfiles, map[string]string{"mcp.json": "{}\n"})
	if err := os.Symlink(filepath.Join(dotfiles, "cursor"), filepath.Join(e.home, ".cursor")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dotfiles, "mcp.json"), filepath.Join(dotfiles, "cursor", "mcp.json")); err != nil {
		t.Fatal(err)
	}
	o := e.opts(Cursor, true)
	run(t, o)
	checkSetUp(t, o)
	o.Remove = true
	got := actions(t, e.home, run(t, o))
	if want := map[string]string{".cursor/mcp.json": Remove, ".cursor/hooks.json": Delete}; !reflect.DeepEqual(got, want) {
		t.Errorf("remove: %v, want %v", got, want)
	}
	if info, err := os.Lstat(filepath.Join(e.home, ".cursor")); err != nil || info.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link ~/.cursor is gone (%v)", err)
	}
	if b, err := os.ReadFile(filepath.Join(dotfiles, "mcp.json")); err != nil || string(b) != "{}\n" {
		t.Errorf("dotfiles/mcp.json: %q (%v)", b, err)
	}
	if _, err := os.Stat(filepath.Join(dotfiles, "cursor", "hooks.json")); !os.IsNotExist(err) {
		t.Errorf("hooks.json not deleted (%v)", err)
	}
}

// TestChangedMeanwhile: a file someone else writes between setup's read
// and its write is left alone, with an error.
func TestChangedMeanwhile(t *testing.T) {
	e := newEnv(t)
	write(t, e.proj, map[string]string{"CLAUDE.md": userMD})
	o := e.opts(ClaudeCode, false)
	tg := o.targets()[2]
	p, err := tg.plan(false)
	if err != nil {
		t.Fatal(err)
	}
	write(t, e.proj, map[string]string{"CLAUDE.md": userMD + "more\n"})
	c := Change{File: p.path, Backup: backupName(p.real, "x")}
	if err := p.apply(&c, "x", e.proj); err == nil || !strings.Contains(err.Error(), "CLAUDE.md changed while setup ran") {
		t.Errorf("error %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(e.proj, "CLAUDE.md")); string(b) != userMD+"more\n" {
		t.Errorf("CLAUDE.md overwritten:\n%s", b)
	}
}

// TestOptions: what Run cannot work with is refused before anything is
// read.
func TestOptions(t *testing.T) {
	e := newEnv(t)
	ok := e.opts(ClaudeCode, false)
	tests := []struct {
		name string
		edit func(*Options)
		want string
	}{
		{"client", func(o *Options) { o.Client = "vim" }, `no client "vim": vaultmem knows claude-code, codex, gemini-cli and cursor`},
		{"relative vault", func(o *Options) { o.Vault = "vault" }, "the vault folder must be an absolute path"},
		{"relative project", func(o *Options) { o.Project = "." }, "the project folder must be an absolute path"},
		{"no home", func(o *Options) { o.Home = "" }, "the home folder must be an absolute path"},
		{"no binary", func(o *Options) { o.Binary = "" }, "no vaultmem command given"},
	}
	for _, tt := range tests {
		o := ok
		tt.edit(&o)
		if _, err := Run(o); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
	o := ok
	o.Remove, o.Vault, o.Binary = true, "", ""
	if _, err := Run(o); err != nil {
		t.Errorf("remove needs no vault nor binary: %v", err)
	}
}

// TestNotes: the notes tell the user what is left to do for each client.
func TestNotes(t *testing.T) {
	e := newEnv(t)
	write(t, e.home, map[string]string{".codex/AGENTS.override.md": "mine\n"})
	tests := []struct {
		client Client
		global bool
		want   []string
	}{
		{ClaudeCode, false, []string{"approve the MCP server vaultmem", "The project's files are for the team", "vault agent memory/ of the project"}},
		{Codex, true, []string{"open /hooks in Codex", "AGENTS.override.md instead of AGENTS.md"}},
		{GeminiCLI, false, []string{"only in a trusted folder"}},
		{Cursor, false, []string{"also runs Claude Code's hooks"}},
		{Cursor, true, []string{"also runs Claude Code's hooks", "Cursor Settings > Rules"}},
	}
	for _, tt := range tests {
		o := e.opts(tt.client, tt.global)
		o.DryRun = true
		notes := strings.Join(run(t, o).Notes, "\n")
		for _, w := range tt.want {
			if !strings.Contains(notes, w) {
				t.Errorf("%s (global %v): notes %q lack %q", tt.client, tt.global, notes, w)
			}
		}
	}
}

// TestParseClient: the four names, and an error listing them.
func TestParseClient(t *testing.T) {
	for _, c := range Clients {
		if got, err := ParseClient(string(c)); err != nil || got != c {
			t.Errorf("ParseClient(%s) = %v, %v", c, got, err)
		}
	}
	if _, err := ParseClient("Claude"); err == nil || !strings.Contains(err.Error(), "claude-code, codex, gemini-cli and cursor") {
		t.Errorf("error %v", err)
	}
}
