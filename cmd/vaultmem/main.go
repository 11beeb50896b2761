// Command vaultmem is the command-line interface of vaultmem, a long-term
// memory for AI agents kept in an Obsidian vault. Run `vaultmem --help`.
// A front end over package app: it imports no vaultmem package but app,
// agenthook, setup and mcpserver (.ci/run checks it).
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		// After the first signal the command winds down (exit 130); a
		// second one ends the process at once.
		<-ctx.Done()
		stop()
	}()
	err := run(ctx, os.Args, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(report(err, os.Stderr))
}
