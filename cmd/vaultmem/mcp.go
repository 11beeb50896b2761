package main

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/mcpserver"
	"github.com/vaultmem/vaultmem/recall"
	"github.com/vaultmem/vaultmem/vault"
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
			"write_note, links, list_notes; every note is also a resource vault:///path. The server\n" +
			"runs the vault's watcher (unless `vaultmem watch` already does), so a note saved in Obsidian\n" +
			"is searchable at once. Messages go to standard error.",
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			s, ix, err := a.openIndexed(ctx, true)
			if err != nil {
				return err
			}
			defer s.Close()
			defer ix.Close()
			w, err := vault.NewWriter(s.dir)
			if err != nil {
				return err
			}
			opts := mcpserver.Options{Dir: s.dir, MemoryFolder: s.cfg.Folders.Memory, Index: ix, Writer: w,
				Recall: recall.New(ix, s.recallOptions()), Version: version}

			// The watcher keeps the index current; if another process
			// watches already, its syncs serve us, and if no watcher can run
			// at all, each read syncs first.
			var srv *mcpserver.Server
			var ready sync.WaitGroup
			ready.Add(1)
			watcher, err := watch.New(s.dir, ix, watch.Options{OnBatch: func(b watch.Batch) {
				ready.Wait()
				srv.RefreshResources(ctx, b.Paths)
			}})
			switch {
			case errors.Is(err, watch.ErrRunning):
				fmt.Fprintln(a.stderr, "vaultmem mcp: another watcher keeps the index current")
			case err != nil:
				fmt.Fprintf(a.stderr, "vaultmem mcp: no watcher (%v); syncing before each read\n", err)
				opts.Sync = func(ctx context.Context) error { _, err := ix.Sync(ctx, s.root.FS(), nil); return err }
			}
			if _, err := ix.Sync(ctx, s.root.FS(), nil); err != nil {
				return err
			}
			// Load the keyword index and the vectors while the client
			// starts up; a failure only means the first query loads them.
			go ix.Warm(ctx)
			srv, err = mcpserver.New(opts)
			ready.Done()
			if err != nil {
				return err
			}
			defer srv.Close()
			runCtx, cancel := context.WithCancel(ctx)
			defer cancel()
			var watching sync.WaitGroup
			if watcher != nil {
				defer watcher.Close()
				watching.Go(func() { watcher.Run(runCtx) })
			}
			err = srv.Run(runCtx, &mcp.StdioTransport{})
			cancel()
			watching.Wait()
			if errors.Is(err, context.Canceled) {
				return nil
			}
			return err
		},
	}
}
