package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/app"
)

func rememberCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name:      "remember",
		Usage:     "write a memory note (user, feedback, project or reference)",
		ArgsUsage: "[BODY...]",
		Description: "Writes <memory folder>/<safe name>.md in the format of Claude Code's memory files:\n" +
			"frontmatter name, description and type, then the body: the arguments, or else standard input\n" +
			"(read when it is piped, or with --stdin); an empty body is refused. Prints the note's path.\n" +
			"A different memory already stored under the same name is not replaced unless --update is\n" +
			"given; --update keeps the note's other frontmatter keys as they are, and with\n" +
			"--expected-hash HASH (from `show --json`) refuses, exit 3, when the note changed since.",
		Flags: []cli.Flag{
			jsonFlag(),
			&cli.StringFlag{Name: "type", Required: true, Usage: "the memory's `TYPE`: user, feedback, project or reference"},
			&cli.StringFlag{Name: "name", Required: true, Usage: "a short `NAME` for the memory (also its file name)"},
			&cli.StringFlag{Name: "description", Required: true, Usage: "a one-line `DESCRIPTION`: what the memory is, to judge its relevance later"},
			&cli.BoolFlag{Name: "stdin", Usage: "read the body from standard input (the default when it is piped and no BODY is given)"},
			&cli.BoolFlag{Name: "update", Usage: "replace an existing memory of the same name"},
			&cli.StringFlag{Name: "expected-hash", Usage: "with --update: refuse (exit 3) if the memory's hash is no longer `HASH`"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			m := app.Memory{
				Type:        app.MemoryType(strings.ToLower(strings.TrimSpace(cmd.String("type")))),
				Name:        strings.TrimSpace(cmd.String("name")),
				Description: strings.TrimSpace(cmd.String("description")),
			}
			var err error
			if m.Body, err = sh.textInput(cmd, "body"); err != nil {
				return err
			}
			if err := m.Validate(); err != nil {
				return flagError(err)
			}
			if cmd.String("expected-hash") != "" && !cmd.Bool("update") {
				return usagef("--expected-hash goes with --update")
			}
			a, err := sh.open(ctx, app.Options{})
			if err != nil {
				return err
			}
			defer a.Close()
			res, err := a.Remember(ctx, m, app.MemoryOptions{Update: cmd.Bool("update"), ExpectedHash: cmd.String("expected-hash")})
			var taken *app.MemoryTakenError
			switch {
			case errors.Is(err, app.ErrMemoryInvalid):
				return flagError(err)
			case errors.As(err, &taken) && !taken.Other:
				return codedError{fmt.Errorf("%s already holds a different memory named %q; pass --update to replace it", taken.Path, taken.Name), exitConflict}
			case errors.As(err, &taken):
				return codedError{taken, exitConflict}
			case err != nil:
				return err
			}
			if cmd.Bool("json") {
				return sh.printJSON(res)
			}
			fmt.Fprintln(sh.stdout, res.Path)
			if res.ListError != "" {
				sh.warnf("the memory is written, but %s is not: %s", app.MemoryListFile, res.ListError)
			}
			return nil
		},
	}
}

// isTerminal reports whether r is a terminal (a human typing), as
// opposed to a pipe or a file.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// flagError turns an invalid-memory error into a usage error naming the
// flag at fault.
func flagError(err error) error {
	var ie *app.MemoryInvalidError
	switch {
	case errors.As(err, &ie) && ie.Field == "body":
		return usagef("remember needs a BODY: give it as arguments or on standard input")
	case errors.As(err, &ie):
		return usagef("--%s %s", ie.Field, ie.Reason)
	}
	return err
}
