package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/dream"
	"github.com/vaultmem/vaultmem/mcpserver"
	"github.com/vaultmem/vaultmem/recall"
	"github.com/vaultmem/vaultmem/task"
	"github.com/vaultmem/vaultmem/watch"
)

// version is reported to MCP clients.
const version = "0.1.0"

func (a *app) mcpCommand() *cli.Command {
	return &cli.Command{
		Name:  "mcp",
		Usage: "serve the vault to an agent over MCP (stdio)",
		Description: "Speaks the Model Context Protocol on standard input and output, for an MCP client (Claude\n" +
			"Code, Claude Desktop, an IDE) to start. Tools: remember, recall, search, read_note,\n" +
			"write_note, links, list_notes, dream, and the task tools (task_add, task_spawn, task_start,\n" +
			"task_done, task_block, task_event, task_focus, task_tree, task_ready, task_context), whose agent\n" +
			"is the call's agent argument, else --agent (VAULTMEM_AGENT), else the client's name; every\n" +
			"note is also a resource vault:///path. The server\n" +
			"answers at once and indexes the vault in the background (tools and the resource list wait for\n" +
			"that first index, with progress notifications), then runs the vault's watcher (unless `vaultmem watch`\n" +
			"already does), so a note saved in Obsidian is searchable at once; it keeps MEMORY.md current\n" +
			"and runs Dream when its gate opens (dream.auto, every, writes, quiet in the config). Messages go to standard\n" +
			"error; a bad input line is answered with a JSON-RPC error and the server goes on.",
		Flags: []cli.Flag{&cli.StringFlag{Name: "agent", Sources: cli.EnvVars("VAULTMEM_AGENT"),
			Usage: "the `AGENT` id of task tool calls that give none (default: the MCP client's name)"}},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			agent := strings.TrimSpace(cmd.String("agent"))
			if agent != "" {
				if err := task.CheckAgent(agent); err != nil {
					return usagef("--%v", err)
				}
			}
			longRunning()
			s, ix, err := a.openIndexed(ctx, true)
			if err != nil {
				return err
			}
			defer s.Close() // and the index
			w := s.writer()
			logf := func(format string, args ...any) { fmt.Fprintf(a.stderr, "vaultmem mcp: "+format+"\n", args...) }
			startup := mcpserver.NewStartup()
			opts := mcpserver.Options{Vault: s.v, Index: ix, Writer: w,
				Recall: recall.New(ix, s.recallOptions()), Dream: s.dreamer(ix), Version: version, Startup: startup, Agent: agent, LessonRules: s.cfg.Lessons.Rules,
				OnPanic: func(err error) { logf("recovered: %v", err) }}

			// The watcher keeps the index current; if another process
			// watches already, its syncs serve us, and if no watcher can run
			// at all, each read syncs first.
			var srv *mcpserver.Server
			keep := &keeper{store: s.store(ix), logf: logf, gate: s.dreamGate(),
				onDream: func(rep *dream.Report) { logf("dream: %s", rep.Summary()) }}
			if s.cfg.Dream.Auto {
				keep.dreamer = s.dreamer(ix)
			}
			watcher, err := watch.New(s.v, ix, watch.Options{OnBatch: func(b watch.Batch) {
				defer func() { // no note may stop the server
					if r := recover(); r != nil {
						logf("recovered after syncing %v: %v", b.Paths, r)
					}
				}()
				if b.Err != nil {
					logf("sync: %v", b.Err)
				}
				if len(b.Paths) > 0 {
					srv.NotesChanged()
				}
				keep.afterBatch(ctx, b)
			}})
			switch {
			case errors.Is(err, watch.ErrRunning):
				logf("another watcher keeps the index current")
			case err != nil:
				logf("no watcher (%v); syncing before each read", err)
				opts.Sync = func(ctx context.Context) error { _, err := ix.Sync(ctx, s.v.FS(), nil); return err }
			}
			if srv, err = mcpserver.New(opts); err != nil {
				return err
			}
			runCtx, cancel := context.WithCancel(ctx)
			defer cancel()

			// The first sync (a cold index of a large vault takes seconds)
			// runs while the server already answers; then the watcher.
			var background sync.WaitGroup
			background.Go(func() {
				st, err := ix.Sync(runCtx, s.v.FS(), startup.Progress)
				startup.Finish(err)
				switch {
				case runCtx.Err() != nil:
					return
				case err != nil:
					logf("first sync: %v", err)
				case st.ReadOnly != "" && st.Stale > 0:
					logf("the index cannot be updated (%s); %d files changed since it was built", st.ReadOnly, st.Stale)
				}
				srv.NotesChanged() // every note is listed now
				// Load the keyword index and the vectors before the first
				// query needs them; a failure only means that query loads them.
				ix.Warm(runCtx)
				// CLI processes on this machine get their reads answered here.
				stopServing, err := serveQueries(runCtx, s, logf)
				if err != nil {
					logf("%v; CLI commands answer in their own process", err)
				}
				defer stopServing()
				if watcher != nil {
					// Dream runs on its own here, where the watcher sees
					// the edits that must hold it back.
					background.Go(func() { keep.dreamWhenDue(runCtx) })
					watcher.Run(runCtx)
				}
			})
			if watcher != nil {
				defer watcher.Close()
			}
			err = srv.Run(runCtx, mcpserver.NewTransport(a.stdin, a.stdout, mcpserver.TransportOptions{
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
		},
	}
}
