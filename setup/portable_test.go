package setup

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestTeamFiles: set up in a project the team's way (vaultmem on the
// PATH, the vault in the project), every client's project files name
// neither the project's absolute path nor the home folder; every change
// says it is for the team; the hook command and the MCP server name
// `vaultmem` and the vault relative to the project (Cursor's server under
// ${workspaceFolder}); nothing is written in the home folder.
func TestTeamFiles(t *testing.T) {
	for _, c := range Clients {
		t.Run(string(c), func(t *testing.T) {
			e := newEnv(t)
			o := e.opts(c, false)
			o.Vault = filepath.Join(e.proj, "agent-memory")
			res := run(t, o)
			if !res.Shared {
				t.Errorf("Shared is false")
			}
			for _, ch := range res.Changes {
				if ch.For != ForTeam {
					t.Errorf("change %+v: for %q, want %q", ch, ch.For, ForTeam)
				}
				text := mustReadFile(t, ch.File)
				for _, abs := range []string{e.proj, e.home, filepath.Dir(e.proj)} {
					if strings.Contains(text, abs) {
						t.Errorf("%s names %s:\n%s", ch.File, abs, text)
					}
				}
			}
			if got, want := o.hookCommand(), "vaultmem --vault agent-memory hook --client "+string(c); got != want {
				t.Errorf("hook command %q, want %q", got, want)
			}
			wantVault := map[Client]string{Cursor: "${workspaceFolder}/agent-memory"}[c]
			if wantVault == "" {
				wantVault = "agent-memory"
			}
			if got := o.mcpVault(); got != wantVault {
				t.Errorf("MCP server's vault %q, want %q", got, wantVault)
			}
			checkSetUp(t, o)
			if entries, _ := os.ReadDir(e.home); len(entries) > 0 {
				t.Errorf("the team's set-up wrote in the home folder: %v", entries)
			}
		})
	}
}

// TestShared: when the project's files can be the team's, and why not.
func TestShared(t *testing.T) {
	proj := filepath.Join(string(filepath.Separator), "w", "app")
	tests := []struct {
		name   string
		edit   func(o *Options)
		shared bool
		why    string
	}{
		{"vault in the project", func(o *Options) {}, true, ""},
		{"vault deep in the project", func(o *Options) { o.Vault = filepath.Join(proj, "docs", "memory") }, true, ""},
		{"the project is the vault", func(o *Options) { o.Vault = proj }, true, ""},
		{"vault beside the project", func(o *Options) { o.Vault = filepath.Join(proj, "..", "app-memory") },
			false, "the vault " + filepath.Join(proj, "..", "app-memory") + " is outside the project"},
		{"vault above the project", func(o *Options) { o.Vault = filepath.Dir(proj) }, false, "is outside the project"},
		{"a folder named like ..", func(o *Options) { o.Vault = filepath.Join(proj, "..memory") }, true, ""},
		{"binary off the PATH", func(o *Options) { o.Binary = "/opt/vm/vaultmem" }, false,
			"vaultmem is not on the PATH (this machine runs /opt/vm/vaultmem)"},
		{"global", func(o *Options) { o.Global = true }, false, "the set-up is the user's"},
	}
	for _, tt := range tests {
		o := Options{Client: ClaudeCode, Project: proj, Vault: filepath.Join(proj, "agent-memory"), Binary: Command}
		tt.edit(&o)
		shared, why := o.Shared()
		if shared != tt.shared || !strings.Contains(why, tt.why) {
			t.Errorf("%s: Shared() = %v, %q; want %v, %q", tt.name, shared, why, tt.shared, tt.why)
		}
	}
}

// TestMachineRefused: in a project, Codex, Gemini CLI and Cursor, which
// have no file for one project on one machine, refuse a set-up that
// would put this machine's paths into the team's files, saying why and
// what to do, and write nothing; --global and --remove still work.
func TestMachineRefused(t *testing.T) {
	for _, c := range []Client{Codex, GeminiCLI, Cursor} {
		for _, tt := range []struct {
			name string
			edit func(e env, o *Options)
			why  string
		}{
			{"binary off the PATH", func(_ env, o *Options) { o.Binary = "/opt/vm/vaultmem" }, "vaultmem is not on the PATH"},
			{"vault outside", func(e env, o *Options) { o.Vault = filepath.Join(e.home, "vault") }, "is outside the project"},
		} {
			t.Run(string(c)+"/"+tt.name, func(t *testing.T) {
				e := newEnv(t)
				write(t, e.proj, userFiles(c, false))
				before := snapshot(t, e.proj, true)
				o := e.opts(c, false)
				tt.edit(e, &o)
				_, err := Run(o)
				if err == nil || !strings.Contains(err.Error(), tt.why) || !strings.Contains(err.Error(), "--global") {
					t.Errorf("error %v, want one saying %q and --global", err, tt.why)
				}
				if after := snapshot(t, e.proj, true); !reflect.DeepEqual(after, before) {
					t.Errorf("refused, yet files changed")
				}
				if entries, _ := os.ReadDir(e.home); len(entries) > 0 {
					t.Errorf("refused, yet the home folder holds %v", entries)
				}
				o.Global = true
				if _, err := Run(o); err != nil {
					t.Errorf("--global: %v", err)
				}
			})
		}
	}
}

// userClaudeState is a ~/.claude.json as Claude Code keeps it: its own
// state, an entry per project opened (each with its own, empty,
// mcpServers).
func userClaudeState(proj string) string {
	return `{
  "numStartups": 7,
  "projects": {
    "/home/u/other": {
      "allowedTools": [],
      "mcpServers": {}
    },
    ` + string(compact(proj)) + `: {
      "allowedTools": [],
      "mcpServers": {},
      "hasTrustDialogAccepted": true
    }
  }
}
`
}

// TestClaudeCodeMachine: Claude Code set up where vaultmem is not on the
// PATH (or the vault is outside the project) gets its MCP server in
// ~/.claude.json for this project alone and its hooks in
// .claude/settings.local.json, both for this machine, with the absolute
// binary and vault; the team's files get nothing with a path (CLAUDE.md
// only). Once vaultmem is on the PATH, a second run moves the server and
// the hooks to the team's files and takes them out of this machine's,
// which are given back byte for byte; off the PATH again, it writes this
// machine's files and leaves the team's alone, saying they run vaultmem
// too; --remove gives every file back byte for byte, in the project and
// in the home folder.
func TestClaudeCodeMachine(t *testing.T) {
	for _, claudeJSON := range []string{"", "state"} {
		t.Run("claude.json="+claudeJSON, func(t *testing.T) {
			e := newEnv(t)
			user := userFiles(ClaudeCode, false)
			write(t, e.proj, user)
			if claudeJSON != "" {
				write(t, e.home, map[string]string{".claude.json": userClaudeState(e.proj)})
			}
			origProj, origHome := snapshot(t, e.proj, false), snapshot(t, e.home, false)

			o := e.opts(ClaudeCode, false)
			o.Binary = "/opt/vm/vaultmem"
			res := run(t, o)
			if res.Shared {
				t.Errorf("Shared is true")
			}
			want := map[string]string{
				filepath.Join(e.home, ".claude.json"):                   ForMachine,
				filepath.Join(e.proj, ".claude", "settings.local.json"): ForMachine,
				filepath.Join(e.proj, "CLAUDE.md"):                      ForTeam,
			}
			got := map[string]string{}
			for _, ch := range res.Changes {
				got[ch.File] = ch.For
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("changes for %v, want %v", got, want)
			}
			if p := snapshot(t, e.proj, false); p[".mcp.json"] != user[".mcp.json"] || p[".claude/settings.json"] != user[".claude/settings.json"] {
				t.Errorf("the team's files changed")
			}
			state := readJSON(t, filepath.Join(e.home, ".claude.json"))
			projects, _ := state["projects"].(map[string]any)
			entry, _ := projects[e.proj].(map[string]any)
			servers, _ := entry["mcpServers"].(map[string]any)
			server, _ := servers["vaultmem"].(map[string]any)
			if server["command"] != o.Binary || !reflect.DeepEqual(server["args"], []any{"--vault", o.Vault, "mcp"}) {
				t.Errorf("~/.claude.json: project's server %v", server)
			}
			if claudeJSON != "" && (state["numStartups"] != float64(7) || entry["hasTrustDialogAccepted"] != true) {
				t.Errorf("~/.claude.json lost Claude Code's state: %v", state)
			}
			local := mustReadFile(t, filepath.Join(e.proj, ".claude", "settings.local.json"))
			if !strings.Contains(local, `"/opt/vm/vaultmem --vault '`+o.Vault+`' hook --client claude-code"`) {
				t.Errorf("settings.local.json:\n%s", local)
			}
			if !strings.Contains(strings.Join(res.Notes, "\n"), "vaultmem is not on the PATH") {
				t.Errorf("notes %q do not say why", res.Notes)
			}
			if again := run(t, o); len(again.Changes) != 3 {
				t.Errorf("second run: %+v", again.Changes)
			} else {
				for _, ch := range again.Changes {
					if ch.Action != Unchanged {
						t.Errorf("second run: %+v", ch)
					}
				}
			}

			// vaultmem now on the PATH: the team's files.
			o.Binary = Command
			res = run(t, o)
			gotAct := actions(t, filepath.Dir(e.proj), res)
			wantAct := map[string]string{"proj/.mcp.json": Update, "proj/.claude/settings.json": Update,
				"proj/CLAUDE.md": Unchanged, "proj/.claude/settings.local.json": Delete}
			if claudeJSON != "" {
				wantAct["home/.claude.json"] = Remove
			} else {
				wantAct["home/.claude.json"] = Delete
			}
			if !reflect.DeepEqual(gotAct, wantAct) {
				t.Errorf("moved to the team's files: %v, want %v", gotAct, wantAct)
			}
			checkSetUp(t, o)
			if h := snapshot(t, e.home, false); !reflect.DeepEqual(h, origHome) {
				t.Errorf("the home folder after the move:\n%v\nwant\n%v", h, origHome)
			}

			// vaultmem off the PATH again: this machine's files, and
			// the team's left as they are, with a word about them.
			team := snapshot(t, e.proj, false)
			o.Binary = "/opt/vm/vaultmem"
			res = run(t, o)
			after := snapshot(t, e.proj, false)
			for _, f := range []string{".mcp.json", ".claude/settings.json", "CLAUDE.md"} {
				if after[f] != team[f] {
					t.Errorf("this machine's set-up changed the team's %s", f)
				}
			}
			if _, ok := after[".claude/settings.local.json"]; !ok {
				t.Errorf("no .claude/settings.local.json")
			}
			if notes := strings.Join(res.Notes, "\n"); !strings.Contains(notes, "Setup leaves the team's files alone") ||
				!strings.Contains(notes, filepath.Join(e.proj, ".claude", "settings.json")) {
				t.Errorf("notes %q say nothing of the team's files", res.Notes)
			}

			o.Remove = true
			run(t, o)
			if p := snapshot(t, e.proj, false); !reflect.DeepEqual(p, origProj) {
				t.Errorf("the project after remove:\n%v\nwant\n%v", p, origProj)
			}
			if h := snapshot(t, e.home, false); !reflect.DeepEqual(h, origHome) {
				t.Errorf("the home folder after remove:\n%v\nwant\n%v", h, origHome)
			}
		})
	}
}

// TestClaudeCodeMachineRemove: --remove takes the machine's set-up out
// of ~/.claude.json byte for byte, whatever state Claude Code keeps
// beside it, and a remove with nothing of setup's changes nothing.
func TestClaudeCodeMachineRemove(t *testing.T) {
	e := newEnv(t)
	write(t, e.home, map[string]string{".claude.json": userClaudeState(e.proj)})
	orig := snapshot(t, e.home, false)
	o := e.opts(ClaudeCode, false)
	o.Vault = filepath.Join(e.home, "vault")
	run(t, o)
	o.Remove = true
	run(t, o)
	if h := snapshot(t, e.home, false); !reflect.DeepEqual(h, orig) {
		t.Errorf("after remove:\n%v\nwant\n%v", h, orig)
	}
	if res := run(t, o); len(res.Changes) != 0 {
		t.Errorf("a second remove: %+v", res.Changes)
	}
}

func mustReadFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestBothScopesWarned: set up for a project and for all projects at
// once, a client runs every hook twice; whichever set-up comes second says
// so, names the other's hook files and how to keep one; a set-up in one
// scope alone says nothing of it.
func TestBothScopesWarned(t *testing.T) {
	for _, c := range Clients {
		t.Run(string(c), func(t *testing.T) {
			e := newEnv(t)
			project := e.opts(c, false)
			project.Vault = filepath.Join(e.proj, "agent-memory")
			global := e.opts(c, true)
			warned := func(res Result) bool {
				for _, n := range res.Notes {
					if strings.Contains(n, "every hook runs twice") {
						return true
					}
				}
				return false
			}
			if res := run(t, project); warned(res) {
				t.Errorf("a project's set-up alone warned: %q", res.Notes)
			}
			res := run(t, global)
			if !warned(res) || !strings.Contains(strings.Join(res.Notes, " "), "vaultmem setup "+string(c)+" --remove takes out the one for this project") {
				t.Errorf("the global set-up beside the project's: notes %q", res.Notes)
			}
			if res := run(t, project); !warned(res) || !strings.Contains(strings.Join(res.Notes, " "), "--remove --global") {
				t.Errorf("the project's set-up beside the global one: notes %q", res.Notes)
			}
		})
	}
}
