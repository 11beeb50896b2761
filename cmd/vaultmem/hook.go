package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/agenthook"
	"github.com/vaultmem/vaultmem/app"
	"github.com/vaultmem/vaultmem/setup"
)

// hookFirstByte is how long a hook waits for the running server to take
// its event before it answers in its own process: a live server takes it
// within milliseconds.
const hookFirstByte = 300 * time.Millisecond

func hookCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name:  "hook",
		Usage: "answer an agent client's hook event (stdin: the event's JSON); set up by 'vaultmem setup'",
		Description: "Reads one hook event of --client (claude-code, codex, gemini-cli, cursor) on standard input and\n" +
			"answers in that client's output: at a session's start MEMORY.md, the focused task's context and\n" +
			"what needs review (and after a compaction the checkpoint taken before it); with a prompt what\n" +
			"recall finds for it that the session was not given yet; before a tool call the lessons for it;\n" +
			"after it each lesson's outcome; before a compaction a checkpoint on the focused task; at each\n" +
			"stop the session note (type: session) in the sessions folder. It never blocks the agent: any\n" +
			"error exits 0 with one line on stderr, and a folder that is no vault gets nothing written.\n" +
			"The running server (vaultmem mcp, watch) answers when it takes the event within 300 ms, else\n" +
			"the hook answers in process, within hooks.timeout of the config. --json prints vaultmem's\n" +
			"answer ({context, given, note}) instead of the client's output.",
		Flags: []cli.Flag{jsonFlag(),
			&cli.StringFlag{Name: "client", Value: string(setup.ClaudeCode), Usage: "the agent `CLIENT`: claude-code, codex, gemini-cli or cursor"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			client, err := setup.ParseClient(cmd.String("client"))
			if err != nil {
				return usagef("--client: %v", err)
			}
			oneShotQuery()
			out, err := sh.hook(ctx, client, cmd.Bool("json"))
			if err != nil {
				// Never the agent's problem: one line for the client's log.
				fmt.Fprintf(sh.stderr, "vaultmem hook: %v\n", err)
			}
			sh.stdout.Write(out)
			return nil
		},
	}
}

// hook answers one event; out is what to print, even with an error.
func (sh *shell) hook(ctx context.Context, client setup.Client, asJSON bool) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error (please report it): %v", r)
		}
	}()
	// The deadline counts from here: reading and decoding a large input
	// is part of the hook's time.
	start := time.Now()
	ev, err := agenthook.Read(client, sh.stdin, start)
	nothing := ev.Output(client, app.HookAnswer{})
	if errors.Is(err, agenthook.ErrUnknownEvent) {
		return nothing, nil
	}
	if err != nil {
		return nothing, err
	}
	if agenthook.AnsweredElsewhere(client, ev.Cwd) {
		return nothing, nil
	}
	dir, ok := hookVault(sh.vaultFlag, ev.Cwd)
	if !ok {
		// No vault: the session's start says, in one line, how to make
		// one; every other event stays silent.
		if ev.Kind == app.HookSessionStart {
			return ev.Output(client, app.HookAnswer{Context: noVaultLine}), nil
		}
		return nothing, nil
	}
	cfg, consent, err := app.LoadConfigConsent(dir)
	if err != nil {
		return nothing, err
	}
	// On stderr, which the clients keep out of the agent's context.
	sh.tellConsent(consent, "vaultmem hook")
	// The agent is this process's ($VAULTMEM_AGENT included), chosen
	// before a server, whose environment is another's, may answer.
	if ev.Agent, err = cfg.Agent(ev.Agent, ""); err != nil {
		return nothing, err
	}
	ctx, cancel := context.WithDeadline(ctx, start.Add(cfg.Hooks.Timeout))
	defer cancel()
	ans, err := sh.hookAnswer(ctx, dir, ev.HookEvent, &app.LoadedConfig{Config: cfg, Consent: consent})
	if errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("%s: no answer within hooks.timeout (%v)", ev.Name, cfg.Hooks.Timeout)
	}
	if err != nil {
		return nothing, err
	}
	if asJSON {
		b, err := json.MarshalIndent(ans, "", "  ")
		return append(b, '\n'), err
	}
	return ev.Output(client, ans), nil
}

// hookAnswer asks the vault's server for the answer, else makes it in
// this process, with the config the hook loaded.
func (sh *shell) hookAnswer(ctx context.Context, dir string, ev app.HookEvent, loaded *app.LoadedConfig) (app.HookAnswer, error) {
	var ans app.HookAnswer
	if mode := os.Getenv(serverEnv); mode != "off" {
		wait := time.Until(deadlineOf(ctx))
		o := app.AskOptions{FirstByte: hookFirstByte, Wait: wait, OnceTaken: true,
			Notify: func(msg string) { fmt.Fprintf(sh.stderr, "vaultmem hook: %s\n", msg) }}
		if mode == "require" {
			o.FirstByte = wait
		}
		ans, answered, err := app.Ask(ctx, dir, app.OpHook, ev, o)
		if answered {
			return ans, err
		}
		if mode == "require" {
			return ans, fmt.Errorf("%s=require, but no vaultmem server answered", serverEnv)
		}
	}
	a, err := app.OpenForHook(ctx, dir, ev, app.Options{HeavyWork: boundHeap, LockTimeout: time.Until(deadlineOf(ctx)), Loaded: loaded})
	if err != nil {
		return ans, err
	}
	defer a.Close()
	return a.Hook(ctx, ev)
}

// deadlineOf is ctx's deadline (it has one).
func deadlineOf(ctx context.Context) time.Time {
	d, _ := ctx.Deadline()
	return d
}

// hookVault is the vault a hook writes to: --vault (or $VAULTMEM_VAULT;
// relative, looked for from the agent's folder, then from this process's,
// see vaultPath), else the Claude Code plugin's vault_dir option, else
// the nearest vault
// at or above the agent's folder. ok is false when that folder is no
// vault (it holds no .vaultmem/): a hook never makes one.
func hookVault(flag, cwd string) (dir string, ok bool) {
	if flag == "" {
		flag = agenthook.PluginVault()
	}
	if flag == "" {
		if cwd == "" {
			cwd, _ = os.Getwd()
		}
		d, err := app.Find(cwd, "")
		return d, err == nil
	}
	wd, _ := os.Getwd()
	d, err := filepath.Abs(vaultPath(flag, cwd, wd))
	return d, err == nil && isVault(d)
}

// noVaultLine is what a session's start is told when no vault is found.
const noVaultLine = "vaultmem: no memory vault for this project yet; the user can make one with 'vaultmem setup' in the project (or 'vaultmem init DIR')."

// isVault reports whether dir holds a vault: its .vaultmem folder.
func isVault(dir string) bool {
	info, err := os.Stat(filepath.Join(dir, app.DotDir))
	return err == nil && info.IsDir()
}
