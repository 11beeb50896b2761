package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/vaultmem/vaultmem/vault"
)

// Exit codes.
const (
	exitOK       = 0
	exitError    = 1
	exitUsage    = 2
	exitConflict = 3
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
	var served servedExit
	if errors.As(err, &served) {
		return int(served) // a server answered, and its output is printed
	}
	code := exitError
	var ue usageError
	var ce codedError
	switch {
	case errors.Is(err, context.Canceled):
		code = exitCanceled
	case errors.As(err, &ue):
		code = exitUsage
	case errors.As(err, &ce):
		code = ce.code
	case errors.Is(err, vault.ErrConflict), errors.Is(err, vault.ErrExists):
		code = exitConflict
	}
	msg := strings.ReplaceAll(strings.TrimSpace(err.Error()), "\n", "; ")
	if code == exitCanceled {
		msg = "interrupted"
	}
	fmt.Fprintf(stderr, "vaultmem: %s\n", msg)
	if code == exitUsage {
		fmt.Fprintln(stderr, "Run 'vaultmem --help' for usage.")
	}
	return code
}
