package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/app"
	"github.com/vaultmem/vaultmem/mcpserver"
)

// version is reported to MCP clients.
const version = "0.1.0"

func mcpCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name:  "mcp",
		Usage: "serve the vault to an agent over MCP (stdio)",
		Description: "Speaks the Model Context Protocol on standard input and output, for an MCP client (Claude\n" +
			"Code, Claude Desktop, an IDE) to start. Tools: remember, recall, search, read_note,\n" +
			"write_note, links, list_notes, dream, and the task tools (task_add, task_spawn, task_start,\n" +
			"task_done, task_block, task_event, task_focus, task_tree, task_ready, task_context), whose agent\n" +
			"is the call's agent argument, else --agent, else VAULTMEM_AGENT, else the config's hooks.agent,\n" +
			"else the client's name; every\n" +
			"note is also a resource vault:///path. The server\n" +
			"answers at once and indexes the vault in the background (tools and the resource list wait for\n" +
			"that first index, with progress notifications), then runs the vault's watcher (unless `vaultmem watch`\n" +
			"already does), so a note saved in Obsidian is searchable at once; it keeps MEMORY.md current\n" +
			"and runs Dream when its gate opens (dream.auto, every, writes, quiet in the config). Messages go to standard\n" +
			"error; a bad input line is answered with a JSON-RPC error and the server goes on.",
		Flags: []cli.Flag{&cli.StringFlag{Name: "agent",
			Usage: "the `AGENT` id of tool calls that give none (default: $" + app.AgentEnv + ", else the config's hooks.agent, else the MCP client's name)"}},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			agent := strings.TrimSpace(cmd.String("agent"))
			if agent != "" {
				if err := app.CheckAgent(agent); err != nil {
					return usagef("--%v", err)
				}
			}
			dir, err := sh.vaultDir()
			if err != nil {
				return err
			}
			if !isVault(dir) {
				// An MCP client's config names the folder once and starts the
				// server in it for good: not a folder to make a vault of
				// unasked (a code repository), nor a vault to leave without
				// its config and merge drivers.
				return fmt.Errorf("%s is no vault yet (it has no %s folder): run 'vaultmem init' in it, or 'vaultmem setup CLIENT' to set up a vault and an agent at once", dir, app.DotDir)
			}
			longRunning()
			a, err := sh.openDir(ctx, dir, app.Options{Resident: true})
			if err != nil {
				return err
			}
			defer a.Close()
			return sh.serveMCP(ctx, a, agent)
		},
	}
}

// serveMCP serves a to the MCP client on standard input and output until
// it goes away or ctx ends, keeping the vault meanwhile (see app.Serve).
func (sh *shell) serveMCP(ctx context.Context, a *app.App, agent string) error {
	logf := func(format string, args ...any) { fmt.Fprintf(sh.stderr, "vaultmem mcp: "+format+"\n", args...) }
	startup := mcpserver.NewStartup()
	srv, err := mcpserver.New(mcpserver.Options{App: a, Version: version, Startup: startup, Agent: agent,
		OnPanic:     func(err error) { logf("recovered: %v", err) },
		OnSyncError: func(err error) { logf("sync before a read failed (answered from the index as it was): %v", err) }})
	if err != nil {
		return err
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The vault is kept in the background (its first sync, then the
	// watcher, the queries of CLI processes, Dream) while the server
	// already answers: a cold index of a large vault takes seconds.
	var background sync.WaitGroup
	background.Go(func() {
		err := a.Serve(runCtx, app.ServeOptions{Logf: logf, FirstSync: startup.Progress,
			FirstSyncDone: func(err error) {
				startup.Finish(err)
				srv.NotesChanged() // every note is listed now
			},
			OnBatch: func(b app.WatchBatch) {
				if b.Err != nil {
					logf("sync: %v", b.Err)
				}
				if len(b.Paths) > 0 {
					srv.NotesChanged()
				}
			},
			OnDream: func(rep *app.DreamReport) { logf("dream: %s", rep.Summary()) }})
		if err != nil {
			logf("%v", err)
		}
	})
	err = srv.Run(runCtx, mcpserver.NewTransport(sh.stdin, sh.stdout, mcpserver.TransportOptions{
		OnReject: func(e *mcpserver.RejectError) { logf("%v", e) },
	}))
	cancel()
	background.Wait()
	switch {
	case ctx.Err() != nil: // a signal: exit 130, like any command interrupted
		return ctx.Err()
	case errors.Is(err, context.Canceled):
		return nil // the client went away
	}
	return err
}
