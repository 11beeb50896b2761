package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/app"
	"github.com/vaultmem/vaultmem/setup"
)

// newVaultName is the folder of the vault setup makes when it finds none.
const newVaultName = setup.DefaultVault

func setupCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name:      "setup",
		Usage:     "register vaultmem with an agent: its MCP server, its hooks and a memory protocol in its instructions",
		ArgsUsage: "claude-code|codex|gemini-cli|cursor",
		Description: "Adds vaultmem's MCP server, its hooks (vaultmem hook) and a short memory protocol to the client's\n" +
			"own files: for the project (the git repository holding the current folder, else the current folder)\n" +
			"or, with --global, for the user (files under the home folder). It merges into what the files hold,\n" +
			"saves each file it changes beside it (FILE.vaultmem-backup-TIME), and refuses a file that does not\n" +
			"parse, writing nothing. Run again, it changes nothing; --remove takes out exactly what it added.\n" +
			"The vault is --vault DIR, else the nearest one at or above the current folder, else a new one,\n" +
			"agent-memory/ in the project (with --global: in the home folder), made as 'vaultmem init' makes it.\n" +
			"The project's files are the team's: they name 'vaultmem' (found on the PATH) and the vault relative\n" +
			"to the project, so a teammate's clone works without setup. When vaultmem is not on the PATH or the\n" +
			"vault is outside the project, Claude Code's set-up goes into this machine's files instead\n" +
			"(~/.claude.json, .claude/settings.local.json) and the other clients' is refused (use --global).\n" +
			"Each file it lists says whether it is for the team (commit it) or for this machine.\n" +
			"What it writes for each client: docs/setup.md.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "global", Usage: "set up for the user (every project) instead of this project"},
			&cli.BoolFlag{Name: "dry-run", Usage: "say what would change, write nothing"},
			&cli.BoolFlag{Name: "remove", Usage: "take out what setup added"},
			jsonFlag(),
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			name, err := oneArg(cmd, "a client: claude-code, codex, gemini-cli or cursor")
			if err != nil {
				return err
			}
			client, err := setup.ParseClient(name)
			if err != nil {
				return usageError{err}
			}
			o, err := sh.setupOptions(ctx, cmd, client)
			if err != nil {
				return err
			}
			var onPath bool
			if o.Binary, onPath, err = vaultmemCommand(); err != nil {
				return err
			}
			// Plan first: a client file that does not parse stops the
			// run before init writes the vault.
			var initRes *app.InitResult
			if !o.Remove && !o.DryRun {
				check := o
				check.DryRun = true
				if _, err := setup.Run(check); err != nil {
					return err
				}
				res, err := app.Init(ctx, o.Vault)
				if err != nil {
					return err
				}
				initRes = &res
			}
			res, err := setup.Run(o)
			if err != nil {
				return err
			}
			if !o.Remove {
				res.Notes = append(res.Notes, notIgnored(ctx, o, res)...)
			}
			if !onPath && !o.Remove {
				sh.warnf("vaultmem is not on the PATH: the client will run %s (from this machine's files only); "+
					"run setup again if it moves", o.Binary)
			}
			if cmd.Bool("json") {
				return sh.printJSON(struct {
					Vault  string `json:"vault"`
					Client string `json:"client"`
					setup.Result
					Init *app.InitResult `json:"init,omitempty"`
				}{o.Vault, string(client), res, initRes})
			}
			if initRes != nil {
				sh.printInit(*initRes)
			}
			sh.printSetup(o, res)
			return nil
		},
	}
}

// setupVault is the vault setup registers: --vault; else the nearest
// vault at or above wd, but never the project folder itself; else a new
// one in the project (with --global: in the home folder).
func (sh *shell) setupVault(wd string, o setup.Options) (string, error) {
	if sh.vaultFlag != "" {
		return filepath.Abs(sh.vaultFlag)
	}
	if dir, err := app.Find(wd, ""); err == nil {
		if dir == o.Project && !o.Remove {
			return "", fmt.Errorf("the project folder %s is itself a vault: to keep the agent's memories there, "+
				"pass --vault %s; else pass --vault DIR for another folder", dir, dir)
		}
		return dir, nil
	}
	if o.Global {
		return filepath.Join(o.Home, newVaultName), nil
	}
	return filepath.Join(o.Project, newVaultName), nil
}

// vaultmemCommand is how the client is to run vaultmem: setup.Command
// when that is this program on the PATH, else this program's absolute
// path.
func vaultmemCommand() (cmd string, onPath bool, err error) {
	exe, err := os.Executable()
	if err != nil {
		return "", false, fmt.Errorf("setup: where is vaultmem? %w", err)
	}
	if exe, err = filepath.Abs(exe); err != nil {
		return "", false, err
	}
	if p, err := exec.LookPath(setup.Command); err == nil {
		a, errA := os.Stat(p)
		b, errB := os.Stat(exe)
		if errA == nil && errB == nil && os.SameFile(a, b) {
			return setup.Command, true, nil
		}
	}
	return exe, false, nil
}

// notIgnored are notes on the files of this machine's set-up in the
// project (.claude/settings.local.json) that git would not ignore: they
// name this machine's paths, and a commit would give them to the team.
// Nothing when the project is no git repository.
func notIgnored(ctx context.Context, o setup.Options, res setup.Result) []string {
	var notes []string
	for _, c := range res.Changes {
		rel, err := filepath.Rel(o.Project, c.File)
		if o.Global || c.For != setup.ForMachine || err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		ignored, inRepo := app.GitIgnores(ctx, o.Project, rel)
		if !inRepo {
			return nil
		}
		if !ignored {
			notes = append(notes, fmt.Sprintf("git does not ignore %s, which holds this machine's paths: "+
				"add it to .gitignore (or .git/info/exclude) so that no commit gives it to the team.", filepath.ToSlash(rel)))
		}
	}
	return notes
}

// setupNext says how to see that the client took the set-up.
var setupNext = map[setup.Client]string{
	setup.ClaudeCode: "restart Claude Code: `claude mcp list` should show vaultmem, and /hooks its hooks",
	setup.Codex:      "restart Codex: /mcp should list vaultmem; trust its hooks in /hooks",
	setup.GeminiCLI:  "restart Gemini CLI: /mcp should list vaultmem, and /hooks panel its hooks",
	setup.Cursor:     "restart Cursor: its MCP settings should list vaultmem",
}

// printSetup prints a setup run: one line per file, the notes, what to do
// next.
func (sh *shell) printSetup(o setup.Options, res setup.Result) {
	w := sh.stdout
	show := func(p string) string {
		if rel, err := filepath.Rel(o.Project, p); err == nil && !o.Global && !strings.HasPrefix(rel, "..") {
			return rel
		}
		if rel, err := filepath.Rel(o.Home, p); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.Join("~", rel)
		}
		return p
	}
	scope := "this project, " + o.Project
	if o.Global {
		scope = "you (every project)"
	}
	where := o.Vault
	if _, err := os.Stat(filepath.Join(o.Vault, app.DotDir)); err != nil {
		where += " (new)"
	}
	switch {
	case o.DryRun && o.Remove:
		fmt.Fprintf(w, "Dry run, nothing written: removing vaultmem from %s for %s\n", o.Client.Title(), scope)
	case o.DryRun:
		fmt.Fprintf(w, "Dry run, nothing written: setting up %s for %s, with the vault %s\n", o.Client.Title(), scope, where)
	case o.Remove && len(res.Changes) == 0:
		fmt.Fprintf(w, "vaultmem is not set up for %s for %s: nothing to remove\n", o.Client.Title(), scope)
		return
	case o.Remove:
		fmt.Fprintf(w, "Removed vaultmem from %s for %s\n", o.Client.Title(), scope)
	default:
		fmt.Fprintf(w, "Set up %s for %s, with the vault %s\n", o.Client.Title(), scope, where)
	}
	for _, c := range res.Changes {
		line := fmt.Sprintf("  %s %s: %s", c.Action, show(c.File), c.What)
		switch {
		case o.Remove || c.Action == setup.Remove || c.Action == setup.Delete:
		case c.For == setup.ForTeam:
			line += " [for the team: commit it]"
		case !o.Global:
			line += " [for this machine only: do not commit it]"
		}
		if c.Backup != "" {
			line += " (backup: " + show(c.Backup) + ")"
		}
		fmt.Fprintln(w, line)
	}
	for _, n := range res.Notes {
		fmt.Fprintf(w, "Note: %s\n", n)
	}
	switch {
	case o.DryRun:
	case o.Remove:
		fmt.Fprintf(w, "Next: restart %s to drop vaultmem\n", o.Client.Title())
	default:
		fmt.Fprintf(w, "Next: %s\n", setupNext[o.Client])
	}
}

// setupOptions are what setup does for client: where the project, the
// home and the vault are, and the flags.
func (sh *shell) setupOptions(ctx context.Context, cmd *cli.Command, client setup.Client) (setup.Options, error) {
	wd, err := os.Getwd()
	if err != nil {
		return setup.Options{}, err
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return setup.Options{}, fmt.Errorf("setup: no home folder: %w", err)
	}
	project := wd
	if top, err := app.GitTopLevel(ctx, wd); err == nil {
		project = top
	}
	o := setup.Options{Client: client, Project: project, Home: home, Global: cmd.Bool("global"),
		DryRun: cmd.Bool("dry-run"), Remove: cmd.Bool("remove")}
	o.Vault, err = sh.setupVault(wd, o)
	return o, err
}
