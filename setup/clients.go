package setup

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// What setup writes for each client, where (see docs/setup.md).

// ServerName is the name of vaultmem's MCP server in every client.
const ServerName = "vaultmem"

// hookEvent is one event a client's hook runs on.
type hookEvent struct {
	name    string
	matcher string // "" for none: every occurrence
}

// Hook timeouts: seconds, except Gemini CLI's milliseconds.
const (
	hookTimeout       = 10
	geminiHookTimeout = 10000
)

// sessionSources are the starts of a session Claude Code and Codex name.
const sessionSources = "startup|resume|clear|compact"

var (
	claudeEvents = []hookEvent{{"SessionStart", sessionSources}, {"UserPromptSubmit", ""}, {"PreToolUse", ""},
		{"PostToolUse", ""}, {"PostToolUseFailure", ""}, {"PreCompact", ""}, {"Stop", ""}, {"SubagentStop", ""}, {"SessionEnd", ""}}
	codexEvents = []hookEvent{{"SessionStart", sessionSources}, {"UserPromptSubmit", ""}, {"PreToolUse", ""},
		{"PostToolUse", ""}, {"PreCompact", ""}, {"PostCompact", ""}, {"Stop", ""}, {"SubagentStop", ""}, {"SessionEnd", ""}}
	geminiEvents = []hookEvent{{"SessionStart", ""}, {"BeforeAgent", ""}, {"AfterTool", ""}, {"PreCompress", ""},
		{"AfterAgent", ""}, {"SessionEnd", ""}}
	cursorEvents = []hookEvent{{"sessionStart", ""}, {"beforeSubmitPrompt", ""}, {"postToolUse", ""},
		{"postToolUseFailure", ""}, {"preCompact", ""}, {"stop", ""}, {"sessionEnd", ""}}
)

// targets are the files setup edits for o's client and scope, in order.
// A project's set-up writes the team's files when it can (see Shared),
// else, for Claude Code, this machine's: the MCP server in ~/.claude.json
// for this project alone and the hooks in .claude/settings.local.json.
// Writing the team's, it takes its entries out of this machine's
// (cleanup targets), so that moving from one to the other leaves one of
// each; writing this machine's, it leaves the team's files alone, which
// are not this machine's to change, and only looks whether they run
// vaultmem too (probe targets). With Remove, every file either kind may
// have written.
func (o Options) targets() []target {
	dir := o.Project
	if o.Global {
		dir = o.Home
	}
	at := func(parts ...string) string { return filepath.Join(append([]string{dir}, parts...)...) }
	shared, _ := o.Shared()
	whom := ForMachine
	if shared {
		whom = ForTeam
	}
	cmd := o.hookCommand()
	args := []string{"--vault", o.mcpVault(), "mcp"}
	block := instructionBlock
	// The instruction files name no path: the team's in a project.
	mdWhom := ForTeam
	if o.Global {
		mdWhom = ForMachine
	}
	switch o.Client {
	case ClaudeCode:
		server := obj{{"type", "stdio"}, {"command", o.Binary}, {"args", args}}
		hooks := hooksEdit(o.Client, cmd, claudeEvents, nested(claudeHandler(cmd)))
		if o.Global {
			return []target{
				jsonFile(at(".claude.json"), false, mcpEdit(nil, server)).of(whom),
				jsonFile(at(".claude", "settings.json"), false, hooks).of(whom),
				textFile(at(".claude", "CLAUDE.md"), "memory protocol block", "", block).of(mdWhom),
			}
		}
		team := []target{
			jsonFile(at(".mcp.json"), false, mcpEdit(nil, server)).of(ForTeam),
			jsonFile(at(".claude", "settings.json"), false, hooks).of(ForTeam),
		}
		mine := []target{
			jsonFile(filepath.Join(o.Home, ".claude.json"), false, mcpEdit([]string{"projects", o.Project}, server)).of(ForMachine),
			jsonFile(at(".claude", "settings.local.json"), false, hooks).of(ForMachine),
		}
		for i := range mine {
			if shared {
				mine[i].cleanup = true
			} else {
				team[i].probe = true
			}
		}
		if !shared {
			team, mine = mine, team
		}
		return append(append(team, textFile(at("CLAUDE.md"), "memory protocol block", "", block).of(mdWhom)), mine...)
	case Codex:
		md := at("AGENTS.md")
		if o.Global {
			md = at(".codex", "AGENTS.md")
		}
		return []target{
			codexConfig(at(".codex", "config.toml"), o.Binary, args).of(whom),
			jsonFile(at(".codex", "hooks.json"), false, hooksEdit(o.Client, cmd, codexEvents, nested(claudeHandler(cmd)))).of(whom),
			textFile(md, "memory protocol block", "", block).of(mdWhom),
		}
	case GeminiCLI:
		md := at("GEMINI.md")
		if o.Global {
			md = at(".gemini", "GEMINI.md")
		}
		handler := obj{{"name", ServerName}, {"type", "command"}, {"command", cmd}, {"timeout", geminiHookTimeout}}
		return []target{
			jsonFile(at(".gemini", "settings.json"), false,
				mcpEdit(nil, obj{{"command", o.Binary}, {"args", args}}),
				hooksEdit(o.Client, cmd, geminiEvents, nested(handler))).of(whom),
			textFile(md, "memory protocol block", "", block).of(mdWhom),
		}
	case Cursor:
		ts := []target{
			jsonFile(at(".cursor", "mcp.json"), false, mcpEdit(nil, obj{{"type", "stdio"}, {"command", o.Binary}, {"args", args}})).of(whom),
			jsonFile(at(".cursor", "hooks.json"), true, hooksEdit(o.Client, cmd, cursorEvents,
				func(hookEvent) any { return obj{{"command", cmd}, {"timeout", hookTimeout}} })).of(whom),
		}
		if !o.Global { // Cursor keeps user rules in its settings, in no file
			ts = append(ts, textFile(at(".cursor", "rules", "vaultmem.mdc"), "memory protocol rule (always applied)",
				cursorRuleHead, block).of(mdWhom))
		}
		return ts
	}
	return nil
}

// of is t serving whom (ForTeam or ForMachine).
func (t target) of(whom string) target {
	t.forWhom = whom
	return t
}

// hookVault is the vault as a hook command names it: relative to the
// project in the team's files (vaultmem looks for it from the hook's
// folder up to the repository's top), else absolute.
func (o Options) hookVault() string {
	if shared, _ := o.Shared(); shared {
		rel, _ := o.relVault()
		return rel
	}
	return o.Vault
}

// mcpVault is the vault as the MCP server's arguments name it: as
// hookVault, except that Cursor, which may start a server outside the
// project, gets it under ${workspaceFolder}, which Cursor replaces with
// the project's folder in mcp.json.
func (o Options) mcpVault() string {
	v := o.hookVault()
	if shared, _ := o.Shared(); shared && o.Client == Cursor {
		if v == "." {
			return "${workspaceFolder}"
		}
		return "${workspaceFolder}/" + v
	}
	return v
}

// claudeHandler is a hook handler as Claude Code and Codex take it.
func claudeHandler(cmd string) obj {
	return obj{{"type", "command"}, {"command", cmd}, {"timeout", hookTimeout}}
}

// nested makes an event's matcher group holding handler.
func nested(handler obj) func(hookEvent) any {
	return func(ev hookEvent) any {
		g := obj{}
		if ev.matcher != "" {
			g = append(g, kv{"matcher", ev.matcher})
		}
		return append(g, kv{"hooks", []any{handler}})
	}
}

// cursorRuleHead is the frontmatter of the Cursor rule setup writes.
const cursorRuleHead = `---
description: How to use vaultmem, the long-term memory of this project
alwaysApply: true
---
`

// instructionBlock is what setup adds to each client's instruction file.
const instructionBlock = `<!-- vaultmem:begin -->
## Long-term memory (vaultmem)

vaultmem is your long-term memory: notes in an Obsidian vault that outlive this session and that
other sessions and agents share. Its tools come from the MCP server ` + "`vaultmem`" + `.

- When a session starts, a hook gives you what the memory holds for this work: read it.
- Before you answer about past work, decisions or the user's preferences, call ` + "`recall`" + ` with
  the question in plain words (` + "`search`" + ` finds exact words, ` + "`read_note`" + ` reads a note).
- When you learn something that should last, call ` + "`remember`" + ` with its type: ` + "`user`" + ` (who
  the user is, how they like to work), ` + "`feedback`" + ` (a correction or rule about how to work, and
  why), ` + "`project`" + ` (a fact or decision about the work), ` + "`reference`" + ` (where to find
  something). One memory per fact, written so it stands alone.
- Keep the plan in tasks: ` + "`task_focus`" + ` is what you are on, ` + "`task_start`" + `, ` + "`task_spawn`" + ` and
  ` + "`task_done`" + ` move through it, ` + "`task_event`" + ` logs a decision, blocker or milestone, and
  ` + "`task_context`" + ` brings it back when you resume.
- Before a step that went wrong before, call ` + "`lesson_match`" + `; after applying a lesson, report with
  ` + "`lesson_outcome`" + ` whether it helped; write down a new one with ` + "`lesson_add`" + `.
- Never store secrets (keys, tokens, passwords) or personal data nobody asked you to keep.
<!-- vaultmem:end -->
`

// hookCommand is the command every hook runs, for the shell.
func (o Options) hookCommand() string {
	return shellQuote(o.Binary) + " --vault " + shellQuote(o.hookVault()) + " hook --client " + string(o.Client)
}

// isHookCommand reports whether cmd is a hook command setup writes for
// client: BINARY --vault DIR hook --client CLIENT, each word as
// shellQuote writes it, whatever the binary and the vault.
func isHookCommand(cmd string, client Client) bool {
	rest, ok := strings.CutSuffix(cmd, " hook --client "+string(client))
	if !ok {
		return false
	}
	words, ok := shellWords(rest)
	return ok && len(words) == 3 && words[1] == "--vault"
}

// shellQuote is s as one word for a POSIX shell: as it is when it holds
// only characters no shell treats specially, else in single quotes.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:@+=,-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// shellWords splits s, words joined by single spaces as shellQuote makes
// them, into the words; ok is false for anything else.
func shellWords(s string) (words []string, ok bool) {
	var w strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ':
			if !inWord {
				return nil, false
			}
			words, inWord = append(words, w.String()), false
			w.Reset()
		case c == '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return nil, false
			}
			w.WriteString(s[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == '\\' && i+1 < len(s):
			w.WriteByte(s[i+1])
			i++
			inWord = true
		case strings.IndexByte("\"$`*?[]{}()<>|&;#~!\t\n", c) >= 0:
			return nil, false
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if !inWord {
		return nil, false
	}
	return append(words, w.String()), true
}

// notes are what the user must still do, or should know, after a run.
func (o Options) notes() []string {
	notes := []string{}
	if o.Remove {
		return notes
	}
	add := func(format string, args ...any) { notes = append(notes, fmt.Sprintf(format, args...)) }
	switch o.Client {
	case ClaudeCode:
		if shared, _ := o.Shared(); shared {
			add("Claude Code asks once, in this project, to approve the MCP server vaultmem of .mcp.json.")
		}
	case Codex:
		add("Codex runs a new or changed hook only once you trust it: open /hooks in Codex and trust vaultmem's.")
		if !o.Global {
			add("Codex reads the project's .codex/ folder only when it trusts the project.")
		}
		override := filepath.Join(o.Project, "AGENTS.override.md")
		if o.Global {
			override = filepath.Join(o.Home, ".codex", "AGENTS.override.md")
		}
		if info, err := os.Stat(override); err == nil && info.Size() > 0 {
			add("Codex reads %s instead of AGENTS.md beside it: copy the memory protocol block there.", override)
		}
	case GeminiCLI:
		if !o.Global {
			add("Gemini CLI reads .gemini/settings.json (the MCP server and the hooks) only in a trusted folder: trust %s when it asks.", o.Project)
		}
	case Cursor:
		add("Cursor also runs Claude Code's hooks (.claude/settings.json, ~/.claude/settings.json) unless \"Include Third-Party " +
			"Plugins, Skills, and Other Configs\" is off: with vaultmem set up for Claude Code too, its hooks run twice in Cursor.")
		if o.Global {
			add("Cursor keeps user rules in its settings, not in a file: paste the memory protocol block (docs/setup.md) " +
				"into Cursor Settings > Rules, or run setup without --global in each project.")
		}
	}
	switch shared, why := o.Shared(); {
	case shared:
		rel, _ := o.relVault()
		add("The project's files are for the team: they run vaultmem from the PATH on the vault %s/ of the project, "+
			"so commit them with the vault, and a teammate with vaultmem on the PATH gets the MCP server and the hooks "+
			"without running setup.", rel)
	case !o.Global:
		add("%s, so the MCP server and the hooks went into this machine's files (~/.claude.json, for this project "+
			"alone, and .claude/settings.local.json, which git should ignore): a teammate runs setup for their own. "+
			"With vaultmem on the PATH and the vault in the project, setup writes the team's files instead.", why)
	}
	return notes
}
