package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/app"
)

// shell is what every command shares: the standard streams and the global
// flags. A command parses its flags into a request, makes one call of
// package app, and prints the result.
type shell struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	vaultFlag      string
	quiet          bool
	// consentTold is set once the command told what of the vault's
	// config it ignores (see tellConsent).
	consentTold bool
}

// run builds the command tree and runs it; it never prints the returned
// error (main does).
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error (please report it): %v", r)
		}
	}()
	sh := &shell{stdin: stdin, stdout: stdout, stderr: stderr}
	root := &cli.Command{
		Name:  "vaultmem",
		Usage: "long-term memory for AI agents, kept in an Obsidian vault",
		// --version (-v): the module version and the commit built from.
		Version: buildVersion(),
		Description: "vaultmem reads an Obsidian vault exactly as Obsidian does (notes, frontmatter, [[wikilinks]],\n" +
			"tags) and lets agents remember and recall through it. The vault is found by walking up from\n" +
			"the current folder to one holding .vaultmem/ (like git), or given with --vault.\n" +
			"Warnings about notes that could not be fully read (bad frontmatter, files skipped) are printed\n" +
			"once per change of the note, by whichever command reads it first; 'vaultmem doctor' lists them\n" +
			"all. --quiet prints none.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "vault", Usage: "the vault `DIR` (default: the nearest folder at or above the current one holding .vaultmem/)",
				Sources: cli.EnvVars("VAULTMEM_VAULT"), Destination: &sh.vaultFlag},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print no warnings about notes that could not be fully read", Destination: &sh.quiet},
		},
		Commands: []*cli.Command{
			initCommand(sh), showCommand(sh), linksCommand(sh), backlinksCommand(sh), unresolvedCommand(sh),
			orphansCommand(sh), listCommand(sh), rememberCommand(sh), mergeListCommand(sh), mergeNoteCommand(sh),
			mergeCheckpointCommand(sh), mergeCanvasCommand(sh), dreamCommand(sh), taskCommand(sh), lessonCommand(sh), indexCommand(sh),
			searchCommand(sh), watchCommand(sh), doctorCommand(sh), recallCommand(sh), evalCommand(sh), mcpCommand(sh),
			setupCommand(sh), hookCommand(sh), allowCommand(sh), trustCommand(sh),
		},
		Writer:          stdout,
		ErrWriter:       stderr,
		HideHelpCommand: true,
		Suggest:         true,
		ExitErrHandler:  func(context.Context, *cli.Command, error) {},
		OnUsageError:    onUsageError,
		CommandNotFound: func(_ context.Context, _ *cli.Command, name string) {
			err = usagef("no command %q", name)
		},
	}
	setUsageError(root.Commands)
	if runErr := root.Run(ctx, args); runErr != nil {
		return runErr
	}
	return err
}

// setUsageError reports flag mistakes of every command, subcommands
// included, as usage errors (exit 2) without the library's own message.
func setUsageError(cmds []*cli.Command) {
	for _, c := range cmds {
		c.OnUsageError = onUsageError
		setUsageError(c.Commands)
	}
}

// vaultDir is the vault the command runs on (see app.Find; a relative
// --vault, see vaultPath).
func (sh *shell) vaultDir() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	return app.Find(wd, vaultPath(sh.vaultFlag, wd))
}

// open opens the vault with the CLI's callbacks: a word on stderr when a
// write waits for another process's lock, a progress bar on a terminal
// during a long sync, warnings of what a sync read and of what the user
// should know. The caller closes it.
func (sh *shell) open(ctx context.Context, o app.Options) (*app.App, error) {
	dir, err := sh.vaultDir()
	if err != nil {
		return nil, err
	}
	return sh.openDir(ctx, dir, o)
}

func (sh *shell) openDir(ctx context.Context, dir string, o app.Options) (*app.App, error) {
	bar := newProgress(sh.stderr, "indexing")
	o.LockWait = func(holder string) {
		who := "another vaultmem process"
		if holder != "" {
			who += " (pid " + holder + ")"
		}
		fmt.Fprintf(sh.stderr, "vaultmem: waiting for the vault lock %s, held by %s\n", filepath.Join(dir, filepath.FromSlash(app.LockFile)), who)
	}
	o.Progress = bar.update
	o.HeavyWork = boundHeap
	o.Notify = func(msg string) {
		bar.done()
		sh.warnf("%s", msg)
	}
	o.OnSync = func(st app.SyncStats) {
		bar.done()
		sh.warn(st)
	}
	a, err := app.Open(ctx, dir, o)
	if err == nil {
		sh.tellConsent(a.Consent, "vaultmem")
	}
	return a, err
}

// tellConsent says on stderr, once per command (--quiet or not: it is the
// user's secrets and notes), what of the vault's config is ignored for
// want of the user's consent and how to give it, each line after prefix.
// Never on stdout, where an agent reads answers.
func (sh *shell) tellConsent(c app.Consent, prefix string) {
	if sh.consentTold {
		return
	}
	sh.consentTold = true
	for _, n := range c.Notices() {
		fmt.Fprintf(sh.stderr, "%s: %s\n", prefix, n)
	}
}

// warnf prints a warning on stderr, unless --quiet.
func (sh *shell) warnf(format string, args ...any) {
	if !sh.quiet {
		fmt.Fprintf(sh.stderr, "warning: "+format+"\n", args...)
	}
}

// warn prints, unless --quiet, what a sync found among the files it read
// because they were new or had changed (st.Read): those it could not index
// and the problems in the notes it did, each naming the file (and line). A
// note's warnings so show once per change of it, not at every command;
// 'index', 'doctor' and 'watch' list them all.
func (sh *shell) warn(st app.SyncStats) {
	read := make(map[string]bool, len(st.Read))
	for _, p := range st.Read {
		read[p] = true
	}
	sh.printFindings(sh.stderr, st.Skipped, st.Warnings, read)
}

// printFindings prints, unless --quiet, the files that could not be
// indexed and the problems in the notes that were, each naming the file
// (and line): all of them when only is nil, else those of the files in
// only.
func (sh *shell) printFindings(w io.Writer, skipped, warnings []app.SyncSkip, only map[string]bool) {
	if sh.quiet {
		return
	}
	for _, sk := range skipped {
		if only == nil || only[sk.Path] {
			fmt.Fprintf(w, "warning: skipped %s: %s\n", sk.Path, sk.Error)
		}
	}
	for _, wn := range warnings {
		if only == nil || only[wn.Path] {
			fmt.Fprintf(w, "warning: %s\n", wn.Error)
		}
	}
}

// withApp wraps a command's action: the vault opened (its index too),
// closed after.
func (sh *shell) withApp(fn func(ctx context.Context, cmd *cli.Command, a *app.App) error) cli.ActionFunc {
	return func(ctx context.Context, cmd *cli.Command) error {
		a, err := sh.open(ctx, app.Options{})
		if err != nil {
			return err
		}
		defer a.Close()
		return fn(ctx, cmd, a)
	}
}

// withFresh is withApp for a command that reads the index: brought up to
// date first (see app.App.Sync), and refused when no sync ever filled it.
func (sh *shell) withFresh(fn func(ctx context.Context, cmd *cli.Command, a *app.App) error) cli.ActionFunc {
	return sh.withApp(func(ctx context.Context, cmd *cli.Command, a *app.App) error {
		st, err := a.Sync(ctx, app.SyncOptions{})
		if err != nil {
			return err
		}
		sh.warn(st)
		if err := a.RequireBuilt(ctx); err != nil {
			return err
		}
		return fn(ctx, cmd, a)
	})
}

// Environment of the CLI's use of a running server: serverEnv is "" (ask
// one when it runs), "off" (never) or "require" (fail when none answers:
// to check that one does); serverWaitEnv a Go duration, how long to wait
// for its answer.
const (
	serverEnv     = "VAULTMEM_SERVER"
	serverWaitEnv = "VAULTMEM_SERVER_WAIT"
)

// query answers op with req: through the vault's running server (watch,
// mcp) when one answers within firstByte (0: app.DefaultFirstByte), else
// in this process by the use case the op runs.
func query[Req, Res any](ctx context.Context, sh *shell, op app.Op[Req, Res], req Req, firstByte time.Duration) (Res, error) {
	var res Res
	dir, err := sh.vaultDir()
	if err != nil {
		return res, err
	}
	mode := os.Getenv(serverEnv)
	if mode != "off" {
		// The server says it on its own stderr; this command says it too.
		// A bad config is left for the server's answer or Open to report.
		if _, c, err := app.LoadConfigConsent(dir); err == nil {
			sh.tellConsent(c, "vaultmem")
		}
		o := app.AskOptions{FirstByte: firstByte, Notify: func(msg string) { fmt.Fprintf(sh.stderr, "vaultmem: %s\n", msg) }}
		if d, err := time.ParseDuration(os.Getenv(serverWaitEnv)); err == nil && d > 0 {
			o.Wait = d
		}
		if mode == "require" {
			o.FirstByte = o.Wait // to check that a server answers: it may take its time
		}
		res, answered, err := app.Ask(ctx, dir, op, req, o)
		if answered {
			return res, err
		}
		if mode == "require" {
			return res, fmt.Errorf("%s=require, but no vaultmem server answered (run 'vaultmem watch' or 'vaultmem mcp' for this vault)", serverEnv)
		}
	}
	oneShotQuery()
	a, err := sh.openDir(ctx, dir, app.Options{})
	if err != nil {
		return res, err
	}
	defer a.Close()
	return op.Run(a, ctx, req)
}

// printJSON writes v as indented JSON.
func (sh *shell) printJSON(v any) error {
	enc := json.NewEncoder(sh.stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// printLine prints v as one line of JSON (a stream of events).
func (sh *shell) printLine(v any) error {
	enc := json.NewEncoder(sh.stdout)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// out prints a command's result: v as JSON with --json, else line.
func (sh *shell) out(cmd *cli.Command, v any, line string) error {
	if cmd.Bool("json") {
		return sh.printJSON(v)
	}
	fmt.Fprintln(sh.stdout, line)
	return nil
}

// jsonFlag is a new --json flag.
func jsonFlag() cli.Flag {
	return &cli.BoolFlag{Name: "json", Usage: "print JSON for scripts and agents"}
}
