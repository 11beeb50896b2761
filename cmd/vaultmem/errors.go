package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/app"
)

// Exit codes.
const (
	exitOK       = 0
	exitError    = 1
	exitUsage    = 2
	exitConflict = 3 // also: busy, the vault lock held past the wait (app.ErrLockTimeout)
	exitCanceled = 130
)

// usageError is a mistake in how the command was called.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// codedError carries a specific exit code.
type codedError struct {
	err  error
	code int
}

func (e codedError) Error() string { return e.err.Error() }
func (e codedError) Unwrap() error { return e.err }

// report prints err as one line on stderr and returns the exit code.
func report(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	code := exitError
	var ue usageError
	var ce codedError
	switch {
	case errors.As(err, &ue):
		code = exitUsage
	case errors.As(err, &ce):
		code = ce.code
	case errors.Is(err, app.ErrLockTimeout):
		code = exitConflict
	case app.ClassOf(err) == app.Canceled:
		code = exitCanceled
	case app.ClassOf(err) == app.Conflict:
		code = exitConflict
	case app.ClassOf(err) == app.Invalid:
		code = exitUsage
	}
	msg := strings.ReplaceAll(strings.TrimSpace(err.Error()), "\n", "; ")
	if code == exitCanceled {
		msg = "interrupted"
	}
	fmt.Fprintf(stderr, "vaultmem: %s\n", msg)
	if app.ClassOf(err) == app.NotFound {
		// The CLI's own hint: the domain's error says what, not which
		// command shows more.
		fmt.Fprintln(stderr, "'vaultmem list' shows the notes, by vault path.")
	}
	if code == exitUsage {
		fmt.Fprintln(stderr, "Run 'vaultmem --help' for usage.")
	}
	return code
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
