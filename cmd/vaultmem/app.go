package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/vault"
)

// app holds what every command shares: the standard streams and the
// global flags.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	vaultFlag      string
	quiet          bool
	// served is the running server's session when this command is one
	// the server answers (see serve.go); nil otherwise.
	served *session
}

// run builds the command tree and runs it; it never prints the returned
// error (main does).
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) (err error) {
	answered, stdin, err := askServer(ctx, args, stdin, stdout, stderr)
	if answered {
		return err
	}
	if _, _, _, ok := servedCommand(args); ok {
		oneShotQuery()
	}
	return runIn(ctx, args, stdin, stdout, stderr, nil)
}

// runIn runs the command in this process; with served set, a command
// that opens the index uses the running server's (see serve.go).
func runIn(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, served *session) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error (please report it): %v", r)
		}
	}()
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr, served: served}
	root := &cli.Command{
		Name:  "vaultmem",
		Usage: "long-term memory for AI agents, kept in an Obsidian vault",
		Description: "vaultmem reads an Obsidian vault exactly as Obsidian does (notes, frontmatter, [[wikilinks]],\n" +
			"tags) and lets agents remember and recall through it. The vault is found by walking up from\n" +
			"the current folder to one holding .vaultmem/ (like git), or given with --vault.\n\n" +
			"A note that cannot be fully read (frontmatter that does not parse, a binary file) gets a warning\n" +
			"naming its file and line from the first command that reads it after it appears or changes, not\n" +
			"from every command; 'index', 'doctor' and 'watch' (as it starts) list every such warning.\n" +
			"--quiet prints none.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "vault", Usage: "the vault `DIR` (default: the nearest folder at or above the current one holding .vaultmem/)",
				Sources: cli.EnvVars("VAULTMEM_VAULT"), Destination: &a.vaultFlag},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print no warnings (notes that could not be fully read, an index that " +
				"could not be used or updated, a task tree's problems) and no hint that a listing has more", Destination: &a.quiet},
		},
		Commands: []*cli.Command{
			a.initCommand(),
			a.showCommand(),
			a.linksCommand(),
			a.backlinksCommand(),
			a.unresolvedCommand(),
			a.orphansCommand(),
			a.listCommand(),
			a.rememberCommand(),
			a.mergeMemoryIndexCommand(),
			a.mergeNoteCommand(),
			a.mergeCheckpointCommand(),
			a.dreamCommand(),
			a.taskCommand(),
			a.lessonCommand(),
			a.indexCommand(),
			a.searchCommand(),
			a.watchCommand(),
			a.doctorCommand(),
			a.recallCommand(),
			a.evalCommand(),
			a.mcpCommand(),
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

// setUsageError makes every command under cmds, subcommands included,
// report a flag mistake by onUsageError.
func setUsageError(cmds []*cli.Command) {
	for _, c := range cmds {
		c.OnUsageError = onUsageError
		setUsageError(c.Commands)
	}
}

// onUsageError reports a flag mistake as a usage error (exit 2) without
// the library's own message and help page. An argument that only looks
// like a flag ("task add -dash") gets told to come after "--".
func onUsageError(_ context.Context, cmd *cli.Command, err error, _ bool) error {
	if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: "); ok && cmd.ArgsUsage != "" {
		return usagef("%s has no flag %s; an argument that begins with '-' goes after '--': %s -- %s",
			cmd.Name, name, cmd.FullName(), cmd.ArgsUsage)
	}
	return usageError{err}
}

// findVault returns the vault directory: --vault, or the nearest folder at
// or above the working directory that holds .vaultmem/.
func (a *app) findVault() (string, error) {
	if a.vaultFlag != "" {
		dir, err := filepath.Abs(a.vaultFlag)
		if err != nil {
			return "", err
		}
		info, err := os.Stat(dir)
		if err != nil {
			return "", fmt.Errorf("vault %s: %w", a.vaultFlag, errors.Unwrap(err))
		}
		if !info.IsDir() {
			return "", fmt.Errorf("vault %s: not a folder", a.vaultFlag)
		}
		return dir, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if info, err := os.Stat(filepath.Join(dir, vault.DotDir)); err == nil && info.IsDir() {
			return dir, nil
		}
		if filepath.Dir(dir) == dir {
			return "", fmt.Errorf("no vault here: no .vaultmem folder in %s or any folder above it; run 'vaultmem init' in the vault or pass --vault DIR", wd)
		}
	}
}

// session is an opened vault (one os.Root, through which every file access
// goes), its config and, once opened, its index.
type session struct {
	v      *vault.Vault
	cfg    config
	stderr io.Writer
	ix     *index.Index
	// shared is set for the running server's session lent to a command it
	// answers: closing it closes nothing. lessonStore is the server's
	// lesson store, kept between the commands it answers (its hot cache).
	shared      bool
	lessonStore *lessonCache
}

// writer returns the vault's Writer: notes up to max_note_size, and a
// word on stderr when a write waits for another process's lock.
func (s *session) writer() *vault.Writer {
	return vault.NewWriter(s.v, vault.WriterOptions{MaxNoteSize: s.cfg.MaxNoteSize, LockWait: func(holder string) {
		who := "another vaultmem process"
		if holder != "" {
			who += " (pid " + holder + ")"
		}
		fmt.Fprintf(s.stderr, "vaultmem: waiting for the vault lock %s, held by %s\n", s.v.Abs(vault.LockFile), who)
	}})
}

// store returns the vault's memory store over ix.
func (s *session) store(ix *index.Index) *memory.Store {
	return memory.NewStore(s.writer(), ix, memory.StoreOptions{Folder: s.cfg.Folders.Memory})
}

func (a *app) open() (*session, error) {
	dir, err := a.findVault()
	if err != nil {
		return nil, err
	}
	cfg, err := loadConfig(dir)
	if err != nil {
		return nil, err
	}
	v, err := vault.Open(dir, vault.Folders{Memory: cfg.Folders.Memory, Tasks: cfg.Folders.Tasks, Lessons: cfg.Folders.Lessons})
	if err != nil {
		return nil, err
	}
	return &session{v: v, cfg: cfg, stderr: a.stderr}, nil
}

// Close closes the index, if opened, and the vault; nothing for a shared
// session.
func (s *session) Close() error {
	if s.shared {
		return nil
	}
	if s.ix != nil {
		s.ix.Close()
	}
	return s.v.Close()
}

// withIndex wraps a read command's action: the vault's index, brought up
// to date first as search and recall do but for the vectors, which these
// commands do not use (not at all while a watcher keeps it current). Every
// read command answers from it, as the MCP server does.
func (a *app) withIndex(fn func(ctx context.Context, cmd *cli.Command, s *session, ix *index.Index) error) cli.ActionFunc {
	return func(ctx context.Context, cmd *cli.Command) error {
		s, ix, err := a.openIndexed(ctx, false)
		if err != nil {
			return err
		}
		defer s.Close() // and the index
		if _, err := a.syncText(ctx, s, ix); err != nil {
			return err
		}
		if err := a.requireBuilt(ctx, ix); err != nil {
			return err
		}
		return fn(ctx, cmd, s, ix)
	}
}

// warn prints on stderr, unless --quiet, what a sync found among the
// files it read because they were new or had changed (st.Read): those it
// could not index and the problems in the notes it did, each naming the
// file (and line). A note's warnings so show once per change of it, not
// at every command; 'index', 'doctor' and 'watch' list them all.
func (a *app) warn(st index.Stats) {
	read := make(map[string]bool, len(st.Read))
	for _, p := range st.Read {
		read[p] = true
	}
	a.printFindings(a.stderr, st.Skipped, st.Warnings, read)
}

// printFindings prints, unless --quiet, the files that could not be
// indexed and the problems in the notes that were, each naming the file
// (and line): all of them when only is nil, else those of the files in
// only.
func (a *app) printFindings(w io.Writer, skipped, warnings []index.Skip, only map[string]bool) {
	if a.quiet {
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

// printJSON writes v as indented JSON.
func (a *app) printJSON(v any) error {
	enc := json.NewEncoder(a.stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// printLine prints v as one line of JSON (a stream of events).
func (a *app) printLine(v any) error {
	enc := json.NewEncoder(a.stdout)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// jsonFlag is a new --json flag (one per command tree: a flag holds its
// parsed value, and a server runs several trees at once).
func jsonFlag() cli.Flag {
	return &cli.BoolFlag{Name: "json", Usage: "print JSON for scripts and agents"}
}

// pageFlags adds --limit and --offset to a listing command's flags.
func pageFlags(flags ...cli.Flag) []cli.Flag {
	return append(flags,
		&cli.IntFlag{Name: "limit", Value: index.MaxLimit, Usage: fmt.Sprintf("at most `N` items, up to %d", index.MaxLimit)},
		&cli.IntFlag{Name: "offset", HideDefault: true, Usage: "skip the first `K` items (the next page)"})
}

// paginate returns the page of items --limit and --offset ask for.
func paginate[T any](cmd *cli.Command, items []T) ([]T, index.PageInfo, error) {
	limit := int(cmd.Int("limit"))
	if limit < 1 {
		return nil, index.PageInfo{}, usagef("--limit must be from 1 to %d", index.MaxLimit)
	}
	page, info, err := index.Paginate(items, index.Page{Offset: int(cmd.Int("offset")), Limit: limit})
	if err != nil {
		return nil, info, usageError{err}
	}
	return nonNil(page), info, nil
}

// withPage adds a page's place in its list to a JSON answer: total, more
// and next_offset (when there is a next page).
func withPage(out map[string]any, info index.PageInfo) map[string]any {
	out["total"], out["more"] = info.Total, info.More
	if info.More > 0 {
		out["next_offset"] = info.NextOffset
	}
	return out
}

// printMore says on stderr how to see the rest of a listing.
func (a *app) printMore(info index.PageInfo) {
	if info.More > 0 && !a.quiet {
		fmt.Fprintf(a.stderr, "%d more: --offset %d\n", info.More, info.NextOffset)
	}
}

// noArgs rejects stray arguments.
func noArgs(cmd *cli.Command) error {
	if cmd.Args().Len() > 0 {
		return usagef("%s takes no arguments, got %q", cmd.Name, cmd.Args().First())
	}
	return nil
}

// oneArg returns the single required argument.
func oneArg(cmd *cli.Command, what string) (string, error) {
	switch cmd.Args().Len() {
	case 0:
		return "", usagef("%s needs %s", cmd.Name, what)
	case 1:
		return cmd.Args().First(), nil
	}
	return "", usagef("%s takes one %s, got %d arguments", cmd.Name, what, cmd.Args().Len())
}
